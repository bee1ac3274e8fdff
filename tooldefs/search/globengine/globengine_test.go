package globengine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/tooldefs/search/globengine"
	"github.com/agentcore/agentcore/tooldefs/search/searchtest"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

func rels(res *globengine.Result) []string {
	out := []string{}
	for _, f := range res.Files {
		out = append(out, f.Rel)
	}
	return out
}

var _ = Describe("Glob", func() {
	var root string

	BeforeEach(func() {
		root = GinkgoT().TempDir()
	})

	write := func(tree map[string]string) {
		Expect(searchtest.Write(root, tree)).To(Succeed())
	}
	base := time.Now().Truncate(time.Second)
	touch := func(rel string, age time.Duration) {
		t := base.Add(-age)
		Expect(os.Chtimes(filepath.Join(root, rel), t, t)).To(Succeed())
	}
	glob := func(pattern string, opts globengine.Options) []string {
		res, err := globengine.Glob(context.Background(), root, pattern, opts)
		Expect(err).NotTo(HaveOccurred())
		return rels(res)
	}

	It("returns matches newest first, ties by path", func() {
		write(map[string]string{"old.go": "", "new.go": "", "mid.go": "", "tie_b.go": "", "tie_a.go": ""})
		touch("old.go", 3*time.Hour)
		touch("mid.go", 2*time.Hour)
		touch("new.go", time.Hour)
		touch("tie_a.go", 4*time.Hour)
		touch("tie_b.go", 4*time.Hour)
		Expect(glob("*.go", globengine.Options{})).To(Equal([]string{"new.go", "mid.go", "old.go", "tie_a.go", "tie_b.go"}))
	})

	It("caps the result at 100 files and says it was truncated", func() {
		for i := 0; i < 120; i++ {
			write(map[string]string{fmt.Sprintf("d/f%03d.txt", i): ""})
		}
		res, err := globengine.Glob(context.Background(), root, "**/*.txt", globengine.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Files).To(HaveLen(globengine.DefaultLimit))
		Expect(res.Truncated).To(BeTrue())
		Expect(res.Total).To(Equal(120))
		res, err = globengine.Glob(context.Background(), root, "**/*.txt", globengine.Options{Limit: -1})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Files).To(HaveLen(120))
		Expect(res.Truncated).To(BeFalse())
	})

	DescribeTable("matches doublestar patterns against root-relative paths",
		func(pattern string, want []string) {
			write(map[string]string{
				"a.go": "", "b.ts": "", "src/c.go": "", "src/x/d.ts": "", "src/x/e.js": "", "web/f.tsx": "",
			})
			got := glob(pattern, globengine.Options{})
			slices.Sort(got)
			Expect(got).To(Equal(want))
		},
		Entry("* stays in the top directory", "*.go", []string{"a.go"}),
		Entry("**/ matches at any depth", "**/*.go", []string{"a.go", "src/c.go"}),
		Entry("a literal directory prefix", "src/**/*.ts", []string{"src/x/d.ts"}),
		Entry("alternatives", "**/*.{ts,tsx}", []string{"b.ts", "src/x/d.ts", "web/f.tsx"}),
		Entry("a single-level wildcard directory", "*/*.go", []string{"src/c.go"}),
		Entry("a leading ./", "./src/*.go", []string{"src/c.go"}),
		Entry("a missing directory", "nope/**/*.go", []string{}),
		Entry("a file name", "**/d.ts", []string{"src/x/d.ts"}),
	)

	It("honours .gitignore and skips version-control directories", func() {
		write(map[string]string{
			".git/HEAD": "", ".gitignore": "gen/\n*.tmp\n",
			"gen/a.go": "", "b.tmp": "", "c.go": "", ".hg/d.go": "", ".config/e.go": "",
		})
		opts := globengine.Options{Walk: walk.Options{Hidden: true, SkipNames: walk.VCSDirs}}
		got := glob("**/*", opts)
		slices.Sort(got)
		Expect(got).To(Equal([]string{".config/e.go", ".gitignore", "c.go"}))
	})

	It("rejects an invalid pattern with a hint", func() {
		_, err := globengine.Glob(context.Background(), root, "src/[abc", globengine.Options{})
		Expect(err).To(MatchError(ContainSubstring(`invalid glob pattern "src/[abc"`)))
		_, err = globengine.Glob(context.Background(), root, "", globengine.Options{})
		Expect(err).To(MatchError(ContainSubstring("empty")))
	})

	It("stops when the context is cancelled", func() {
		write(map[string]string{"a/b.go": ""})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := globengine.Glob(ctx, root, "**/*.go", globengine.Options{})
		Expect(err).To(MatchError(context.Canceled))
	})

	DescribeTable("SplitPattern separates an absolute pattern's directory",
		func(pattern, base, rel string) {
			b, r := globengine.SplitPattern(pattern)
			Expect(b).To(Equal(base))
			Expect(r).To(Equal(rel))
		},
		Entry("relative", "src/*.go", "", "src/*.go"),
		Entry("absolute with wildcards", "/repo/src/**/*.go", "/repo/src", "**/*.go"),
		Entry("absolute without wildcards", "/repo/a.go", "/repo", "a.go"),
		Entry("wildcard at the top", "/*.go", "/", "*.go"),
	)

	It("lists the same **/*.go files as rg --files on a generated tree", Label("differential"), func() {
		tooltest.Need(tooltest.Rg)
		Expect(searchtest.Generate(root, 11)).To(Succeed())
		// Not rg -g '*.go': an rg glob overrides .gitignore.
		all, err := searchtest.RG(root, "--files", "--hidden", "-g", "!.git")
		Expect(err).NotTo(HaveOccurred())
		want := []string{}
		for _, f := range all {
			if strings.HasSuffix(f, ".go") {
				want = append(want, f)
			}
		}
		got := glob("**/*.go", globengine.Options{Limit: -1, Walk: walk.Options{Hidden: true, SkipNames: []string{".git"}}})
		slices.Sort(got)
		slices.Sort(want)
		Expect(got).To(Equal(want))
	})
})
