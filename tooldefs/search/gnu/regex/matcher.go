// Package regex compiles the patterns of package gnu's grep, GNU's basic
// and extended regular expressions and fixed strings, by translating them
// to Go's RE2 and matching with package grepengine. It is apart from gnu
// because regexp is initialised late in a large program, and a grep whose
// patterns need no regular expression starts before it (see
// gnu.CompileLiteral).
package regex

import (
	"errors"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
	"github.com/agentcore/agentcore/tooldefs/search/grepengine"
)

// matcher finds the lines grep selects and, for -o, the matches in a line.
type matcher struct {
	lines *grepengine.Lines
	// all is the patterns' alternation, leftmost-longest (POSIX), for -o;
	// anchored is the same anchored at its start, for -o -w.
	all, anchored *regexp.Regexp
	word, line    bool
	utf8          bool
}

// Compile translates the patterns to RE2 and compiles them, a
// gnu.Compiler. The error is GNU's message for a bad pattern, or one
// saying what agentcore's grep cannot express.
func Compile(c gnu.Patterns) (gnu.Matcher, []string, error) {
	var alts []string
	var warnings []string
	for _, p := range c.List {
		t, w, err := translate(p, c.Syntax, c.UTF8)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, w...)
		alts = append(alts, t)
	}
	core := "(?:" + strings.Join(alts, ")|(?:") + ")"
	flags := "(?m)"
	if c.IgnoreCase {
		flags = "(?mi)"
	}
	full := core
	switch {
	case c.WholeLine:
		full = "^" + core + "$"
	case c.WholeWord:
		_, nonWord := (&translator{utf8: c.UTF8}).wordClass()
		full = "(?:^|" + nonWord + ")" + core + "(?:" + nonWord + "|$)"
	}
	m := &matcher{word: c.WholeWord && !c.WholeLine, line: c.WholeLine, utf8: c.UTF8}
	var err error
	if m.lines, err = grepengine.NewLines(flags + full); err != nil {
		return nil, nil, compileError(err)
	}
	if c.OnlyMatching {
		if m.all, err = regexp.Compile(flags + core); err != nil {
			return nil, nil, compileError(err)
		}
		m.all.Longest()
		if m.anchored, err = regexp.Compile(flags + "^" + core); err != nil {
			return nil, nil, compileError(err)
		}
		m.anchored.Longest()
	}
	return m, warnings, nil
}

// compileError explains an RE2 compile failure of a translated pattern.
func compileError(err error) error {
	var re *reError
	if errors.As(err, &re) {
		return err
	}
	return &unsupported{"this pattern in Go's RE2 (" + err.Error() + ")", "simplify it, or run the system grep by its full path"}
}

// NextLine finds the first selected line of buf at or after p (a line
// start): its start and its end past the newline.
func (m *matcher) NextLine(buf []byte, p int) (int, int, bool) {
	ls, le := m.lines.Next(buf[p:], 0)
	if ls < 0 {
		return 0, 0, false
	}
	return p + ls, p + le + 1, true
}

// Matches returns the non-empty matches of a matching line for -o, as GNU
// finds them: leftmost-longest, each search starting where the last match
// ended; with -w, a match must be a whole word, else a shorter match at
// the same start or a later start is tried; with -x, the whole line.
func (m *matcher) Matches(line []byte) [][2]int {
	if m.line {
		if len(line) == 0 {
			return nil
		}
		return [][2]int{{0, len(line)}}
	}
	var out [][2]int
	if !m.word {
		for _, loc := range m.all.FindAllIndex(line, -1) {
			if loc[1] > loc[0] {
				out = append(out, [2]int{loc[0], loc[1]})
			}
		}
		return out
	}
	for cur := 0; cur < len(line); {
		b, e, ok := m.wordMatch(line, cur)
		if !ok {
			break
		}
		if e == b {
			cur = b + 1
			continue
		}
		out = append(out, [2]int{b, e})
		cur = e
	}
	return out
}

// wordMatch is GNU's -w search from cur: the leftmost longest match, then
// shorter matches at its start, then later starts, until one is a word.
func (m *matcher) wordMatch(line []byte, cur int) (int, int, bool) {
	for start := cur; start <= len(line); {
		loc := m.all.FindIndex(line[start:])
		if loc == nil {
			return 0, 0, false
		}
		b, e := start+loc[0], start+loc[1]
		for {
			if !m.wordAt(line, e) && !m.wordBefore(line, b) {
				return b, e, true
			}
			if e > b {
				if s := m.anchored.FindIndex(line[b : e-1]); s != nil && s[1] > 0 {
					e = b + s[1]
					continue
				}
			}
			break
		}
		start = b + 1
	}
	return 0, 0, false
}

func (m *matcher) isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return m.utf8 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// wordAt reports whether a word character starts at i.
func (m *matcher) wordAt(line []byte, i int) bool {
	if i >= len(line) {
		return false
	}
	if !m.utf8 {
		return m.isWordRune(rune(line[i]))
	}
	r, _ := utf8.DecodeRune(line[i:])
	return m.isWordRune(r)
}

// wordBefore reports whether a word character ends at i.
func (m *matcher) wordBefore(line []byte, i int) bool {
	if i <= 0 {
		return false
	}
	if !m.utf8 {
		return m.isWordRune(rune(line[i-1]))
	}
	r, _ := utf8.DecodeLastRune(line[:i])
	return m.isWordRune(r)
}
