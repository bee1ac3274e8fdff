package transcript_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/transcript"
)

var _ = Describe("a compaction in the transcript", func() {
	It("marks a compact_boundary and loads only what follows it, with later messages and early results paired", func() {
		dir := GinkgoT().TempDir()
		store := transcript.StoreIn(filepath.Join(dir, "cfg"))
		id := "5f0c5a4e-4a8b-4d4e-9a51-1f2d3c4b5a69"
		w, err := store.Create(transcript.Meta{SessionID: id, Cwd: dir})
		Expect(err).NotTo(HaveOccurred())
		w.Add(user("first"))
		w.Add(toolCall("old", "t1"))
		w.Add(results("t1"))
		kept := []provider.Message{user("<summary>first, then t1</summary>"), toolCall("recent", "t2"), results("t2")}
		w.Compacted(agent.CompactInfo{Trigger: agent.CompactAuto}, kept)
		w.Add(toolCall("after", "t3"))
		w.ToolResult(toolCall("", "t3").Content[1], results("t3").Content[0])
		Expect(w.Close()).To(Succeed())

		types := []any{}
		for _, l := range lines(w.Path()) {
			types = append(types, l["type"])
		}
		Expect(types).To(Equal([]any{"user", "assistant", "user", "compact_boundary", "user", "assistant", "user", "assistant", "tool_result"}))

		msgs, _, err := transcript.Load(w.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(5))
		Expect(msgs[:3]).To(Equal(kept))
		Expect(msgs[3].ToolUses()[0].ID).To(Equal("t3"))
		Expect(msgs[4].Content[0].ToolUseID).To(Equal("t3"), "the result recorded as the call ended answers it")
	})
})
