package classify

// Commands is the parse every analysis of this package reads, exported
// for the differential spec.
var Commands = commands

// Allowlisted reports whether name is one of the read-only programs, for
// the fuzz property that nothing else is ever read-only.
func Allowlisted(name string) bool { _, ok := allowlist[name]; return ok }
