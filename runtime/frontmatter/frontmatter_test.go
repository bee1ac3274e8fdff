package frontmatter_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/frontmatter"
)

type meta struct {
	Name  string `yaml:"name"`
	Tools any    `yaml:"tools"`
}

var _ = Describe("Parse", func() {
	It("decodes the header and returns the body", func() {
		var m meta
		body, err := frontmatter.Parse([]byte("---\r\nname: reviewer\r\ntools: Read, Grep\r\ncolor: red\r\n---\r\n\r\nYou review.\r\n"), &m)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Name).To(Equal("reviewer"))
		Expect(m.Tools).To(Equal("Read, Grep"))
		Expect(body).To(Equal("You review.\n"))
	})
	It("takes an empty header and a header that closes at the end", func() {
		var m meta
		body, err := frontmatter.Parse([]byte("---\n---\nbody"), &m)
		Expect(err).NotTo(HaveOccurred())
		Expect(body).To(Equal("body"))
		body, err = frontmatter.Parse([]byte("---\nname: x\n---"), &m)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Name).To(Equal("x"))
		Expect(body).To(BeEmpty())
	})
	It("decodes a YAML list and a folded block, and keeps yes a string", func() {
		var m struct {
			Tools       any    `yaml:"tools"`
			Description string `yaml:"description"`
			Model       string `yaml:"model"`
		}
		_, err := frontmatter.Parse([]byte("---\ntools:\n  - Read\n  - Bash(git:*)\ndescription: >\n  Reviews\n  code\nmodel: yes\n---\n"), &m)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Tools).To(Equal([]any{"Read", "Bash(git:*)"}))
		Expect(m.Description).To(Equal("Reviews code\n"))
		Expect(m.Model).To(Equal("yes"))
	})
	DescribeTable("says what is wrong",
		func(text, want string) {
			var m meta
			_, err := frontmatter.Parse([]byte(text), &m)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no header", "# Title\n", `must start with a "---" line`),
		Entry("not closed", "---\nname: x\n", "not closed"),
		Entry("bad YAML", "---\nname: [x\n---\n", "not valid YAML"),
	)
})
