package shellsyntax

import (
	"fmt"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// MaxCommandLen bounds the command lines Parse reads, in bytes; a longer
// line is not analysed at all.
const MaxCommandLen = 64 << 10

// TooLongError is the error Parse returns for a line longer than
// MaxCommandLen.
type TooLongError struct {
	// Len is the line's length in bytes.
	Len int
}

// Error says how long the line is and what is analysed.
func (e *TooLongError) Error() string {
	return fmt.Sprintf("command is %d bytes, longer than the %d analysed; split it into shorter commands", e.Len, MaxCommandLen)
}

// Parse parses cmd as a bash program. A syntax error says where the
// syntax is wrong (line:column); a line longer than MaxCommandLen gives a
// *TooLongError.
func Parse(cmd string) (*syntax.File, error) {
	noteParse(cmd)
	if len(cmd) > MaxCommandLen {
		return nil, &TooLongError{Len: len(cmd)}
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	return p.Parse(strings.NewReader(cmd), "")
}

// parsers and printers keep parsers and printers for reuse: building one
// costs more than most lines take to parse or print, and both reset
// their state at the start of every Parse or Print.
var (
	parsers  = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}
	printers = sync.Pool{New: func() any { return syntax.NewPrinter() }}
)

// SimpleCommand is one simple command of a parsed line: a call or a
// declaration, with the redirections of its statement.
type SimpleCommand struct {
	// Assigns are the NAME=value prefixes of a call; for a bare
	// assignment (Args empty) they are the whole command. A declaration
	// has none: its assignments are arguments.
	Assigns []Assign
	// Args are the words: Args[0] is the program. For a declaration,
	// Args[0] is the builtin (declare, export, local…) and the rest its
	// arguments, one word per NAME=value or option.
	Args []Word
	// Redirs are the redirections of the statement the command belongs to.
	Redirs []*syntax.Redirect
	// Stmt is that statement.
	Stmt *syntax.Stmt
	// Call is the parsed call (Call.Args[i] is the word Args[i] was read
	// from); nil for a declaration.
	Call *syntax.CallExpr
	// Decl is the parsed declaration; nil for a call.
	Decl *syntax.DeclClause
}

// Name is the program name, or "" for a bare assignment.
func (c SimpleCommand) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return c.Args[0].Value
}

// SimpleCommands returns every simple command of f in source order,
// including those nested in compound commands, subshells, function
// bodies and substitutions; an outer command comes before the ones in its
// words.
func SimpleCommands(f *syntax.File) []SimpleCommand {
	out := make([]SimpleCommand, 0, 4)
	syntax.Walk(f, func(n syntax.Node) bool {
		if st, ok := n.(*syntax.Stmt); ok {
			if sc, ok := CommandOf(st); ok {
				out = append(out, sc)
			}
		}
		return true
	})
	return out
}

// CommandOf returns the simple command of st, when its command is a call
// or a declaration; commands nested in its words are not included.
func CommandOf(st *syntax.Stmt) (SimpleCommand, bool) {
	switch cmd := st.Cmd.(type) {
	case *syntax.CallExpr:
		sc := SimpleCommand{Redirs: st.Redirs, Stmt: st, Call: cmd, Args: make([]Word, 0, len(cmd.Args))}
		for _, as := range cmd.Assigns {
			sc.Assigns = append(sc.Assigns, EvalAssign(as))
		}
		for _, w := range cmd.Args {
			sc.Args = append(sc.Args, EvalWord(w))
		}
		return sc, true
	case *syntax.DeclClause:
		sc := SimpleCommand{Redirs: st.Redirs, Stmt: st, Decl: cmd}
		name := "declare"
		if cmd.Variant != nil {
			name = cmd.Variant.Value
		}
		sc.Args = append(sc.Args, Word{Value: name, Literal: true, Static: true})
		for _, as := range cmd.Args {
			sc.Args = append(sc.Args, declArg(EvalAssign(as)))
		}
		return sc, true
	}
	return SimpleCommand{}, false
}

// Assign is one assignment: a NAME=value prefix of a call, or an argument
// of a declaration.
type Assign struct {
	// Name is the variable; "" for a declaration argument that names none
	// (an option such as -x, or a word only known at run time).
	Name string
	// Append is true for NAME+=value.
	Append bool
	// Naked is true when there is no "=" (export NAME, declare -x).
	Naked bool
	// Indexed is true for NAME[i]=value and NAME=(…): bash evaluates
	// their subscripts as arithmetic, which can run commands.
	Indexed bool
	// Value is the assigned value (for a declaration argument without a
	// name, the argument itself); an array's value is not literal.
	Value Word
	// Source is the assignment as written.
	Source string
}

// EvalAssign evaluates an assignment; its value is read like a word.
func EvalAssign(as *syntax.Assign) Assign {
	a := Assign{Append: as.Append, Naked: as.Naked, Indexed: as.Index != nil || as.Array != nil, Source: source(as)}
	if as.Name != nil {
		a.Name = as.Name.Value
	}
	switch {
	case as.Array != nil:
		// The printer prints an array only as part of its assignment.
		_, src, _ := strings.Cut(a.Source, "=")
		a.Value = Word{Value: src, Source: src}
	case as.Value != nil:
		a.Value = EvalWord(as.Value)
	default:
		a.Value = Word{Literal: true, Static: true}
	}
	return a
}

// declArg is a declaration argument as the builtin receives it.
func declArg(a Assign) Word {
	switch {
	case a.Name == "":
		return a.Value
	case a.Naked:
		return Word{Value: a.Name, Literal: true, Static: true}
	case a.Indexed:
		return Word{Value: a.Source, Source: a.Source}
	}
	op := "="
	if a.Append {
		op = "+="
	}
	w := a.Value
	w.Value = a.Name + op + w.Value
	if !w.Literal {
		w.Source = a.Source
	}
	return w
}

// source prints a node back as shell source.
func source(n syntax.Node) string {
	var b strings.Builder
	p := printers.Get().(*syntax.Printer)
	defer printers.Put(p)
	if err := p.Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// DupFD reports whether r duplicates, moves or closes a file descriptor
// (2>&1, <&3, >&3-, >&-) rather than opening a file.
func DupFD(r *syntax.Redirect) bool {
	if r.Op != syntax.DplIn && r.Op != syntax.DplOut {
		return false
	}
	w := EvalWord(r.Word)
	return w.Static && (w.Value == "-" || IsFD(strings.TrimSuffix(w.Value, "-")))
}

// IsFD reports whether s is a file-descriptor number: decimal digits only.
func IsFD(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
