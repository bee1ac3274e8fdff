package find

import (
	"unicode"
	"unicode/utf8"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// Glob is a compiled fnmatch(3) pattern as find's -name and grep's
// --include use it: no FNM_PATHNAME (a * matches /), no FNM_PERIOD (a *
// matches a leading dot), backslash escapes, bracket expressions with !
// or ^ negation, ranges and [:class:]. Matching is by character in a UTF-8
// locale (by byte when the pattern or the name is not valid UTF-8, as glibc
// falls back) and by byte in the C locale. Common shapes (*.go, name,
// prefix*, *part*) take a fast path.
type Glob struct {
	toks  []globTok
	fold  bool
	bytes bool // match by byte (C locale or invalid pattern)
	// fast path: kind and literal (lower-cased when fold)
	fast int
	lit  string
}

const (
	fastNone = iota
	fastExact
	fastSuffix
	fastPrefix
	fastContains
)

type globTok struct {
	kind byte // 'c' char, '?', '*', '['
	r    rune
	cls  *globClass
}

type globClass struct {
	negate bool
	ranges [][2]rune
	named  []string
}

// CompileGlob compiles pattern p; fold ignores case (-iname), utf8Mode
// matches by character, as in a UTF-8 locale.
func CompileGlob(p string, fold, utf8Mode bool) *Glob {
	g := &Glob{fold: fold, bytes: !utf8Mode || !utf8.ValidString(p)}
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '*':
			if n := len(g.toks); n == 0 || g.toks[n-1].kind != '*' {
				g.toks = append(g.toks, globTok{kind: '*'})
			}
			i++
			continue
		case '?':
			g.toks = append(g.toks, globTok{kind: '?'})
			i++
			continue
		case '[':
			if cls, n, ok := parseGlobClass(p[i:], g.bytes); ok {
				g.toks = append(g.toks, globTok{kind: '[', cls: cls})
				i += n
				continue
			}
		case '\\':
			if i+1 < len(p) {
				i++
				c = p[i]
			}
		}
		r, size := g.decode(p[i:])
		g.toks = append(g.toks, globTok{kind: 'c', r: r})
		i += size
	}
	g.setFast()
	return g
}

func (g *Glob) decode(s string) (rune, int) {
	if g.bytes || s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(s)
}

// setFast recognises patterns of only literal characters and stars at
// the ends.
func (g *Glob) setFast() {
	toks := g.toks
	lead := len(toks) > 0 && toks[0].kind == '*'
	if lead {
		toks = toks[1:]
	}
	trail := len(toks) > 0 && toks[len(toks)-1].kind == '*'
	if trail {
		toks = toks[:len(toks)-1]
	}
	var b []byte
	for _, t := range toks {
		if t.kind != 'c' || (g.fold && t.r >= utf8.RuneSelf) {
			return
		}
		r := t.r
		if g.fold {
			r = unicode.ToLower(r)
		}
		if g.bytes {
			b = append(b, byte(r))
		} else {
			b = utf8.AppendRune(b, r)
		}
	}
	g.lit = string(b)
	switch {
	case lead && trail:
		g.fast = fastContains
	case lead:
		g.fast = fastSuffix
	case trail:
		g.fast = fastPrefix
	default:
		g.fast = fastExact
	}
}

// parseGlobClass parses a bracket expression at s[0] == '['; ok is false
// when it is not closed (the [ is then a literal).
func parseGlobClass(s string, byteMode bool) (*globClass, int, bool) {
	cls := &globClass{}
	i := 1
	if i < len(s) && (s[i] == '!' || s[i] == '^') {
		cls.negate = true
		i++
	}
	first := true
	decode := func() (rune, bool) {
		if i >= len(s) {
			return 0, false
		}
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		if byteMode || s[i] < utf8.RuneSelf {
			r := rune(s[i])
			i++
			return r, true
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		return r, true
	}
	for {
		if i >= len(s) {
			return nil, 0, false
		}
		if s[i] == ']' && !first {
			return cls, i + 1, true
		}
		first = false
		if lite.HasPrefix(s[i:], "[:") {
			if end := lite.Index(s[i+2:], ":]"); end >= 0 {
				cls.named = append(cls.named, s[i+2:i+2+end])
				i += 2 + end + 2
				continue
			}
		}
		lo, ok := decode()
		if !ok {
			return nil, 0, false
		}
		hi := lo
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			i++
			if hi, ok = decode(); !ok {
				return nil, 0, false
			}
		}
		cls.ranges = append(cls.ranges, [2]rune{lo, hi})
	}
}

