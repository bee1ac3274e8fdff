package classify

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// Verdict is the read-only analysis of one command.
type Verdict struct {
	// ReadOnly is true when the command only reads.
	ReadOnly bool
	// Reason says why the command is not read-only ("" when it is).
	Reason string
}

// IsReadOnly reports whether cmd only reads: every simple command is an
// allowlisted read-only program used without its writing options, there is
// no redirection to a file (>/dev/null and fd duplication such as 2>&1 are
// fine), no command or process substitution, no arithmetic evaluation, no
// function definition, background job or environment-changing assignment.
// Anything else, and anything that fails to parse, is not read-only.
func IsReadOnly(cmd string) bool { return Classify(cmd).ReadOnly }

// Classify is IsReadOnly with the reason for a negative answer.
func Classify(cmd string) Verdict {
	if strings.TrimSpace(cmd) == "" {
		return Verdict{Reason: "empty command"}
	}
	return ClassifyParsed(shellsyntax.ParseCommand(cmd))
}

// ClassifyParsed is Classify of a command parsed already.
func ClassifyParsed(c *shellsyntax.Command) Verdict {
	if strings.TrimSpace(c.Source) == "" {
		return Verdict{Reason: "empty command"}
	}
	if c.Err != nil {
		return Verdict{Reason: "does not parse: " + c.Err.Error()}
	}
	if reason := checkTree(c.File); reason != "" {
		return Verdict{Reason: reason}
	}
	calls := 0
	for _, sc := range c.Cmds {
		calls++
		if reason := checkSimple(sc); reason != "" {
			return Verdict{Reason: reason}
		}
	}
	if calls == 0 {
		return Verdict{Reason: "no command to run"}
	}
	return Verdict{ReadOnly: true}
}

// checkTree rejects constructs that can write or run arbitrary code whatever
// the programs are; it returns the reason, or "".
func checkTree(f *syntax.File) string {
	var reason string
	fail := func(format string, args ...any) bool {
		if reason == "" {
			reason = fmt.Sprintf(format, args...)
		}
		return false
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if reason != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Background || n.Coprocess || n.Disown {
				return fail("runs a job in the background")
			}
			for _, r := range n.Redirs {
				if why := checkRedirect(r); why != "" {
					return fail("%s", why)
				}
			}
		case *syntax.CmdSubst:
			return fail("uses command substitution")
		case *syntax.ProcSubst:
			return fail("uses process substitution")
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
			// Arithmetic evaluates array subscripts in variable values, which
			// can run command substitutions hidden in a plain string.
			return fail("evaluates arithmetic")
		case *syntax.ParamExp:
			if !simpleParam(n) {
				return fail("uses a parameter expansion beyond $name")
			}
		case *syntax.FuncDecl:
			return fail("defines a function")
		case *syntax.DeclClause:
			return fail("uses %s", n.Variant.Value)
		case *syntax.CoprocClause:
			return fail("starts a coprocess")
		case *syntax.TestDecl:
			return fail("declares a test")
		case *syntax.TestClause:
			if why := checkTest(n.X); why != "" {
				return fail("%s", why)
			}
		case *syntax.WordIter:
			if !harmlessVar(n.Name.Value) {
				return fail("loops over a variable that can change what programs do (%s)", n.Name.Value)
			}
		}
		return true
	})
	return reason
}

// simpleParam reports a plain $name or ${name} expansion: no defaults that
// assign, no subscripts or slices (which evaluate arithmetic), no
// indirection.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && p.Flags == nil && !p.Excl && !p.Width && !p.IsSet &&
		p.NestedParam == nil && p.Index == nil && len(p.Modifiers) == 0 &&
		p.Slice == nil && p.Repl == nil && p.Names == 0 && p.Exp == nil
}

// checkTest rejects [[ ]] operators that evaluate arithmetic (-eq…) or
// array subscripts (-v).
func checkTest(x syntax.TestExpr) string {
	var reason string
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryTest:
			switch n.Op {
			case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
				reason = "compares numbers in [[ ]] (arithmetic evaluation)"
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsVarSet || n.Op == syntax.TsRefVar {
				reason = "tests a variable with -v in [[ ]]"
			}
		}
		return reason == ""
	})
	return reason
}

// checkRedirect allows input redirections, here-documents, fd duplication
// and output to /dev/null; it returns why anything else writes.
func checkRedirect(r *syntax.Redirect) string {
	if r.N != nil && !shellsyntax.IsFD(r.N.Value) {
		return "allocates a file descriptor into a variable"
	}
	target := shellsyntax.EvalWord(r.Word)
	switch r.Op {
	case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return ""
	case syntax.DplIn, syntax.DplOut:
		if shellsyntax.DupFD(r) || target.Static && isNullDevice(target.Value) {
			return ""
		}
		return "redirects output to a file"
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		if target.Static && isNullDevice(target.Value) {
			return ""
		}
		return "redirects output to a file"
	default:
		return fmt.Sprintf("uses the %s redirection", r.Op)
	}
}

func isNullDevice(s string) bool {
	return s == "/dev/null" || s == "/dev/stdout" || s == "/dev/stderr"
}

// checkSimple checks one simple command against the allowlist.
func checkSimple(sc shellsyntax.SimpleCommand) string {
	if len(sc.Args) == 0 {
		// A bare assignment only sets a shell variable of this one run; it
		// matters when the name is one the shell or a program reads from the
		// environment, which by convention is upper case.
		for _, a := range sc.Assigns {
			if a.Name == "" || a.Indexed || !harmlessVar(a.Name) {
				return "assigns a variable that can change what programs do"
			}
		}
		return ""
	}
	if len(sc.Assigns) > 0 {
		return "sets environment variables for " + sc.Name()
	}
	name := sc.Args[0]
	if !name.Static {
		return "runs a program whose name is only known at run time"
	}
	if strings.Contains(name.Value, "/") {
		return "runs a program by path (" + name.Value + ")"
	}
	check, ok := allowlist()[name.Value]
	if !ok {
		return name.Value + " is not a known read-only program"
	}
	return check(sc.Args[1:])
}

// harmlessVar reports a variable name that no shell or program reads from
// the environment by convention: one with a lower-case letter.
func harmlessVar(name string) bool {
	if strings.ToUpper(name) == name {
		return false
	}
	return !strings.HasPrefix(name, "BASH") && !strings.HasPrefix(name, "LD_")
}
