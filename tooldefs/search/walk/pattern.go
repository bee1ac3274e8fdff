package walk

import (
	"fmt"
	"regexp"
	"strings"
)

// Pattern is a compiled glob with ripgrep's (globset's) semantics: `*` and
// `?` never match `/`, `**` spans directories when it is a whole path
// component, `[...]` classes (negated with `!` or `^`), `{a,b}` alternates
// and backslash escapes. A pattern matches a whole slash-separated path.
type Pattern struct {
	glob string
	kind patternKind
	lit  string
	re   *regexp.Regexp
}

type patternKind int

const (
	kindRegexp   patternKind = iota
	kindExact                // path == lit
	kindBasename             // path == lit or ends with "/"+lit
	kindSuffix               // path ends with lit (lit has no '/')
)

// CompilePattern compiles glob. Its error says what is wrong with the glob.
func CompilePattern(glob string) (*Pattern, error) {
	p := &Pattern{glob: glob}
	switch {
	case !hasMeta(glob):
		p.kind, p.lit = kindExact, glob
		return p, nil
	case strings.HasPrefix(glob, "**/") && !hasMeta(glob[3:]) && !strings.Contains(glob[3:], "/"):
		p.kind, p.lit = kindBasename, glob[3:]
		return p, nil
	case strings.HasPrefix(glob, "**/*") && !hasMeta(glob[4:]) && !strings.Contains(glob[4:], "/"):
		p.kind, p.lit = kindSuffix, glob[4:]
		return p, nil
	}
	expr, err := globRegexp(glob)
	if err != nil {
		return nil, fmt.Errorf("invalid glob %q: %w", glob, err)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid glob %q: %w", glob, err)
	}
	p.re = re
	return p, nil
}

// String returns the glob the pattern was compiled from.
func (p *Pattern) String() string { return p.glob }

// Match reports whether the slash-separated path matches the whole pattern.
func (p *Pattern) Match(path string) bool {
	switch p.kind {
	case kindExact:
		return path == p.lit
	case kindBasename:
		return path == p.lit || (strings.HasSuffix(path, p.lit) && path[len(path)-len(p.lit)-1] == '/')
	case kindSuffix:
		if !strings.HasSuffix(path, p.lit) {
			return false
		}
		// The `*` before the suffix may be empty but must not cross a '/':
		// the suffix itself has no '/', so any path ending in it matches.
		return true
	}
	return p.re.MatchString(path)
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[{\`) }

// globRegexp translates a glob into an anchored regular expression.
func globRegexp(g string) (string, error) {
	var b strings.Builder
	b.WriteString(`^`)
	depth := 0 // open {…} alternates
	n := len(g)
	for i := 0; i < n; {
		c := g[i]
		switch c {
		case '\\':
			if i+1 >= n {
				return "", fmt.Errorf("dangling '\\' at the end")
			}
			b.WriteString(regexp.QuoteMeta(g[i+1 : i+2]))
			i += 2
		case '*':
			if i+1 < n && g[i+1] == '*' {
				j := i + 2
				atStart := i == 0 || g[i-1] == '/'
				atEnd := j == n || g[j] == '/'
				if atStart && atEnd {
					if j == n {
						b.WriteString(`.*`)
					} else {
						b.WriteString(`(?:.*/)?`)
						j++
					}
					i = j
					continue
				}
				b.WriteString(`[^/]*`)
				i = j
				continue
			}
			b.WriteString(`[^/]*`)
			i++
		case '?':
			b.WriteString(`[^/]`)
			i++
		case '[':
			j := i + 1
			neg := false
			if j < n && (g[j] == '!' || g[j] == '^') {
				neg = true
				j++
			}
			start := j
			if j < n && g[j] == ']' {
				j++ // a leading ']' is literal
			}
			for j < n && g[j] != ']' {
				j++
			}
			if j >= n {
				return "", fmt.Errorf("unclosed character class starting at offset %d", i)
			}
			body := g[start:j]
			b.WriteByte('[')
			if neg {
				b.WriteString(`^/`)
			}
			for k := 0; k < len(body); k++ {
				switch ch := body[k]; ch {
				case '\\', '[', ']', '^':
					b.WriteByte('\\')
					b.WriteByte(ch)
				default:
					b.WriteByte(ch)
				}
			}
			b.WriteByte(']')
			i = j + 1
		case '{':
			depth++
			b.WriteString(`(?:`)
			i++
		case '}':
			if depth > 0 {
				depth--
				b.WriteString(`)`)
			} else {
				b.WriteString(`\}`)
			}
			i++
		case ',':
			if depth > 0 {
				b.WriteString(`|`)
			} else {
				b.WriteString(`,`)
			}
			i++
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			i++
		}
	}
	if depth > 0 {
		return "", fmt.Errorf("unclosed '{' alternate")
	}
	b.WriteString(`$`)
	return b.String(), nil
}