func (c *globClass) matches(r rune, fold bool) bool {
	in := c.has(r)
	if !in && fold {
		in = c.has(unicode.ToLower(r)) || c.has(unicode.ToUpper(r))
	}
	return in != c.negate
}

func (c *globClass) has(r rune) bool {
	for _, rg := range c.ranges {
		if rg[0] <= r && r <= rg[1] {
			return true
		}
	}
	for _, n := range c.named {
		if classHas(n, r) {
			return true
		}
	}
	return false
}

// classHas is a [:name:] class of the C or UTF-8 locale.
func classHas(name string, r rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(r)
	case "digit":
		return '0' <= r && r <= '9'
	case "alnum":
		return unicode.IsLetter(r) || '0' <= r && r <= '9'
	case "upper":
		return unicode.IsUpper(r)
	case "lower":
		return unicode.IsLower(r)
	case "space":
		return r == ' ' || ('\t' <= r && r <= '\r') || (r > 0x7f && unicode.IsSpace(r) && r != 0xa0 && r != 0x85)
	case "blank":
		return r == ' ' || r == '\t'
	case "punct":
		return r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r) || r >= 0x80 && (unicode.IsPunct(r) || unicode.IsSymbol(r))
	case "xdigit":
		return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
	case "cntrl":
		return unicode.IsControl(r)
	case "print":
		return unicode.IsPrint(r) || r == ' '
	case "graph":
		return unicode.IsGraphic(r) && r != ' '
	}
	return false
}

// Match reports whether name matches the whole pattern.
func (g *Glob) Match(name string) bool {
	if g.fast != fastNone {
		s := name
		if g.fold {
			s = foldString(name, g.bytes)
		}
		switch g.fast {
		case fastExact:
			return s == g.lit
		case fastSuffix:
			return lite.HasSuffix(s, g.lit)
		case fastPrefix:
			return lite.HasPrefix(s, g.lit)
		default:
			return lite.Contains(s, g.lit)
		}
	}
	byteMode := g.bytes || !utf8.ValidString(name)
	if byteMode && !g.bytes {
		// The pattern was compiled by character; recompile by byte for
		// this name, as glibc falls back when the name does not convert.
		return compileGlobBytes(g).matchFrom(name, true)
	}
	return g.matchFrom(name, byteMode)
}

func compileGlobBytes(g *Glob) *Glob {
	// Rare (an invalid name under a UTF-8 pattern): no caching needed.
	var b []byte
	for _, t := range g.toks {
		switch t.kind {
		case '*':
			b = append(b, '*')
		case '?':
			b = append(b, '?')
		case 'c':
			b = append(b, '\\')
			b = utf8.AppendRune(b, t.r)
		case '[':
			// Classes keep their runes; compare bytes against them.
			return g
		}
	}
	return CompileGlob(string(b), g.fold, false)
}

func foldString(s string, byteMode bool) string {
	if byteMode {
		return asciiLower(s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return lite.ToLower(s)
		}
	}
	return asciiLower(s)
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// matchFrom is the classic wildcard match with one backtracking point
// (the last *), correct because every other token matches one character.
func (g *Glob) matchFrom(s string, byteMode bool) bool {
	next := func(i int) (rune, int) {
		if byteMode || s[i] < utf8.RuneSelf {
			return rune(s[i]), 1
		}
		return utf8.DecodeRuneInString(s[i:])
	}
	ti, si := 0, 0
	starTi, starSi := -1, 0
	for si < len(s) {
		if ti < len(g.toks) {
			t := g.toks[ti]
			if t.kind == '*' {
				starTi, starSi = ti, si
				ti++
				continue
			}
			r, size := next(si)
			if g.tokMatches(t, r) {
				ti++
				si += size
				continue
			}
		}
		if starTi < 0 {
			return false
		}
		_, size := next(starSi)
		starSi += size
		ti, si = starTi+1, starSi
	}
	for ti < len(g.toks) && g.toks[ti].kind == '*' {
		ti++
	}
	return ti == len(g.toks)
}

func (g *Glob) tokMatches(t globTok, r rune) bool {
	switch t.kind {
	case '?':
		return true
	case '[':
		return t.cls.matches(r, g.fold)
	}
	if t.r == r {
		return true
	}
	return g.fold && unicode.ToLower(t.r) == unicode.ToLower(r)
}
