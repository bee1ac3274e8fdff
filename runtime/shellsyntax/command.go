package shellsyntax

import (
	"sync/atomic"

	"mvdan.cc/sh/v3/syntax"
)

// Command is one command line parsed once: the source, its syntax tree and
// its simple commands. One call's analyses (read-only classification,
// interrupt behaviour, the permission engine's shell analysis, the Bash
// tool's exit-status reading and rendering) all read the same Command, so
// a line is parsed once per call. A Command is not changed after
// ParseCommand returns it and is safe for concurrent readers.
type Command struct {
	// Source is the command line as given.
	Source string
	// File is the syntax tree; nil when Err is set.
	File *syntax.File
	// Err is the parse error: a syntax error, or a *TooLongError.
	Err error
	// Cmds are the simple commands of File (SimpleCommands).
	Cmds []SimpleCommand
}

// ParseCommand parses src once (Parse) and lists its simple commands.
func ParseCommand(src string) *Command {
	c := &Command{Source: src}
	c.File, c.Err = Parse(src)
	if c.Err == nil {
		c.Cmds = SimpleCommands(c.File)
	}
	return c
}

// parseHook is the function OnParse installed, or nil.
var parseHook atomic.Pointer[func(src string)]

// OnParse makes f see the source of every Parse from now on (including
// Parse of nested lines, such as bash -c's argument), until restore is
// called. It is a test hook: specs count how often a call's command is
// parsed. f may be called from several goroutines at once.
func OnParse(f func(src string)) (restore func()) {
	old := parseHook.Swap(&f)
	return func() { parseHook.Store(old) }
}

func noteParse(src string) {
	if f := parseHook.Load(); f != nil {
		(*f)(src)
	}
}
