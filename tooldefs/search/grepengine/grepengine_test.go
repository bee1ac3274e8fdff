package grepengine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/tooldefs/search/grepengine"
	"github.com/agentcore/agentcore/tooldefs/search/searchtest"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// grep runs a search and returns its rg-style output with root-relative
// paths.
func grep(root string, o grepengine.Options) []string {
	res, err := grepengine.Search(context.Background(), root, o)
	Expect(err).NotTo(HaveOccurred())
	out := res.Format(func(f *grepengine.FileResult) string { return f.Rel })
	if out == nil {
		out = []string{}
	}
	return out
}

var _ = Describe("RequiredLiteral", func() {
	DescribeTable("extracts a literal every match contains",
		func(pattern string, fold bool, lit string, exact bool) {
			got, _, gotExact, ok, _ := grepengine.RequiredLiteral(pattern, fold)
			Expect(ok).To(BeTrue())
			Expect(strings.ToLower(got)).To(Equal(strings.ToLower(lit)))
			Expect(gotExact).To(Equal(exact))
		},
		Entry("a plain literal is exact", "hello", false, "hello", true),
		Entry("escaped metacharacters", `interface\{\}`, false, "interface{}", true),
		Entry("an inner literal", `func\s+\w+Error`, false, "Error", false),
		Entry("the rarer of two literals", `the\s+zq`, false, "zq", false),
		Entry("a literal under +", `(abc)+x`, false, "abc", false),
		Entry("a literal in a repeat with a minimum", `(?:qux){2,3}`, false, "quxqux", false),
		Entry("a factored alternation keeps its prefix", `foobar|foobaz`, false, "fooba", false),
		Entry("an anchored literal is not exact", `^package`, false, "package", false),
		Entry("a case-folded literal", "error", true, "error", true),
		Entry("a folded literal is cut at k and s (Kelvin sign, long s)", "mask", true, "ma", false),
	)

	DescribeTable("finds none when no literal is required",
		func(pattern string, fold bool) {
			_, _, _, ok, _ := grepengine.RequiredLiteral(pattern, fold)
			Expect(ok).To(BeFalse())
		},
		Entry("an alternation", `cat|dog`, false),
		Entry("an optional literal", `(abc)?x*`, false),
		Entry("a class", `[a-z]+`, false),
		Entry("folded k and s only", "sk", true),
	)

	It("anchors on the rarest byte, not the first", func() {
		_, _, _, _, anchor := grepengine.RequiredLiteral("ezzzq", false)
		Expect(anchor).To(Equal(byte('q')))
		_, _, _, _, anchor = grepengine.RequiredLiteral("return err", false)
		Expect(anchor).NotTo(Equal(byte('r')))
	})
})

