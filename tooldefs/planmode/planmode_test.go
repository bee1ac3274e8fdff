package planmode_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/planmode"
)

var _ = Describe("Title", func() {
	DescribeTable("names a plan by its first line",
		func(plan, want string) { Expect(planmode.Title(plan)).To(Equal(want)) },
		Entry("a heading", "\n\n## Add a flag\n1. parse it", "Add a flag"),
		Entry("plain text", "  Fix the bug  \nthen test", "Fix the bug"),
		Entry("empty", " \n", ""),
		Entry("long, cut at 60 characters", strings.Repeat("é", 70), strings.Repeat("é", 59)+"…"),
	)
})

var _ = Describe("Head", func() {
	DescribeTable("shows a plan's first non-empty lines and counts the rest",
		func(plan string, n int, want string) { Expect(planmode.Head(plan, n)).To(Equal(want)) },
		Entry("short", "# T\n\n1. a\n", 4, "# T\n1. a"),
		Entry("long", "# T\n1. a\n2. b\n3. c\n4. d\n5. e", 3, "# T\n1. a\n2. b\n… 3 more lines of the plan"),
	)
})

var _ = Describe("Need and SetMode", func() {
	It("refuse a context without a session, saying what is missing; SetMode leaves one alone", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		_, err := planmode.Need(tc, planmode.EnterName)
		Expect(err).To(MatchError(runtime.ErrNoSession))
		Expect(err).To(MatchError(ContainSubstring("plan mode needs a session")))
		Expect(err).To(MatchError(ContainSubstring("permission.PlanMode")))
		Expect(func() { planmode.SetMode("plan")(tc) }).NotTo(Panic())
	})
})
