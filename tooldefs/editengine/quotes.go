package editengine

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Typographic quotes that NormalizeQuotes maps to their ASCII forms.
const (
	leftSingle  = '\u2018' // ‘
	rightSingle = '\u2019' // ’
	leftDouble  = '\u201C' // “
	rightDouble = '\u201D' // ”
)

// straight returns the ASCII quote for a curly one, or r itself.
func straight(r rune) rune {
	switch r {
	case leftSingle, rightSingle:
		return '\''
	case leftDouble, rightDouble:
		return '"'
	}
	return r
}

// hasCurly reports whether s contains a typographic quote.
func hasCurly(s string) bool {
	return strings.ContainsAny(s, "\u2018\u2019\u201C\u201D")
}

// NormalizeQuotes replaces curly quotes with straight ones.
func NormalizeQuotes(s string) string {
	if !hasCurly(s) {
		return s
	}
	return strings.Map(straight, s)
}

// normalized is a quote-normalised copy of a text with, for each of its
// byte offsets, the offset in the original.
type normalized struct {
	text string
	orig []int // len(text)+1 entries
}

func normalize(s string) normalized {
	var b strings.Builder
	b.Grow(len(s))
	orig := make([]int, 0, len(s)+1)
	for i, r := range s {
		n := straight(r)
		if n != r {
			b.WriteByte(byte(n))
			orig = append(orig, i)
			continue
		}
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
		} else {
			b.WriteRune(r)
		}
		for k := 0; k < size; k++ {
			orig = append(orig, i+k)
		}
	}
	orig = append(orig, len(s))
	return normalized{text: b.String(), orig: orig}
}

// applyQuoteStyle rewrites the straight quotes of s in the typographic
// style the file uses (as seen in actual, the text matched in the file), so
// an edit made with straight quotes does not flatten the file's curly ones.
func applyQuoteStyle(s, actual string) string {
	curlyDouble := strings.ContainsAny(actual, "\u201C\u201D")
	curlySingle := strings.ContainsAny(actual, "\u2018\u2019")
	if !curlyDouble && !curlySingle {
		return s
	}
	runes := []rune(s)
	out := make([]rune, len(runes))
	for i, r := range runes {
		out[i] = r
		var prev, next rune = ' ', ' '
		if i > 0 {
			prev = runes[i-1]
		}
		if i+1 < len(runes) {
			next = runes[i+1]
		}
		opening := unicode.IsSpace(prev) || strings.ContainsRune("([{<-\u2014\u2013", prev)
		switch {
		case r == '"' && curlyDouble:
			if opening {
				out[i] = leftDouble
			} else {
				out[i] = rightDouble
			}
		case r == '\'' && curlySingle:
			switch {
			case unicode.IsLetter(prev) && unicode.IsLetter(next):
				out[i] = rightSingle // an apostrophe: don’t
			case opening:
				out[i] = leftSingle
			default:
				out[i] = rightSingle
			}
		}
	}
	return string(out)
}
