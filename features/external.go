//go:build !internal && !ant

package features

// Variant names the build variant this binary was compiled as.
const Variant = "external"
