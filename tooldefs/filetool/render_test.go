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
