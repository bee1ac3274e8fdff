package walk

import "testing"

// FuzzPattern feeds arbitrary globs and ignore files to the compilers:
// they must answer with a pattern or an error, never panic, and a
// compiled literal glob must match itself.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{"*.go", "**/a/**/b", "[!a-c]?{x,y{z,w}}", `\*`, "[", "{", "a/**", "**", "!keep.log\n/build/\n#c\n\\#h"} {
		f.Add(s, "a/b/c.go")
	}
	f.Fuzz(func(t *testing.T, glob, path string) {
		if p, err := CompilePattern(glob); err == nil {
			p.Match(path)
			if !hasMeta(glob) && !p.Match(glob) {
				t.Fatalf("literal glob %q does not match itself", glob)
			}
		}
		ParseIgnore([]byte(glob)).Match(path, false)
		if o, err := compileOverrides([]string{glob}); err == nil {
			o.match(path, true)
		}
	})
}
