package grepengine

import (
	"bytes"
	"regexp"
	"testing"
)

// FuzzLineSearch checks the prefiltered line search against a naive one:
// every line run through the regexp. Any difference is a prefilter bug
// (a literal wrongly required, a case variant missed).
func FuzzLineSearch(f *testing.F) {
	seeds := []struct {
		pattern string
		content string
		fold    bool
	}{
		{"hello", "say hello\nno\nHELLO\n", false},
		{"hello", "say hello\nno\nHELLO\n", true},
		{`func\s+\w+Error`, "func fooError()\nfunc  x\n", false},
		{"k sign", "\u212a sign\nK SIGN\n", true},
		{"mask", "MASK\nma\u017fk\n", true},
		{`^\s*#`, "  # c\nx # y\n", false},
		{`(TODO|FIXME):?`, "TODO: a\nFIXME\nfix\n", false},
		{`a*`, "\n\nb\n", false},
		{`err$`, "return err\r\nerr\n", false},
		{`\d+`, "x \u0663\n12\n", false},
		{`qux{2,3}`, "quxx\nquxxxx\n", false},
		{"ß", "STRASSE\nstraße\n", true},
	}
	for _, s := range seeds {
		f.Add(s.pattern, []byte(s.content), s.fold)
	}
	f.Fuzz(func(t *testing.T, pattern string, content []byte, fold bool) {
		if bytes.IndexByte(content, 0) >= 0 || len(pattern) > 64 {
			return
		}
		s, err := New(Options{Pattern: pattern, IgnoreCase: fold, Mode: Count})
		if err != nil {
			return // a clear error is fine; a panic is not
		}
		fr, _ := s.searchBytes(content)
		prefix := "(?m)"
		if fold {
			prefix = "(?mi)"
		}
		ref, err := regexp.Compile(prefix + unicodeClasses(pattern))
		if err != nil {
			t.Fatalf("engine accepted %q but the reference does not compile: %v", pattern, err)
		}
		want := 0
		lines := bytes.Split(content, []byte("\n"))
		if len(content) > 0 && content[len(content)-1] == '\n' {
			lines = lines[:len(lines)-1]
		}
		if len(content) == 0 {
			lines = nil
		}
		for _, l := range lines {
			if ref.Match(l) {
				want++
			}
		}
		if fr.Count != want {
			t.Fatalf("pattern %q fold=%v on %q: engine counted %d lines, naive %d", pattern, fold, content, fr.Count, want)
		}
	})
}