var _ = Describe("Search", func() {
	var root string

	BeforeEach(func() {
		root = GinkgoT().TempDir()
	})

	write := func(tree map[string]string) {
		Expect(searchtest.Write(root, tree)).To(Succeed())
	}

	Context("output modes", func() {
		BeforeEach(func() {
			write(map[string]string{
				"a.txt":   "one foo\ntwo\nthree foo foo\n",
				"b/c.txt": "foo\n",
				"d.txt":   "nothing here\n",
			})
		})

		It("lists matching files by default, sorted by path", func() {
			Expect(grep(root, grepengine.Options{Pattern: "foo"})).To(Equal([]string{"a.txt", "b/c.txt"}))
		})

		It("matches an empty pattern at the end of a last line without a line break, as rg and grep do (found by FuzzLineSearch)", func() {
			write(map[string]string{"e.txt": "0", "f.txt": "x\ny\n"})
			for _, fold := range []bool{false, true} {
				Expect(grep(root, grepengine.Options{Pattern: "$", IgnoreCase: fold, Mode: grepengine.Count, Walk: walk.Options{Globs: []string{"[ef].txt"}}})).
					To(Equal([]string{"e.txt:1", "f.txt:2"}), "fold %v", fold)
			}
		})

		It("counts matching lines per file", func() {
			Expect(grep(root, grepengine.Options{Pattern: "foo", Mode: grepengine.Count})).To(Equal([]string{"a.txt:2", "b/c.txt:1"}))
		})

		It("prints matching lines with path and line number", func() {
			Expect(grep(root, grepengine.Options{Pattern: "foo", Mode: grepengine.Content, LineNumbers: true})).To(Equal([]string{
				"a.txt:1:one foo", "a.txt:3:three foo foo", "b/c.txt:1:foo",
			}))
		})

		It("prints matching lines without line numbers when -n is off", func() {
			Expect(grep(root, grepengine.Options{Pattern: "two", Mode: grepengine.Content})).To(Equal([]string{"a.txt:two"}))
		})

		It("parses mode names", func() {
			for _, m := range []grepengine.Mode{grepengine.FilesWithMatches, grepengine.Content, grepengine.Count} {
				got, err := grepengine.ParseMode(m.String())
				Expect(err).NotTo(HaveOccurred())
				Expect(got).To(Equal(m))
			}
			_, err := grepengine.ParseMode("lines")
			Expect(err).To(MatchError(ContainSubstring("use files_with_matches, content or count")))
		})
	})

	Context("context lines", func() {
		BeforeEach(func() {
			write(map[string]string{
				"a.txt": "1\n2 m\n3\n4\n5\n6\n7 m\n8\n9 m\n10\n",
				"b.txt": "m\nx\n",
			})
		})

		It("prints -A lines after each match with -- between groups and files", func() {
			Expect(grep(root, grepengine.Options{Pattern: "m", Mode: grepengine.Content, LineNumbers: true, After: 1})).To(Equal([]string{
				"a.txt:2:2 m", "a.txt-3-3", "--", "a.txt:7:7 m", "a.txt-8-8", "a.txt:9:9 m", "a.txt-10-10", "--", "b.txt:1:m", "b.txt-2-x",
			}))
		})

		It("prints -B lines before each match", func() {
			Expect(grep(root, grepengine.Options{Pattern: "m", Mode: grepengine.Content, LineNumbers: true, Before: 2})).To(Equal([]string{
				"a.txt-1-1", "a.txt:2:2 m", "--", "a.txt-5-5", "a.txt-6-6", "a.txt:7:7 m", "a.txt-8-8", "a.txt:9:9 m", "--", "b.txt:1:m",
			}))
		})

		It("merges overlapping context into one group", func() {
			Expect(grep(root, grepengine.Options{Pattern: "m", Mode: grepengine.Content, LineNumbers: true, Before: 3, After: 3})).To(Equal([]string{
				"a.txt-1-1", "a.txt:2:2 m", "a.txt-3-3", "a.txt-4-4", "a.txt-5-5", "a.txt-6-6", "a.txt:7:7 m", "a.txt-8-8", "a.txt:9:9 m", "a.txt-10-10",
				"--", "b.txt:1:m", "b.txt-2-x",
			}))
		})
	})

	It("searches case-insensitively with -i, Unicode folding included", func() {
		write(map[string]string{"a.txt": "Hello\nHELLO\nhello\nbye\n", "k.txt": "\u212a sign\nk sign\n"})
		Expect(grep(root, grepengine.Options{Pattern: "hello", IgnoreCase: true, Mode: grepengine.Count})).To(Equal([]string{"a.txt:3"}))
		Expect(grep(root, grepengine.Options{Pattern: "hello", Mode: grepengine.Count})).To(Equal([]string{"a.txt:1"}))
		Expect(grep(root, grepengine.Options{Pattern: "k sign", IgnoreCase: true, Mode: grepengine.Count})).To(Equal([]string{"k.txt:2"}))
	})

	Context("multiline", func() {
		BeforeEach(func() {
			write(map[string]string{"a.go": "type T struct {\n\tA int\n\tfield string\n}\nother\n"})
		})

		It("matches across lines and prints every line of the match", func() {
			Expect(grep(root, grepengine.Options{Pattern: `struct \{.*?field`, Multiline: true, Mode: grepengine.Content, LineNumbers: true})).To(Equal([]string{
				"a.go:1:type T struct {", "a.go:2:\tA int", "a.go:3:\tfield string",
			}))
		})

		It("counts matches, not lines, when the pattern can span lines", func() {
			Expect(grep(root, grepengine.Options{Pattern: `int\n|string\n`, Multiline: true, Mode: grepengine.Count})).To(Equal([]string{"a.go:2"}))
		})

		It("refuses a literal line break without multiline", func() {
			_, err := grepengine.New(grepengine.Options{Pattern: `int\nfoo`})
			Expect(err).To(MatchError(ContainSubstring("set multiline to true")))
		})

		It("never lets a class match a line break without multiline, as rg", func() {
			Expect(grep(root, grepengine.Options{Pattern: `int\s+field`, Mode: grepengine.Count})).To(BeEmpty())
			Expect(grep(root, grepengine.Options{Pattern: `int\s+field`, Multiline: true, Mode: grepengine.Count})).To(Equal([]string{"a.go:1"}))
		})

		It("keeps ^ and $ as line anchors", func() {
			Expect(grep(root, grepengine.Options{Pattern: `^other$`, Multiline: true, Mode: grepengine.Content, LineNumbers: true})).To(Equal([]string{"a.go:5:other"}))
		})
	})

	It("filters files with globs and types", func() {
		write(map[string]string{"a.go": "x\n", "b.py": "x\n", "c/d.go": "x\n"})
		Expect(grep(root, grepengine.Options{Pattern: "x", Walk: walk.Options{Globs: []string{"*.go"}}})).To(Equal([]string{"a.go", "c/d.go"}))
		Expect(grep(root, grepengine.Options{Pattern: "x", Walk: walk.Options{Types: []string{"py"}}})).To(Equal([]string{"b.py"}))
	})

	It("honours .gitignore and hidden-file options", func() {
		write(map[string]string{".git/HEAD": "", ".gitignore": "skip.txt\n", "skip.txt": "x\n", ".h.txt": "x\n", "v.txt": "x\n"})
		Expect(grep(root, grepengine.Options{Pattern: "x"})).To(Equal([]string{"v.txt"}))
		Expect(grep(root, grepengine.Options{Pattern: "x", Walk: walk.Options{Hidden: true, SkipNames: walk.VCSDirs}})).To(Equal([]string{".gitignore", ".h.txt", "v.txt"}))
	})

	It("skips binary files (a NUL byte in the first 64 KiB)", func() {
		write(map[string]string{"bin.dat": "match\x00\n", "text.txt": "match\n"})
		Expect(grep(root, grepengine.Options{Pattern: "match"})).To(Equal([]string{"text.txt"}))
	})

	It("searches a file only up to the buffer holding a late NUL byte, as rg does", func() {
		var b strings.Builder
		for b.Len() < 200<<10 {
			b.WriteString("early match line\n")
		}
		b.WriteString("late match\x00\n")
		write(map[string]string{"big.txt": b.String()})
		res, err := grepengine.Search(context.Background(), root, grepengine.Options{Pattern: "match", Mode: grepengine.Content})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Files).To(HaveLen(1))
		Expect(len(res.Files[0].Lines)).To(BeNumerically("<", 200<<10/17))
		Expect(len(res.Files[0].Lines)).To(BeNumerically(">", 0))
		out := grep(root, grepengine.Options{Pattern: "match", Mode: grepengine.Content})
		Expect(out[len(out)-1]).To(Equal(fmt.Sprintf(`big.txt: WARNING: stopped searching binary file after match (found "\0" byte around offset %d)`, b.Len()-2)))
		Expect(grep(root, grepengine.Options{Pattern: "match", Mode: grepengine.Count})).To(BeEmpty())
		Expect(grep(root, grepengine.Options{Pattern: "match"})).To(Equal([]string{"big.txt"}))
	})

	It("replaces lines longer than MaxColumns with a note", func() {
		long := strings.Repeat("x", 600)
		write(map[string]string{"a.txt": "m " + long + "\nm short\n" + long + "\n"})
		Expect(grep(root, grepengine.Options{Pattern: "m ", Mode: grepengine.Content, LineNumbers: true, After: 1, MaxColumns: 500})).To(Equal([]string{
			"a.txt:1:[Omitted long matching line]", "a.txt:2:m short", "a.txt-3-[Omitted long context line]",
		}))
	})

	It("leaves the file name out when the root is a file", func() {
		write(map[string]string{"a.txt": "foo\nbar foo\n"})
		Expect(grep(filepath.Join(root, "a.txt"), grepengine.Options{Pattern: "foo", Mode: grepengine.Content, LineNumbers: true})).To(Equal([]string{"1:foo", "2:bar foo"}))
		Expect(grep(filepath.Join(root, "a.txt"), grepengine.Options{Pattern: "foo", Mode: grepengine.Count})).To(Equal([]string{"2"}))
	})

	It("handles CRLF, a missing final newline and empty files", func() {
		write(map[string]string{"crlf.txt": "a foo\r\nb\r\n", "nonl.txt": "x\nlast foo", "empty.txt": ""})
		Expect(grep(root, grepengine.Options{Pattern: "foo", Mode: grepengine.Content, LineNumbers: true})).To(Equal([]string{"crlf.txt:1:a foo\r", "nonl.txt:2:last foo"}))
		Expect(grep(root, grepengine.Options{Pattern: "foo$", Mode: grepengine.Count})).To(Equal([]string{"nonl.txt:1"}))
	})

	It("matches every line with an empty pattern", func() {
		write(map[string]string{"a.txt": "1\n\n3\n"})
		Expect(grep(root, grepengine.Options{Pattern: "", Mode: grepengine.Count})).To(Equal([]string{"a.txt:3"}))
	})

	It("explains an invalid regular expression", func() {
		_, err := grepengine.New(grepengine.Options{Pattern: "func(("})
		Expect(err).To(MatchError(And(ContainSubstring(`invalid regular expression "func(("`), ContainSubstring("missing closing )"), ContainSubstring("escape literal characters"))))
	})

	It("reports an unknown type and a missing root", func() {
		_, err := grepengine.New(grepengine.Options{Pattern: "x", Walk: walk.Options{Types: []string{"nope"}}})
		Expect(err).To(MatchError(ContainSubstring("unrecognized file type")))
		_, err = grepengine.Search(context.Background(), filepath.Join(root, "missing"), grepengine.Options{Pattern: "x"})
		Expect(err).To(MatchError(os.ErrNotExist))
	})

	It("stops when the context is cancelled", func() {
		write(map[string]string{"a/b.txt": "x\n"})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := grepengine.Search(ctx, root, grepengine.Options{Pattern: "x"})
		Expect(err).To(MatchError(context.Canceled))
	})

	It("orders paths component by component, like rg --sort path", func() {
		Expect(grepengine.ComparePaths("a/x", "a.b/x")).To(BeNumerically("<", 0))
		Expect(grepengine.ComparePaths("a.b", "a")).To(BeNumerically(">", 0))
		Expect(grepengine.ComparePaths("d/e/z", "d/y")).To(BeNumerically("<", 0))
	})
})

