package agent_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

var _ = Describe("calls a PreToolUse hook defers", func() {
	It("end the run with every deferred call left open (the last reported), and each later Run asks again, runs what is let through once, and goes on when none is left", func() {
		dir := GinkgoT().TempDir()
		type in struct {
			Name string `json:"name"`
		}
		// Touch appends a line to the file it names: the line count is
		// how often it ran.
		touch := runtime.Define(runtime.Definition[in]{
			Name: "Touch", Description: "Touch appends a line to a file.",
			Decode: func(raw json.RawMessage) (in, error) {
				var v in
				return v, json.Unmarshal(raw, &v)
			},
			Call: func(_ context.Context, v in, _ *runtime.Call) (runtime.Result, error) {
				f, err := os.OpenFile(filepath.Join(dir, v.Name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					return runtime.Result{}, err
				}
				defer f.Close()
				_, err = f.WriteString("ran\n")
				return runtime.Result{Content: []runtime.Block{runtime.TextBlock("touched " + v.Name)}}, err
			},
		})
		var mu sync.Mutex
		deferring := map[string]bool{"a": true, "b": true}
		hook := func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) orchestrate.PreToolUseResult {
			mu.Lock()
			defer mu.Unlock()
			return orchestrate.PreToolUseResult{Defer: deferring[inv.ID], Message: "a person decides"}
		}
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"touching"},{"type":"tool_use","id":"a","name":"Touch","input":{"name":"x"}},{"type":"tool_use","id":"b","name":"Touch","input":{"name":"y"}}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		model := &capture{Provider: replay.New(sc, replay.Options{})}
		ag := agent.New(agent.Config{Provider: model, Tools: agent.List{touch}, PreToolUse: hook}, runtime.NewToolContext(dir))
		lines := func(name string) string {
			data, _ := os.ReadFile(filepath.Join(dir, name))
			return string(data)
		}

		out := ag.Run(context.Background(), "go")
		Expect(out.Stop).To(Equal(agent.StopDeferred))
		Expect(out.Deferred.ID).To(Equal("b"), "the last deferred call is reported, as Claude Code does")
		Expect(out.Text).To(BeEmpty())
		Expect(ag.Deferred().Pending()).To(HaveLen(2), "both stay open (Claude Code drops all but the last)")
		msgs := ag.Messages()
		Expect(msgs[len(msgs)-1].Role).To(Equal(provider.Assistant))
		Expect(lines("x") + lines("y")).To(BeEmpty())
		_, err = ag.Compact(context.Background(), "")
		Expect(err).To(MatchError(agent.ErrDeferredOpen), "no summary request with a tool_use left unanswered")
		Expect(model.requests()).To(HaveLen(1))

		mu.Lock()
		deferring["b"] = false
		mu.Unlock()
		out = ag.Run(context.Background(), "")
		Expect(out.Stop).To(Equal(agent.StopDeferred))
		Expect(out.DeferredAgain).To(BeTrue())
		Expect(out.Deferred.ID).To(Equal("a"))
		Expect(lines("y")).To(Equal("ran\n"), "the call let through ran")
		Expect(lines("x")).To(BeEmpty())
		Expect(model.requests()).To(HaveLen(1), "no request while a call stays deferred")
		Expect(ag.Deferred().Pending()).To(HaveLen(1))

		mu.Lock()
		deferring["a"] = false
		mu.Unlock()
		out = ag.Run(context.Background(), "")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("done"))
		Expect(lines("x")).To(Equal("ran\n"))
		Expect(lines("y")).To(Equal("ran\n"), "each call ran once")
		Expect(ag.Deferred()).To(BeNil())
		reqs := model.requests()
		Expect(reqs).To(HaveLen(2))
		last := reqs[1].Messages[len(reqs[1].Messages)-1]
		Expect(last.Role).To(Equal(provider.User))
		Expect(last.Content).To(HaveLen(3))
		Expect(last.Content[0].ToolUseID).To(Equal("a"))
		Expect(last.Content[0].Content[0].Text).To(Equal("touched x"))
		Expect(last.Content[1].ToolUseID).To(Equal("b"))
		Expect(last.Content[1].Content[0].Text).To(Equal("touched y"))
		Expect(last.Content[2].Text).To(Equal(agent.ContinueNotice))
	})

	It("stops at an interrupt while a resumed deferred call runs: the turn closed as interrupted, nothing left open", func() {
		started := make(chan struct{})
		type in struct{}
		wait := runtime.Define(runtime.Definition[in]{
			Name: "Wait", Description: "Wait blocks until stopped.",
			Decode:    func(json.RawMessage) (in, error) { return in{}, nil },
			Interrupt: runtime.InterruptCancel,
			Call: func(ctx context.Context, _ in, _ *runtime.Call) (runtime.Result, error) {
				close(started)
				<-ctx.Done()
				return runtime.Result{}, ctx.Err()
			},
		})
		var mu sync.Mutex
		deferring := true
		hook := func(context.Context, *runtime.Invocation, *runtime.ToolContext) orchestrate.PreToolUseResult {
			mu.Lock()
			defer mu.Unlock()
			return orchestrate.PreToolUseResult{Defer: deferring}
		}
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"w","name":"Wait","input":{}}]}
{"blocks":[{"type":"text","text":"never asked"}]}`))
		Expect(err).NotTo(HaveOccurred())
		model := &capture{Provider: replay.New(sc, replay.Options{})}
		ag := agent.New(agent.Config{Provider: model, Tools: agent.List{wait}, PreToolUse: hook}, runtime.NewToolContext(GinkgoT().TempDir()))
		Expect(ag.Run(context.Background(), "go").Stop).To(Equal(agent.StopDeferred))
		mu.Lock()
		deferring = false
		mu.Unlock()
		go func() {
			defer GinkgoRecover()
			<-started
			ag.Interrupt()
		}()
		out := ag.Run(context.Background(), "")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		Expect(ag.Deferred()).To(BeNil())
		msgs := ag.Messages()
		last := msgs[len(msgs)-1]
		Expect(last.Role).To(Equal(provider.User))
		Expect(last.Content[0].ToolUseID).To(Equal("w"))
		Expect(last.Content[0].IsError).To(BeTrue())
		Expect(last.Content[1].Text).To(Equal(agent.InterruptNotice))
		Expect(model.requests()).To(HaveLen(1))
	})
})
