package regex

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/tooldefs/search/gnu"
)

// reError is a pattern GNU grep rejects (exit 2); its text is GNU's.
type reError struct{ msg string }

func (e *reError) Error() string { return e.msg }

// unsupported is a construct GNU grep accepts that Go's RE2 cannot
// express; its text says so and what to do instead.
type unsupported struct{ what, instead string }

func (e *unsupported) Error() string {
	return fmt.Sprintf("agentcore's embedded grep does not support %s; %s", e.what, e.instead)
}

// translator turns one GNU BRE or ERE into Go's RE2 syntax. It is a
// recursive-descent parser over bytes: alternation of concatenations of
// quantified atoms, with GNU's context rules (a leading * is literal in a
// BRE and ignored with a warning in an ERE, ^ and $ are anchors only at the
// ends of a BRE branch, an unmatched ) is literal in an ERE, an invalid
// interval is literal in an ERE).
type translator struct {
	p        string
	i        int
	kind     gnu.Syntax
	utf8     bool
	depth    int
	warnings []string
}

// translate returns the RE2 form of pattern p and GNU's warnings about it.
func translate(p string, kind gnu.Syntax, utf8Mode bool) (string, []string, error) {
	if kind == gnu.Fixed {
		return quoteLiteral(p), nil, nil
	}
	t := &translator{p: p, kind: kind, utf8: utf8Mode}
	out, err := t.alternation()
	if err != nil {
		return "", nil, err
	}
	if t.i < len(t.p) {
		// Only an unmatched close group stops the top level.
		return "", nil, &reError{"Unmatched ) or \\)"}
	}
	return out, t.warnings, nil
}

func (t *translator) ere() bool { return t.kind == gnu.Extended }

// atAltEnd reports whether the parser is at the end of a branch: the end
// of the pattern, a | (\| in a BRE) or a group's close.
func (t *translator) atAltEnd() bool {
	if t.i >= len(t.p) {
		return true
	}
	rest := t.p[t.i:]
	if t.ere() {
		return rest[0] == '|' || (rest[0] == ')' && t.depth > 0)
	}
	return strings.HasPrefix(rest, `\|`) || (strings.HasPrefix(rest, `\)`) && t.depth > 0)
}

