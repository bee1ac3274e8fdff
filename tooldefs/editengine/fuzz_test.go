package editengine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/tooldefs/editengine"
)

// FuzzReplace checks Apply's invariants on arbitrary inputs (seeds in
// testdata/fuzz/FuzzReplace):
//   - it never panics and errors are the documented ones;
//   - an exact, unadapted match gives what strings.Replace/ReplaceAll give,
//     and replaces strings.Count occurrences;
//   - with replace_all, no occurrence of old is left at a place that was
//     not produced by the replacement (checked by re-running on the
//     original with a marker: every original occurrence was replaced);
//   - a file with only CRLF line endings, edited with strings free of CR,
//     still has only CRLF line endings;
//   - "not found" means not found, and a quoted closest region is made of
//     the file's own lines.
//
// Note: "the result contains no old_string" does not hold in general even
// when new lacks old: replacing "ab" by "" in "aabb" leaves "ab", formed by
// the text around the removed occurrence (Claude Code's replaceAll behaves
// the same), so the marker check is used instead.
func FuzzReplace(f *testing.F) {
	f.Add("hello world\n", "world", "there", false)
	f.Add("a a a\n", "a", "b", true)
	f.Add("a a a\n", "a", "b", false)
	f.Add("one\r\ntwo\r\nthree\r\n", "one\ntwo", "1\n2\n3", false)
	f.Add("x\r\ny\r\n", "\ny", "", false)
	f.Add("aabb", "ab", "", true)
	f.Add("She said “hi”\n", `said "hi"`, `said "bye"`, false)
	f.Add("", "x", "y", false)
	f.Add("abc", "abc", "abc", false)
	f.Add("\xff\xfe“", "\"", "'", true)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		r, err := editengine.Apply(content, editengine.Edit{Old: old, New: new, ReplaceAll: all})
		var nf *editengine.NotFoundError
		var amb *editengine.AmbiguousError
		switch {
		case err == nil:
		case errors.Is(err, editengine.ErrEmptyOld):
			if old != "" {
				t.Fatalf("ErrEmptyOld for old %q", old)
			}
			return
		case errors.Is(err, editengine.ErrNoChange):
			if old != new {
				t.Fatalf("ErrNoChange for %q -> %q", old, new)
			}
			return
		case errors.As(err, &amb):
			if all || amb.Count < 2 {
				t.Fatalf("ambiguous error with replace_all=%v count=%d", all, amb.Count)
			}
			return
		case errors.As(err, &nf):
			if strings.Contains(content, old) {
				t.Fatalf("not found, but %q contains %q", content, old)
			}
			if nf.Closest != nil {
				lines := strings.Split(content, "\n")
				for i, l := range nf.Closest.Lines {
					if n := nf.Closest.StartLine - 1 + i; n >= len(lines) || strings.TrimSuffix(lines[n], "\r") != l {
						t.Fatalf("closest region line %d %q is not the file's line", n+1, l)
					}
				}
			}
			_ = err.Error()
			return
		default:
			t.Fatalf("unexpected error %v", err)
		}

		if r.Count < 1 || (!all && r.Count != 1) {
			t.Fatalf("count %d with replace_all=%v", r.Count, all)
		}
		if !r.QuotesNormalized && r.ActualOld == old && r.ActualNew == new {
			if n := strings.Count(content, old); n != r.Count {
				t.Fatalf("replaced %d, strings.Count says %d", r.Count, n)
			}
			want := strings.Replace(content, old, new, 1)
			if all {
				want = strings.ReplaceAll(content, old, new)
			}
			if r.Content != want {
				t.Fatalf("content %q, want %q", r.Content, want)
			}
			if all && !strings.Contains(new, old) {
				// Every original occurrence was replaced: replacing old by a
				// marker that cannot occur in content leaves no old that
				// does not touch a marker.
				const marker = "\x00\x01MARK\x01\x00"
				if !strings.Contains(content, marker) && !strings.Contains(old, "\x00") {
					marked := strings.ReplaceAll(content, old, marker)
					for _, piece := range strings.Split(marked, marker) {
						if strings.Contains(piece, old) {
							t.Fatalf("occurrence of %q left in %q", old, piece)
						}
					}
				}
			}
		}
		if onlyCRLF(content) && !strings.Contains(old, "\r") && !strings.Contains(new, "\r") {
			if !onlyCRLF(r.Content) && strings.Contains(r.Content, "\n") {
				t.Fatalf("CRLF file %q became %q", content, r.Content)
			}
		}
	})
}

// onlyCRLF reports whether s has line breaks, all CRLF, and no lone CR.
func onlyCRLF(s string) bool {
	n := strings.Count(s, "\n")
	return n > 0 && strings.Count(s, "\r\n") == n && strings.Count(s, "\r") == n
}

// FuzzLineDiff checks that a diff's sides rebuild both texts.
func FuzzLineDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd\n")
	f.Add("", "x\n")
	f.Add("same", "same")
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.Contains(a, "\r") || strings.Contains(b, "\r") {
			return // CRs are dropped from line ends by design
		}
		ops := editengine.LineDiff(a, b)
		got := reconstructT(ops)
		if got[0] != norm(a) || got[1] != norm(b) {
			t.Fatalf("diff of %q and %q rebuilds %q", a, b, got)
		}
		_ = editengine.Unified(ops, "a", "b", 3)
	})
}

// norm is s with a final LF, as reconstructT joins lines.
func norm(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func reconstructT(ops []editengine.Op) [2]string {
	var a, b strings.Builder
	for _, o := range ops {
		if o.Kind != editengine.Insert {
			a.WriteString(o.Line + "\n")
		}
		if o.Kind != editengine.Delete {
			b.WriteString(o.Line + "\n")
		}
	}
	return [2]string{a.String(), b.String()}
}
