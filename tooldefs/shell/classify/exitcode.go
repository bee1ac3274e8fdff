package classify

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// exitMeanings are the programs whose exit status 1 is an answer, not a
// failure, with what it means (Claude Code's command semantics).
var exitMeanings = map[string]string{
	"grep":  "No matches found",
	"egrep": "No matches found",
	"fgrep": "No matches found",
	"rg":    "No matches found",
	"find":  "Some directories were inaccessible",
	"diff":  "Files differ",
	"test":  "Condition is false",
	"[":     "Condition is false",
}

// ExitMeaning interprets a command's exit status: for grep, rg, find, diff,
// test and [ (as the command that decides the status, i.e. the last one of
// the last pipeline or list), status 1 is not an error and message says
// what it means; otherwise any non-zero status is an error. A command that
// does not parse gets the default interpretation.
func ExitMeaning(cmd string, code int) (isError bool, message string) {
	if code == 0 {
		return false, ""
	}
	return ExitMeaningParsed(shellsyntax.ParseCommand(cmd), code)
}

// ExitMeaningParsed is ExitMeaning of a command parsed already.
func ExitMeaningParsed(c *shellsyntax.Command, code int) (isError bool, message string) {
	if code == 0 {
		return false, ""
	}
	if code == 1 {
		if m, ok := exitMeanings[lastProgram(c)]; ok {
			return false, m
		}
	}
	return true, ""
}

// lastProgram is the base name of the program whose status is the
// command's: the last simple command of the last statement, following
// pipelines and && / || lists to their right-hand side.
func lastProgram(c *shellsyntax.Command) string {
	if c.Err != nil || len(c.File.Stmts) == 0 {
		return ""
	}
	st := c.File.Stmts[len(c.File.Stmts)-1]
	for {
		if st.Negated || st.Background {
			return ""
		}
		switch c := st.Cmd.(type) {
		case *syntax.BinaryCmd:
			st = c.Y
		case *syntax.CallExpr:
			if len(c.Args) == 0 {
				return ""
			}
			name := shellsyntax.EvalWord(c.Args[0])
			if !name.Static {
				return ""
			}
			return name.Value[strings.LastIndexByte(name.Value, '/')+1:]
		default:
			return ""
		}
	}
}
