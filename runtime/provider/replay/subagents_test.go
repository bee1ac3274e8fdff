package replay_test

import (
	"context"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// textOf plays one request on p and returns the message's text.
func textOf(p provider.Provider) string {
	GinkgoHelper()
	var text string
	for ev, err := range p.Stream(context.Background(), provider.Request{}) {
		Expect(err).NotTo(HaveOccurred())
		if ev.Type == provider.EventMessage {
			for _, b := range ev.Message.Content {
				text += b.Text
			}
		}
	}
	return text
}

var _ = Describe("sub-agent scripts", func() {
	jsonl := `{"name":"subs"}
{"blocks":[{"type":"tool_use","id":"a1","name":"Agent","input":{"description":"d","prompt":"p"}}]}
{"agent":"a1","blocks":[{"type":"tool_use","name":"Read","input":{"file_path":"x"}}]}
{"agent":"a1","blocks":[{"type":"text","text":"sub answer"}]}
{"blocks":[{"type":"text","text":"main answer"}]}`

	It("keeps a sub-agent's JSONL lines apart from the main turns and plays them on Fork", func() {
		sc, err := replay.Parse([]byte(jsonl))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Turns).To(HaveLen(2))
		Expect(sc.Subagents).To(HaveKey("a1"))
		Expect(sc.Subagents["a1"]).To(HaveLen(2))
		Expect(sc.Subagents["a1"][0].Blocks[0].ID).To(Equal("toolu_replay_a1_01_01"))

		p := replay.New(sc, replay.Options{})
		sub, err := provider.ForSubagent(p, "a1", "haiku")
		Expect(err).NotTo(HaveOccurred())
		Expect(sub.Name()).To(Equal("replay:subs/a1"))
		textOf(sub)
		Expect(textOf(sub)).To(Equal("sub answer"))
		textOf(p)
		Expect(textOf(p)).To(Equal("main answer"), "the sub-agent's turns do not move the main cursor")

		_, err = provider.ForSubagent(p, "a2", "")
		Expect(err).To(MatchError(ContainSubstring(`scripts no sub-agent for the Agent call a2 (it scripts: a1); add turns with "agent":"a2"`)))
	})

	It("reads one JSON document with \"subagents\" and writes it back as JSONL", func() {
		doc := `{"turns":[{"blocks":[{"type":"text","text":"m"}]}],"subagents":{"x":[{"blocks":[{"type":"text","text":"s"}]}]}}`
		sc, err := replay.Parse([]byte(doc))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Subagents["x"]).To(HaveLen(1))
		out, err := sc.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`{"agent":"x","blocks":[{"type":"text","text":"s"}]}`))
		again, err := replay.Parse(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Subagents).To(Equal(sc.Subagents))
	})

	DescribeTable("rejects broken sub-agent scripts",
		func(text, want string) {
			_, err := replay.Parse([]byte(text))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("an id used twice across scripts", `{"blocks":[{"type":"tool_use","id":"t","name":"Read"}]}
{"agent":"a","blocks":[{"type":"tool_use","id":"t","name":"Read"}]}`, `sub-agent a, turn 1, block 1: tool_use id "t" is used twice`),
		Entry("an empty sub-agent turn", `{"blocks":[{"type":"text","text":"m"}]}
{"agent":"a","blocks":[]}`, "sub-agent a, turn 1: no blocks"),
		Entry("agent inside a JSON document's turns", `{"turns":[{"agent":"a","blocks":[{"type":"text","text":"m"}]}]}`, `"agent" belongs on JSONL turn lines`),
	)
})
