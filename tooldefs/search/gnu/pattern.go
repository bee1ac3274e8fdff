package gnu

import (
	"bytes"
	"errors"
)

// Syntax is the dialect of grep's patterns.
type Syntax int

// The dialects, by grep's options.
const (
	Basic    Syntax = iota // -G, POSIX BRE with GNU extensions
	Extended               // -E, POSIX ERE with GNU extensions
	Fixed                  // -F, plain strings
)

// Patterns is what a grep command line asks its matcher for.
type Patterns struct {
	List         []string // one per line of -e, -f and the operand
	Syntax       Syntax
	UTF8         bool // a UTF-8 locale: match by character
	IgnoreCase   bool // -i
	WholeLine    bool // -x
	WholeWord    bool // -w
	OnlyMatching bool // -o: Matches is called
}

// Matcher finds the lines grep selects and, for -o, the matches in a line.
type Matcher interface {
	// NextLine finds the first selected line of buf at or after p (a
	// line start): its start and its end past the newline.
	NextLine(buf []byte, p int) (start, end int, ok bool)
	// Matches returns the non-empty matches of a selected line, as GNU's
	// -o finds them.
	Matches(line []byte) [][2]int
}

// Compiler compiles a command line's patterns: the Matcher, GNU's
// warnings about them, or an error whose text is grep's message (status
// 2). Package regex's Compile is the complete one.
type Compiler func(Patterns) (Matcher, []string, error)

// ErrNeedsRegexp is CompileLiteral's answer for patterns it leaves to a
// regular expression engine.
var ErrNeedsRegexp = errors.New("the patterns need a regular expression engine")

// CompileLiteral is a Compiler for the commonest grep: one pattern that
// is a plain ASCII string in its syntax (no metacharacter), without -i,
// -w or -x. It selects exactly the lines the regular expression would,
// with bytes.Index, and answers ErrNeedsRegexp for anything else.
func CompileLiteral(p Patterns) (Matcher, []string, error) {
	if len(p.List) != 1 || p.IgnoreCase || p.WholeWord || p.WholeLine {
		return nil, nil, ErrNeedsRegexp
	}
	lit := p.List[0]
	special := `\.[]*^$`
	if p.Syntax == Extended {
		special += `+?(){}|`
	}
	if p.Syntax == Fixed {
		special = ""
	}
	if lit == "" {
		return nil, nil, ErrNeedsRegexp
	}
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if c < ' ' || c > '~' || bytes.IndexByte([]byte(special), c) >= 0 {
			return nil, nil, ErrNeedsRegexp
		}
	}
	return literal(lit), nil, nil
}

// literal matches one plain string.
type literal []byte

func (l literal) NextLine(buf []byte, p int) (int, int, bool) {
	i := bytes.Index(buf[p:], l)
	if i < 0 {
		return 0, 0, false
	}
	i += p
	start := bytes.LastIndexByte(buf[p:i], '\n') + 1 + p
	end := len(buf)
	if j := bytes.IndexByte(buf[i+len(l):], '\n'); j >= 0 {
		end = i + len(l) + j
	}
	return start, end + 1, true
}

func (l literal) Matches(line []byte) [][2]int {
	var out [][2]int
	for at := 0; ; {
		i := bytes.Index(line[at:], l)
		if i < 0 {
			return out
		}
		out = append(out, [2]int{at + i, at + i + len(l)})
		at += i + len(l)
	}
}
