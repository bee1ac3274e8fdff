package permission_test

import (
	"context"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

// scriptedAsker answers every ask with answer (or fails with err) and
// keeps the requests.
type scriptedAsker struct {
	asked  []ask.AskRequest
	answer ask.Answer
	err    error
}

func (a *scriptedAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.asked = append(a.asked, req)
	return a.answer, a.err
}

var _ = Describe("Approve", func() {
	var (
		ctx  context.Context
		tc   *runtime.ToolContext
		plan *fakeTool
	)

	engine := func(mode permission.Mode, asker ask.Asker, allow, deny, ask []string) *permission.Engine {
		GinkgoHelper()
		dir := GinkgoT().TempDir()
		e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: GinkgoT().TempDir(), Mode: mode, Asker: asker,
			Rules: mustRules(allow, deny, ask), Tools: sessionTools(),
			Advice: permission.Advice{AllowRule: func(rule string) string { return "pass --allowedTools '" + rule + "'" }}})
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(dir)
		return e
	}

	BeforeEach(func() {
		ctx = context.Background()
		plan = &fakeTool{name: "Planner"}
	})

	It("asks the Asker with the request, filling in the tool, its use and the agent", func() {
		asker := &scriptedAsker{answer: ask.AnswerAllowSession}
		e := engine(permission.ModePlan, asker, nil, nil, nil)
		ans, err := e.Approve(ask.WithAgent(ctx, "Plan agent (x)"), plan, "the plan", tc,
			ask.AskRequest{Message: "Approve?", Detail: "# Plan\n1. do it", AlwaysLabel: "Yes, and accept edits"})
		Expect(err).NotTo(HaveOccurred())
		Expect(ans).To(Equal(ask.AnswerAllowSession))
		Expect(asker.asked).To(HaveLen(1))
		req := asker.asked[0]
		Expect(req.Tool).To(Equal("Planner"))
		Expect(req.Use).To(Equal("the plan"))
		Expect(req.Agent).To(Equal("Plan agent (x)"))
		Expect(req.Detail).To(Equal("# Plan\n1. do it"))
		Expect(e.Rules()).To(BeEmpty(), "the caller gives AnswerAllowSession its meaning: no rule is added")
	})

	It("puts a Previewer's preview of the call into CanUseTool's prompt", func() {
		asker := &scriptedAsker{answer: ask.AnswerDeny}
		e := engine(permission.ModeDefault, asker, nil, nil, nil)
		tool := &previewTool{fakeTool: fakeTool{name: "Changer"}}
		d := e.CanUseTool(ctx, tool, "x", tc)
		Expect(d.Behavior).To(Equal(runtime.Deny))
		Expect(asker.asked).To(HaveLen(1))
		Expect(asker.asked[0].Detail).To(Equal("@@ -1 +1 @@\n-x\n+y"))
	})

	It("asks the tool it gets for runtime.Previewer and unwraps nothing", func() {
		asker := &scriptedAsker{answer: ask.AnswerDeny}
		e := engine(permission.ModeDefault, asker, nil, nil, nil)
		inner := &previewTool{fakeTool: fakeTool{name: "Changer"}}
		e.CanUseTool(ctx, runtime.WithDescription(inner, "Changes x."), "x", tc)
		Expect(asker.asked).To(HaveLen(1))
		Expect(asker.asked[0].Detail).To(Equal("@@ -1 +1 @@\n-x\n+y"), "a described tool forwards its preview")

		e.CanUseTool(ctx, &wrappedTool{Tool: inner}, "x", tc)
		Expect(asker.asked).To(HaveLen(2))
		Expect(asker.asked[1].Detail).To(BeEmpty(), "a wrapper that is no Previewer has no preview, whatever it wraps")
	})

	It("returns the user's No without an error", func() {
		e := engine(permission.ModePlan, &scriptedAsker{answer: ask.AnswerDeny}, nil, nil, nil)
		ans, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
		Expect(err).NotTo(HaveOccurred())
		Expect(ans).To(Equal(ask.AnswerDeny))
	})

	It("approves without asking when an allow rule names the tool", func() {
		asker := &scriptedAsker{answer: ask.AnswerDeny}
		e := engine(permission.ModePlan, asker, []string{"Planner"}, nil, nil)
		ans, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
		Expect(err).NotTo(HaveOccurred())
		Expect(ans).To(Equal(ask.AnswerAllowOnce))
		Expect(asker.asked).To(BeEmpty())
	})

	It("asks when an ask rule matches, even with an allow rule", func() {
		asker := &scriptedAsker{answer: ask.AnswerAllowOnce}
		e := engine(permission.ModePlan, asker, []string{"Planner"}, nil, []string{"Planner"})
		_, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
		Expect(err).NotTo(HaveOccurred())
		Expect(asker.asked).To(HaveLen(1))
	})

	It("refuses on a deny rule, naming it", func() {
		e := engine(permission.ModePlan, &scriptedAsker{answer: ask.AnswerAllowOnce}, []string{"Planner"}, []string{"Planner"}, nil)
		ans, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
		Expect(ans).To(Equal(ask.AnswerDeny))
		Expect(err).To(MatchError(ContainSubstring("denied by the rule Planner")))
	})

	DescribeTable("refuses when nobody can answer, saying how to allow it",
		func(mode permission.Mode, asker ask.Asker, why string) {
			e := engine(mode, asker, nil, nil, nil)
			ans, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
			Expect(ans).To(Equal(ask.AnswerDeny))
			Expect(err).To(MatchError(ContainSubstring("Planner needs the user's approval")))
			Expect(err).To(MatchError(ContainSubstring(why)))
			Expect(err).To(MatchError(HaveSuffix("To allow it, pass --allowedTools 'Planner'.")))
		},
		Entry("non-interactive", permission.ModePlan, ask.NonInteractive{}, "non-interactive"),
		Entry("no asker", permission.ModePlan, nil, "non-interactive"),
		Entry("dontAsk mode", permission.ModeDontAsk, &scriptedAsker{answer: ask.AnswerAllowOnce}, "dontAsk"),
	)

	It("reports a failed prompt as an error", func() {
		e := engine(permission.ModePlan, &scriptedAsker{err: errors.New("terminal gone")}, nil, nil, nil)
		ans, err := e.Approve(ctx, plan, "", tc, ask.AskRequest{})
		Expect(ans).To(Equal(ask.AnswerDeny))
		Expect(err).To(MatchError(ContainSubstring("terminal gone")))
	})

	It("refuses without a tool", func() {
		e := engine(permission.ModePlan, &scriptedAsker{answer: ask.AnswerAllowOnce}, nil, nil, nil)
		_, err := e.Approve(ctx, nil, "", tc, ask.AskRequest{})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("ModeBeforePlan", func() {
	It("is the mode SetMode last switched to plan from, default when the session started in plan mode", func() {
		e, err := permission.NewEngine(permission.Config{Cwd: GinkgoT().TempDir(), Mode: permission.ModePlan})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.ModeBeforePlan()).To(Equal(permission.ModeDefault))
		e.SetMode(permission.ModeAcceptEdits)
		e.SetMode(permission.ModePlan)
		Expect(e.ModeBeforePlan()).To(Equal(permission.ModeAcceptEdits))
		e.SetMode(permission.ModePlan)
		Expect(e.ModeBeforePlan()).To(Equal(permission.ModeAcceptEdits), "staying in plan mode keeps it")
		e.SetMode(permission.ModeBypass)
		Expect(e.ModeBeforePlan()).To(Equal(permission.ModeAcceptEdits))
	})
})

// previewTool is a fakeTool with a preview of what its call will do.
type previewTool struct{ fakeTool }

func (*previewTool) RenderPreview(any, *runtime.ToolContext) string { return "@@ -1 +1 @@\n-x\n+y" }

// wrappedTool wraps a tool without forwarding RenderPreview: it embeds it
// and unwraps to it.
type wrappedTool struct{ runtime.Tool }

func (w *wrappedTool) Unwrap() runtime.Tool { return w.Tool }
