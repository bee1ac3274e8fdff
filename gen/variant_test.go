package gen_test

import (
	"go/build/constraint"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

var _ = Describe("Gate", func() {
	DescribeTable("which variants compile a file",
		func(line string, external, internal, ant bool) {
			var g gen.Gate
			if line != "" {
				x, err := constraint.Parse("//go:build " + line)
				Expect(err).NotTo(HaveOccurred())
				g.Expr = x
			}
			var got []bool
			for _, v := range gen.Variants {
				in, err := g.In(v)
				Expect(err).NotTo(HaveOccurred())
				got = append(got, in)
			}
			Expect(got).To(Equal([]bool{external, internal, ant}))
		},
		Entry("no line", "", true, true, true),
		Entry("internal || ant", "internal || ant", false, true, true),
		Entry("!ant", "!ant", true, true, false),
		Entry("internal", "internal", false, true, false),
		Entry("ant", "ant", false, false, true),
		Entry("!internal && !ant", "!internal && !ant", true, false, false),
	)

	It("rejects a line that treats -tags external unlike no tag", func() {
		x, _ := constraint.Parse("//go:build external")
		_, err := gen.Gate{Expr: x}.In(gen.Variants[0])
		Expect(err).To(MatchError(ContainSubstring("write it with !internal and !ant instead")))
	})

	DescribeTable("BadTags",
		func(line string, bad []string) {
			x, err := constraint.Parse("//go:build " + line)
			Expect(err).NotTo(HaveOccurred())
			Expect(gen.BadTags(x)).To(Equal(bad))
		},
		Entry("only variants", "internal || (ant && !external)", nil),
		Entry("an OS tag", "linux && internal", []string{"linux"}),
		Entry("several, sorted once", "ignore || (cgo && !ignore)", []string{"cgo", "ignore"}),
	)
})