func (t *translator) alternation() (string, error) {
	var branches []string
	for {
		b, err := t.branch()
		if err != nil {
			return "", err
		}
		branches = append(branches, b)
		if t.i >= len(t.p) {
			break
		}
		if t.ere() && t.p[t.i] == '|' {
			t.i++
			continue
		}
		if !t.ere() && strings.HasPrefix(t.p[t.i:], `\|`) {
			t.i += 2
			continue
		}
		break // a group's close: the caller consumes it
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return strings.Join(branches, "|"), nil
}

// atom is one piece of a concatenation in RE2 syntax.
type atom struct {
	s string
	// quantified: s already ends in a repetition; assertion: s is zero-width.
	// Either way a further repetition must wrap it in a group first.
	quantified, assertion bool
}

func (t *translator) branch() (string, error) {
	var atoms []atom
	start := true // at the start of the branch (for * and ^ in a BRE)
	for !t.atAltEnd() {
		c := t.p[t.i]
		// Repetition operators.
		if q, n, ok, err := t.quantifier(start); err != nil {
			return "", err
		} else if ok {
			t.i += n
			if len(atoms) == 0 || start {
				if t.ere() {
					t.warnings = append(t.warnings, fmt.Sprintf("%s at start of expression", quantName(q)))
					continue
				}
			}
			if len(atoms) > 0 {
				last := &atoms[len(atoms)-1]
				if last.quantified || last.assertion {
					last.s = "(?:" + last.s + ")"
				}
				last.s += q
				last.quantified = true
				last.assertion = false
				continue
			}
		}
		switch {
		case c == '^' && (t.ere() || start):
			t.i++
			atoms = append(atoms, atom{s: "^", assertion: true})
			// In a BRE a * right after a leading ^ is literal.
			if !t.ere() {
				if t.i < len(t.p) && t.p[t.i] == '*' {
					t.i++
					atoms = append(atoms, atom{s: `\*`})
				}
			}
			start = false
			continue
		case c == '$' && (t.ere() || t.branchEndAnchor()):
			t.i++
			atoms = append(atoms, atom{s: "$", assertion: true})
			start = false
			continue
		}
		a, err := t.primary(start)
		if err != nil {
			return "", err
		}
		atoms = append(atoms, a)
		start = false
	}
	var b strings.Builder
	for _, a := range atoms {
		b.WriteString(a.s)
	}
	return b.String(), nil
}

// branchEndAnchor reports whether a $ at t.i ends a BRE branch (and so is
// an anchor): at the end of the pattern, before \| or before \).
func (t *translator) branchEndAnchor() bool {
	rest := t.p[t.i+1:]
	return rest == "" || strings.HasPrefix(rest, `\|`) || (strings.HasPrefix(rest, `\)`) && t.depth > 0)
}

func quantName(q string) string {
	switch {
	case q == "*":
		return "*"
	case q == "+":
		return "+"
	case q == "?":
		return "?"
	}
	return "{...}"
}

// quantifier recognises a repetition operator at t.i and returns its RE2
// form and length. In a BRE a * at the start of a branch is not one.
func (t *translator) quantifier(start bool) (string, int, bool, error) {
	rest := t.p[t.i:]
	switch {
	case rest[0] == '*':
		if !t.ere() && start {
			return "", 0, false, nil
		}
		return "*", 1, true, nil
	case t.ere() && (rest[0] == '+' || rest[0] == '?'):
		return string(rest[0]), 1, true, nil
	case !t.ere() && (strings.HasPrefix(rest, `\+`) || strings.HasPrefix(rest, `\?`)):
		if start {
			return "", 0, false, nil
		}
		return string(rest[1]), 2, true, nil
	case t.ere() && rest[0] == '{':
		q, n, ok, err := interval(rest[1:], "}")
		if err != nil {
			return "", 0, false, err
		}
		if !ok {
			return "", 0, false, nil // an invalid interval is a literal { in an ERE
		}
		return q, n + 1, true, nil
	case !t.ere() && strings.HasPrefix(rest, `\{`):
		if start {
			return "", 0, false, nil // literal at the start of a BRE
		}
		q, n, ok, err := interval(rest[2:], `\}`)
		if err != nil {
			return "", 0, false, err
		}
		if !ok {
			return "", 0, false, &reError{"Unmatched \\{"}
		}
		return q, n + 2, true, nil
	}
	return "", 0, false, nil
}

// maxRepeat is Go's largest repetition count (GNU allows 32767).
const maxRepeat = 1000

// interval parses "n}", "n,}", ",m}" or "n,m}" (close is } or \}) and
// returns the RE2 form and the length consumed; ok is false when the text
// is not an interval.
func interval(s, close string) (string, int, bool, error) {
	j := 0
	digits := func() (int, bool) {
		k := j
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == k {
			return 0, false
		}
		n, err := strconv.Atoi(s[k:j])
		if err != nil || n > 32767 {
			return 32768, true
		}
		return n, true
	}
	lo, hasLo := digits()
	hi, hasHi, comma := lo, hasLo, false
	if j < len(s) && s[j] == ',' {
		comma = true
		j++
		hi, hasHi = digits()
	}
	if !strings.HasPrefix(s[j:], close) || (!hasLo && !hasHi && !comma) || (!hasLo && !comma) {
		return "", 0, false, nil
	}
	if !hasLo {
		lo = 0
	}
	j += len(close)
	if lo > 32767 || (hasHi && hi > 32767) {
		return "", 0, false, &reError{"Regular expression too big"}
	}
	if comma && hasHi && hi < lo {
		return "", 0, false, &reError{"Invalid content of \\{\\}"}
	}
	if lo > maxRepeat || (hasHi && hi > maxRepeat) {
		return "", 0, false, &unsupported{"repetition counts above 1000", "split the repetition, e.g. a{1000}a{500}"}
	}
	switch {
	case !comma:
		return fmt.Sprintf("{%d}", lo), j, true, nil
	case !hasHi:
		return fmt.Sprintf("{%d,}", lo), j, true, nil
	}
	return fmt.Sprintf("{%d,%d}", lo, hi), j, true, nil
}

// primary parses one atom: a group, a bracket expression, ., an escape or
// a literal character.
func (t *translator) primary(start bool) (atom, error) {
	c := t.p[t.i]
	switch {
	case t.ere() && c == '(':
		return t.group(1)
	case !t.ere() && strings.HasPrefix(t.p[t.i:], `\(`):
		return t.group(2)
	case c == '[':
		s, err := t.bracket()
		return atom{s: s}, err
	case c == '.':
		t.i++
		return atom{s: "."}, nil
	case c == '\\':
		return t.escape()
	case t.ere() && c == '{':
		t.i++
		return atom{s: `\{`}, nil
	}
	return t.literal(), nil
}

func (t *translator) group(open int) (atom, error) {
	t.i += open
	t.depth++
	inner, err := t.alternation()
	t.depth--
	if err != nil {
		return atom{}, err
	}
	switch {
	case t.ere() && t.i < len(t.p) && t.p[t.i] == ')':
		t.i++
	case !t.ere() && strings.HasPrefix(t.p[t.i:], `\)`):
		t.i += 2
	default:
		return atom{}, &reError{"Unmatched ( or \\("}
	}
	return atom{s: "(?:" + inner + ")"}, nil
}

// literal consumes one character (a whole UTF-8 sequence when valid) and
// returns it quoted.
func (t *translator) literal() atom {
	r, size := utf8.DecodeRuneInString(t.p[t.i:])
	s := t.p[t.i : t.i+size]
	t.i += size
	if r == utf8.RuneError && size == 1 {
		return atom{s: `\x{FFFD}`} // an invalid byte: Go matches any invalid byte as U+FFFD
	}
	if t.ere() && s == ")" {
		return atom{s: `\)`}
	}
	return atom{s: quoteLiteral(s)}
}

func (t *translator) escape() (atom, error) {
	if t.i+1 >= len(t.p) {
		return atom{}, &reError{"Trailing backslash"}
	}
	e := t.p[t.i+1]
	t.i += 2
	word, nonWord := t.wordClass()
	switch e {
	case 'w':
		return atom{s: word}, nil
	case 'W':
		return atom{s: nonWord}, nil
	case 's':
		return atom{s: "[" + t.spaceItems() + "]"}, nil
	case 'S':
		return atom{s: `[^\n` + t.spaceItems() + "]"}, nil
	case 'b', '<', '>':
		return atom{s: `\b`, assertion: true}, nil
	case 'B':
		return atom{s: `\B`, assertion: true}, nil
	case '`':
		return atom{s: "^", assertion: true}, nil
	case '\'':
		return atom{s: "$", assertion: true}, nil
	}
	if e == ')' && !t.ere() {
		return atom{}, &reError{"Unmatched ) or \\)"}
	}
	if e >= '1' && e <= '9' {
		return atom{}, &unsupported{"back-references (\\" + string(e) + ")", "Go's RE2 has none: match the text twice, or run the system grep by its full path"}
	}
	if e >= utf8.RuneSelf {
		t.i--
		return t.literal(), nil
	}
	return atom{s: quoteLiteral(string(e))}, nil
}

// wordClass is GNU's word character class [_[:alnum:]] and its negation
// for the locale.
func (t *translator) wordClass() (string, string) {
	if t.utf8 {
		return `[\p{L}\p{Nd}_]`, `[^\p{L}\p{Nd}_\n]`
	}
	return `[0-9A-Za-z_]`, `[^0-9A-Za-z_\n]`
}

func (t *translator) spaceItems() string {
	if t.utf8 {
		return `\t\n\v\f\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}`
	}
	return `\t\n\v\f\r `
}

// posixClasses maps a bracket class name to its RE2 items in the C locale
// and in a UTF-8 locale.
var posixClasses = map[string][2]string{
	"alpha":  {`A-Za-z`, `\p{L}`},
	"upper":  {`A-Z`, `\p{Lu}`},
	"lower":  {`a-z`, `\p{Ll}`},
	"digit":  {`0-9`, `0-9`},
	"xdigit": {`0-9A-Fa-f`, `0-9A-Fa-f`},
	"alnum":  {`0-9A-Za-z`, `\p{L}\p{Nd}`},
	"space":  {`\t\n\v\f\r `, `\t\n\v\f\r \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{2028}\x{2029}\x{205F}\x{3000}`},
	"blank":  {`\t `, `\t \x{1680}\x{2000}-\x{2006}\x{2008}-\x{200A}\x{205F}\x{3000}`},
	"punct":  {`!-/:-@\[-` + "`" + `{-~`, `!-/:-@\[-` + "`" + `{-~\p{P}\p{S}`},
	"cntrl":  {`\x00-\x1F\x7F`, `\x00-\x1F\x7F-\x{9F}\x{2028}\x{2029}`},
	"print":  {`\x20-\x7E`, `\x20-\x7E\x{A0}-\x{10FFFF}`},
	"graph":  {`\x21-\x7E`, `\x21-\x7E\x{A1}-\x{10FFFF}`},
}

// bracket parses a POSIX bracket expression at t.i.
func (t *translator) bracket() (string, error) {
	unmatched := &reError{"Unmatched [, [^, [:, [., or [="}
	start := t.i
	t.i++
	negate := false
	if t.i < len(t.p) && t.p[t.i] == '^' {
		negate = true
		t.i++
	}
	if t.i >= len(t.p) {
		return "", &reError{"Invalid regular expression"}
	}
	var items strings.Builder
	first := true
	for {
		if t.i >= len(t.p) {
			return "", unmatched
		}
		c := t.p[t.i]
		if c == ']' && !first {
			t.i++
			break
		}
		first = false
		if c == '[' && t.i+1 < len(t.p) && (t.p[t.i+1] == ':' || t.p[t.i+1] == '=' || t.p[t.i+1] == '.') {
			kind := t.p[t.i+1]
			end := strings.Index(t.p[t.i+2:], string(kind)+"]")
			if end < 0 {
				return "", unmatched
			}
			name := t.p[t.i+2 : t.i+2+end]
			t.i += 2 + end + 2
			switch kind {
			case ':':
				cls, ok := posixClasses[name]
				if !ok {
					return "", &reError{"Invalid character class name"}
				}
				if t.utf8 {
					items.WriteString(cls[1])
				} else {
					items.WriteString(cls[0])
				}
			default: // [=c=] and [.c.]: a single character stands for itself
				r, size := utf8.DecodeRuneInString(name)
				if size != len(name) || name == "" {
					return "", &reError{"Invalid collation character"}
				}
				items.WriteString(classRune(r))
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(t.p[t.i:])
		if r == utf8.RuneError && size == 1 {
			r = utf8.RuneError
		}
		t.i += size
		// A range a-z (a '-' before the closing ] is literal).
		if t.i+1 < len(t.p) && t.p[t.i] == '-' && t.p[t.i+1] != ']' {
			t.i++
			var hi rune
			if t.p[t.i] == '[' && t.i+1 < len(t.p) && (t.p[t.i+1] == '.' || t.p[t.i+1] == '=') {
				kind := t.p[t.i+1]
				end := strings.Index(t.p[t.i+2:], string(kind)+"]")
				if end < 0 {
					return "", unmatched
				}
				name := t.p[t.i+2 : t.i+2+end]
				t.i += 2 + end + 2
				var hs int
				hi, hs = utf8.DecodeRuneInString(name)
				if hs != len(name) {
					return "", &reError{"Invalid collation character"}
				}
			} else {
				var hs int
				hi, hs = utf8.DecodeRuneInString(t.p[t.i:])
				t.i += hs
			}
			if hi < r {
				return "", &reError{"Invalid range end"}
			}
			items.WriteString(classRune(r) + "-" + classRune(hi))
			continue
		}
		items.WriteString(classRune(r))
	}
	// "[:alpha:]" written without the outer brackets is GNU's own error.
	if whole := t.p[start:t.i]; len(whole) >= 4 && whole[1] == ':' && whole[len(whole)-2] == ':' {
		return "", &reError{"character class syntax is [[:space:]], not [:space:]"}
	}
	if negate {
		return `[^\n` + items.String() + "]", nil
	}
	if items.Len() == 0 {
		return `[^\x00-\x{10FFFF}]`, nil
	}
	return "[" + items.String() + "]", nil
}

// classRune writes r for use inside an RE2 character class.
func classRune(r rune) string {
	if r < utf8.RuneSelf && (r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
		return string(r)
	}
	return fmt.Sprintf(`\x{%X}`, r)
}

// quoteLiteral quotes s for RE2, writing invalid UTF-8 bytes as U+FFFD
// (which Go's regexp matches against any invalid byte).
func quoteLiteral(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x{FFFD}`)
		case r == 0:
			b.WriteString(`\x00`)
		case strings.ContainsRune(`\.+*?()|[]{}^$`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
