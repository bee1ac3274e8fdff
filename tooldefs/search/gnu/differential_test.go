package gnu_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/multicall"
)

// The differential specs run each command twice in the same directory —
// once as GNU grep or find, once as the embedded one (this suite's binary
// through multicall's links) — and want the same stdout, byte for byte,
// and the same exit status. The corpus is real files: a tree built here
// with the awkward cases (binary files, invalid UTF-8, CRLF, no final
// newline, symbolic links to files and directories and nowhere, hidden and
// deep directories, set sizes and modification times) plus a copy of part
// of GOROOT/src; a few commands search all of GOROOT/src in place.

// run is one command's outcome.
type run struct {
	stdout, stderr string
	code           int
}

func execIn(dir, bin string, env []string, args ...string) run {
	GinkgoHelper()
	cmd := exec.Command(bin, args...)
	cmd.Args[0] = filepath.Base(bin) // GNU's messages start with argv[0]
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		Fail(fmt.Sprintf("run %s %q: %v", bin, args, err))
	}
	return run{stdout.String(), stderr.String(), code}
}

// gnuTool returns the path of the GNU program prog ("grep", "find"), or ""
// when the one on PATH is missing or not GNU's.
func gnuTool(prog string) string {
	p, err := exec.LookPath(prog)
	if err != nil {
		return ""
	}
	out, err := exec.Command(p, "--version").Output()
	if err != nil || !bytes.Contains(out, []byte("GNU")) {
		return ""
	}
	return p
}

// corpusFile is one file of the built tree.
type corpusFile struct {
	path string
	data string
	age  time.Duration // modification time this long ago (0: now)
}

var corpusFiles = []corpusFile{
	{path: "a.txt", data: "foo\nFoo bar\nFOO BAR baz\nfoobar\nbar foo baz\nnothing here\na.b and axb\naab aaab\n"},
	{path: "b.md", data: "# Title\n\nSome foo, some bar.\n\n- item foo\n- item bar\n", age: 3 * 24 * time.Hour},
	{path: "crlf.txt", data: "foo\r\nbar\r\nbaz foo\r\n"},
	{path: "nonl.txt", data: "line one\nfoo without a final newline"},
	{path: "empty.txt", data: ""},
	{path: "with space.txt", data: "foo in a file with a space\n"},
	{path: "latin1.txt", data: "caf\xe9 foo\nplain foo\n"},
	{path: "unicode.txt", data: "Ünïcödé foo\nnaïve FOO\nπ = 3.14\n"},
	{path: "bin/blob.bin", data: "header\x00\x01\x02foo\x00tail foo\n"},
	{path: "bin/image.png", data: "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR foo"},
	{path: "bin/late-nul.dat", data: strings.Repeat("text foo line\n", 3000) + "\x00end\n"},
	{path: "src/main.go", data: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"foo\")\n}\n"},
	{path: "src/util/helper.go", data: "package util\n\n// Foo returns foo.\nfunc Foo() string { return \"foo\" }\n\nfunc bar() int { return 42 }\n"},
	{path: "src/util/helper_test.go", data: "package util\n\nimport \"testing\"\n\nfunc TestFoo(t *testing.T) {\n\tif Foo() != \"foo\" {\n\t\tt.Fatal(\"no foo\")\n\t}\n}\n"},
	{path: "deep/a/b/c/d/e.txt", data: "deep foo\n", age: 10 * 24 * time.Hour},
	{path: "deep/a/b/x.txt", data: "x\n", age: 40 * 24 * time.Hour},
	{path: ".hidden/secret.txt", data: "hidden foo\n"},
	{path: "node_modules/pkg/index.js", data: "module.exports = 'foo';\n"},
	{path: "logs/big.log", data: strings.Repeat("INFO request served\nWARN slow foo\nERROR failed bar\n", 400)},
	{path: "sizes/one-k", data: strings.Repeat("k", 1024)},
	{path: "sizes/ten-k", data: strings.Repeat("0123456789\n", 1000)},
	{path: "sizes/tiny", data: "x"},
	{path: "old/ref.txt", data: "reference\n", age: 5 * 24 * time.Hour},
	{path: "old/older.txt", data: "older foo\n", age: 8 * 24 * time.Hour},
	{path: "old/new.txt", data: "new foo\n", age: time.Hour},
}

// gorootSubset are the GOROOT/src directories copied into gosrc/.
var gorootSubset = []string{"bufio", "strings", "regexp", "encoding/json", "archive/zip"}

