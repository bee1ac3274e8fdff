package filetool_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("filetool", func() {
	var (
		dir string
		tc  *runtime.ToolContext
	)
	BeforeEach(func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(dir)
	})

	Describe("Path", func() {
		It("returns the clean key and the resolved path", func() {
			Expect(os.Mkdir(filepath.Join(dir, "real"), 0o755)).To(Succeed())
			Expect(os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "alias"))).To(Succeed())
			key, real, err := filetool.Path(tc, "file_path", dir+"/alias/./x.go")
			Expect(err).NotTo(HaveOccurred())
			Expect(key).To(Equal(filepath.Join(dir, "alias", "x.go")))
			Expect(real).To(Equal(filepath.Join(dir, "real", "x.go")))
		})

		It("refuses an empty path and names the parameter", func() {
			_, _, err := filetool.Path(tc, "notebook_path", "")
			Expect(err).To(MatchError("notebook_path is empty; give the absolute path of the file"))
		})

		It("falls back to Cwd when no working directories are set, and refuses everything without either", func() {
			tc.WorkingDirs = nil
			_, _, err := filetool.Path(tc, "file_path", filepath.Join(dir, "a"))
			Expect(err).NotTo(HaveOccurred())
			_, _, err = filetool.Path(&runtime.ToolContext{}, "file_path", filepath.Join(dir, "a"))
			Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		})
	})

	Describe("CheckFresh", func() {
		It("wants a recorded state whose hash matches the content", func() {
			p := filepath.Join(dir, "f")
			Expect(errors.Is(filetool.CheckFresh(tc, p, []byte("a")), filetool.ErrNotRead)).To(BeTrue())
			Expect(errors.Is(filetool.CheckFresh(nil, p, []byte("a")), filetool.ErrNotRead)).To(BeTrue())
			tc.FileState.Set(p, runtime.FileState{Hash: filetool.Hash([]byte("a"))})
			Expect(filetool.CheckFresh(tc, p, []byte("a"))).To(Succeed())
			Expect(errors.Is(filetool.CheckFresh(tc, p, []byte("b")), filetool.ErrModified)).To(BeTrue())
		})
	})

	Describe("RecordWrite", func() {
		It("records the hash and mtime through the call's modifier, creating the cache if needed", func() {
			p := filepath.Join(dir, "f")
			Expect(os.WriteFile(p, []byte("data"), 0o644)).To(Succeed())
			tc.FileState = nil
			c := runtime.NewCall("id", tc, nil)
			filetool.RecordWrite(c, p, p, []byte("data"))
			Expect(tc.FileState).To(BeNil())
			c.Modifier()(tc)
			st, ok := tc.FileState.Get(p)
			Expect(ok).To(BeTrue())
			fi, _ := os.Stat(p)
			Expect(st).To(Equal(runtime.FileState{Hash: filetool.Hash([]byte("data")), ModTime: fi.ModTime()}))
		})
	})

	Describe("Similar", func() {
		It("finds a name differing by case or extension", func() {
			Expect(os.WriteFile(filepath.Join(dir, "README.md"), nil, 0o644)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(dir, "main.ts"), nil, 0o644)).To(Succeed())
			Expect(filetool.Similar(filepath.Join(dir, "readme.md"))).To(Equal(filepath.Join(dir, "README.md")))
			Expect(filetool.Similar(filepath.Join(dir, "main.go"))).To(Equal(filepath.Join(dir, "main.ts")))
			Expect(filetool.Similar(filepath.Join(dir, "other.go"))).To(BeEmpty())
			Expect(filetool.Similar(filepath.Join(dir, "nodir", "x"))).To(BeEmpty())
		})
	})

	Describe("Stat", func() {
		It("says a missing file does not exist, with the working directory", func() {
			_, err := filetool.Stat(tc, filepath.Join(dir, "x"), filepath.Join(dir, "x"))
			Expect(err).To(MatchError("File does not exist: " + filepath.Join(dir, "x") + ". The current working directory is " + dir + "."))
		})
	})

	DescribeTable("Display",
		func(p func(wd string) string, want func(wd string) string) {
			wd, err := os.Getwd()
			Expect(err).NotTo(HaveOccurred())
			Expect(filetool.Display(p(wd))).To(Equal(want(wd)))
		},
		Entry("inside the working directory", func(wd string) string { return filepath.Join(wd, "a", "b.go") }, func(string) string { return filepath.Join("a", "b.go") }),
		Entry("outside it", func(string) string { return "/elsewhere/x" }, func(string) string { return "/elsewhere/x" }),
		Entry("a file inside whose name starts with ..", func(wd string) string { return filepath.Join(wd, "..x") }, func(string) string { return "..x" }),
		Entry("a sibling of the working directory", func(wd string) string { return filepath.Join(filepath.Dir(wd), "y") }, func(wd string) string { return filepath.Join(filepath.Dir(wd), "y") }),
		Entry("relative", func(string) string { return "rel/x" }, func(string) string { return "rel/x" }),
	)

	It("renders plurals and first lines", func() {
		Expect(filetool.Plural(1, "line")).To(Equal("1 line"))
		Expect(filetool.Plural(0, "line")).To(Equal("0 lines"))
		Expect(filetool.FirstLine(errors.New("a\nb"))).To(Equal("a"))
		Expect(filetool.FirstLine(nil)).To(BeEmpty())
	})
})