// differentialCase is one option set run through both engines.
type differentialCase struct {
	name string
	args []string
	opts grepengine.Options
}

func cases() []differentialCase {
	content := func(o grepengine.Options) grepengine.Options {
		o.Mode = grepengine.Content
		o.LineNumbers = true
		return o
	}
	var out []differentialCase
	for _, p := range []struct {
		args []string
		opts grepengine.Options
	}{
		{[]string{"func"}, grepengine.Options{Pattern: "func"}},
		{[]string{"-i", "error"}, grepengine.Options{Pattern: "error", IgnoreCase: true}},
		{[]string{`func\s+\w+`}, grepengine.Options{Pattern: `func\s+\w+`}},
		{[]string{`^\s*#`}, grepengine.Options{Pattern: `^\s*#`}},
		{[]string{`(TODO|FIXME):?`}, grepengine.Options{Pattern: `(TODO|FIXME):?`}},
		{[]string{`interface\{\}`}, grepengine.Options{Pattern: `interface\{\}`}},
		{[]string{"-i", "k sign"}, grepengine.Options{Pattern: "k sign", IgnoreCase: true}},
		{[]string{"-i", "ASK"}, grepengine.Options{Pattern: "ASK", IgnoreCase: true}},
		{[]string{`err$`}, grepengine.Options{Pattern: `err$`}},
		{[]string{`\bnil\b`}, grepengine.Options{Pattern: `\bnil\b`}},
		{[]string{"-U", "--multiline-dotall", `return.err`}, grepengine.Options{Pattern: `return.err`, Multiline: true}},
		{[]string{"-U", "--multiline-dotall", `\{[^}]*\}`}, grepengine.Options{Pattern: `\{[^}]*\}`, Multiline: true}},
		{[]string{"-g", "*.go", "value"}, grepengine.Options{Pattern: "value", Walk: walk.Options{Globs: []string{"*.go"}}}},
		{[]string{"-g", "!d1/", "-g", "!*.md", "value"}, grepengine.Options{Pattern: "value", Walk: walk.Options{Globs: []string{"!d1/", "!*.md"}}}},
		{[]string{"-t", "py", "return"}, grepengine.Options{Pattern: "return", Walk: walk.Options{Types: []string{"py"}}}},
		{[]string{"--hidden", "-g", "!.git", "func"}, grepengine.Options{Pattern: "func", Walk: walk.Options{Hidden: true, SkipNames: []string{".git"}}}},
	} {
		out = append(out,
			differentialCase{"-l " + strings.Join(p.args, " "), append([]string{"-l"}, p.args...), p.opts},
			differentialCase{"-c " + strings.Join(p.args, " "), append([]string{"-c"}, p.args...), withMode(p.opts, grepengine.Count)},
			differentialCase{"-n " + strings.Join(p.args, " "), append([]string{"-n", "--max-columns", "500"}, p.args...), withCols(content(p.opts))},
			differentialCase{"-n -C2 " + strings.Join(p.args, " "), append([]string{"-n", "-C2"}, p.args...), withCtx(content(p.opts), 2, 2)},
		)
	}
	out = append(out,
		differentialCase{"-A1 -B3 without -n", []string{"-A1", "-B3", "TODO"}, withCtx(grepengine.Options{Pattern: "TODO", Mode: grepengine.Content}, 3, 1)},
	)
	return out
}

