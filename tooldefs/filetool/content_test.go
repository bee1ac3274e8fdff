package filetool_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("Hash", func() {
	It("is the hex SHA-256 of the content, also when read from a file", func() {
		Expect(filetool.Hash([]byte("abc"))).To(Equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
		p := filepath.Join(GinkgoT().TempDir(), "f")
		Expect(os.WriteFile(p, []byte("abc"), 0o644)).To(Succeed())
		Expect(filetool.HashFile(p)).To(Equal(filetool.Hash([]byte("abc"))))
	})
})

var _ = DescribeTable("IsBinary",
	func(data []byte, want bool) { Expect(filetool.IsBinary(data)).To(Equal(want)) },
	Entry("plain text", []byte("hello\nworld\n"), false),
	Entry("UTF-8 text", []byte("héllo wörld “quoted” 日本語\n"), false),
	Entry("empty", []byte{}, false),
	Entry("a NUL byte", []byte("abc\x00def"), true),
	Entry("mostly invalid UTF-8", []byte{0xff, 0xfe, 0xfd, 0x80, 0x81, 0x82, 'a', 0xc0, 0xc1, 0xf5}, true),
	Entry("control characters", []byte("\x01\x02\x03\x04\x05\x06\x07ab"), true),
	Entry("a rune cut at the sniff window", append(bytesOf('a', 7999), 0xe6, 0x97, 0xa5), false),
)

var _ = DescribeTable("IsBinaryExt",
	func(name string, want bool) { Expect(filetool.IsBinaryExt(name)).To(Equal(want)) },
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
