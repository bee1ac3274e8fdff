package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// echoIn is the decoded input of the tools these specs define.
type echoIn struct {
	Text string `json:"text"`
}

// decodeEcho is a strict decoder of echoIn.
func decodeEcho(raw json.RawMessage) (*echoIn, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("the input must be a JSON object: %v", err)
	}
	for k := range m {
		if k != "text" {
			return nil, fmt.Errorf("unknown parameter %q: this tool takes \"text\"", k)
		}
	}
	in := new(echoIn)
	if err := json.Unmarshal(m["text"], &in.Text); err != nil || in.Text == "" {
		return nil, errors.New(`the parameter "text" is required and must be a non-empty string`)
	}
	return in, nil
}

func callEcho(_ context.Context, in *echoIn, _ *runtime.Call) (runtime.Result, error) {
	return runtime.Result{Data: in.Text, Content: []runtime.Block{runtime.TextBlock(in.Text)}}, nil
}

// minimal is a Define'd tool that writes only what makes it itself.
func minimal() runtime.Tool {
	return runtime.Define(runtime.Definition[*echoIn]{
		Name:        "Echo",
		Description: "Echoes its text.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Decode:      decodeEcho,
		Call:        callEcho,
	})
}

// embedded is a tool type that embeds ToolDefaults and writes the seven
// methods the defaults leave to it.
type embedded struct {
	runtime.ToolDefaults
}

func (*embedded) Name() string                 { return "Echo" }
func (*embedded) Description() string          { return "Echoes its text." }
func (*embedded) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (*embedded) Decode(raw json.RawMessage) (any, error) {
	return decodeEcho(raw)
}
func (*embedded) Call(ctx context.Context, input any, call *runtime.Call) (runtime.Result, error) {
	return callEcho(ctx, input.(*echoIn), call)
}
func (t *embedded) UserFacingName(any) string         { return t.Name() }
func (t *embedded) RenderGrouped(inputs []any) string { return runtime.RenderUses(t, inputs) }

// documented are the fail-closed defaults of DESIGN §2, as the one table,
// runtime.ToolDefaults, documents them: a Define'd tool (every generated
// tool is one) and a tool embedding ToolDefaults give them. Each entry
// asks a tool one question about a valid input and gives the documented
// answer.
var documented = []struct {
	method string
	ask    func(t runtime.Tool, in any) any
	want   any
}{
	{"Aliases", func(t runtime.Tool, _ any) any { return t.Aliases() }, []string(nil)},
	{"SearchHint", func(t runtime.Tool, _ any) any { return t.SearchHint() }, ""},
	{"IsEnabled", func(t runtime.Tool, _ any) any { return t.IsEnabled() }, true},
	{"ShouldDefer", func(t runtime.Tool, _ any) any { return t.ShouldDefer() }, false},
	{"AlwaysLoad", func(t runtime.Tool, _ any) any { return t.AlwaysLoad() }, false},
	{"InterruptBehavior", func(t runtime.Tool, in any) any { return t.InterruptBehavior(in) }, runtime.InterruptBlock},
	{"Traits", func(t runtime.Tool, _ any) any { return t.Traits() }, runtime.Traits{}},
	{"ValidateInput", func(t runtime.Tool, in any) any { return t.ValidateInput(context.Background(), in, nil) == nil }, true},
	{"CheckPermissions", func(t runtime.Tool, in any) any { return t.CheckPermissions(context.Background(), in, nil) },
		runtime.PermissionDecision{Behavior: runtime.Passthrough}},
	{"PermissionTarget", func(t runtime.Tool, in any) any { return t.PermissionTarget(in) }, runtime.Target{Kind: runtime.TargetNone}},
	{"IsConcurrencySafe", func(t runtime.Tool, in any) any { return t.IsConcurrencySafe(in) }, false},
	{"IsReadOnly", func(t runtime.Tool, in any) any { return t.IsReadOnly(in) }, false},
	{"IsDestructive", func(t runtime.Tool, in any) any { return t.IsDestructive(in) }, false},
	{"UserFacingName", func(t runtime.Tool, in any) any { return t.UserFacingName(in) }, "Echo"},
	{"RenderUse", func(t runtime.Tool, in any) any { return t.RenderUse(in) }, ""},
	{"RenderProgress", func(t runtime.Tool, in any) any { return t.RenderProgress(in, 42) }, "42"},
	{"RenderResult", func(t runtime.Tool, in any) any { return t.RenderResult(in, runtime.Result{Data: "x"}) }, "Done"},
	{"RenderRejected", func(t runtime.Tool, in any) any { return t.RenderRejected(in) }, "Rejected"},
	{"RenderError", func(t runtime.Tool, in any) any { return t.RenderError(in, errors.New("disk full")) }, "disk full"},
	{"RenderError of nil", func(t runtime.Tool, in any) any { return t.RenderError(in, nil) }, ""},
	{"RenderGrouped", func(t runtime.Tool, in any) any { return t.RenderGrouped([]any{in, in}) }, "\n"},
	{"RenderPreview", func(t runtime.Tool, in any) any { return t.(runtime.Previewer).RenderPreview(in, nil) }, ""},
}

