// Package features holds the compile-time build variant of the binary.
//
// Exactly one of the files in this package is compiled, chosen by build tag:
// external (the default, no tag or -tags external), internal (-tags internal)
// and ant (-tags ant). The tag names are the product's; no other tag gates a
// tool. Combining external with internal or ant fails to compile.
package features
