//go:build ant

package tooldefs

// AlwaysNote ends Always's description: each variant compiles its own.
const AlwaysNote = "ALWAYS-NOTE-ant."
