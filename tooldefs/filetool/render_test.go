package filetool_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("CapDiff", func() {
	It("keeps a short diff whole", func() {
		Expect(filetool.CapDiff("-a\n+b\n")).To(Equal("-a\n+b\n"))
	})

	It("cuts a long diff at a line boundary and counts the lines left", func() {
		line := strings.Repeat("x", 99) + "\n"
		d := strings.Repeat(line, 150) // 15 000 characters
		got := filetool.CapDiff(d)
		Expect(got).To(HavePrefix(strings.Repeat(line, 100)))
		Expect(strings.TrimPrefix(got, strings.Repeat(line, 100))).To(Equal("[diff cut: 50 more lines; Read the file to see the rest]\n"))
	})
})

var _ = Describe("DisplayNames", func() {
	It("lists the distinct display paths in order", func() {
		wd, err := os.Getwd()
		Expect(err).NotTo(HaveOccurred())
		ins := []string{filepath.Join(wd, "b.go"), "/elsewhere/a", filepath.Join(wd, "b.go")}
		Expect(filetool.DisplayNames(ins, func(s string) string { return s })).To(Equal([]string{"b.go", "/elsewhere/a"}))
	})
})

var _ = Describe("DiffBody and HeadLines", func() {
	It("keeps a diff's hunks without its header, capped with the count of the rest", func() {
		d := "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"
		Expect(filetool.DiffBody(d, 10)).To(Equal("@@ -1,2 +1,2 @@\n-a\n+b\n c"))
		Expect(filetool.DiffBody(d, 2)).To(Equal("@@ -1,2 +1,2 @@\n-a\n… +2 lines"))
		Expect(filetool.DiffBody("", 10)).To(BeEmpty())
	})
	It("keeps the first lines of text", func() {
		Expect(filetool.HeadLines("1\n2\n3\n", 2)).To(Equal("1\n2\n… +1 line"))
		Expect(filetool.HeadLines("\n\n", 2)).To(BeEmpty())
	})
})
