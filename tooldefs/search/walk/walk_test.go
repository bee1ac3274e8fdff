package walk_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/tooldefs/search/searchtest"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// files walks root and returns the sorted relative paths found.
func files(root string, opts walk.Options) []string {
	var mu sync.Mutex
	out := []string{}
	err := walk.Walk(context.Background(), root, opts, func(e *walk.Entry) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, e.Rel)
		return nil
	})
	Expect(err).NotTo(HaveOccurred())
	slices.Sort(out)
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

var _ = Describe("Pattern", func() {
	DescribeTable("matches whole slash-separated paths like ripgrep's globs",
		func(glob, path string, want bool) {
			p, err := walk.CompilePattern(glob)
			Expect(err).NotTo(HaveOccurred())
			Expect(p.Match(path)).To(Equal(want), "%s ~ %s", glob, path)
		},
		Entry("literal", "a/b.go", "a/b.go", true),
		Entry("literal differs", "a/b.go", "a/c.go", false),
		Entry("star stays in a component", "*.go", "a/b.go", false),
		Entry("star in a component", "*.go", "b.go", true),
		Entry("star matches empty", "*.go", ".go", true),
		Entry("question mark", "?.go", "a.go", true),
		Entry("question mark not slash", "a?b", "a/b", false),
		Entry("leading **/", "**/b.go", "a/c/b.go", true),
		Entry("leading **/ at the top", "**/b.go", "b.go", true),
		Entry("leading **/ is a whole name", "**/b.go", "ab.go", false),
		Entry("**/*ext", "**/*.go", "x/y/z.go", true),
		Entry("**/*ext other ext", "**/*.go", "x/y/z.gox", false),
		Entry("trailing /**", "a/**", "a/b/c", true),
		Entry("trailing /** not the dir", "a/**", "ab/c", false),
		Entry("middle /**/", "a/**/c", "a/c", true),
		Entry("middle /**/ deep", "a/**/c", "a/x/y/c", true),
		Entry("** inside a name is a star", "a**b", "axxb", true),
		Entry("** inside a name stays in the component", "a**b", "a/b", false),
		Entry("class", "[abc].go", "b.go", true),
		Entry("class range", "f[0-9].go", "f7.go", true),
		Entry("negated class !", "[!a].go", "a.go", false),
		Entry("negated class ^", "[^a].go", "b.go", true),
		Entry("negated class not slash", "a[!x]b", "a/b", false),
		Entry("alternates", "*.{js,ts}", "x.ts", true),
		Entry("alternates miss", "*.{js,ts}", "x.go", false),
		Entry("nested alternates", "{a,b{c,d}}.x", "bd.x", true),
		Entry("escape", `\*.go`, "*.go", true),
		Entry("escape is literal", `\*.go`, "a.go", false),
		Entry("regexp metacharacters are literal", "a+b(c).go", "a+b(c).go", true),
		Entry("dot is literal", "a.go", "abgo", false),
	)

	DescribeTable("reports invalid globs",
		func(glob, msg string) {
			_, err := walk.CompilePattern(glob)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("unclosed class", "[abc", "unclosed character class"),
		Entry("unclosed alternate", "{a,b", "unclosed '{'"),
		Entry("dangling escape", `abc\`, "dangling"),
	)
})

var _ = Describe("IgnoreFile", func() {
	DescribeTable("follows gitignore rules",
		func(content, path string, isDir bool, want walk.Match) {
			Expect(walk.ParseIgnore([]byte(content)).Match(path, isDir)).To(Equal(want))
		},
		Entry("basename at any depth", "*.log\n", "a/b/c.log", false, walk.Ignore),
		Entry("no match", "*.log\n", "a/b/c.txt", false, walk.None),
		Entry("comment", "#*.log\n", "c.log", false, walk.None),
		Entry("escaped hash", "\\#x\n", "#x", false, walk.Ignore),
		Entry("negation re-includes", "*.log\n!keep.log\n", "keep.log", false, walk.Whitelist),
		Entry("last rule wins", "!keep.log\n*.log\n", "keep.log", false, walk.Ignore),
		Entry("escaped bang is literal", "\\!x\n", "!x", false, walk.Ignore),
		Entry("dir-only rule skips files", "build/\n", "build", false, walk.None),
		Entry("dir-only rule matches dirs", "build/\n", "a/build", true, walk.Ignore),
		Entry("leading slash anchors", "/top.txt\n", "sub/top.txt", false, walk.None),
		Entry("leading slash matches at the root", "/top.txt\n", "top.txt", false, walk.Ignore),
		Entry("inner slash anchors", "docs/*.md\n", "x/docs/a.md", false, walk.None),
		Entry("inner slash matches from the root", "docs/*.md\n", "docs/a.md", false, walk.Ignore),
		Entry("star does not cross directories", "docs/*.md\n", "docs/x/a.md", false, walk.None),
		Entry("trailing /** matches inside", "out/**\n", "out/a/b", false, walk.Ignore),
		Entry("trailing /** not the dir itself", "out/**\n", "out", true, walk.None),
		Entry("trailing spaces trimmed", "a.txt   \n", "a.txt", false, walk.Ignore),
		Entry("escaped trailing space kept", "a\\ \n", "a ", false, walk.Ignore),
		Entry("CRLF line endings", "*.log\r\n", "x.log", false, walk.Ignore),
		Entry("blank lines", "\n\n", "x", false, walk.None),
	)
})

var _ = Describe("Walk", func() {
	var root string

	BeforeEach(func() {
		root = GinkgoT().TempDir()
	})

	write := func(tree map[string]string) {
		Expect(searchtest.Write(root, tree)).To(Succeed())
	}

	It("finds every regular file below the root", func() {
		write(map[string]string{"a.txt": "", "d/b.txt": "", "d/e/c.txt": "", "empty/": ""})
		Expect(files(root, walk.Options{})).To(Equal([]string{"a.txt", "d/b.txt", "d/e/c.txt"}))
	})

	It("visits a root that is a file, filters aside", func() {
		write(map[string]string{".hidden": "x"})
		Expect(files(filepath.Join(root, ".hidden"), walk.Options{Types: []string{"go"}})).To(Equal([]string{".hidden"}))
	})

	It("skips hidden files and directories unless Hidden is set", func() {
		write(map[string]string{".h.txt": "", ".d/x.txt": "", "v.txt": ""})
		Expect(files(root, walk.Options{})).To(Equal([]string{"v.txt"}))
		Expect(files(root, walk.Options{Hidden: true})).To(Equal([]string{".d/x.txt", ".h.txt", "v.txt"}))
	})

	It("skips names listed in SkipNames, such as version-control directories", func() {
		write(map[string]string{".git/HEAD": "", ".hg/x": "", "a.txt": ""})
		Expect(files(root, walk.Options{Hidden: true, SkipNames: walk.VCSDirs})).To(Equal([]string{"a.txt"}))
	})

	It("does not follow symbolic links", func() {
		write(map[string]string{"d/a.txt": ""})
		Expect(os.Symlink("d", filepath.Join(root, "ld"))).To(Succeed())
		Expect(os.Symlink("d/a.txt", filepath.Join(root, "la.txt"))).To(Succeed())
		Expect(files(root, walk.Options{})).To(Equal([]string{"d/a.txt"}))
	})

	Context("in a git repository", func() {
		BeforeEach(func() {
			write(map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
		})

		It("honours .gitignore with negations and directory rules", func() {
			write(map[string]string{
				".gitignore": "*.log\n!keep.log\nbuild/\n",
				"a.log":      "", "keep.log": "", "build/x.go": "", "src/build/y.go": "", "src/z.go": "",
			})
			Expect(files(root, walk.Options{})).To(Equal([]string{"keep.log", "src/z.go"}))
		})

		It("honours nested .gitignore files, the deepest rule winning", func() {
			write(map[string]string{
				".gitignore":       "*.out\n",
				"a.out":            "",
				"sub/.gitignore":   "!*.out\n/local.txt\n",
				"sub/b.out":        "",
				"sub/local.txt":    "",
				"sub/d/local.txt":  "",
				"other/local.txt":  "",
				"other/c.out":      "",
				"sub/d/.gitignore": "*.txt\n",
			})
			Expect(files(root, walk.Options{})).To(Equal([]string{"other/local.txt", "sub/b.out"}))
		})

		It("honours .git/info/exclude", func() {
			write(map[string]string{".git/info/exclude": "secret.txt\n", "secret.txt": "", "a.txt": ""})
			Expect(files(root, walk.Options{})).To(Equal([]string{"a.txt"}))
		})

		It("applies the .gitignore of directories above the search root", func() {
			write(map[string]string{".gitignore": "*.gen\n", "sub/a.gen": "", "sub/b.txt": ""})
			Expect(files(filepath.Join(root, "sub"), walk.Options{})).To(Equal([]string{"b.txt"}))
		})

		It("does not apply a repository's .gitignore inside a nested repository", func() {
			write(map[string]string{
				".gitignore": "*.log\n", "a.log": "",
				"inner/.git/HEAD": "", "inner/b.log": "",
			})
			Expect(files(root, walk.Options{})).To(Equal([]string{"inner/b.log"}))
		})

		It("lets .ignore beat .gitignore and .rgignore beat .ignore", func() {
			write(map[string]string{
				".gitignore": "*.a\n*.b\n",
				".ignore":    "!*.a\n*.c\n",
				".rgignore":  "!*.c\n",
				"x.a":        "", "x.b": "", "x.c": "",
			})
			Expect(files(root, walk.Options{})).To(Equal([]string{"x.a", "x.c"}))
		})

		It("shows hidden files a negation re-includes", func() {
			write(map[string]string{".gitignore": "!.env\n", ".env": "", ".other": ""})
			Expect(files(root, walk.Options{})).To(Equal([]string{".env"}))
		})

		It("ignores nothing with NoIgnore", func() {
			write(map[string]string{".gitignore": "*.log\n", "a.log": ""})
			Expect(files(root, walk.Options{NoIgnore: true})).To(Equal([]string{"a.log"}))
		})
	})

	Context("with the global gitignore", func() {
		var cfg string
		BeforeEach(func() {
			cfg = GinkgoT().TempDir()
			GinkgoT().Setenv("XDG_CONFIG_HOME", cfg) // for rg
			GinkgoT().Setenv("HOME", cfg)
			Expect(searchtest.Write(cfg, map[string]string{"git/ignore": "*.secret\n"})).To(Succeed())
			write(map[string]string{"repo/.git/HEAD": "", "repo/a.secret": "", "repo/b.txt": "", "plain/c.secret": ""})
		})

		It("applies it inside repositories when GlobalIgnore is set, as rg does", func() {
			Expect(files(root, walk.Options{GlobalIgnore: true, ConfigHome: cfg})).To(Equal([]string{"plain/c.secret", "repo/b.txt"}))
			Expect(files(root, walk.Options{})).To(Equal([]string{"plain/c.secret", "repo/a.secret", "repo/b.txt"}))
			if searchtest.RGPath() != "" {
				cmd := exec.Command("rg", "--files", "--no-config")
				cmd.Dir = filepath.Join(root, "repo")
				out, err := cmd.Output()
				Expect(err).NotTo(HaveOccurred())
				Expect(searchtest.Lines(out)).To(Equal(files(filepath.Join(root, "repo"), walk.Options{GlobalIgnore: true, ConfigHome: cfg})))
			}
		})

		It("reads core.excludesFile from ~/.gitconfig", func() {
			home := GinkgoT().TempDir()
			GinkgoT().Setenv("HOME", home)
			GinkgoT().Setenv("XDG_CONFIG_HOME", filepath.Join(home, "none"))
			Expect(searchtest.Write(home, map[string]string{
				".gitconfig": "[user]\n\tname = x\n[core]\n\texcludesFile = ~/my-ignore\n",
				"my-ignore":  "b.txt\n",
			})).To(Succeed())
			Expect(files(root, walk.Options{GlobalIgnore: true, ConfigHome: filepath.Join(home, "none")})).To(Equal([]string{"plain/c.secret", "repo/a.secret"}))
		})

		It("reads no XDG_CONFIG_HOME itself: an empty ConfigHome is ~/.config", func() {
			// The environment points at cfg; ConfigHome is empty, so
			// ~/.config is read: HOME is cfg, whose .config has no ignore.
			Expect(files(root, walk.Options{GlobalIgnore: true})).To(Equal([]string{"plain/c.secret", "repo/a.secret", "repo/b.txt"}))
			Expect(searchtest.Write(cfg, map[string]string{".config/git/ignore": "b.txt\n"})).To(Succeed())
			Expect(files(root, walk.Options{GlobalIgnore: true})).To(Equal([]string{"plain/c.secret", "repo/a.secret"}))
		})
	})

	It("applies .gitignore only inside a git repository, .ignore everywhere", func() {
		write(map[string]string{".gitignore": "*.log\n", ".ignore": "*.tmp\n", "a.log": "", "b.tmp": ""})
		Expect(files(root, walk.Options{})).To(Equal([]string{"a.log"}))
	})

	Context("with --glob overrides", func() {
		BeforeEach(func() {
			write(map[string]string{
				".git/HEAD": "", ".gitignore": "ignored.go\n",
				"a.go": "", "b.txt": "", "vendor/v.go": "", "ignored.go": "", "d/e.go": "",
			})
		})

		It("keeps only files matching an include glob, at any depth", func() {
			Expect(files(root, walk.Options{Globs: []string{"*.go"}})).To(Equal([]string{"a.go", "d/e.go", "ignored.go", "vendor/v.go"}))
		})

		It("excludes files and directories matching a negated glob", func() {
			Expect(files(root, walk.Options{Globs: []string{"!vendor/"}})).To(Equal([]string{"a.go", "b.txt", "d/e.go"}))
		})

		It("anchors globs with a slash to the root", func() {
			Expect(files(root, walk.Options{Globs: []string{"d/*.go"}})).To(Equal([]string{"d/e.go"}))
		})

		It("lets the last matching glob win", func() {
			Expect(files(root, walk.Options{Globs: []string{"*.go", "!a.go"}})).To(Equal([]string{"d/e.go", "ignored.go", "vendor/v.go"}))
		})

		It("rejects an invalid glob", func() {
			err := walk.Walk(context.Background(), root, walk.Options{Globs: []string{"[x"}}, func(*walk.Entry) error { return nil })
			Expect(err).To(MatchError(ContainSubstring("unclosed character class")))
		})
	})

	Context("with --type filters", func() {
		BeforeEach(func() {
			write(map[string]string{"a.go": "", "b.py": "", "Makefile": "", "c.md": "", "d.markdown": ""})
		})

		It("keeps the files of a type, by file name", func() {
			Expect(files(root, walk.Options{Types: []string{"make"}})).To(Equal([]string{"Makefile"}))
			Expect(files(root, walk.Options{Types: []string{"md"}})).To(Equal([]string{"c.md", "d.markdown"}))
		})

		It("excludes a negated type", func() {
			Expect(files(root, walk.Options{Types: []string{"!go"}})).To(Equal([]string{"Makefile", "b.py", "c.md", "d.markdown"}))
		})

		It("rejects an unknown type with the names to use", func() {
			err := walk.Walk(context.Background(), root, walk.Options{Types: []string{"golang"}}, func(*walk.Entry) error { return nil })
			Expect(err).To(MatchError(ContainSubstring(`unrecognized file type "golang"`)))
		})

		It("knows ripgrep's common type names", func() {
			for _, n := range []string{"go", "py", "js", "ts", "rust", "java", "c", "cpp", "md", "json", "yaml", "sh"} {
				_, ok := walk.TypeGlobs(n)
				Expect(ok).To(BeTrue(), n)
			}
			Expect(walk.TypeNames()).To(HaveLen(169))
		})
	})

	It("limits the depth with MaxDepth", func() {
		write(map[string]string{"a": "", "d/b": "", "d/e/c": ""})
		Expect(files(root, walk.Options{MaxDepth: 1})).To(Equal([]string{"a"}))
		Expect(files(root, walk.Options{MaxDepth: 2})).To(Equal([]string{"a", "d/b"}))
	})

	It("gives each visit a worker index below Threads", func() {
		for i := 0; i < 50; i++ {
			write(map[string]string{filepath.Join("d", string(rune('a'+i%26)), "f"+string(rune('a'+i/26))): ""})
		}
		var bad atomic.Int32
		err := walk.Walk(context.Background(), root, walk.Options{Threads: 3}, func(e *walk.Entry) error {
			if e.Worker < 0 || e.Worker >= 3 {
				bad.Add(1)
			}
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(bad.Load()).To(BeZero())
	})

	It("stops at the first error a visit returns, and quietly at ErrStop", func() {
		write(map[string]string{"a": "", "b": "", "c/d": ""})
		boom := errors.New("boom")
		err := walk.Walk(context.Background(), root, walk.Options{}, func(*walk.Entry) error { return boom })
		Expect(err).To(MatchError(boom))
		err = walk.Walk(context.Background(), root, walk.Options{}, func(*walk.Entry) error { return walk.ErrStop })
		Expect(err).NotTo(HaveOccurred())
	})

	It("stops when the context is cancelled", func() {
		write(map[string]string{"a/b/c": "", "d/e": ""})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		err := walk.Walk(ctx, root, walk.Options{}, func(*walk.Entry) error { return nil })
		Expect(err).To(MatchError(context.Canceled))
	})

	It("reports a missing root", func() {
		err := walk.Walk(context.Background(), filepath.Join(root, "nope"), walk.Options{}, func(*walk.Entry) error { return nil })
		Expect(err).To(MatchError(os.ErrNotExist))
	})
})

var _ = Describe("Walk compared with rg --files", Label("differential"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Rg)
	})

	compare := func(root string, opts walk.Options, args ...string) {
		want, err := searchtest.RG(root, append([]string{"--files"}, args...)...)
		Expect(err).NotTo(HaveOccurred())
		Expect(files(root, opts)).To(Equal(sorted(want)))
	}

	for _, seed := range []uint64{1, 2, 3} {
		Context("on a generated tree", func() {
			var root string
			BeforeEach(func() {
				root = GinkgoT().TempDir()
				Expect(searchtest.Generate(root, seed)).To(Succeed())
			})
			It("lists the same files with default options", func() { compare(root, walk.Options{}) })
			It("lists the same files with hidden files and VCS directories skipped", func() {
				compare(root, walk.Options{Hidden: true, SkipNames: walk.VCSDirs}, "--hidden", "-g", "!.git", "-g", "!.hg")
			})
			It("lists the same files with a glob", func() { compare(root, walk.Options{Globs: []string{"*.go"}}, "-g", "*.go") })
			It("lists the same files with a negated glob", func() {
				compare(root, walk.Options{Globs: []string{"!d1/", "!*.txt"}}, "-g", "!d1/", "-g", "!*.txt")
			})
			It("lists the same files with a type", func() { compare(root, walk.Options{Types: []string{"md"}}, "-t", "md") })
			It("lists the same files without ignore files", func() { compare(root, walk.Options{NoIgnore: true}, "--no-ignore") })
			It("lists the same files from a subdirectory", func() {
				sub := filepath.Join(root, "pkg")
				want, err := searchtest.RG(sub, "--files")
				Expect(err).NotTo(HaveOccurred())
				Expect(files(sub, walk.Options{})).To(Equal(sorted(want)))
			})
		})
	}

	It("lists the same files as rg in this repository (a snapshot of HEAD)", func() {
		root := GinkgoT().TempDir()
		Expect(searchtest.SnapshotRepo(repoRoot(), root)).To(Succeed())
		compare(root, walk.Options{})
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
