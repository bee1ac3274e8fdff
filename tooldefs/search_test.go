//go:build !ant

package tooldefs_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs"
)

// searchEnv is a working directory with files of known age.
type searchEnv struct {
	dir     string
	outside string
	tc      *runtime.ToolContext
	now     time.Time
}

func newSearchEnv() *searchEnv {
	base, err := filepath.EvalSymlinks(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	e := &searchEnv{dir: filepath.Join(base, "work"), outside: filepath.Join(base, "outside"), now: time.Now().Truncate(time.Second)}
	Expect(os.MkdirAll(filepath.Join(e.dir, ".git"), 0o755)).To(Succeed())
	Expect(os.MkdirAll(e.outside, 0o755)).To(Succeed())
	e.tc = runtime.NewToolContext(e.dir)
	return e
}

// put writes a file aged age (older files sort later).
func (e *searchEnv) put(name, content string, age time.Duration) string {
	p := filepath.Join(e.dir, name)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
	t := e.now.Add(-age)
	Expect(os.Chtimes(p, t, t)).To(Succeed())
	return p
}

func (e *searchEnv) grep(in tooldefs.GrepInput) (tooldefs.GrepOutput, string, error) {
	out, err := tooldefs.Grep{}.Call(context.Background(), &in, runtime.NewCall("t1", e.tc, nil))
	if err != nil {
		return out, "", err
	}
	return out, runtime.Result{Content: tooldefs.Grep{}.ResultBlocks(out)}.Text(), nil
}

func (e *searchEnv) glob(in tooldefs.GlobInput) (tooldefs.GlobOutput, string, error) {
	out, err := tooldefs.Glob{}.Call(context.Background(), &in, runtime.NewCall("t1", e.tc, nil))
	if err != nil {
		return out, "", err
	}
	return out, runtime.Result{Content: tooldefs.Glob{}.ResultBlocks(out)}.Text(), nil
}

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

var _ = Describe("Grep tool", func() {
	var e *searchEnv

	BeforeEach(func() {
		e = newSearchEnv()
		e.put("old.go", "package a\n// TODO old\nfunc Old() {}\n", 3*time.Hour)
		e.put("new.go", "package a\n// TODO new\n", time.Hour)
		e.put("sub/mid.py", "# TODO mid\nx = 1\n", 2*time.Hour)
		e.put("none.txt", "nothing\n", time.Hour)
	})

	It("lists matching files newest first, relative to the working directory", func() {
		out, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("sub", "mid.py"), "old.go"}))
		Expect(text).To(Equal("Found 3 files\nnew.go\nsub/mid.py\nold.go"))
		Expect(tooldefs.Grep{}.RenderResult(nil, out)).To(Equal("Found 3 files"))
	})

	It("says so when no file matches", func() {
		out, text, err := e.grep(tooldefs.GrepInput{Pattern: "absent"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.NumFiles).To(BeZero())
		Expect(text).To(Equal("No files found"))
	})

	Context("in content mode", func() {
		It("shows line numbers by default", func() {
			out, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", OutputMode: "content"})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("new.go:2:// TODO new\nold.go:2:// TODO old\nsub/mid.py:1:# TODO mid"))
			Expect(out.NumLines).To(Equal(3))
			Expect(tooldefs.Grep{}.RenderResult(nil, out)).To(Equal("Found 3 lines"))
		})

		It("leaves line numbers out with -n false", func() {
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO old", OutputMode: "content", LineNumbers: boolp(false)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("old.go:// TODO old"))
		})

		It("shows context with -A, -B, -C and context, context winning over -C over -A/-B", func() {
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO old", OutputMode: "content", After: intp(1)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("old.go:2:// TODO old\nold.go-3-func Old() {}"))
			_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TODO old", OutputMode: "content", Before: intp(1)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("old.go-1-package a\nold.go:2:// TODO old"))
			_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TODO old", OutputMode: "content", ContextC: intp(1), After: intp(0)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("old.go-1-package a\nold.go:2:// TODO old\nold.go-3-func Old() {}"))
			_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TODO old", OutputMode: "content", Context: intp(0), ContextC: intp(1)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("old.go:2:// TODO old"))
		})

		It("separates non-adjacent groups with --", func() {
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "package", OutputMode: "content", After: intp(0), Before: intp(0), ContextC: intp(1)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("new.go:1:package a\nnew.go-2-// TODO new\n--\nold.go:1:package a\nold.go-2-// TODO old"))
		})

		It("says so when nothing matches", func() {
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "absent", OutputMode: "content"})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("No matches found"))
		})

		It("replaces lines over 500 columns with a note", func() {
			e.put("long.txt", "needle "+strings.Repeat("y", 600)+"\n", 0)
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "needle", OutputMode: "content"})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("long.txt:1:[Omitted long matching line]"))
		})
	})

	It("counts matches per file with a total", func() {
		out, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO|package", OutputMode: "count"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("new.go:2\nold.go:2\nsub/mid.py:1\n\nFound 5 total occurrences across 3 files."))
		Expect(tooldefs.Grep{}.RenderResult(nil, out)).To(Equal("Found 5 matches across 3 files"))
		_, text, err = e.grep(tooldefs.GrepInput{Pattern: "absent", OutputMode: "count"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("No matches found\n\nFound 0 total occurrences across 0 files."))
	})

	Context("head_limit and offset", func() {
		BeforeEach(func() {
			var b strings.Builder
			for i := 1; i <= 300; i++ {
				fmt.Fprintf(&b, "hit %d\n", i)
			}
			e.put("many.txt", b.String(), 0)
		})

		It("caps output at 250 lines by default and says so", func() {
			out, text, err := e.grep(tooldefs.GrepInput{Pattern: "hit", OutputMode: "content"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.NumLines).To(Equal(250))
			Expect(*out.AppliedLimit).To(Equal(250))
			Expect(text).To(HaveSuffix("many.txt:250:hit 250\n\n[Showing results with pagination = limit: 250]"))
		})

		It("returns everything with head_limit 0", func() {
			out, _, err := e.grep(tooldefs.GrepInput{Pattern: "hit", OutputMode: "content", HeadLimit: intp(0)})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.NumLines).To(Equal(300))
			Expect(out.AppliedLimit).To(BeNil())
		})

		It("skips offset entries before the limit", func() {
			out, text, err := e.grep(tooldefs.GrepInput{Pattern: "hit", OutputMode: "content", HeadLimit: intp(2), Offset: 10})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.NumLines).To(Equal(2))
			Expect(text).To(Equal("many.txt:11:hit 11\nmany.txt:12:hit 12\n\n[Showing results with pagination = limit: 2, offset: 10]"))
		})

		It("paginates file lists and counts too", func() {
			_, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", HeadLimit: intp(1), Offset: 1})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("Found 1 file limit: 1, offset: 1\nsub/mid.py"))
			_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TODO", OutputMode: "count", HeadLimit: intp(1)})
			Expect(err).NotTo(HaveOccurred())
			Expect(text).To(Equal("new.go:1\n\nFound 1 total occurrence across 1 file. with pagination = limit: 1"))
		})

		It("returns nothing past the end", func() {
			out, _, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", Offset: 50})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.NumFiles).To(BeZero())
		})
	})

	It("filters by type and by glob (split on commas and spaces, braces kept)", func() {
		out, _, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", Type: "py"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join("sub", "mid.py")}))
		out, _, err = e.grep(tooldefs.GrepInput{Pattern: "TODO", Glob: "*.py, old.*"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(ConsistOf(filepath.Join("sub", "mid.py"), "old.go"))
		out, _, err = e.grep(tooldefs.GrepInput{Pattern: "TODO", Glob: "*.{py,txt}"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join("sub", "mid.py")}))
		out, _, err = e.grep(tooldefs.GrepInput{Pattern: "TODO", Glob: "!*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join("sub", "mid.py")}))
	})

	It("searches case-insensitively with -i", func() {
		out, _, err := e.grep(tooldefs.GrepInput{Pattern: "todo OLD", IgnoreCase: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"old.go"}))
		out, _, err = e.grep(tooldefs.GrepInput{Pattern: "todo OLD"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(BeEmpty())
	})

	It("matches across lines with multiline", func() {
		_, text, err := e.grep(tooldefs.GrepInput{Pattern: `TODO old.func`, Multiline: true, OutputMode: "content"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("old.go:2:// TODO old\nold.go:3:func Old() {}"))
		_, _, err = e.grep(tooldefs.GrepInput{Pattern: `old\nfunc`})
		Expect(err).To(MatchError(ContainSubstring("set multiline to true")))
	})

	It("honours .gitignore, searches hidden files, skips .git and binary files", func() {
		e.put(".gitignore", "ignored/\n", time.Hour)
		e.put("ignored/x.go", "TODO ignored\n", 0)
		e.put(".hidden/h.go", "TODO hidden\n", 4*time.Hour)
		e.put(".git/TODO", "TODO in git\n", 0)
		e.put("bin.dat", "TODO\x00binary\n", 0)
		out, _, err := e.grep(tooldefs.GrepInput{Pattern: "TODO"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("sub", "mid.py"), "old.go", filepath.Join(".hidden", "h.go")}))
	})

	It("searches a single file given as path", func() {
		_, text, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", Path: "old.go", OutputMode: "content"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("2:// TODO old"))
		_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TODO", Path: filepath.Join(e.dir, "old.go")})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("Found 1 file\nold.go"))
	})

	It("shows absolute paths for a working directory outside the current one", func() {
		other := filepath.Join(e.outside, "second")
		Expect(os.MkdirAll(other, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(other, "s.txt"), []byte("TODO second\n"), 0o644)).To(Succeed())
		e.tc.WorkingDirs = append(e.tc.WorkingDirs, other)
		out, _, err := e.grep(tooldefs.GrepInput{Pattern: "TODO", Path: other})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join(other, "s.txt")}))
	})

	Context("errors", func() {
		It("explains an invalid regular expression, before and during the call", func() {
			in := &tooldefs.GrepInput{Pattern: "func(("}
			err := tooldefs.Grep{}.ValidateInput(context.Background(), in, e.tc)
			Expect(err).To(MatchError(And(ContainSubstring(`invalid regular expression "func(("`), ContainSubstring("missing closing )"))))
			_, _, err = e.grep(*in)
			Expect(err).To(HaveOccurred())
		})

		It("rejects negative numbers", func() {
			Expect(tooldefs.Grep{}.ValidateInput(context.Background(), &tooldefs.GrepInput{Pattern: "x", HeadLimit: intp(-1)}, e.tc)).To(MatchError(ContainSubstring("must not be negative")))
			Expect(tooldefs.Grep{}.ValidateInput(context.Background(), &tooldefs.GrepInput{Pattern: "x", OutputMode: "content", After: intp(-2)}, e.tc)).To(MatchError(ContainSubstring("must not be negative")))
		})

		It("rejects an unknown type and a bad output mode", func() {
			Expect(tooldefs.Grep{}.ValidateInput(context.Background(), &tooldefs.GrepInput{Pattern: "x", Type: "golang"}, e.tc)).To(MatchError(ContainSubstring("unrecognized file type")))
			Expect(tooldefs.Grep{}.ValidateInput(context.Background(), &tooldefs.GrepInput{Pattern: "x", OutputMode: "lines"}, e.tc)).To(MatchError(ContainSubstring("unknown output_mode")))
		})

		It("names a missing path and the working directory", func() {
			err := tooldefs.Grep{}.ValidateInput(context.Background(), &tooldefs.GrepInput{Pattern: "x", Path: "nope"}, e.tc)
			Expect(err).To(MatchError(And(ContainSubstring("Path does not exist: "+filepath.Join(e.dir, "nope")), ContainSubstring("The current working directory is "+e.dir))))
		})

		It("refuses a path outside the working directories, symlinks included", func() {
			in := &tooldefs.GrepInput{Pattern: "x", Path: e.outside}
			d := tooldefs.Grep{}.CheckPermissions(context.Background(), in, e.tc)
			Expect(d.Behavior).To(Equal(runtime.Deny))
			Expect(d.Message).To(ContainSubstring("outside the working directories"))
			_, _, err := e.grep(*in)
			Expect(err).To(MatchError(ContainSubstring("outside the working directories")))

			Expect(os.Symlink(e.outside, filepath.Join(e.dir, "escape"))).To(Succeed())
			d = tooldefs.Grep{}.CheckPermissions(context.Background(), &tooldefs.GrepInput{Pattern: "x", Path: "escape"}, e.tc)
			Expect(d.Behavior).To(Equal(runtime.Deny))
			d = tooldefs.Grep{}.CheckPermissions(context.Background(), &tooldefs.GrepInput{Pattern: "x", Path: "sub"}, e.tc)
			Expect(d.Behavior).To(Equal(runtime.Passthrough))
		})

		It("stops when the context is cancelled", func() {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := tooldefs.Grep{}.Call(ctx, &tooldefs.GrepInput{Pattern: "TODO"}, runtime.NewCall("t", e.tc, nil))
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		})
	})

	It("decodes Claude Code's parameter names", func() {
		var in tooldefs.GrepInput
		Expect(json.Unmarshal([]byte(`{"pattern":"x","-i":true,"-n":false,"-A":1,"-B":2,"-C":3,"context":4,"head_limit":5,"offset":6,"multiline":true,"type":"go","glob":"*.go","output_mode":"count"}`), &in)).To(Succeed())
		Expect(in.IgnoreCase).To(BeTrue())
		Expect(*in.LineNumbers).To(BeFalse())
		Expect([]int{*in.After, *in.Before, *in.ContextC, *in.Context, *in.HeadLimit, in.Offset}).To(Equal([]int{1, 2, 3, 4, 5, 6}))
	})

	It("renders use, rejection, error and groups", func() {
		g := tooldefs.Grep{}
		Expect(g.RenderUse(&tooldefs.GrepInput{Pattern: "TODO"})).To(Equal(`pattern: "TODO"`))
		Expect(g.RenderUse(&tooldefs.GrepInput{Pattern: "TODO", Path: "src"})).To(Equal(`pattern: "TODO", path: "src"`))
		Expect(g.RenderRejected(&tooldefs.GrepInput{Pattern: "TODO"})).To(Equal(`Search for "TODO" was rejected`))
		Expect(g.RenderError(nil, errors.New("bad\nmore"))).To(Equal("bad"))
		Expect(g.RenderGrouped([]*tooldefs.GrepInput{{Pattern: "a"}, {Pattern: "b"}})).To(Equal(`Searched for 2 patterns: "a", "b"`))
		Expect(g.RenderResult(nil, tooldefs.GrepOutput{Mode: "content", NumLines: 1})).To(Equal("Found 1 line"))
		Expect(g.RenderResult(nil, tooldefs.GrepOutput{Mode: "count", NumMatches: 1, NumFiles: 1})).To(Equal("Found 1 match across 1 file"))
	})

	It("targets the searched path, read", func() {
		Expect(tooldefs.Grep{}.PermissionTarget(&tooldefs.GrepInput{Pattern: "x", Path: "src"})).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "src"}))
		Expect(tooldefs.Grep{}.PermissionTarget(&tooldefs.GrepInput{Pattern: "x"})).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "."}))
	})
})

