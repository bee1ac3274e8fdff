package orchestrate_test

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("the per-call pipeline", func() {
	var (
		ex   *orchestrate.Executor
		sim  *tooltest.Sim
		safe *tooltest.Sim
	)
	BeforeEach(func() {
		sim = &tooltest.Sim{ToolName: "Sim", ToolAliases: []string{"OldSim"}}
		safe = &tooltest.Sim{ToolName: "Safe", Safe: true}
		ex = &orchestrate.Executor{Tools: []runtime.Tool{sim, safe}}
	})

	run := func(calls ...orchestrate.ToolUse) []orchestrate.Event {
		res, _ := collect(ex.RunTools(bg, calls, newTC()))
		Expect(res).To(HaveLen(len(calls)))
		return res
	}
	one := func(u orchestrate.ToolUse) orchestrate.Event { return run(u)[0] }

	It("runs a call and returns its content", func() {
		ev := one(use("a", "Sim", map[string]any{"output": "hello"}))
		Expect(ev.IsError()).To(BeFalse())
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("hello"))
		Expect(ev.Tool).To(BeIdenticalTo(sim))
		Expect(ev.Input).To(BeAssignableToTypeOf(&tooltest.Input{}))
		Expect(states(ev)).To(Equal([]string{"queued", "executing", "completed", "yielded"}))
		Expect(ev.Ended).NotTo(BeTemporally("<", ev.Started))
	})

	It("resolves aliases", func() {
		ev := one(use("a", "OldSim", nil))
		Expect(ev.IsError()).To(BeFalse())
		Expect(ev.Tool).To(BeIdenticalTo(sim))
		Expect(ev.Name).To(Equal("OldSim"))
	})

	DescribeTable("turns every failure into one is_error result that says what happened",
		func(u orchestrate.ToolUse, outcome orchestrate.Outcome, text string) {
			ev := one(u)
			Expect(ev.IsError()).To(BeTrue())
			Expect(ev.Outcome).To(Equal(outcome))
			Expect(ev.Result.Text()).To(ContainSubstring(text))
			Expect(ev.Err).To(HaveOccurred())
		},
		Entry("unknown tool, far from every name", use("a", "Teleport", nil), orchestrate.OutcomeUnknownTool, "No such tool available: Teleport"),
		Entry("an unknown tool named like one in another case", use("a", "sim", nil), orchestrate.OutcomeUnknownTool, "No such tool available: sim. Did you mean Sim?"),
		Entry("an unknown tool a slip away from two", use("a", "Sade", nil), orchestrate.OutcomeUnknownTool, "No such tool available: Sade. Did you mean Safe?"),
		Entry("an unknown tool holding a tool's name", use("a", "SafeTool", nil), orchestrate.OutcomeUnknownTool, "No such tool available: SafeTool. Did you mean Safe?"),
		Entry("input that is not JSON", use("a", "Sim", `{"output":`), orchestrate.OutcomeInvalidInput, "InputValidationError: Sim failed"),
		Entry("an unknown parameter", use("a", "Sim", `{"colour":"red"}`), orchestrate.OutcomeInvalidInput, `unknown field "colour"`),
		Entry("a wrong type", use("a", "Sim", `{"spin":"x"}`), orchestrate.OutcomeInvalidInput, "spin"),
		Entry("ValidateInput", use("a", "Sim", map[string]any{"invalid": "file does not exist: x.go"}), orchestrate.OutcomeInvalidInput, "file does not exist: x.go"),
		Entry("Call error", use("a", "Sim", map[string]any{"fail": "disk full"}), orchestrate.OutcomeToolError, "disk full"),
		Entry("Call panic", use("a", "Sim", map[string]any{"panic": "boom"}), orchestrate.OutcomePanic, "panic in Call: boom"),
	)

	It("keeps an is_error result the tool returned", func() {
		ev := one(use("a", "Sim", map[string]any{"error_result": "exit 1"}))
		Expect(ev.IsError()).To(BeTrue())
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("exit 1"))
	})

	It("recovers panics in IsConcurrencySafe and treats the call as unsafe", func() {
		plan := ex.Plan([]orchestrate.ToolUse{use("a", "Safe", nil), use("b", "Safe", map[string]any{"panic_safe": true}), use("c", "Safe", nil)})
		Expect(plan).To(HaveLen(3))
		Expect(plan[1].ConcurrencySafe).To(BeFalse())
		ev := run(use("b", "Safe", map[string]any{"panic_safe": true}))[0]
		Expect(ev.IsError()).To(BeFalse())
	})

	It("recovers panics in Decode, ValidateInput, lookup and the permission check", func() {
		bad := &panicky{Sim: tooltest.Sim{ToolName: "Bad"}}
		ex.Tools = append(ex.Tools, bad)
		bad.decode = true
		ev := one(use("a", "Bad", nil))
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeInvalidInput))
		Expect(ev.Result.Text()).To(ContainSubstring("InputValidationError: Bad failed: the input could not be decoded (panic: decode exploded)"))
		bad.decode, bad.validate = false, true
		ev = one(use("a", "Bad", nil))
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomePanic))
		Expect(ev.Result.Text()).To(ContainSubstring("ValidateInput"))
		Expect(ev.Result.Text()).To(ContainSubstring("Error: Bad failed unexpectedly (panic in ValidateInput: validate exploded)."))
		bad.validate = false
		ex.CanUseTool = func(context.Context, *runtime.Invocation, *runtime.ToolContext) runtime.PermissionDecision {
			panic("rules broke")
		}
		ev = one(use("a", "Bad", nil))
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(ContainSubstring("rules broke"))
		Expect(ev.Result.Text()).To(ContainSubstring("Permission to use Bad was denied: the permission check failed (panic: rules broke)"))
		ex.CanUseTool = nil
		bad.name = true
		ev = one(use("a", "Zzz", nil))
		Expect(ev.IsError()).To(BeTrue())
		Expect(ev.Result.Text()).To(ContainSubstring("panic"))
		Expect(ev.Result.Text()).To(ContainSubstring("Error: Zzz failed unexpectedly (panic in Name/Aliases (tool lookup): name exploded)."))
	})

	Describe("permissions", func() {
		var seen []any
		BeforeEach(func() {
			seen = nil
			ex.CanUseTool = func(_ context.Context, inv *runtime.Invocation, _ *runtime.ToolContext) runtime.PermissionDecision {
				seen = append(seen, inv.Input)
				switch inv.Input.(*tooltest.Input).Tag {
				case "deny":
					return runtime.PermissionDecision{Behavior: runtime.Deny, Message: "Permission to use Sim with command rm -rf / has been denied."}
				case "ask":
					return runtime.PermissionDecision{Behavior: runtime.Ask}
				case "pass":
					return runtime.PermissionDecision{}
				}
				return runtime.PermissionDecision{Behavior: runtime.Allow}
			}
		})
		It("runs allowed calls with the decoded input", func() {
			Expect(one(use("a", "Sim", map[string]any{"tag": "ok"})).IsError()).To(BeFalse())
			Expect(seen).To(HaveLen(1))
			Expect(seen[0].(*tooltest.Input).Tag).To(Equal("ok"))
		})
		It("rejects a denied call with the decision's message and never calls the tool", func() {
			mon := tooltest.NewMonitor()
			sim.Monitor = mon
			ev := one(use("a", "Sim", map[string]any{"tag": "deny"}))
			Expect(ev.Rejected()).To(BeTrue())
			Expect(ev.IsError()).To(BeTrue())
			Expect(ev.Result.Text()).To(Equal("Permission to use Sim with command rm -rf / has been denied."))
			Expect(mon.Started()).To(BeEmpty())
		})
		It("fails closed on ask and passthrough", func() {
			Expect(one(use("a", "Sim", map[string]any{"tag": "ask"})).Rejected()).To(BeTrue())
			ev := one(use("a", "Sim", map[string]any{"tag": "pass"}))
			Expect(ev.Rejected()).To(BeTrue())
			Expect(ev.Result.Text()).To(ContainSubstring("Permission to use Sim"))
		})
		It("does not ask about calls whose input is invalid", func() {
			one(use("a", "Sim", map[string]any{"invalid": "nope"}))
			Expect(seen).To(BeEmpty())
		})
	})

	It("times a call out after CallTimeout", func() {
		ex.CallTimeout = 5 * time.Millisecond
		ev := one(use("a", "Sim", map[string]any{"block": true}))
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeTimeout))
		Expect(ev.Result.Text()).To(ContainSubstring("Sim timed out after 5ms"))
		var te *orchestrate.TimeoutError
		Expect(errors.As(ev.Err, &te)).To(BeTrue())
	})

	It("turns a cancelled context into a cancelled result", func() {
		ctx, cancel := context.WithCancel(bg)
		s := ex.Start(ctx, []orchestrate.ToolUse{use("a", "Sim", map[string]any{"block": true}), use("b", "Sim", nil)}, newTC())
		cancel()
		res, _ := collect(s.Results())
		Expect(ids(res)).To(Equal([]string{"a", "b"}))
		Expect(res[0].Outcome).To(Equal(orchestrate.OutcomeCancelled))
		Expect(res[1].Outcome).To(Equal(orchestrate.OutcomeCancelled))
		Expect(res[0].Result.Text()).To(ContainSubstring("aborted before it finished"))
		Expect(states(res[1])).To(Equal([]string{"queued", "completed", "yielded"}))
	})

	It("applies the modifiers a call registers, also when the call then fails", func() {
		var applied []string
		sim.OnModify = func(id string, _ *runtime.ToolContext) { applied = append(applied, id) }
		run(use("a", "Sim", map[string]any{"modify": true}),
			use("b", "Sim", map[string]any{"modify": true, "fail": "x"}),
			use("c", "Sim", map[string]any{"modify": true}))
		Expect(applied).To(Equal([]string{"a", "b", "c"}))
	})

	It("drops the modifiers of a call that panicked", func() {
		var applied []string
		sim.OnModify = func(id string, _ *runtime.ToolContext) { applied = append(applied, id) }
		sim.OnCall = func(_ context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			call.ModifyContext(func(*runtime.ToolContext) { applied = append(applied, call.ID) })
			if in.Panic != "" {
				panic(in.Panic)
			}
			return runtime.Result{}, nil
		}
		run(use("a", "Sim", map[string]any{}), use("b", "Sim", map[string]any{"panic": "boom"}))
		Expect(applied).To(Equal([]string{"a"}))
	})
})

// panicky is a Sim whose methods panic on demand.
type panicky struct {
	tooltest.Sim
	decode, validate, name bool
}

func (p *panicky) Name() string {
	if p.name {
		panic("name exploded")
	}
	return p.Sim.Name()
}

func (p *panicky) Decode(raw json.RawMessage) (any, error) {
	if p.decode {
		panic("decode exploded")
	}
	return p.Sim.Decode(raw)
}

func (p *panicky) ValidateInput(ctx context.Context, in any, tc *runtime.ToolContext) error {
	if p.validate {
		panic("validate exploded")
	}
	return p.Sim.ValidateInput(ctx, in, tc)
}
