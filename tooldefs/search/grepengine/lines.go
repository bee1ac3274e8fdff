package grepengine

import (
	"fmt"
	"regexp"
	"regexp/syntax"
)

// Lines finds the lines of a buffer that a regular expression matches,
// one line at a time: the literal prefilter of Search runs ahead of the
// regexp, and a match that runs over a line break is checked again against
// its line alone, so a line matches exactly when the regexp matches the
// line's text. It is the matching core of the embedded GNU grep (package
// gnu), which translates GNU patterns to RE2 first.
type Lines struct {
	re *regexp.Regexp
	pf *prefilter
}

// NewLines compiles pattern, in Go's RE2 syntax with any flags inline
// ("(?mi)…"); (?m) should be set so that ^ and $ match at line breaks.
func NewLines(pattern string) (*Lines, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("parse %q: %w", pattern, err)
	}
	parsed = parsed.Simplify()
	l := &Lines{re: re}
	if lit, ok, exact := requiredLiteral(parsed); ok && !containsNewline(lit.s) {
		l.pf = newPrefilter(lit, exact && !canMatchNewline(parsed))
	}
	return l, nil
}

func containsNewline(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return true
		}
	}
	return false
}

// Next returns the bounds of the first line of buf, at or after pos (a
// line start), that the regexp matches: its start and the index of its
// '\n' (len(buf) for a last line without one); -1, -1 when there is none.
func (l *Lines) Next(buf []byte, pos int) (int, int) {
	n := len(buf)
	if l.pf != nil {
		sc := l.pf.scanner(buf)
		for pos < n {
			c := sc.next(pos)
			if c < 0 {
				return -1, -1
			}
			ls, le := lineBounds(buf, c)
			if l.pf.exact || l.re.Match(buf[ls:le]) {
				return ls, le
			}
			pos = le + 1
		}
		return -1, -1
	}
	for pos < n {
		loc := l.re.FindIndex(buf[pos:])
		if loc == nil {
			return -1, -1
		}
		c := pos + loc[0]
		if c >= n {
			return -1, -1 // an empty match after the last line terminator
		}
		ls, le := lineBounds(buf, c)
		if pos+loc[1] <= le || l.re.Match(buf[ls:le]) {
			return ls, le
		}
		pos = le + 1
	}
	return -1, -1
}

// Match reports whether one line (without its terminator) matches.
func (l *Lines) Match(line []byte) bool { return l.re.Match(line) }
