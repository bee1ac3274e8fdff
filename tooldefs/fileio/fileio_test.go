package fileio_test

import (
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/fileio"
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
		Expect(fileio.Confine(p, []string{root})).To(Equal(p))
	})

	It("accepts a file that does not exist yet, in directories that do not exist yet", func() {
		p := filepath.Join(root, "new", "dir", "b.go")
		Expect(fileio.Confine(p, []string{root})).To(Equal(p))
	})

	It("accepts the root itself", func() {
		Expect(fileio.Confine(root, []string{root})).To(Equal(root))
	})

	It("refuses a path outside every root", func() {
		_, err := fileio.Confine(filepath.Join(outside, "secret"), []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("outside the working directories"))
	})

	It("refuses a sibling whose name starts with the root's name", func() {
		sib := root + "2"
		Expect(os.MkdirAll(sib, 0o755)).To(Succeed())
		_, err := fileio.Confine(filepath.Join(sib, "x"), []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
	})

	It("refuses a path that climbs out with ..", func() {
		_, err := fileio.Confine(root+"/src/../../outside/secret", []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
	})

	It("refuses a symlinked file inside the root that points outside", func() {
		link := filepath.Join(root, "link")
		Expect(os.Symlink(filepath.Join(outside, "secret"), link)).To(Succeed())
		_, err := fileio.Confine(link, []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("resolves to " + filepath.Join(outside, "secret")))
	})

	It("refuses a new file under a symlinked directory that points outside", func() {
		Expect(os.Symlink(outside, filepath.Join(root, "out"))).To(Succeed())
		_, err := fileio.Confine(filepath.Join(root, "out", "new.txt"), []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
	})

	It("refuses a dangling symlink whose target would be outside", func() {
		Expect(os.Symlink(filepath.Join(outside, "not-yet"), filepath.Join(root, "dangling"))).To(Succeed())
		_, err := fileio.Confine(filepath.Join(root, "dangling"), []string{root})
		Expect(errors.Is(err, fileio.ErrOutside)).To(BeTrue())
	})

	It("accepts a symlink inside the root that points inside it, returning the target", func() {
		Expect(os.Symlink(filepath.Join(root, "src"), filepath.Join(root, "alias"))).To(Succeed())
		Expect(fileio.Confine(filepath.Join(root, "alias", "a.go"), []string{root})).
			To(Equal(filepath.Join(root, "src", "a.go")))
	})

	It("accepts a path when the root itself is reached through a symlink", func() {
		linkRoot := filepath.Join(filepath.Dir(root), "rootlink")
		Expect(os.Symlink(root, linkRoot)).To(Succeed())
		Expect(fileio.Confine(filepath.Join(linkRoot, "src", "a.go"), []string{linkRoot})).
			To(Equal(filepath.Join(root, "src", "a.go")))
	})

	It("accepts a path inside the second of several roots", func() {
		Expect(fileio.Confine(filepath.Join(outside, "secret"), []string{root, outside})).
			To(Equal(filepath.Join(outside, "secret")))
	})

	It("refuses a relative path", func() {
		_, err := fileio.Confine("src/a.go", []string{root})
		Expect(err).To(MatchError(ContainSubstring("not an absolute path")))
	})

	It("refuses a symlink loop with an error", func() {
		a, b := filepath.Join(root, "loopa"), filepath.Join(root, "loopb")
		Expect(os.Symlink(b, a)).To(Succeed())
		Expect(os.Symlink(a, b)).To(Succeed())
		_, err := fileio.Confine(a, []string{root})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("WriteAtomic", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	entries := func() []string {
		es, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}

	It("creates a new file with the default mode and leaves no temporary file", func() {
		p := filepath.Join(dir, "new.txt")
		Expect(fileio.WriteAtomic(p, []byte("hello\n"), 0)).To(Succeed())
		Expect(os.ReadFile(p)).To(Equal([]byte("hello\n")))
		fi, err := os.Stat(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode().Perm()).To(Equal(os.FileMode(0o644)))
		Expect(entries()).To(Equal([]string{"new.txt"}))
	})

	It("keeps the mode of the file it replaces", func() {
		p := filepath.Join(dir, "run.sh")
		Expect(os.WriteFile(p, []byte("old"), 0o755)).To(Succeed())
		Expect(os.Chmod(p, 0o751)).To(Succeed())
		Expect(fileio.WriteAtomic(p, []byte("new"), 0)).To(Succeed())
		fi, err := os.Stat(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode().Perm()).To(Equal(os.FileMode(0o751)))
		Expect(os.ReadFile(p)).To(Equal([]byte("new")))
	})

	It("replaces the file by rename, so a reader holding the old file still sees the old content", func() {
		p := filepath.Join(dir, "f.txt")
		Expect(os.WriteFile(p, []byte("old content"), 0o644)).To(Succeed())
		f, err := os.Open(p)
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		Expect(fileio.WriteAtomic(p, []byte("new"), 0)).To(Succeed())
		buf := make([]byte, 64)
		n, _ := f.Read(buf)
		Expect(string(buf[:n])).To(Equal("old content"))
		Expect(os.ReadFile(p)).To(Equal([]byte("new")))
	})

	It("refuses a directory and leaves nothing behind", func() {
		Expect(os.Mkdir(filepath.Join(dir, "d"), 0o755)).To(Succeed())
		Expect(fileio.WriteAtomic(filepath.Join(dir, "d"), []byte("x"), 0)).To(MatchError(ContainSubstring("is a directory")))
		Expect(entries()).To(Equal([]string{"d"}))
	})

	It("fails when the directory does not exist", func() {
		Expect(fileio.WriteAtomic(filepath.Join(dir, "no", "f"), []byte("x"), 0)).NotTo(Succeed())
	})
})

var _ = Describe("Hash", func() {
	It("is the hex SHA-256 of the content, also when read from a file", func() {
		Expect(fileio.Hash([]byte("abc"))).To(Equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
		p := filepath.Join(GinkgoT().TempDir(), "f")
		Expect(os.WriteFile(p, []byte("abc"), 0o644)).To(Succeed())
		Expect(fileio.HashFile(p)).To(Equal(fileio.Hash([]byte("abc"))))
	})
})

var _ = DescribeTable("IsBinary",
	func(data []byte, want bool) { Expect(fileio.IsBinary(data)).To(Equal(want)) },
	Entry("plain text", []byte("hello\nworld\n"), false),
	Entry("UTF-8 text", []byte("héllo wörld “quoted” 日本語\n"), false),
	Entry("empty", []byte{}, false),
	Entry("a NUL byte", []byte("abc\x00def"), true),
	Entry("mostly invalid UTF-8", []byte{0xff, 0xfe, 0xfd, 0x80, 0x81, 0x82, 'a', 0xc0, 0xc1, 0xf5}, true),
	Entry("control characters", []byte("\x01\x02\x03\x04\x05\x06\x07ab"), true),
	Entry("a rune cut at the sniff window", append(bytesOf('a', 7999), 0xe6, 0x97, 0xa5), false),
)

var _ = DescribeTable("IsBinaryExt",
	func(name string, want bool) { Expect(fileio.IsBinaryExt(name)).To(Equal(want)) },
	Entry("zip", "a/b.zip", true),
	Entry("upper-case PDF", "doc.PDF", true),
	Entry("go source", "main.go", false),
	Entry("no extension", "Makefile", false),
)

func bytesOf(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}
