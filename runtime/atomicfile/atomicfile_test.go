package atomicfile_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/atomicfile"
)

var _ = Describe("atomicfile.Write", func() {
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
		Expect(atomicfile.Write(p, []byte("hello\n"), 0)).To(Succeed())
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
		Expect(atomicfile.Write(p, []byte("new"), 0)).To(Succeed())
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
		Expect(atomicfile.Write(p, []byte("new"), 0)).To(Succeed())
		buf := make([]byte, 64)
		n, _ := f.Read(buf)
		Expect(string(buf[:n])).To(Equal("old content"))
		Expect(os.ReadFile(p)).To(Equal([]byte("new")))
	})

	It("refuses a directory and leaves nothing behind", func() {
		Expect(os.Mkdir(filepath.Join(dir, "d"), 0o755)).To(Succeed())
		Expect(atomicfile.Write(filepath.Join(dir, "d"), []byte("x"), 0)).To(MatchError(ContainSubstring("is a directory")))
		Expect(entries()).To(Equal([]string{"d"}))
	})

	It("fails when the directory does not exist", func() {
		Expect(atomicfile.Write(filepath.Join(dir, "no", "f"), []byte("x"), 0)).NotTo(Succeed())
	})
})
