package shellsyntax

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Word is one word of a command, evaluated as far as the parser can.
type Word struct {
	// Value is the word after quote removal. Parts only known at run time
	// ($x, $(…)) are kept in their source form.
	Value string
	// Source is the word as written when it is not Literal, "" otherwise
	// (Value says all): what a rendering that must keep word boundaries
	// visible shows for it.
	Source string
	// Literal is true when Value is the word's text: no parameter
	// expansion, substitution or $"…". Pathname, brace and tilde expansion
	// may still change it.
	Literal bool
	// Static is true when Value is exactly what the program receives:
	// Literal, and nothing for pathname, brace or tilde expansion.
	Static bool
}

// placeholder stands for a quoted or dynamic part in the text the
// expansion check scans: it is none of the characters that expand.
const placeholder = 0

// EvalWord evaluates w: quote removal, $'…' escapes and backslashes (see
// the package doc). A nil word is the empty literal.
func EvalWord(w *syntax.Word) Word {
	if w == nil {
		return Word{Literal: true, Static: true}
	}
	if len(w.Parts) == 1 {
		// The common case, a plain word, without building anything.
		if lit, ok := w.Parts[0].(*syntax.Lit); ok {
			return Word{Value: unescape(lit.Value, false), Literal: true, Static: !expands(lit.Value)}
		}
	}
	var value, unquoted strings.Builder
	literal := true
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			value.WriteString(unescape(p.Value, false))
			unquoted.WriteString(p.Value)
			continue
		case *syntax.SglQuoted:
			if p.Dollar {
				value.WriteString(ansiC(p.Value))
			} else {
				value.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				literal = false // $"…" is translated at run time
			}
			for _, q := range p.Parts {
				if lit, ok := q.(*syntax.Lit); ok {
					value.WriteString(unescape(lit.Value, true))
				} else {
					value.WriteString(source(q))
					literal = false
				}
			}
		default:
			// Parameter, arithmetic, command and process substitutions,
			// extended globs: the value is only known at run time.
			value.WriteString(source(part))
			literal = false
		}
		unquoted.WriteByte(placeholder)
	}
	out := Word{Value: value.String(), Literal: literal}
	if literal {
		out.Static = !expands(unquoted.String())
	} else {
		out.Source = source(w)
	}
	return out
}

// expands reports whether the unquoted text of a word (quoted and dynamic
// parts replaced by placeholder) holds an unescaped character that makes
// bash expand the word: a glob (*, ?, […]), a brace expansion ({a,b},
// {1..3}) or a tilde at the start or after = or :. It errs towards yes
// and is linear in the length of s.
func expands(s string) bool {
	bracket, brace := false, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // escaped: literal
		case '*', '?':
			return true
		case '[':
			bracket = true
		case ']':
			if bracket {
				return true
			}
		case '{':
			brace = true
		case ',':
			if brace {
				return true
			}
		case '.':
			if brace && i+1 < len(s) && s[i+1] == '.' {
				return true
			}
		case '~':
			if i == 0 || s[i-1] == '=' || s[i-1] == ':' {
				return true
			}
		}
	}
	return false
}

// unescape removes the backslashes bash removes from a literal: outside
// quotes every backslash escapes the next character, inside double quotes
// only $ ` " \ and newline are escaped; a backslash-newline disappears.
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
		case !quoted, next == '$', next == '`', next == '"', next == '\\':
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ansiC decodes the body of a $'…' string as bash does in a UTF-8 locale
// (lib/sh/strtrans.c): the value ends at the first NUL, as the C string
// bash passes on does.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'c':
			if i+1 >= len(s) {
				b.WriteString(`\c`)
				continue
			}
			i++
			x := s[i]
			if x == '\\' && i+1 < len(s) && s[i+1] == '\\' {
				i++ // \c\\ is control-backslash
			}
			b.WriteByte(control(x))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			// Up to three octal digits; the value is taken modulo 256.
			v := int(e - '0')
			for n := 0; n < 2 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
				i++
				v = v*8 + int(s[i]-'0')
			}
			b.WriteByte(byte(v))
		case 'x':
			if i+1 < len(s) && s[i+1] == '{' {
				// \x{H…}: any number of hex digits, modulo 256, an
				// optional closing brace.
				i++
				v := 0
				for i+1 < len(s) && hexDigit(s[i+1]) >= 0 {
					i++
					v = (v*16 + hexDigit(s[i])) & 0xff
				}
				if i+1 < len(s) && s[i+1] == '}' {
					i++
				}
				b.WriteByte(byte(v))
				continue
			}
			v, n := hexRun(s[i+1:], 2)
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			i += n
			b.WriteByte(byte(v))
		case 'u', 'U':
			max := 4
			if e == 'U' {
				max = 8
			}
			v, n := hexRun(s[i+1:], max)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			i += n
			writeUTF8(&b, v)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	out := b.String()
	if end := strings.IndexByte(out, 0); end >= 0 {
		out = out[:end]
	}
	return out
}

// control is the control character \cX stands for.
func control(x byte) byte {
	if x == '?' {
		return 0x7f
	}
	if x >= 'a' && x <= 'z' {
		x -= 'a' - 'A'
	}
	return x & 0x1f
}

// hexRun reads up to max hex digits from the start of s and returns their
// value and how many it read.
func hexRun(s string, max int) (uint32, int) {
	var v uint32
	n := 0
	for n < max && n < len(s) && hexDigit(s[n]) >= 0 {
		v = v*16 + uint32(hexDigit(s[n]))
		n++
	}
	return v, n
}

// hexDigit is the value of a hex digit, or -1.
func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// writeUTF8 writes v in the original UTF-8 encoding bash uses for \u and
// \U, which also covers surrogates and values up to 0x7fffffff (longer
// ones give nothing).
func writeUTF8(b *strings.Builder, v uint32) {
	if v < 0x80 {
		b.WriteByte(byte(v))
		return
	}
	if v > 0x7fffffff {
		return
	}
	// n bytes carry 5n+1 bits of payload (11 for two, 31 for six).
	n := 2
	for n < 6 && v >= 1<<(5*n+1) {
		n++
	}
	var buf [6]byte
	for k := n - 1; k > 0; k-- {
		buf[k] = 0x80 | byte(v&0x3f)
		v >>= 6
	}
	buf[0] = byte(0xff<<(8-n)) | byte(v)
	b.Write(buf[:n])
}
