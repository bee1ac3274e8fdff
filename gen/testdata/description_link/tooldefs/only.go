//go:build !ant

package tooldefs

// Only is declared for the external and internal variants alone.
const Only = "not in ant"
