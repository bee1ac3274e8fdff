package orchestrate_test

import (
	"context"
	"errors"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("PostToolUseFailure and a PostToolUse that replaces the content", func() {
	var (
		mu       sync.Mutex
		failures []orchestrate.Failure
		posts    int
	)
	BeforeEach(func() { failures, posts = nil, 0 })
	executor := func(call func(ctx context.Context, in *tooltest.Input, c *runtime.Call) (runtime.Result, error)) *orchestrate.Executor {
		return &orchestrate.Executor{
			Tools: []runtime.Tool{&tooltest.Sim{OnCall: call}},
			PostToolUse: func(context.Context, *runtime.Invocation, runtime.Result, *runtime.ToolContext) orchestrate.PostToolUseResult {
				mu.Lock()
				posts++
				mu.Unlock()
				return orchestrate.PostToolUseResult{Content: []runtime.Block{runtime.TextBlock("replaced")}, Context: []string{"and a note"}}
			},
			PostToolUseFailure: func(_ context.Context, inv *runtime.Invocation, f orchestrate.Failure, _ *runtime.ToolContext) orchestrate.PostToolUseResult {
				mu.Lock()
				failures = append(failures, f)
				mu.Unlock()
				Expect(inv.ID).To(Equal("c1"))
				return orchestrate.PostToolUseResult{Context: []string{"failure hook context"}}
			},
		}
	}

	It("runs it for a call whose Call returned an error, not PostToolUse, and adds its context to the error", func() {
		ex := executor(func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			return runtime.Result{}, errors.New("disk full")
		})
		results, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("c1", "Sim", map[string]any{})}, newTC()))
		Expect(results).To(HaveLen(1))
		Expect(results[0].Outcome).To(Equal(orchestrate.OutcomeToolError))
		Expect(results[0].Result.Text()).To(Equal("disk full\nfailure hook context"))
		Expect(failures).To(HaveLen(1))
		Expect(failures[0].Err).To(MatchError("disk full"))
		Expect(failures[0].Interrupted).To(BeFalse())
		Expect(posts).To(BeZero())
	})

	It("does not run it for a call that never ran (an unknown tool)", func() {
		ex := executor(nil)
		results, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("c1", "Nope", map[string]any{})}, newTC()))
		Expect(results[0].Outcome).To(Equal(orchestrate.OutcomeUnknownTool))
		Expect(failures).To(BeEmpty())
	})

	It("marks a call the user interrupted while it ran", func() {
		started := make(chan struct{})
		ex := executor(func(ctx context.Context, _ *tooltest.Input, _ *runtime.Call) (runtime.Result, error) {
			close(started)
			<-ctx.Done()
			return runtime.Result{}, ctx.Err()
		})
		ctx, cancel := context.WithCancelCause(bg)
		go func() { <-started; cancel(orchestrate.ErrInterrupted) }()
		results, _ := collect(ex.RunTools(ctx, []orchestrate.ToolUse{use("c1", "Sim", map[string]any{})}, newTC()))
		Expect(results[0].Outcome).To(Equal(orchestrate.OutcomeInterrupted))
		Expect(failures).To(HaveLen(1))
		Expect(failures[0].Interrupted).To(BeTrue())
		Expect(failures[0].Err).To(MatchError(orchestrate.InterruptMessage))
	})

	It("replaces a successful result's content with PostToolUse's Content, its context after it", func() {
		ex := executor(func(context.Context, *tooltest.Input, *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("the secret")}}, nil
		})
		results, _ := collect(ex.RunTools(bg, []orchestrate.ToolUse{use("c1", "Sim", map[string]any{})}, newTC()))
		Expect(results[0].Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(results[0].Result.Text()).To(Equal("replaced\nand a note"))
		Expect(failures).To(BeEmpty())
	})
})