func buildCorpus(dir, gorootSrc string) {
	GinkgoHelper()
	now := time.Now()
	for _, f := range corpusFiles {
		p := filepath.Join(dir, f.path)
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(f.data), 0o644)).To(Succeed())
		if f.age > 0 {
			Expect(os.Chtimes(p, now.Add(-f.age), now.Add(-f.age))).To(Succeed())
		}
	}
	Expect(os.Symlink("a.txt", filepath.Join(dir, "link-to-a.txt"))).To(Succeed())
	Expect(os.Symlink("src", filepath.Join(dir, "link-dir"))).To(Succeed())
	Expect(os.Symlink("nowhere", filepath.Join(dir, "dangling"))).To(Succeed())
	Expect(os.Mkdir(filepath.Join(dir, "emptydir"), 0o755)).To(Succeed())
	for _, sub := range gorootSubset {
		copyTree(filepath.Join(gorootSrc, sub), filepath.Join(dir, "gosrc", sub))
	}
}

func copyTree(from, to string) {
	GinkgoHelper()
	Expect(filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			out, err := os.Create(dst)
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, in); err != nil {
				out.Close()
				return err
			}
			return out.Close()
		}
		return nil
	})).To(Succeed())
}

var _ = Describe("grep and find against GNU's", Ordered, ContinueOnFailure, Label("differential"), func() {
	var (
		gnuGrep, gnuFind string
		links            string // the embedded grep and find
		corpus, goroot   string
	)

	BeforeAll(func() {
		gnuGrep, gnuFind = tooltest.Need(tooltest.GNUGrep), tooltest.Need(tooltest.GNUFind)
		var err error
		links, err = multicall.NewDir()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.RemoveAll, links)
		for _, prog := range []string{"grep", "find"} {
			// The links run the embedded programs, not GNU's.
			v := execIn(links, filepath.Join(links, prog), nil, "--version")
			Expect(v.stdout).To(HavePrefix(prog + " (agentcore embedded " + prog + ")"))
			sys := map[string]string{"grep": gnuGrep, "find": gnuFind}[prog]
			v = execIn(links, sys, nil, "--version")
			GinkgoWriter.Printf("against %s", strings.SplitAfter(v.stdout, "\n")[0])
		}
		out, err := exec.Command("go", "env", "GOROOT").Output()
		Expect(err).NotTo(HaveOccurred())
		goroot = filepath.Join(strings.TrimSpace(string(out)), "src")
		corpus, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		buildCorpus(corpus, goroot)
	})

	// same runs args in dir (relative to the corpus; "$GOROOT" for
	// GOROOT/src) under both programs and both locales.
	same := func(prog, dir string, args ...string) {
		GinkgoHelper()
		switch {
		case dir == "$GOROOT":
			dir = goroot
		default:
			dir = filepath.Join(corpus, dir)
		}
		sys := map[string]string{"grep": gnuGrep, "find": gnuFind}[prog]
		locales := []string{"C", "C.UTF-8"}
		if dir == goroot {
			locales = locales[1:] // the whole tree once: under -race it is slow
		}
		for _, locale := range locales {
			env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=" + locale, "TZ=UTC"}
			want := execIn(dir, sys, env, args...)
			got := execIn(dir, filepath.Join(links, prog), env, args...)
			Expect(got.code).To(Equal(want.code), "%s %q (LC_ALL=%s): exit status\nGNU stderr: %s\nembedded stderr: %s", prog, args, locale, want.stderr, got.stderr)
			if got.stdout != want.stdout {
				Fail(fmt.Sprintf("%s %q in %s (LC_ALL=%s): stdout differs from GNU's\n%s", prog, args, dir, locale, firstDifference(want.stdout, got.stdout)))
			}
			Expect(got.stderr).To(Equal(want.stderr), "%s %q (LC_ALL=%s): stderr", prog, args, locale)
		}
	}

	DescribeTable("grep", func(dir string, args ...string) {
		same("grep", dir, args...)
	},
		Entry(nil, ".", "-rn", "foo", "."),
		Entry(nil, ".", "-rn", "foo"),
		Entry(nil, ".", "-rni", "foo", "."),
		Entry(nil, ".", "-rl", "foo", "."),
		Entry(nil, ".", "-rL", "foo", "."),
		Entry(nil, ".", "-rc", "foo", "."),
		Entry(nil, ".", "-rv", "foo", "src", "old"),
		Entry(nil, ".", "-rnw", "foo", "."),
		Entry(nil, ".", "-rnx", "foo", "."),
		Entry(nil, ".", "-rnE", "foo|BAR", "."),
		Entry(nil, ".", "-rnE", "a{2,3}b", "a.txt"),
		Entry(nil, ".", "-n", `a\{2\}b`, "a.txt"),
		Entry(nil, ".", "-n", `\(foo\)bar`, "a.txt"),
		Entry(nil, ".", "-rnF", "a.b", "."),
		Entry(nil, ".", "-rno", "fo*", "."),
		Entry(nil, ".", "-rno", "foo", "."),
		Entry(nil, ".", "-rnoF", "a.b", "."),
		Entry(nil, ".", "-rnE", "{foo}", "."),
		Entry(nil, ".", "-rnoi", `foo\w*`, "."),
		Entry(nil, ".", "-rn", "-e", "foo", "-e", "bar", "."),
		Entry(nil, ".", "-rl", "-e", "Foo", "-e", "item", "-i", "."),
		Entry(nil, ".", "-rn", "--include=*.go", "func", "."),
		Entry(nil, ".", "-rn", "--include", "*.txt", "--include", "*.md", "foo", "."),
		Entry(nil, ".", "-rn", "--exclude=*.txt", "foo", "."),
		Entry(nil, ".", "-rn", "--exclude-dir=node_modules", "--exclude-dir=.hidden", "foo", "."),
		Entry(nil, ".", "-rn", "-A2", "foo", "a.txt", "b.md"),
		Entry(nil, ".", "-rn", "-B1", "bar", "a.txt", "b.md"),
		Entry(nil, ".", "-rn", "-C1", "WARN", "logs"),
		Entry(nil, ".", "-n", "-C", "3", "foo", "src", "-r"),
		Entry(nil, ".", "-c", "foo", "a.txt", "crlf.txt", "nonl.txt", "empty.txt"),
		Entry(nil, ".", "foo", "a.txt"),
		Entry(nil, ".", "-n", "", "nonl.txt"),
		Entry(nil, ".", "-h", "-r", "foo", "src"),
		Entry(nil, ".", "-H", "foo", "a.txt"),
		Entry(nil, ".", "-m", "2", "-rn", "foo", "."),
		Entry(nil, ".", "-rn", "[[:upper:]][[:upper:]]*", "a.txt", "unicode.txt"),
		Entry(nil, ".", "-rn", "foo", "bin"),
		Entry(nil, ".", "-rnI", "foo", "."),
		Entry(nil, ".", "-rna", "foo", "bin"),
		Entry(nil, ".", "-c", "foo", "bin/late-nul.dat"),
		Entry(nil, ".", "-n", "foo", "link-to-a.txt", "link-dir", "dangling"),
		Entry(nil, ".", "-rn", "foo", "link-dir"),
		Entry(nil, ".", "-Rn", "foo", "."),
		Entry(nil, ".", "-n", "foo", "a.txt", "missing.txt"),
		Entry(nil, ".", "-s", "foo", "a.txt", "missing.txt"),
		Entry(nil, ".", "-q", "foo", "a.txt"),
		Entry(nil, ".", "foo", "."),
		Entry(nil, ".", "-rn", "nomatchanywhere", "."),
		Entry(nil, ".", "-rn", "--include=*.go", "-w", "err", "gosrc"),
		Entry(nil, ".", "-rnE", `^(import|package) `, "gosrc"),
		Entry(nil, ".", "-rnE", `func \w+\(`, "gosrc/bufio", "gosrc/strings"),
		Entry(nil, ".", "-rc", "return", "gosrc"),
		Entry(nil, ".", "-rl", "-i", "UTF-8", "gosrc"),
		Entry(nil, ".", "-rn", "-C2", "panic(", "gosrc/regexp"),
		Entry(nil, ".", "-rno", "-F", "[]byte", "gosrc/bufio"),
		Entry(nil, "$GOROOT", "-rn", "func main", "."),
	)

	DescribeTable("find", func(dir string, args ...string) {
		same("find", dir, args...)
	},
		Entry(nil, "."),
		Entry(nil, ".", "."),
		Entry(nil, ".", ".", "-name", "*.txt"),
		Entry(nil, ".", ".", "-name", "*.go"),
		Entry(nil, ".", ".", "-iname", "*.TXT"),
		Entry(nil, ".", ".", "-path", "*/util/*"),
		Entry(nil, ".", ".", "-path", "./gosrc/*/testdata", "-prune", "-o", "-type", "f", "-name", "*.go", "-print"),
		Entry(nil, ".", ".", "-type", "f"),
		Entry(nil, ".", ".", "-type", "d"),
		Entry(nil, ".", ".", "-type", "l"),
		Entry(nil, ".", ".", "-maxdepth", "1"),
		Entry(nil, ".", ".", "-mindepth", "3", "-type", "f"),
		Entry(nil, ".", ".", "-maxdepth", "2", "-mindepth", "1", "-type", "f", "-name", "*.go"),
		Entry(nil, ".", ".", "-newer", "old/ref.txt", "-type", "f", "-not", "-path", "./gosrc/*"),
		Entry(nil, ".", ".", "-mtime", "+7"),
		Entry(nil, ".", ".", "-mtime", "-1", "-type", "f", "-name", "*.txt"),
		Entry(nil, ".", ".", "-mtime", "3"),
		Entry(nil, ".", ".", "-size", "+1k", "-not", "-path", "./gosrc/*"),
		Entry(nil, ".", ".", "-size", "-2", "-type", "f"),
		Entry(nil, ".", "sizes", "-size", "1k"),
		Entry(nil, ".", ".", "-size", "+20k"),
		Entry(nil, ".", ".", "-empty"),
		Entry(nil, ".", ".", "-name", "*.go", "-print0"),
		Entry(nil, ".", ".", "-not", "-name", "*.go", "-type", "f"),
		Entry(nil, ".", ".", "!", "-type", "d", "-maxdepth", "1"),
		Entry(nil, ".", ".", "-name", "*.md", "-o", "-name", "*.js"),
		Entry(nil, ".", ".", "(", "-name", "a.txt", "-o", "-name", "b.md", ")", "-print"),
		Entry(nil, ".", "src", "gosrc/bufio", "-name", "*_test.go"),
		Entry(nil, ".", "link-dir"),
		Entry(nil, ".", "-L", "link-dir", "-type", "f"),
		Entry(nil, ".", "-L", ".", "-maxdepth", "1", "-type", "l"),
		Entry(nil, ".", "missing", "-name", "x"),
		Entry(nil, ".", ".", "-name", "*.go", "-not", "-path", "./gosrc/*"),
		Entry(nil, ".", "gosrc", "-type", "f", "-size", "+10k"),
		Entry(nil, ".", ".", "-name", "*.txt", "-exec", "cat", "{}", ";"),
		Entry(nil, ".", ".", "-name", "*.md", "-exec", "echo", "found", "{}", "+"),
		Entry(nil, ".", ".", "-name", "a.txt", "-execdir", "pwd", ";"),
		Entry(nil, ".", ".", "-name", "*.txt", "-execdir", "echo", "{}", "+"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "sh", "-c", `echo "to stderr: $1" >&2; exit 3`, "sh", "{}", ";", "-o", "-print"),
		Entry(nil, ".", ".", "-maxdepth", "1", "-exec", "test", "-d", "{}", ";", "-print"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "no-such-command-here", "{}", ";"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "./a.txt", ";"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "no-such-command-here", "{}", "+"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "false", "{}", "+"),
		Entry(nil, ".", ".", "-name", "a.txt", "-exec", "sh", "-c", "kill -9 $$", ";", "-print"),
		Entry(nil, "$GOROOT", ".", "-name", "*.go"),
		Entry(nil, "$GOROOT", ".", "-maxdepth", "2", "-type", "d", "-name", "*test*"),
	)

	It("refuses an option it does not support with an error that names it", func() {
		env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
		for _, c := range []struct {
			prog  string
			args  []string
			names string
		}{
			{"grep", []string{"-P", `\d+`, "a.txt"}, "-P"},
			{"grep", []string{"--perl-regexp", "x", "a.txt"}, "--perl-regexp"},
			{"grep", []string{"-n", `\(a\)\1`, "a.txt"}, `back-references (\1)`},
			{"find", []string{".", "-regex", ".*go"}, "-regex"},
			{"find", []string{".", "-printf", "%p\n"}, "-printf"},
		} {
			// GNU runs these (checked, so the case is a real GNU usage).
			sys := map[string]string{"grep": gnuGrep, "find": gnuFind}[c.prog]
			Expect(execIn(corpus, sys, env, c.args...).code).To(BeNumerically("<", 2), "GNU %s %q", c.prog, c.args)
			got := execIn(corpus, filepath.Join(links, c.prog), env, c.args...)
			Expect(got.code).NotTo(BeZero(), "%s %q", c.prog, c.args)
			Expect(got.stdout).To(BeEmpty())
			Expect(got.stderr).To(HavePrefix(c.prog+": agentcore's embedded "+c.prog+" does not support "), "%s %q", c.prog, c.args)
			Expect(got.stderr).To(ContainSubstring(c.names), "%s %q", c.prog, c.args)
		}
	})
})

// firstDifference shows where two outputs part: the line number and both
// lines there.
func firstDifference(want, got string) string {
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d (of %d GNU, %d embedded):\n  GNU:      %q\n  embedded: %q", i+1, len(w), len(g), wl, gl)
		}
	}
	return "same lines"
}
