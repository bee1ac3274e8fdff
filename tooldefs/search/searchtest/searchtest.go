// Package searchtest builds file trees for the search engines' tests and
// runs ripgrep on them, for differential tests. It is imported by tests
// only.
package searchtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Write creates the files of tree under dir: keys are slash-separated
// relative paths, values contents. A key ending in "/" makes a directory.
// Parent directories are created.
func Write(dir string, tree map[string]string) error {
	for rel, content := range tree {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// SnapshotRepo copies the committed tree of the git repository at repo
// (HEAD, via git archive) into dir and marks dir as a repository, so that
// a differential test sees a tree nobody edits while it runs.
func SnapshotRepo(repo, dir string) error {
	archive := exec.Command("git", "-C", repo, "archive", "--format=tar", "HEAD")
	extract := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	extract.Stdin = pipe
	if err := extract.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive: %w", err)
	}
	if err := extract.Wait(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	return Write(dir, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
}

// RGPath is the path of ripgrep, or "" when it is not installed.
func RGPath() string {
	p, err := exec.LookPath("rg")
	if err != nil {
		return ""
	}
	return p
}

// RG runs ripgrep in dir with --sort path (deterministic, single-threaded
// output), no config file and no global gitignore, and returns its output
// lines. Exit status 1 (no match) is not an error.
func RG(dir string, args ...string) ([]string, error) {
	full := append([]string{"--sort", "path", "--no-config", "--no-ignore-global"}, args...)
	cmd := exec.Command("rg", full...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && (ee.ExitCode() == 1 ||
		ee.ExitCode() == 2 && strings.Contains(stderr.String(), "No files were searched")) {
		// 1: no match; 2 with this message: every file filtered out.
		err = nil
	}
	if err != nil {
		return nil, fmt.Errorf("rg %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return Lines(out), nil
}

// Lines splits output into lines without the final terminator.
func Lines(out []byte) []string {
	s := strings.TrimSuffix(string(out), "\n")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

var words = []string{
	"func", "return", "err", "nil", "if", "for", "range", "TODO", "FIXME", "Error",
	"error", "ERROR", "handle", "parse", "Parse", "config", "Config", "value", "key",
	"struct", "{", "}", "(", ")", "interface{}", "main", "http", "HTTP", "Kelvin",
	"straße", "naïve", "café", "日本語", "foo", "bar", "baz", "foo_bar", "x", "y",
	"=", ":=", "==", "//", "#", "ask", "SKIP", "s", "k", "0x1F", "42", "3.14",
	"\t", "  ", "name:", "\"quoted\"", "path/to/file", "a.b.c", "user@example.com",
}

// Generate writes a pseudo-random tree under dir from seed: nested
// directories, source-like text files (some CRLF, some without a final
// newline, some with long lines), binary files, hidden files and
// directories, symbolic links, a git repository with nested .gitignore
// files (negations, directory-only and anchored rules), .ignore files and
// .git/info/exclude. Modification times are spread so that "newest first"
// orders are deterministic.
func Generate(dir string, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	tree := map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		".git/config":       "[core]\n\tbare = false\n",
		".git/info/exclude": "# local excludes\nexcluded.txt\n*.tmp\n",
		".gitignore": "# top level\n*.log\nbuild/\n/rootonly.txt\ndocs/*.gen.md\n!keep.log\n" +
			"vendor/\n\\#hash.txt\ntrailing.txt   \n",
		".ignore":                 "ignored_by_dot_ignore/\n",
		"rootonly.txt":            "func rootonly\n",
		"sub/rootonly.txt":        "func not anchored here\n",
		"keep.log":                "func kept by negation\n",
		"drop.log":                "func dropped\n",
		"excluded.txt":            "func excluded via info/exclude\n",
		"scratch.tmp":             "func tmp\n",
		"#hash.txt":               "func hash\n",
		"trailing.txt":            "func trailing spaces rule\n",
		"build/out.go":            "func built\n",
		"docs/a.gen.md":           "func generated doc\n",
		"docs/a.md":               "func real doc\n",
		"docs/deep/a.gen.md":      "func deep generated doc (not matched by docs/*.gen.md)\n",
		"vendor/lib.go":           "func vendored\n",
		"ignored_by_dot_ignore/x": "func dot ignore\n",
		".hidden.go":              "func hidden file\n",
		".hiddendir/inner.go":     "func in hidden dir\n",
		"pkg/.gitignore":          "*.out\n!important.out\nsecret/\n/local.go\n",
		"pkg/a.out":               "func out\n",
		"pkg/important.out":       "func important\n",
		"pkg/secret/s.go":         "func secret\n",
		"pkg/local.go":            "func local\n",
		"pkg/inner/local.go":      "func inner local\n",
		"pkg/inner/.gitignore":    "!*.out\n",
		"pkg/inner/b.out":         "func re-included\n",
		"nested/.git/HEAD":        "ref: refs/heads/main\n",
		"nested/drop.log":         "func nested repo log: top .gitignore must not apply\n",
		"nested/.gitignore":       "*.txt\n",
		"nested/n.txt":            "func nested txt\n",
		"nested/n.go":             "func nested go\n",
		"crlf.txt":                "func crlf\r\nline two\r\nfunc three\r\n",
		"nonl.txt":                "no newline\nfunc last",
		"empty.txt":               "",
		"binary.bin":              "func\x00binary\n",
		"Makefile":                "all:\n\tgo build ./...\n",
		"script.sh":               "#!/bin/sh\necho func\n",
		"web/app.js":              "function handle() { return err }\n",
		"web/app.ts":              "function parse(): Error {}\n",
		"py/mod.py":               "def func():\n    return None\n",
		"conf/c.yaml":             "key: value\nfunc: x\n",
		"conf/c.json":             "{\"func\": 1}\n",
		"src/lib.rs":              "fn main() { let err = 1; }\n",
		"src/x.c":                 "int func(void) { return 0; }\n",
		"src/x.h":                 "int func(void);\n",
		"src/x.cpp":               "int func() { return 0; }\n",
		"README.md":               "# func docs\nTODO: write\n",
		"a.b/x.txt":               "func dotted dir\n",
		"a/x.txt":                 "func plain dir\n",
		"unicode/k.txt":           "KELVIN \u212a sign\nlong \u017f s\nplain k and s\n",
	}
	// Random source-like files.
	for i := 0; i < 60; i++ {
		depth := r.IntN(4)
		parts := []string{}
		for d := 0; d < depth; d++ {
			parts = append(parts, fmt.Sprintf("d%d", r.IntN(5)))
		}
		ext := []string{".go", ".txt", ".py", ".md", ".js", ".log", ".out"}[r.IntN(7)]
		parts = append(parts, fmt.Sprintf("f%d%s", i, ext))
		var b strings.Builder
		nl := "\n"
		if r.IntN(10) == 0 {
			nl = "\r\n"
		}
		lines := r.IntN(80)
		for l := 0; l < lines; l++ {
			n := r.IntN(12)
			if r.IntN(40) == 0 {
				n = 150 // a long line (> 500 columns)
			}
			for w := 0; w < n; w++ {
				if w > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(words[r.IntN(len(words))])
			}
			if l < lines-1 || r.IntN(5) != 0 {
				b.WriteString(nl)
			}
		}
		tree[strings.Join(parts, "/")] = b.String()
	}
	// A large file with a NUL byte past ripgrep's first 64 KiB buffer.
	var big strings.Builder
	big.WriteString("an early func line\n")
	for big.Len() < 150<<10 {
		fmt.Fprintf(&big, "filler line %d\n", big.Len())
	}
	big.WriteString("tail\x00binary part func\nfunc after nul\n")
	tree["big/late_nul.txt"] = big.String()
	if err := Write(dir, tree); err != nil {
		return err
	}
	if err := os.Symlink("a/x.txt", filepath.Join(dir, "link.txt")); err != nil {
		return err
	}
	if err := os.Symlink("web", filepath.Join(dir, "linkdir")); err != nil {
		return err
	}
	// Spread modification times: one second apart, in path order.
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	return filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.Mode()&os.ModeSymlink != 0 {
			return err
		}
		i++
		t := base.Add(time.Duration((i*7919)%10007) * time.Second)
		return os.Chtimes(p, t, t)
	})
}
