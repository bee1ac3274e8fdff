package transcript_test

import (
	"encoding/json"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// twoCalls is a response with two calls, t1 and t2.
func twoCalls() provider.Message {
	return provider.Message{Role: provider.Assistant, Content: []provider.Block{
		provider.ToolUse("t1", "Bash", json.RawMessage(`{"command":"echo x >> marker"}`)),
		provider.ToolUse("t2", "Bash", json.RawMessage(`{"command":"sleep 60"}`))}}
}

func ran(id, text string) provider.Block {
	return provider.ToolResult(id, runtime.Result{Content: []runtime.Block{runtime.TextBlock(text)}})
}

// answers counts the tool_results of msgs by id.
func answers(msgs []provider.Message) map[string]int {
	n := map[string]int{}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == provider.ToolResultBlock {
				n[b.ToolUseID]++
			}
		}
	}
	return n
}

var _ = Describe("tool results recorded as their calls end", func() {
	var store transcript.Store
	var cwd, id string
	var w *transcript.Writer
	BeforeEach(func() {
		store = transcript.Store{Root: filepath.Join(GinkgoT().TempDir(), "projects")}
		cwd, id = "/work/project", runtime.NewUUID()
		var err error
		w, err = store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		Expect(err).NotTo(HaveOccurred())
		w.Add(user("go"))
	})

	It("answer their call on resume when the process died before the turn's results, the others Interrupted, each once", func() {
		calls := twoCalls()
		w.ToolResult(calls.Content[0], ran("t1", "x appended")) // while the response still streamed
		w.Add(calls)
		// killed while t2 runs
		Expect(w.Close()).To(Succeed())

		_, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(3))
		Expect(msgs[2].Content).To(Equal([]provider.Block{ran("t1", "x appended"),
			provider.ToolResult("t2", runtime.ErrorResult(transcript.Interrupted))}))
		Expect(answers(msgs)).To(Equal(map[string]int{"t1": 1, "t2": 1}))

		again, rep, err := transcript.Load(filepath.Join(store.Root, transcript.DirName(cwd), id+transcript.Ext))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Answered).To(BeEmpty())
		Expect(rep.Recovered).To(BeEmpty(), "the file is paired now")
		Expect(again).To(Equal(msgs))
	})

	It("bring back their calls when the process died before the response's message was written", func() {
		calls := twoCalls()
		w.ToolResult(calls.Content[0], ran("t1", "x appended"))
		Expect(w.Close()).To(Succeed())

		_, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(3))
		Expect(msgs[1].Role).To(Equal(provider.Assistant))
		Expect(msgs[1].ToolUses()).To(HaveLen(1))
		Expect(msgs[1].ToolUses()[0].ID).To(Equal("t1"))
		Expect(string(msgs[1].ToolUses()[0].Input)).To(MatchJSON(calls.Content[0].Input))
		Expect(msgs[2]).To(Equal(provider.Message{Role: provider.User, Content: []provider.Block{ran("t1", "x appended")}}))
	})

	It("change nothing when the turn's results were written", func() {
		calls := twoCalls()
		w.ToolResult(calls.Content[0], ran("t1", "x appended"))
		w.Add(calls)
		w.ToolResult(calls.Content[1], ran("t2", "slept"))
		w.Add(provider.Message{Role: provider.User, Content: []provider.Block{ran("t1", "x appended"), ran("t2", "slept")}})
		w.Add(provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("done")}})
		Expect(w.Close()).To(Succeed())

		_, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(4))
		Expect(answers(msgs)).To(Equal(map[string]int{"t1": 1, "t2": 1}))
	})

	It("are left out when a later message shows their response was dropped (sent again)", func() {
		dropped := provider.ToolUse("t0", "Read", json.RawMessage(`{"file_path":"/a"}`))
		w.ToolResult(dropped, ran("t0", "alpha"))
		w.Add(provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("hi")}})
		Expect(w.Close()).To(Succeed())

		_, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(2))
		Expect(answers(msgs)).To(BeEmpty())
	})
})