// decoded decodes a valid Echo input for t.
func decoded(t runtime.Tool) any {
	in, err := t.Decode(json.RawMessage(`{"text":"hi"}`))
	Expect(err).NotTo(HaveOccurred())
	return in
}

var _ = Describe("Define", func() {
	Describe("the defaults of a tool that writes only name, description, schema, decode and Call", func() {
		for _, d := range documented {
			It("answers "+d.method+" with the fail-closed default", func() {
				t := minimal()
				Expect(d.ask(t, decoded(t))).To(Equal(d.want))
			})
		}

		It("gives a tool embedding ToolDefaults the same answers", func() {
			var t runtime.Tool = &embedded{}
			for _, d := range documented {
				Expect(d.ask(t, decoded(t))).To(Equal(d.want), d.method)
			}
		})

		It("keeps name, description, schema, decode and Call as defined", func() {
			t := minimal()
			Expect(t.Name()).To(Equal("Echo"))
			Expect(t.Description()).To(Equal("Echoes its text."))
			Expect(string(t.InputSchema())).To(ContainSubstring(`"required":["text"]`))
			res, err := t.Call(context.Background(), decoded(t), nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Text()).To(Equal("hi"))
			_, err = t.Decode(json.RawMessage(`{"text":"hi","loud":true}`))
			Expect(err).To(MatchError(`unknown parameter "loud": this tool takes "text"`))
		})

		It("sends {\"type\":\"object\"} when the schema is left out", func() {
			t := runtime.Define(runtime.Definition[*echoIn]{Name: "Echo", Decode: decodeEcho, Call: callEcho})
			Expect(string(t.InputSchema())).To(Equal(`{"type":"object"}`))
		})

		It("panics, naming what to set, when Name, Decode or Call is missing", func() {
			Expect(func() { runtime.Define(runtime.Definition[*echoIn]{Decode: decodeEcho}) }).To(
				PanicWith(`runtime.Define(""): set Name, Call in the Definition`))
			Expect(func() { runtime.Define(runtime.Definition[*echoIn]{Name: "Echo", Call: callEcho}) }).To(
				PanicWith(`runtime.Define("Echo"): set Decode in the Definition`))
		})
	})

	Describe("overriding", func() {
		It("uses every static answer that is set", func() {
			t := runtime.Define(runtime.Definition[*echoIn]{
				Name: "Echo", Decode: decodeEcho, Call: callEcho,
				Aliases: []string{"Say"}, SearchHint: "repeat text",
				ReadOnly: true, ConcurrencySafe: true, Destructive: true,
				Disabled: true, ShouldDefer: true, AlwaysLoad: true,
				Interrupt: runtime.InterruptCancel, CancelsSiblingsOnError: true,
				PermissionFamily: runtime.FamilyReadPath, DisplayName: "Echo text",
			})
			in := decoded(t)
			Expect(t.Aliases()).To(Equal([]string{"Say"}))
			Expect(runtime.Lookup([]runtime.Tool{t}, "Say")).To(BeIdenticalTo(t))
			Expect(t.SearchHint()).To(Equal("repeat text"))
			Expect([]bool{t.IsReadOnly(in), t.IsConcurrencySafe(in), t.IsDestructive(in)}).To(Equal([]bool{true, true, true}))
			Expect([]bool{t.IsEnabled(), t.ShouldDefer(), t.AlwaysLoad()}).To(Equal([]bool{false, true, true}))
			Expect(t.InterruptBehavior(in)).To(Equal(runtime.InterruptCancel))
			Expect(t.UserFacingName(in)).To(Equal("Echo text"))
			Expect(t.UserFacingName(nil)).To(Equal("Echo text"))
			Expect(t.Traits()).To(Equal(runtime.Traits{
				ReadOnly: runtime.Flag{Value: true}, ConcurrencySafe: runtime.Flag{Value: true},
				Destructive: runtime.Flag{Value: true}, Interrupt: runtime.InterruptCancel,
				CancelsSiblingsOnError: true, PermissionFamily: runtime.FamilyReadPath,
			}))
		})

		It("lets the per-input funcs win over the static answers and marks the traits input-dependent", func() {
			loud := func(in *echoIn) bool { return in.Text == "LOUD" }
			t := runtime.Define(runtime.Definition[*echoIn]{
				Name: "Echo", Decode: decodeEcho, Call: callEcho,
				ReadOnly: true, Disabled: true, Interrupt: runtime.InterruptCancel, DisplayName: "Echo text",
				IsEnabled:         func() bool { return true },
				IsReadOnly:        func(in *echoIn) bool { return !loud(in) },
				IsConcurrencySafe: func(in *echoIn) bool { return !loud(in) },
				IsDestructive:     loud,
				InterruptBehavior: func(in *echoIn) runtime.InterruptBehavior {
					if loud(in) {
						return runtime.InterruptBlock
					}
					return runtime.InterruptCancel
				},
				UserFacingName: func(in *echoIn) string { return "Echo " + in.Text },
				ValidateInput: func(_ context.Context, in *echoIn, _ *runtime.ToolContext) error {
					if loud(in) {
						return errors.New("do not shout")
					}
					return nil
				},
				CheckPermissions: func(context.Context, *echoIn, *runtime.ToolContext) runtime.PermissionDecision {
					return runtime.PermissionDecision{Behavior: runtime.Ask, Message: "echo?"}
				},
				PermissionTarget: func(in *echoIn) runtime.Target {
					return runtime.Target{Kind: runtime.TargetCommand, Value: in.Text}
				},
			})
			quiet, err := t.Decode(json.RawMessage(`{"text":"hi"}`))
			Expect(err).NotTo(HaveOccurred())
			shout, err := t.Decode(json.RawMessage(`{"text":"LOUD"}`))
			Expect(err).NotTo(HaveOccurred())

			Expect(t.IsEnabled()).To(BeTrue())
			Expect([]bool{t.IsReadOnly(quiet), t.IsConcurrencySafe(quiet), t.IsDestructive(quiet)}).To(Equal([]bool{true, true, false}))
			Expect([]bool{t.IsReadOnly(shout), t.IsConcurrencySafe(shout), t.IsDestructive(shout)}).To(Equal([]bool{false, false, true}))
			Expect(t.InterruptBehavior(quiet)).To(Equal(runtime.InterruptCancel))
			Expect(t.InterruptBehavior(shout)).To(Equal(runtime.InterruptBlock))
			Expect(t.UserFacingName(quiet)).To(Equal("Echo hi"))
			Expect(t.UserFacingName(nil)).To(Equal("Echo text"))
			Expect(t.ValidateInput(context.Background(), quiet, nil)).To(Succeed())
			Expect(t.ValidateInput(context.Background(), shout, nil)).To(MatchError("do not shout"))
			Expect(t.CheckPermissions(context.Background(), quiet, nil)).To(Equal(runtime.PermissionDecision{Behavior: runtime.Ask, Message: "echo?"}))
			Expect(t.PermissionTarget(quiet)).To(Equal(runtime.Target{Kind: runtime.TargetCommand, Value: "hi"}))
			Expect(t.Traits()).To(Equal(runtime.Traits{
				ReadOnly:        runtime.Flag{InputDependent: true},
				ConcurrencySafe: runtime.Flag{InputDependent: true},
				Destructive:     runtime.Flag{InputDependent: true},
				Interrupt:       runtime.InterruptCancel, InterruptDependent: true,
			}))
		})

		It("uses every render func that is set, and the default for the others' inputs", func() {
			t := runtime.Define(runtime.Definition[*echoIn]{
				Name: "Echo", Decode: decodeEcho, Call: callEcho,
				RenderUse:      func(in *echoIn) string { return in.Text },
				RenderProgress: func(in *echoIn, p any) string { return fmt.Sprintf("%s: %v%%", in.Text, p) },
				RenderResult:   func(in *echoIn, r runtime.Result) string { return "echoed " + r.Text() },
				RenderRejected: func(in *echoIn) string { return "may not echo " + in.Text },
				RenderError:    func(in *echoIn, err error) string { return in.Text + " failed: " + err.Error() },
			})
			in := decoded(t)
			Expect(t.RenderUse(in)).To(Equal("hi"))
			Expect(t.RenderProgress(in, 50)).To(Equal("hi: 50%"))
			Expect(t.RenderResult(in, runtime.Result{Content: []runtime.Block{runtime.TextBlock("hi")}})).To(Equal("echoed hi"))
			Expect(t.RenderRejected(in)).To(Equal("may not echo hi"))
			Expect(t.RenderError(in, errors.New("boom"))).To(Equal("hi failed: boom"))
			By("grouping one RenderUse per line when RenderGrouped is not set")
			other, err := t.Decode(json.RawMessage(`{"text":"there"}`))
			Expect(err).NotTo(HaveOccurred())
			Expect(t.RenderGrouped([]any{in, other})).To(Equal("hi\nthere"))
		})

		It("gives RenderGrouped only the inputs Decode returned", func() {
			var got []string
			t := runtime.Define(runtime.Definition[*echoIn]{
				Name: "Echo", Decode: decodeEcho, Call: callEcho,
				RenderGrouped: func(ins []*echoIn) string {
					for _, in := range ins {
						got = append(got, in.Text)
					}
					return fmt.Sprintf("%d echoes", len(ins))
				},
			})
			Expect(t.RenderGrouped([]any{decoded(t), "junk", nil, decoded(t)})).To(Equal("2 echoes"))
			Expect(got).To(Equal([]string{"hi", "hi"}))
		})
	})

	Describe("an input Decode did not return", func() {
		var (
			t      runtime.Tool
			called bool
		)
		BeforeEach(func() {
			called = false
			yes := func(*echoIn) bool { called = true; return true }
			t = runtime.Define(runtime.Definition[*echoIn]{
				Name: "Echo", Decode: decodeEcho,
				Call: func(ctx context.Context, in *echoIn, call *runtime.Call) (runtime.Result, error) {
					called = true
					return callEcho(ctx, in, call)
				},
				ReadOnly: true, Interrupt: runtime.InterruptCancel,
				IsConcurrencySafe: yes, IsDestructive: yes,
				InterruptBehavior: func(*echoIn) runtime.InterruptBehavior { called = true; return runtime.InterruptBlock },
				ValidateInput:     func(context.Context, *echoIn, *runtime.ToolContext) error { called = true; return nil },
				CheckPermissions: func(context.Context, *echoIn, *runtime.ToolContext) runtime.PermissionDecision {
					called = true
					return runtime.PermissionDecision{Behavior: runtime.Allow}
				},
				PermissionTarget: func(*echoIn) runtime.Target { called = true; return runtime.Target{Kind: runtime.TargetCommand} },
				UserFacingName:   func(*echoIn) string { called = true; return "Echo!" },
				RenderUse:        func(*echoIn) string { called = true; return "used" },
				RenderResult:     func(*echoIn, runtime.Result) string { called = true; return "echoed" },
				RenderRejected:   func(*echoIn) string { called = true; return "no echo" },
				RenderError:      func(*echoIn, error) string { called = true; return "echo failed" },
				RenderProgress:   func(*echoIn, any) string { called = true; return "echoing" },
			})
		})

		It("gets the fail-closed defaults, and fails, denies where the input is needed", func() {
			for _, bad := range []any{"hi", echoIn{Text: "hi"}, nil} {
				By(fmt.Sprintf("%T", bad))
				Expect(t.IsReadOnly(bad)).To(BeFalse(), "not the static answer, which is for the tool's own inputs")
				Expect(t.IsConcurrencySafe(bad)).To(BeFalse())
				Expect(t.IsDestructive(bad)).To(BeFalse())
				Expect(t.InterruptBehavior(bad)).To(Equal(runtime.InterruptBlock), "not the static answer")
				Expect(t.PermissionTarget(bad)).To(Equal(runtime.Target{}))
				Expect(t.UserFacingName(bad)).To(Equal("Echo"))
				Expect(t.RenderUse(bad)).To(Equal(""))
				Expect(t.RenderProgress(bad, 7)).To(Equal("7"))
				Expect(t.RenderResult(bad, runtime.Result{})).To(Equal("Done"))
				Expect(t.RenderRejected(bad)).To(Equal("Rejected"))
				Expect(t.RenderError(bad, errors.New("boom"))).To(Equal("boom"))

				want := fmt.Sprintf("Echo: input is %T, not *runtime_test.echoIn; pass the value Decode returned", bad)
				Expect(t.ValidateInput(context.Background(), bad, nil)).To(MatchError(want))
				Expect(t.CheckPermissions(context.Background(), bad, nil)).To(Equal(runtime.PermissionDecision{Behavior: runtime.Deny, Message: want}))
				_, err := t.Call(context.Background(), bad, nil)
				Expect(err).To(MatchError(want))
			}
			Expect(called).To(BeFalse())
		})

		It("is In's zero value when nil and In is not a pointer, for the answers and renders only", func() {
			var seen []string
			t := runtime.Define(runtime.Definition[echoIn]{
				Name:   "Echo",
				Decode: func(json.RawMessage) (echoIn, error) { return echoIn{Text: "hi"}, nil },
				Call: func(_ context.Context, in echoIn, _ *runtime.Call) (runtime.Result, error) {
					seen = append(seen, "call "+in.Text)
					return runtime.Result{}, nil
				},
				IsReadOnly:   func(in echoIn) bool { seen = append(seen, "read-only "+in.Text); return true },
				RenderResult: func(_ echoIn, r runtime.Result) string { return "echoed " + r.Text() },
			})
			Expect(t.IsReadOnly(nil)).To(BeTrue())
			Expect(t.RenderResult(nil, runtime.Result{Content: []runtime.Block{runtime.TextBlock("x")}})).To(Equal("echoed x"))
			_, err := t.Call(context.Background(), nil, nil)
			Expect(err).To(MatchError("Echo: input is <nil>, not runtime_test.echoIn; pass the value Decode returned"))
			Expect(t.ValidateInput(context.Background(), nil, nil)).To(HaveOccurred())
			Expect(t.CheckPermissions(context.Background(), nil, nil).Behavior).To(Equal(runtime.Deny))
			Expect(seen).To(Equal([]string{"read-only "}))
		})

		It("is any value, nil included, when the input type is an interface", func() {
			t := runtime.Define(runtime.Definition[any]{
				Name:   "Anything",
				Decode: func(json.RawMessage) (any, error) { return nil, nil },
				Call: func(context.Context, any, *runtime.Call) (runtime.Result, error) {
					return runtime.ErrorResult("ran"), nil
				},
				IsReadOnly: func(any) bool { return true },
			})
			in, err := t.Decode(nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(in).To(BeNil())
			Expect(t.IsReadOnly(in)).To(BeTrue())
			Expect(t.IsReadOnly("x")).To(BeTrue())
			Expect(t.ValidateInput(context.Background(), in, nil)).To(Succeed())
			res, err := t.Call(context.Background(), in, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Text()).To(Equal("ran"))
		})
	})

	Describe("run by the executor", func() {
		var (
			calls int
			tool  runtime.Tool
			ex    *orchestrate.Executor
		)
		BeforeEach(func() {
			calls = 0
			tool = runtime.Define(runtime.Definition[*echoIn]{
				Name:        "Echo",
				Description: "Echoes its text.",
				Decode:      decodeEcho,
				Call: func(ctx context.Context, in *echoIn, call *runtime.Call) (runtime.Result, error) {
					calls++
					return callEcho(ctx, in, call)
				},
			})
			ex = &orchestrate.Executor{Tools: []runtime.Tool{tool}}
		})
		run := func(uses ...orchestrate.ToolUse) []orchestrate.Event {
			return slices.Collect(ex.RunTools(context.Background(), uses, runtime.NewToolContext(GinkgoT().TempDir())))
		}

		It("answers a bad input with one is_error result naming the parameter, and never calls the tool", func() {
			evs := run(orchestrate.ToolUse{ID: "t1", Name: "Echo", Input: json.RawMessage(`{"txt":"hi"}`)})
			Expect(evs).To(HaveLen(1))
			Expect(evs[0].ID).To(Equal("t1"))
			Expect(evs[0].IsError()).To(BeTrue())
			Expect(evs[0].Outcome).To(Equal(orchestrate.OutcomeInvalidInput))
			Expect(evs[0].Result.Text()).To(ContainSubstring(`unknown parameter "txt": this tool takes "text"`))
			Expect(calls).To(BeZero())
		})

		It("runs a good input and returns the Call's result", func() {
			evs := run(orchestrate.ToolUse{ID: "t1", Name: "Echo", Input: json.RawMessage(`{"text":"hi"}`)})
			Expect(evs).To(HaveLen(1))
			Expect(evs[0].IsError()).To(BeFalse())
			Expect(evs[0].Result.Text()).To(Equal("hi"))
			Expect(calls).To(Equal(1))
		})

		It("schedules by the declared answers: unsafe by default, parallel once declared safe", func() {
			uses := []orchestrate.ToolUse{
				{ID: "a", Name: "Echo", Input: json.RawMessage(`{"text":"a"}`)},
				{ID: "b", Name: "Echo", Input: json.RawMessage(`{"text":"b"}`)},
			}
			Expect(ex.Plan(uses)).To(Equal([]orchestrate.Batch{
				{ConcurrencySafe: false, IDs: []string{"a"}},
				{ConcurrencySafe: false, IDs: []string{"b"}},
			}))
			safe := runtime.Define(runtime.Definition[*echoIn]{Name: "Echo", Decode: decodeEcho, Call: callEcho, ConcurrencySafe: true})
			Expect((&orchestrate.Executor{Tools: []runtime.Tool{safe}}).Plan(uses)).To(Equal([]orchestrate.Batch{
				{ConcurrencySafe: true, IDs: []string{"a", "b"}},
			}))
		})
	})
})

var _ = Describe("RenderUses", func() {
	It("renders one RenderUse per line, the default grouped rendering", func() {
		t := runtime.Define(runtime.Definition[*echoIn]{
			Name: "Echo", Decode: decodeEcho, Call: callEcho,
			RenderUse: func(in *echoIn) string { return in.Text },
		})
		Expect(runtime.RenderUses(t, []any{decoded(t), decoded(t)})).To(Equal("hi\nhi"))
		Expect(runtime.RenderUses(t, nil)).To(Equal(""))
	})
})
