package tooldefs_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// Tools see capabilities, not the session: run outside one, a tool that
// needs a capability answers with an is_error result naming it.
var _ = Describe("a tool without the capability it needs", func() {
	It("gets an is_error result that says what is missing", func() {
		want := map[string]struct{ input, missing string }{
			"Agent":           {`{"description":"d","prompt":"p"}`, "Agent needs a session: the tool context has no session providing runtime.SessionInfo"},
			"AskUserQuestion": {`{"questions":[{"question":"Which?","header":"Pick","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "AskUserQuestion needs a session: the tool context has no session providing permission.Questions"},
			"Skill":           {`{"skill":"pdf"}`, "Skill needs a session: the tool context has no session providing runtime.SessionInfo"},
			"EnterPlanMode":   {`{}`, "plan mode needs a session: the tool context has no session providing permission.PlanMode"},
			"ExitPlanMode":    {`{"plan":"p"}`, "plan mode needs a session: the tool context has no session providing permission.PlanMode"},
			"REPL":            {`{"calls":[{"name":"Read","input":{}}]}`, "REPL needs a session: the tool context has no session providing orchestrate.Runner"},
			"CtxInspect":      {`{}`, "CtxInspect needs a session: the tool context has no session providing agent.History"},
		}
		tools := generated.AllBaseTools()
		var calls []orchestrate.ToolUse
		for name, w := range want {
			if runtime.Lookup(tools, name) == nil {
				delete(want, name) // gated out of this variant
				continue
			}
			calls = append(calls, orchestrate.ToolUse{ID: name, Name: name, Input: json.RawMessage(w.input)})
		}
		Expect(want).To(HaveKey("Agent"), "every variant has the Agent tool")
		ex := &orchestrate.Executor{Tools: tools}
		got := map[string]runtime.Result{}
		for ev := range ex.RunTools(context.Background(), calls, runtime.NewToolContext(GinkgoT().TempDir())) {
			if ev.Kind == orchestrate.EventResult {
				got[ev.ID] = ev.Result
			}
		}
		Expect(got).To(HaveLen(len(want)))
		for name, w := range want {
			Expect(got[name].IsError).To(BeTrue(), name)
			Expect(got[name].Text()).To(ContainSubstring(w.missing), name)
		}
	})
})
