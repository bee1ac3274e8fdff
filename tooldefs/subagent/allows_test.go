package subagent_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/tooldefs/subagent"
)

var _ = Describe("Allows", func() {
	tool := func(name string) runtime.Tool {
		GinkgoHelper()
		for _, t := range generated.AllBaseTools() {
			if t.Name() == name {
				return t
			}
		}
		Fail("no tool " + name)
		return nil
	}

	It("never gives a sub-agent the tool that starts sub-agents", func() {
		Expect(subagent.Allows(agents.Type{Name: "general"}, tool("Agent"), "Agent")).To(BeFalse())
		Expect(subagent.Allows(agents.Type{Name: "general"}, tool("Bash"), "Agent")).To(BeTrue())
	})

	It("gives a type with a Tools list those tools only", func() {
		t := agents.Type{Name: "reader", Tools: []string{"Read", "Grep"}}
		Expect(subagent.Allows(t, tool("Read"), "Agent")).To(BeTrue())
		Expect(subagent.Allows(t, tool("Write"), "Agent")).To(BeFalse())
	})

	It("gives a read-only type only tools that can be read-only", func() {
		t := agents.Type{Name: "explore", ReadOnly: true}
		Expect(subagent.Allows(t, tool("Read"), "Agent")).To(BeTrue())
		Expect(subagent.Allows(t, tool("Write"), "Agent")).To(BeFalse())
	})
})
