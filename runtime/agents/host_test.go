package agents_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agents"
)

var _ = Describe("a host's agent types", func() {
	It("are added to the others, replacing a type of the same name, and reach the calls' contexts", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		Expect(agents.WithHostTypes(agents.Builtins(), tc)).To(Equal(agents.Builtins()), "none registered")

		runtime.WithService(tc, agents.HostTypes{
			{Name: "counter", Description: "Counts", Tools: []string{"Bash"}, System: "You count."},
			{Name: "Plan", Description: "The host's planner", System: "You plan."},
		})
		types := agents.WithHostTypes(agents.Builtins(), tc.Clone())
		var names []string
		for _, t := range types {
			names = append(names, t.Name)
		}
		Expect(names).To(Equal([]string{agents.GeneralPurpose, "Explore", "counter", "Plan"}))
		plan, err := agents.FindType(types, "Plan")
		Expect(err).NotTo(HaveOccurred())
		Expect(plan.System).To(Equal("You plan."))
		Expect(plan.ReadOnly).To(BeFalse(), "the host's definition, not the built-in one")
	})
})
