package fspath_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/fspath"
)

var _ = Describe("Confine", func() {
	var root, outside string

	BeforeEach(func() {
		base := GinkgoT().TempDir()
		// Resolve the temp dir itself, so expectations compare real paths.
		base, err := filepath.EvalSymlinks(base)
		Expect(err).NotTo(HaveOccurred())
		root = filepath.Join(base, "root")
		outside = filepath.Join(base, "outside")
		Expect(os.MkdirAll(filepath.Join(root, "src"), 0o755)).To(Succeed())
		Expect(os.MkdirAll(outside, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(root, "src", "a.go"), []byte("package a\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644)).To(Succeed())
	})

	It("accepts an existing file inside a root and returns its real path", func() {
		p := filepath.Join(root, "src", "a.go")
		Expect(fspath.Confine(p, []string{root})).To(Equal(p))
	})

	It("accepts a file that does not exist yet, in directories that do not exist yet", func() {
		p := filepath.Join(root, "new", "dir", "b.go")
		Expect(fspath.Confine(p, []string{root})).To(Equal(p))
	})

	It("accepts the root itself", func() {
		Expect(fspath.Confine(root, []string{root})).To(Equal(root))
	})

	It("refuses a path outside every root", func() {
		_, err := fspath.Confine(filepath.Join(outside, "secret"), []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("outside the working directories"))
	})

	It("refuses a sibling whose name starts with the root's name", func() {
		sib := root + "2"
		Expect(os.MkdirAll(sib, 0o755)).To(Succeed())
		_, err := fspath.Confine(filepath.Join(sib, "x"), []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("refuses a path that climbs out with ..", func() {
		_, err := fspath.Confine(root+"/src/../../outside/secret", []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("refuses a symlinked file inside the root that points outside", func() {
		link := filepath.Join(root, "link")
		Expect(os.Symlink(filepath.Join(outside, "secret"), link)).To(Succeed())
		_, err := fspath.Confine(link, []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("resolves to " + filepath.Join(outside, "secret")))
	})

	It("refuses a new file under a symlinked directory that points outside", func() {
		Expect(os.Symlink(outside, filepath.Join(root, "out"))).To(Succeed())
		_, err := fspath.Confine(filepath.Join(root, "out", "new.txt"), []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("refuses a dangling symlink whose target would be outside", func() {
		Expect(os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(root, "dangling"))).To(Succeed())
		_, err := fspath.Confine(filepath.Join(root, "dangling"), []string{root})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("accepts a symlink inside the root that points inside it, returning the target", func() {
		Expect(os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "alias"))).To(Succeed())
		Expect(fspath.Confine(filepath.Join(root, "alias", "a.go"), []string{root})).
			To(Equal(filepath.Join(root, "src", "a.go")))
	})

	It("accepts a path when the root itself is reached through a symlink", func() {
		linkRoot := filepath.Join(filepath.Dir(root), "rootlink")
		Expect(os.Symlink(root, linkRoot)).To(Succeed())
		Expect(fspath.Confine(filepath.Join(linkRoot, "src", "a.go"), []string{linkRoot})).
			To(Equal(filepath.Join(root, "src", "a.go")))
	})

	It("accepts a path inside the second of several roots", func() {
		Expect(fspath.Confine(filepath.Join(outside, "secret"), []string{root, outside})).
			To(Equal(filepath.Join(outside, "secret")))
	})

	It("refuses a relative path", func() {
		_, err := fspath.Confine("src/a.go", []string{root})
		Expect(err).To(MatchError(ContainSubstring("not an absolute path")))
	})

	It("refuses a symlink loop with an error", func() {
		a, b := filepath.Join(root, "loopa"), filepath.Join(root, "loopb")
		Expect(os.Symlink(b, a)).To(Succeed())
		Expect(os.Symlink(a, b)).To(Succeed())
		_, err := fspath.Confine(a, []string{root})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("Resolve", func() {
	var base string

	BeforeEach(func() {
		var err error
		base, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(base, "dir"), 0o755)).To(Succeed())
	})

	It("returns an existing path unchanged", func() {
		Expect(fspath.Resolve(filepath.Join(base, "dir"))).To(Equal(filepath.Join(base, "dir")))
	})

	It("reads . and .. of real directories as the kernel does", func() {
		Expect(fspath.Resolve(base + "/dir/../dir/./x")).To(Equal(filepath.Join(base, "dir", "x")))
	})

	It("takes .. after a symlink from the link's target, not lexically", func() {
		far := filepath.Join(base, "far", "deep")
		Expect(os.MkdirAll(far, 0o755)).To(Succeed())
		Expect(os.Symlink(far, filepath.Join(base, "dir", "hop"))).To(Succeed())
		Expect(fspath.Resolve(base + "/dir/hop/../planted")).To(Equal(filepath.Join(base, "far", "planted")))
		Expect(fspath.Resolve(base + "/dir/hop/../../x")).To(Equal(filepath.Join(base, "x")))
	})

	It("follows a relative link whose target climbs with ..", func() {
		Expect(os.MkdirAll(filepath.Join(base, "out"), 0o755)).To(Succeed())
		Expect(os.Symlink("../out", filepath.Join(base, "dir", "up"))).To(Succeed())
		Expect(fspath.Resolve(base + "/dir/up/new/f")).To(Equal(filepath.Join(base, "out", "new", "f")))
	})

	It("goes on past a missing component and back into real ones", func() {
		Expect(os.Symlink(filepath.Join(base, "target"), filepath.Join(base, "dir", "ln"))).To(Succeed())
		Expect(fspath.Resolve(base + "/dir/missing/../ln/f")).To(Equal(filepath.Join(base, "target", "f")))
	})

	It("appends a missing tail to the resolved nearest existing ancestor", func() {
		Expect(os.Symlink(filepath.Join(base, "dir"), filepath.Join(base, "alias"))).To(Succeed())
		Expect(fspath.Resolve(filepath.Join(base, "alias", "new", "file"))).
			To(Equal(filepath.Join(base, "dir", "new", "file")))
	})

	It("follows a dangling absolute link to its target", func() {
		Expect(os.Symlink(filepath.Join(base, "elsewhere", "f"), filepath.Join(base, "dir", "d"))).To(Succeed())
		Expect(fspath.Resolve(filepath.Join(base, "dir", "d"))).To(Equal(filepath.Join(base, "elsewhere", "f")))
	})

	It("follows a dangling relative link from the link's own directory", func() {
		Expect(os.Symlink("../gone/f", filepath.Join(base, "dir", "d"))).To(Succeed())
		Expect(fspath.Resolve(filepath.Join(base, "dir", "d"))).To(Equal(filepath.Join(base, "gone", "f")))
	})

	It("follows a chain of dangling links", func() {
		Expect(os.Symlink(filepath.Join(base, "b"), filepath.Join(base, "a"))).To(Succeed())
		Expect(os.Symlink(filepath.Join(base, "c", "target"), filepath.Join(base, "b"))).To(Succeed())
		Expect(fspath.Resolve(filepath.Join(base, "a", "x"))).To(Equal(filepath.Join(base, "c", "target", "x")))
	})

	It("ends a symlink loop with an error", func() {
		Expect(os.Symlink(filepath.Join(base, "l2"), filepath.Join(base, "l1"))).To(Succeed())
		Expect(os.Symlink(filepath.Join(base, "l1"), filepath.Join(base, "l2"))).To(Succeed())
		_, err := fspath.Resolve(filepath.Join(base, "l1", "x"))
		Expect(err).To(MatchError(ContainSubstring("too many levels of symbolic links")))
	})

	It("refuses a relative path", func() {
		_, err := fspath.Resolve("dir/x")
		Expect(err).To(MatchError(ContainSubstring("not an absolute path")))
	})

	It("returns the root for /", func() {
		Expect(fspath.Resolve("/")).To(Equal("/"))
	})
})

var _ = DescribeTable("Within",
	func(path, root string, want bool) { Expect(fspath.Within(path, root)).To(Equal(want)) },
	Entry("the root itself", "/a/b", "/a/b", true),
	Entry("a child", "/a/b/c", "/a/b", true),
	Entry("a deep child", "/a/b/c/d/e", "/a/b", true),
	Entry("a sibling sharing the prefix", "/a/bc", "/a/b", false),
	Entry("the parent", "/a", "/a/b", false),
	Entry("anything under /", "/x/y", "/", true),
	Entry("a root given with a trailing slash", "/a/b/c", "/a/b/", true),
)

var _ = DescribeTable("Within, by Windows rules",
	func(path, root string, want bool) { Expect(fspath.WithinWindows(path, root)).To(Equal(want)) },
	Entry("the root itself", `C:\a\b`, `C:\a\b`, true),
	Entry("a child", `C:\a\b\c`, `C:\a\b`, true),
	Entry("a child in another case", `c:\A\B\c`, `C:\a\b`, true),
	Entry("the root in another case", `C:\A\B`, `c:\a\b`, true),
	Entry("a sibling sharing the prefix", `C:\a\bc`, `C:\a\b`, false),
	Entry("another drive", `D:\a\b\c`, `C:\a\b`, false),
	Entry("anything under the drive root", `C:\x\y`, `C:\`, true),
	Entry("a shorter path", `C:\a`, `C:\a\b`, false),
)

var _ = Describe("Resolver", func() {
	var base string

	BeforeEach(func() {
		var err error
		base, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(base, "dir", "sub"), 0o755)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(base, "far"), 0o755)).To(Succeed())
		Expect(os.Symlink(filepath.Join(base, "far"), filepath.Join(base, "dir", "hop"))).To(Succeed())
	})

	It("answers as Resolve does, links, .. after a link and missing tails included", func() {
		var r fspath.Resolver
		for _, p := range []string{base + "/dir/sub/x", base + "/dir/hop/y", base + "/dir/hop/../z", base + "/dir/missing/../hop/q", base + "/dir/sub/x"} {
			want, err := fspath.Resolve(p)
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Resolve(p)).To(Equal(want), p)
		}
	})

	It("remembers what it examined: a link replaced after the first look is not seen by the same Resolver", func() {
		var r fspath.Resolver
		Expect(r.Resolve(base + "/dir/hop/f")).To(Equal(filepath.Join(base, "far", "f")))
		Expect(os.Remove(filepath.Join(base, "dir", "hop"))).To(Succeed())
		Expect(os.Mkdir(filepath.Join(base, "dir", "hop"), 0o755)).To(Succeed())
		Expect(r.Resolve(base+"/dir/hop/g")).To(Equal(filepath.Join(base, "far", "g")), "one decision sees one state of the tree")
		Expect(fspath.Resolve(base+"/dir/hop/g")).To(Equal(filepath.Join(base, "dir", "hop", "g")), "a fresh resolution sees the change")
		var fresh fspath.Resolver
		Expect(fresh.Resolve(base + "/dir/hop/g")).To(Equal(filepath.Join(base, "dir", "hop", "g")))
	})

	It("ends a symlink loop with an error, twice", func() {
		Expect(os.Symlink(filepath.Join(base, "l2"), filepath.Join(base, "l1"))).To(Succeed())
		Expect(os.Symlink(filepath.Join(base, "l1"), filepath.Join(base, "l2"))).To(Succeed())
		var r fspath.Resolver
		_, err := r.Resolve(filepath.Join(base, "l1", "x"))
		Expect(err).To(HaveOccurred())
		_, err = r.Resolve(filepath.Join(base, "l1", "x"))
		Expect(err).To(HaveOccurred())
	})
})
