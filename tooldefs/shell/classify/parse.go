// Package classify analyses shell commands parsed with mvdan.cc/sh/v3/syntax:
// whether a command only reads (so the Bash tool may run it beside other
// read-only calls and treat it as read-only), whether it is a search or a read
// (so it can be rendered compactly), and whether it is destructive.
//
// Everything here fails closed: a command that does not parse, or that uses a
// construct the analysis does not understand, is neither read-only nor a
// search/read.
//
// The parsing helpers (Parse, SimpleCommands, WordValue) are exported for
// other analyses of the same commands, e.g. permission-rule matching.
package classify

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxCommandLen bounds the commands analysed; a longer command is not
// analysed at all (and so is never read-only).
const MaxCommandLen = 64 << 10

// Parse parses cmd as a bash program. The error says where the syntax is
// wrong.
func Parse(cmd string) (*syntax.File, error) {
	if len(cmd) > MaxCommandLen {
		return nil, fmt.Errorf("command is %d bytes, longer than the %d analysed", len(cmd), MaxCommandLen)
	}
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	f, err := p.Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Word is one word of a simple command after quote removal.
type Word struct {
	// Value is the word with quotes removed. Expansions the analysis cannot
	// evaluate ($x, globs) are kept in their source form.
	Value string
	// Static is true when Value is exactly what the program receives: no
	// parameter expansion, no unquoted glob or brace characters, no
	// substitution.
	Static bool
}

// SimpleCommand is one simple command (a CallExpr) of a parsed program,
// with the redirections of its statement.
type SimpleCommand struct {
	// Assigns are the NAME=value prefixes, or the whole command when Args
	// is empty (a bare assignment).
	Assigns []*syntax.Assign
	// Args are the words: Args[0] is the program.
	Args []Word
	// Redirs are the redirections of the statement the command belongs to.
	Redirs []*syntax.Redirect
}

// Name is the program name, or "" for a bare assignment.
func (c SimpleCommand) Name() string {
	if len(c.Args) == 0 {
		return ""
	}
	return c.Args[0].Value
}

// SimpleCommands returns every simple command of f, in source order,
// including those nested in compound commands, subshells and substitutions.
func SimpleCommands(f *syntax.File) []SimpleCommand {
	var out []SimpleCommand
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if call, ok := st.Cmd.(*syntax.CallExpr); ok {
			sc := SimpleCommand{Assigns: call.Assigns, Redirs: st.Redirs}
			for _, w := range call.Args {
				v, static := WordValue(w)
				sc.Args = append(sc.Args, Word{Value: v, Static: static})
			}
			out = append(out, sc)
		}
		return true
	})
	return out
}

// WordValue returns w with quotes removed and whether that value is static
// (see Word.Static). Dynamic parts are rendered as in the source.
func WordValue(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", true
	}
	var b strings.Builder
	static := true
	for _, part := range w.Parts {
		if !wordPart(&b, part, false) {
			static = false
		}
	}
	return b.String(), static
}

// wordPart appends the value of part to b and reports whether it is static.
func wordPart(b *strings.Builder, part syntax.WordPart, quoted bool) bool {
	switch p := part.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, quoted))
		if !quoted && hasGlobOrBrace(p.Value) {
			return false
		}
		return true
	case *syntax.SglQuoted:
		if p.Dollar {
			// $'...' has escapes bash interprets; keep the source and call it
			// dynamic rather than re-implement them.
			b.WriteString(p.Value)
			return false
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		static := !p.Dollar
		for _, q := range p.Parts {
			if !wordPart(b, q, true) {
				static = false
			}
		}
		return static
	default:
		// Parameter, arithmetic, command and process substitutions, extended
		// globs, brace expansions: the value is only known at run time.
		b.WriteString(sourceOf(part))
		return false
	}
}

// sourceOf prints a node back as shell source, for dynamic word parts.
func sourceOf(n syntax.Node) string {
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		return "?"
	}
	return b.String()
}

// unescape removes the backslashes bash removes from a literal.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // line continuation
		case !quoted:
			b.WriteByte(next)
			i++
		case next == '$' || next == '`' || next == '"' || next == '\\':
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hasGlobOrBrace reports unquoted characters that make bash expand a word
// into something else: pathname globs and brace expansions. It is linear in
// the length of s.
func hasGlobOrBrace(s string) bool {
	lastClose := strings.LastIndexByte(s, ']')
	lastComma := strings.LastIndexByte(s, ',')
	lastDots := strings.LastIndex(s, "..")
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // escaped: literal
		case '*', '?':
			return true
		case '[':
			if i < lastClose {
				return true // a bracket expression; a lone [ is literal
			}
		case '{':
			if i < lastComma || i < lastDots {
				return true
			}
		case '~':
			if i == 0 {
				return true // tilde expansion
			}
		}
	}
	return false
}
