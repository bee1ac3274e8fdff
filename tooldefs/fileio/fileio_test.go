package fileio_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/fileio"
)

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
