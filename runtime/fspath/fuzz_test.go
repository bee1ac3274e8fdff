package fspath_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentcore/agentcore/runtime/fspath"
)

// FuzzConfine joins arbitrary relative paths (with .., symlinks in and out
// of the root, dangling links) to a root and checks that whatever Confine
// accepts really lies inside the root, and never in the directory next to
// it.
func FuzzConfine(f *testing.F) {
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	links := map[string]string{
		"out":      outside,
		"in":       filepath.Join(root, "sub"),
		"rel-out":  "../outside",
		"dangling": filepath.Join(outside, "nothing", "here"),
		"sub/up":   "..",
		"loop":     filepath.Join(root, "loop"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			f.Fatal(err)
		}
	}
	for _, s := range []string{"a.go", "../outside/x", "out/x", "in/../../outside", "rel-out/y", "dangling", "sub/up/sub/up/../outside", "loop/x", "sub/./../sub/new/file"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		p := filepath.Join(root, rel)
		real, err := fspath.Confine(p, []string{root})
		if err != nil {
			return
		}
		if !fspath.Within(real, root) {
			t.Fatalf("Confine(%q) = %q, outside %q", p, real, root)
		}
		if fspath.Within(real, outside) {
			t.Fatalf("Confine(%q) = %q, inside the outside directory", p, real)
		}
	})
}
