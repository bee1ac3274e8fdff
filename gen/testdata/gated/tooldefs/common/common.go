// Package common is imported by a gated tool and an ungated one, so it is
// banned nowhere.
package common

// Label prefixes a name.
func Label(name string) string { return "tool " + name }
