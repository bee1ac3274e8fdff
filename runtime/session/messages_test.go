package session_test

import (
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

var _ = Describe("Session.Messages during a run", func() {
	It("gives a tool a copy of the messages complete so far, without racing the loop", func() {
		// Peek counts the conversation's messages from inside a call, as an
		// inspection tool does; --race checks the loop's appends.
		peek := runtime.Define(runtime.Definition[struct{}]{
			Name: "Peek", Description: "Peek counts the messages.",
			Decode: func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
			Call: func(_ context.Context, _ struct{}, c *runtime.Call) (runtime.Result, error) {
				h, err := runtime.Need[agent.History](c.Context, "Peek")
				if err != nil {
					return runtime.ErrorResult(err.Error()), nil
				}
				msgs := h.Messages()
				msgs = append(msgs[:0:0], msgs...) // the copy is the caller's to change
				return runtime.Result{Content: []runtime.Block{runtime.TextBlock(fmt.Sprint(len(msgs)))}}, nil
			},
			ReadOnly: true, ConcurrencySafe: true,
		})
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"x"},{"type":"tool_use","id":"a","name":"Peek","input":{}},{"type":"tool_use","id":"b","name":"Peek","input":{}}]}
{"blocks":[{"type":"tool_use","id":"c","name":"Peek","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Tools: []runtime.Tool{peek}, Provider: replay.New(sc, replay.Options{})})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		seen := map[string]string{}
		for ev := range s.Run(context.Background(), "go") {
			if ev.Kind == agent.EventToolResult {
				seen[ev.Call.ID] = ev.Call.Result.Text()
			}
		}
		// Turn 1's calls see at least the prompt; turn 2's call sees the
		// prompt, turn 1's answer and its results.
		Expect(seen).To(HaveLen(3))
		Expect(seen["a"]).To(BeElementOf("1", "2"))
		Expect(seen["c"]).To(BeElementOf("3", "4"))
		Expect(s.Messages()).To(HaveLen(6))
	})
})