var _ = Describe("Glob tool", func() {
	var e *searchEnv

	BeforeEach(func() {
		e = newSearchEnv()
		e.put("old.go", "", 3*time.Hour)
		e.put("new.go", "", time.Hour)
		e.put("src/mid.go", "", 2*time.Hour)
		e.put("src/x.ts", "", 0)
	})

	It("lists matching files newest first, relative to the working directory", func() {
		out, text, err := e.glob(tooldefs.GlobInput{Pattern: "**/*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("src", "mid.go"), "old.go"}))
		Expect(out.Truncated).To(BeFalse())
		Expect(text).To(Equal("new.go\nsrc/mid.go\nold.go"))
		Expect(tooldefs.Glob{}.RenderResult(nil, out)).To(Equal("Found 3 files"))
	})

	It("searches the directory given as path", func() {
		out, _, err := e.glob(tooldefs.GlobInput{Pattern: "*.go", Path: "src"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join("src", "mid.go")}))
	})

	It("takes an absolute pattern's directory as the place to search", func() {
		out, _, err := e.glob(tooldefs.GlobInput{Pattern: filepath.Join(e.dir, "src", "*.ts")})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{filepath.Join("src", "x.ts")}))
	})

	It("climbs out of path with a leading ../, still inside the working directories", func() {
		out, _, err := e.glob(tooldefs.GlobInput{Pattern: "../*.go", Path: "src"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", "old.go"}))
		Expect(tooldefs.Glob{}.CheckPermissions(context.Background(), &tooldefs.GlobInput{Pattern: "../*"}, e.tc).Behavior).To(Equal(runtime.Deny))
	})

	It("says No files found", func() {
		_, text, err := e.glob(tooldefs.GlobInput{Pattern: "**/*.rs"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("No files found"))
	})

	It("returns at most 100 files with a truncation note", func() {
		for i := 0; i < 105; i++ {
			e.put(fmt.Sprintf("many/f%03d.txt", i), "", time.Duration(i)*time.Minute)
		}
		out, text, err := e.glob(tooldefs.GlobInput{Pattern: "many/*.txt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.NumFiles).To(Equal(100))
		Expect(out.Truncated).To(BeTrue())
		Expect(out.Filenames[0]).To(Equal(filepath.Join("many", "f000.txt")))
		Expect(text).To(HaveSuffix("\n(Results are truncated. Consider using a more specific path or pattern.)"))
		Expect(tooldefs.Glob{}.RenderResult(nil, out)).To(Equal("Found 100 files (truncated)"))
	})

	It("honours .gitignore and skips version-control directories", func() {
		e.put(".gitignore", "dist/\n", 0)
		e.put("dist/bundle.go", "", 0)
		e.put(".git/hook.go", "", 0)
		out, _, err := e.glob(tooldefs.GlobInput{Pattern: "**/*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("src", "mid.go"), "old.go"}))
	})

	It("lists ignored files with ToolOptions.ListIgnored and drops hidden ones with SkipHidden (agentcore: AGENTCORE_GLOB_NO_IGNORE=1, AGENTCORE_GLOB_HIDDEN=0)", func() {
		e.put(".gitignore", "dist/\n", 0)
		e.put("dist/bundle.go", "", 4*time.Hour)
		e.put(".hidden.go", "", 5*time.Hour)
		out, _, err := e.glob(tooldefs.GlobInput{Pattern: "**/*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("src", "mid.go"), "old.go", ".hidden.go"}))
		GinkgoT().Setenv("AGENTCORE_GLOB_NO_IGNORE", "1") // read by the CLI, not the tool
		out, _, err = e.glob(tooldefs.GlobInput{Pattern: "**/*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("src", "mid.go"), "old.go", ".hidden.go"}))
		runtime.WithService(e.tc, runtime.ToolOptions{ListIgnored: true, SkipHidden: true})
		out, _, err = e.glob(tooldefs.GlobInput{Pattern: "**/*.go"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(Equal([]string{"new.go", filepath.Join("src", "mid.go"), "old.go", filepath.Join("dist", "bundle.go")}))
	})

	Context("errors", func() {
		It("rejects an invalid pattern", func() {
			err := tooldefs.Glob{}.ValidateInput(context.Background(), &tooldefs.GlobInput{Pattern: "src/[a"}, e.tc)
			Expect(err).To(MatchError(ContainSubstring(`invalid glob pattern "src/[a"`)))
		})

		It("rejects a missing directory and a file given as path", func() {
			err := tooldefs.Glob{}.ValidateInput(context.Background(), &tooldefs.GlobInput{Pattern: "*", Path: "nope"}, e.tc)
			Expect(err).To(MatchError(ContainSubstring("Directory does not exist: " + filepath.Join(e.dir, "nope"))))
			err = tooldefs.Glob{}.ValidateInput(context.Background(), &tooldefs.GlobInput{Pattern: "*", Path: "old.go"}, e.tc)
			Expect(err).To(MatchError(ContainSubstring("path is not a directory")))
		})

		It("refuses a directory outside the working directories", func() {
			in := &tooldefs.GlobInput{Pattern: "*", Path: e.outside}
			Expect(tooldefs.Glob{}.CheckPermissions(context.Background(), in, e.tc).Behavior).To(Equal(runtime.Deny))
			_, _, err := e.glob(*in)
			Expect(err).To(MatchError(ContainSubstring("outside the working directories")))
			abs := &tooldefs.GlobInput{Pattern: filepath.Join(e.outside, "*.go")}
			Expect(tooldefs.Glob{}.CheckPermissions(context.Background(), abs, e.tc).Behavior).To(Equal(runtime.Deny))
			Expect(tooldefs.Glob{}.CheckPermissions(context.Background(), &tooldefs.GlobInput{Pattern: "*"}, e.tc).Behavior).To(Equal(runtime.Passthrough))
		})
	})

	It("renders use, rejection, error and groups", func() {
		g := tooldefs.Glob{}
		Expect(g.RenderUse(&tooldefs.GlobInput{Pattern: "**/*.go"})).To(Equal(`pattern: "**/*.go"`))
		Expect(g.RenderUse(&tooldefs.GlobInput{Pattern: "*.go", Path: "src"})).To(Equal(`pattern: "*.go", path: "src"`))
		Expect(g.RenderRejected(&tooldefs.GlobInput{Pattern: "*.go"})).To(Equal(`Search for files matching "*.go" was rejected`))
		Expect(g.RenderError(nil, errors.New("bad\nmore"))).To(Equal("bad"))
		Expect(g.RenderGrouped([]*tooldefs.GlobInput{{Pattern: "*.go"}, {Pattern: "*.ts"}})).To(Equal(`Finding files for 2 patterns: "*.go", "*.ts"`))
		Expect(g.RenderResult(nil, tooldefs.GlobOutput{NumFiles: 1})).To(Equal("Found 1 file"))
	})

	It("targets the searched directory, read", func() {
		Expect(tooldefs.Glob{}.PermissionTarget(&tooldefs.GlobInput{Pattern: "*", Path: "src"})).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "src"}))
		Expect(tooldefs.Glob{}.PermissionTarget(&tooldefs.GlobInput{Pattern: "/repo/src/*.go"})).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "/repo/src"}))
		Expect(tooldefs.Glob{}.PermissionTarget(&tooldefs.GlobInput{Pattern: "*"})).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "."}))
	})
})