func withMode(o grepengine.Options, m grepengine.Mode) grepengine.Options { o.Mode = m; return o }
func withCols(o grepengine.Options) grepengine.Options                    { o.MaxColumns = 500; return o }
func withCtx(o grepengine.Options, b, a int) grepengine.Options {
	o.Before, o.After = b, a
	return o
}

var _ = Describe("Search compared with ripgrep", Label("differential"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Rg)
	})

	for _, seed := range []uint64{7} {
		Context(fmt.Sprintf("on generated tree %d", seed), func() {
			var root string
			BeforeEach(func() {
				root = GinkgoT().TempDir()
				Expect(searchtest.Generate(root, seed)).To(Succeed())
			})
			It("gives identical output for every option set", func() {
				for _, c := range cases() {
					want, err := searchtest.RG(root, c.args...)
					Expect(err).NotTo(HaveOccurred())
					Expect(grep(root, c.opts)).To(Equal(want), "rg %s", c.name)
				}
			})
		})
	}

	It("gives identical output on this repository (a snapshot of HEAD)", func() {
		root := GinkgoT().TempDir()
		Expect(searchtest.SnapshotRepo(repoRoot(), root)).To(Succeed())
		for _, c := range cases() {
			want, err := searchtest.RG(root, c.args...)
			Expect(err).NotTo(HaveOccurred())
			Expect(grep(root, c.opts)).To(Equal(want), "rg %s", c.name)
		}
	})
})

// repoRoot is the module root, found from the test's directory.
func repoRoot() string {
	dir, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		Expect(parent).NotTo(Equal(dir), "go.mod not found")
		dir = parent
	}
}
