package grepengine

import "strings"

// Unicode versions of the Perl classes. Go's \d, \w and \s are ASCII-only;
// ripgrep's (Rust's regex) follow Unicode, so the pattern is rewritten to
// give the same matches: \d is any decimal digit, \w any letter, mark,
// digit or connector, \s any white space (\v, U+0085 and the Z category
// included).
const (
	uniDigit = `\p{Nd}`
	uniWord  = `\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}`
	uniSpace = `\t\n\v\f\r \x{85}\p{Z}`
)

// unicodeClasses rewrites \d \D \w \W \s \S in an RE2 pattern into their
// Unicode forms. Negated forms inside a bracket class stay as they are
// (a negated union cannot be written inside a class); \b keeps Go's ASCII
// meaning.
func unicodeClasses(p string) string {
	if !strings.Contains(p, `\`) {
		return p
	}
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			e := p[i+1]
			if e == 'Q' {
				// \Q...\E is literal text.
				end := strings.Index(p[i+2:], `\E`)
				if end < 0 {
					b.WriteString(p[i:])
					return b.String()
				}
				b.WriteString(p[i : i+2+end+2])
				i += 1 + end + 2
				continue
			}
			var class string
			neg := false
			switch e {
			case 'd':
				class = uniDigit
			case 'D':
				class, neg = uniDigit, true
			case 'w':
				class = uniWord
			case 'W':
				class, neg = uniWord, true
			case 's':
				class = uniSpace
			case 'S':
				class, neg = uniSpace, true
			}
			switch {
			case class == "":
				b.WriteByte(c)
				b.WriteByte(e)
			case inClass && neg:
				b.WriteByte(c)
				b.WriteByte(e)
			case inClass:
				b.WriteString(class)
			case neg:
				b.WriteString("[^" + class + "]")
			default:
				b.WriteString("[" + class + "]")
			}
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteByte(']')
				i++
			}
		case c == '[' && inClass && i+1 < len(p) && p[i+1] == ':':
			end := strings.Index(p[i:], ":]")
			if end < 0 {
				b.WriteByte(c)
				continue
			}
			b.WriteString(p[i : i+end+2])
			i += end + 1
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
