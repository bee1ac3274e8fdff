package classify

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// Commands is the parse every analysis of this package reads, exported
// for the differential spec.
func Commands(cmd string) (*syntax.File, []shellsyntax.SimpleCommand, error) {
	c := shellsyntax.ParseCommand(cmd)
	return c.File, c.Cmds, c.Err
}

// Allowlisted reports whether name is one of the read-only programs, for
// the fuzz property that nothing else is ever read-only.
func Allowlisted(name string) bool { _, ok := allowlist()[name]; return ok }
