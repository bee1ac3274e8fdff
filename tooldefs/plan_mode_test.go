package tooldefs_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

// toolAsker answers each ask with its tool's answer (deny when none) and
// keeps the requests.
type toolAsker struct {
	mu      sync.Mutex
	answers map[string]ask.Answer
	asked   []ask.AskRequest
}

func (a *toolAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	return a.answers[req.Tool], nil
}

func (a *toolAsker) tools() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var names []string
	for _, r := range a.asked {
		names = append(names, r.Tool)
	}
	return names
}

const plan = "# Add a greeting\n1. Write hello.txt with a greeting.\n2. Check it reads back."

var _ = Describe("EnterPlanMode and ExitPlanMode", func() {
	var dir, home string

	BeforeEach(func() {
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
	})

	open := func(script string, src permission.Sources) *session.Session {
		GinkgoHelper()
		sc, err := replay.Parse([]byte(script))
		Expect(err).NotTo(HaveOccurred())
		src.ConfigDir = filepath.Join(home, ".agentcore")
		s, err := session.Open(context.Background(), session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Provider:    replay.New(sc, replay.Options{Speed: 0, Cwd: dir}),
			Permissions: src,
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	// results runs the scenario and returns every tool result by id.
	results := func(s *session.Session) map[string]runtime.Result {
		GinkgoHelper()
		res := map[string]runtime.Result{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer GinkgoRecover()
			for ev := range s.Run(context.Background(), "") {
				if ev.Kind == agent.EventToolResult && ev.ParentToolUseID == "" {
					res[ev.ID] = ev.Call.Result
				}
				if ev.Kind == agent.EventDone && ev.ParentToolUseID == "" {
					Expect(ev.Outcome.Stop).To(Equal(agent.StopEndTurn), "%v", ev.Outcome.Err)
				}
			}
		}()
		Eventually(done).WithTimeout(20 * time.Second).Should(BeClosed())
		return res
	}
	hello := filepath.Join("${CWD}", "hello.txt")
	// walk is the whole round: enter, a write refused in plan mode, the
	// plan, the same write again.
	walk := `{"prompt":"greet"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"` + hello + `","content":"hi\n"}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"# Add a greeting\n1. Write hello.txt with a greeting.\n2. Check it reads back."}}]}
{"blocks":[{"type":"tool_use","id":"w2","name":"Write","input":{"file_path":"` + hello + `","content":"hi\n"}}]}
{"blocks":[{"type":"text","text":"done"}]}`

	DescribeTable("enter (the user agrees) → a write is refused in plan mode → the plan is approved → the write lands",
		func(start permission.Mode, answer ask.Answer, after permission.Mode, asks []string) {
			asker := &toolAsker{answers: map[string]ask.Answer{"EnterPlanMode": ask.AnswerAllowOnce, "ExitPlanMode": answer, "Write": ask.AnswerAllowOnce}}
			s := open(walk, permission.Sources{Mode: start, Asker: asker})
			res := results(s)

			Expect(res["enter"].IsError).To(BeFalse(), res["enter"].Text())
			Expect(res["enter"].Text()).To(ContainSubstring("Entered plan mode"))
			Expect(res["w1"].IsError).To(BeTrue())
			Expect(res["w1"].Text()).To(ContainSubstring("plan mode allows only read-only tools"))
			Expect(res["exit"].IsError).To(BeFalse(), res["exit"].Text())
			Expect(res["exit"].Text()).To(HavePrefix("The plan was approved and plan mode is off: the permission mode is now " + string(after)))
			Expect(res["exit"].Text()).To(HaveSuffix("## Approved plan:\n" + plan))
			Expect(res["w2"].IsError).To(BeFalse(), res["w2"].Text())
			Expect(os.ReadFile(filepath.Join(dir, "hello.txt"))).To(BeEquivalentTo("hi\n"))
			Expect(s.Engine().Mode()).To(Equal(after))
			Expect(asker.tools()).To(Equal(asks))

			var exit ask.AskRequest
			for _, r := range asker.asked {
				if r.Tool == "ExitPlanMode" {
					exit = r
				}
			}
			Expect(exit.Use).To(Equal("Add a greeting"))
			Expect(exit.Detail).To(Equal(plan), "the prompt shows the plan")
			Expect(exit.Message).To(ContainSubstring("Yes goes back to " + string(s.Engine().ModeBeforePlan()) + " mode"))
		},
		Entry("Yes goes back to the mode before plan mode (acceptEdits: the write needs nobody)",
			permission.ModeAcceptEdits, ask.AnswerAllowOnce, permission.ModeAcceptEdits, []string{"EnterPlanMode", "ExitPlanMode"}),
		Entry("Yes goes back to default mode (the write asks)",
			permission.ModeDefault, ask.AnswerAllowOnce, permission.ModeDefault, []string{"EnterPlanMode", "ExitPlanMode", "Write"}),
		Entry(`"Yes, and accept edits" switches to acceptEdits`,
			permission.ModeDefault, ask.AnswerAllowSession, permission.ModeAcceptEdits, []string{"EnterPlanMode", "ExitPlanMode"}),
	)

	It("offers accept edits as the second yes, unless the mode to go back to is acceptEdits already", func() {
		for _, start := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits} {
			asker := &toolAsker{answers: map[string]ask.Answer{"EnterPlanMode": ask.AnswerAllowOnce, "ExitPlanMode": ask.AnswerAllowOnce}}
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: start, Asker: asker})
			results(s)
			Expect(asker.asked).To(HaveLen(2))
			want := "Yes, and accept edits"
			if start == permission.ModeAcceptEdits {
				want = ""
			}
			Expect(asker.asked[1].AlwaysLabel).To(Equal(want), "starting in %s", start)
			Expect(asker.asked[0].Message).To(ContainSubstring("Enter plan mode?"))
		}
	})

	It("keeps the session in plan mode when the user rejects the plan, and says so", func() {
		asker := &toolAsker{answers: map[string]ask.Answer{"EnterPlanMode": ask.AnswerAllowOnce, "ExitPlanMode": ask.AnswerDeny}}
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"`+"# Add a greeting"+`"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"`+hello+`","content":"hi\n"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModeAcceptEdits, Asker: asker})
		res := results(s)
		Expect(res["exit"].IsError).To(BeTrue())
		Expect(res["exit"].Text()).To(ContainSubstring("the user rejected the plan, so you are still in plan mode"))
		Expect(res["exit"].Text()).To(ContainSubstring("Ask the user what to change"))
		Expect(res["w"].IsError).To(BeTrue())
		Expect(res["w"].Text()).To(ContainSubstring("Plan mode"))
		Expect(filepath.Join(dir, "hello.txt")).NotTo(BeAnExistingFile())
		Expect(s.Engine().Mode()).To(Equal(permission.ModePlan))
		Expect(runtime.RemindersOf(s.ToolContext()).All()).To(BeEmpty(), "a rejected plan is not shown again")
	})

	It("stays out of plan mode when the user says no to entering it", func() {
		asker := &toolAsker{answers: map[string]ask.Answer{}}
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModeAcceptEdits, Asker: asker})
		res := results(s)
		Expect(res["enter"].IsError).To(BeTrue())
		Expect(res["enter"].Text()).To(ContainSubstring("The user denied EnterPlanMode"))
		Expect(s.Engine().Mode()).To(Equal(permission.ModeAcceptEdits))
	})

	It("sees the new mode in the next call of the same response", func() {
		asker := &toolAsker{answers: map[string]ask.Answer{"EnterPlanMode": ask.AnswerAllowOnce}}
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}},{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"`+hello+`","content":"hi\n"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModeAcceptEdits, Asker: asker})
		res := results(s)
		Expect(res["enter"].IsError).To(BeFalse(), res["enter"].Text())
		Expect(res["w"].IsError).To(BeTrue())
		Expect(res["w"].Text()).To(ContainSubstring("plan mode allows only read-only tools"))
		Expect(filepath.Join(dir, "hello.txt")).NotTo(BeAnExistingFile())
	})

	Context("in a non-interactive run", func() {
		It("refuses to enter plan mode", func() {
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Asker: ask.NonInteractive{}})
			res := results(s)
			Expect(res["enter"].IsError).To(BeTrue())
			Expect(res["enter"].Text()).To(ContainSubstring("Enter plan mode?"))
			Expect(res["enter"].Text()).To(ContainSubstring("This run is non-interactive, so the call was denied."))
			Expect(s.Engine().Mode()).To(Equal(permission.ModeDefault))
		})

		It("refuses to enter plan mode even when a rule allows EnterPlanMode: only a user can agree", func() {
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Asker: ask.NonInteractive{}, Rules: []permission.Rule{mustRule("EnterPlanMode", runtime.Allow)}})
			res := results(s)
			Expect(res["enter"].IsError).To(BeTrue())
			Expect(s.Engine().Mode()).To(Equal(permission.ModeDefault))
		})

		It("started in plan mode: entering is a no-op, and the plan is not approved without a rule, with how to allow it", func() {
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModePlan, Asker: ask.NonInteractive{}})
			res := results(s)
			Expect(res["enter"].IsError).To(BeFalse(), res["enter"].Text())
			Expect(res["enter"].Text()).To(HavePrefix("Plan mode is already on"))
			Expect(res["exit"].IsError).To(BeTrue())
			Expect(res["exit"].Text()).To(ContainSubstring("ExitPlanMode needs the user's approval, and this run is non-interactive"))
			Expect(res["exit"].Text()).To(ContainSubstring("To allow it, add 'ExitPlanMode' to permissions.allow"))
			Expect(res["exit"].Text()).To(ContainSubstring("You are still in plan mode"))
			Expect(s.Engine().Mode()).To(Equal(permission.ModePlan))
		})

		It("approves the plan without asking when a rule allows ExitPlanMode, going back to default mode", func() {
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModePlan, Asker: ask.NonInteractive{}, Rules: []permission.Rule{mustRule("ExitPlanMode", runtime.Allow)}})
			res := results(s)
			Expect(res["exit"].IsError).To(BeFalse(), res["exit"].Text())
			Expect(res["exit"].Text()).To(ContainSubstring("the permission mode is now default"))
			Expect(s.Engine().Mode()).To(Equal(permission.ModeDefault))
			Expect(runtime.RemindersOf(s.ToolContext()).All()).To(ContainElement(
				"A plan was approved in plan mode earlier in this session.\n\nPlan contents:\n\np\n\nIf this plan is relevant to the current work and not already complete, continue working on it."),
				"a compaction shows the approved plan again")
		})

		It("refuses ExitPlanMode under a deny rule, which beats an allow rule", func() {
			s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModePlan, Asker: ask.NonInteractive{},
				Rules: []permission.Rule{mustRule("ExitPlanMode", runtime.Allow), mustRule("ExitPlanMode", runtime.Deny)}})
			res := results(s)
			Expect(res["exit"].IsError).To(BeTrue())
			Expect(s.Engine().Mode()).To(Equal(permission.ModePlan))
		})
	})

	It("refuses ExitPlanMode outside plan mode with an error that says so", func() {
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModeAcceptEdits, Asker: &toolAsker{}})
		res := results(s)
		Expect(res["exit"].IsError).To(BeTrue())
		Expect(res["exit"].Text()).To(ContainSubstring("you are not in plan mode (the permission mode is acceptEdits)"))
		Expect(s.Engine().Mode()).To(Equal(permission.ModeAcceptEdits))
	})

	It("keeps sub-agents from switching the mode they share with their parent", func() {
		asker := &toolAsker{answers: map[string]ask.Answer{"EnterPlanMode": ask.AnswerAllowOnce, "ExitPlanMode": ask.AnswerAllowOnce}}
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"g","name":"Agent","input":{"description":"Plan it","prompt":"x"}},{"type":"tool_use","id":"e","name":"Agent","input":{"description":"Look","prompt":"x","subagent_type":"Explore"}}]}
{"agent":"g","blocks":[{"type":"tool_use","id":"g_enter","name":"EnterPlanMode","input":{}},{"type":"tool_use","id":"g_exit","name":"ExitPlanMode","input":{"plan":"p"}}]}
{"agent":"g","blocks":[{"type":"text","text":"could not"}]}
{"agent":"e","blocks":[{"type":"tool_use","id":"e_enter","name":"EnterPlanMode","input":{}}]}
{"agent":"e","blocks":[{"type":"text","text":"could not"}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.Sources{Mode: permission.ModeAcceptEdits, Asker: asker})
		sub := map[string]runtime.Result{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer GinkgoRecover()
			for ev := range s.Run(context.Background(), "") {
				if ev.Kind == agent.EventToolResult && ev.ParentToolUseID != "" {
					sub[ev.ID] = ev.Call.Result
				}
			}
		}()
		Eventually(done).WithTimeout(20 * time.Second).Should(BeClosed())
		Expect(sub["g_enter"].IsError).To(BeTrue())
		Expect(sub["g_enter"].Text()).To(ContainSubstring("EnterPlanMode is for the main agent only"))
		Expect(sub["g_exit"].IsError).To(BeTrue())
		Expect(sub["g_exit"].Text()).To(ContainSubstring("ExitPlanMode is for the main agent only"))
		Expect(sub["e_enter"].Text()).To(ContainSubstring("No such tool"), "read-only agents do not get EnterPlanMode at all")
		Expect(asker.asked).To(BeEmpty())
		Expect(s.Engine().Mode()).To(Equal(permission.ModeAcceptEdits))
	})

	It("refuses outside a session", func() {
		tc := runtime.NewToolContext(dir)
		for name, raw := range map[string]string{"EnterPlanMode": `{}`, "ExitPlanMode": `{"plan":"p"}`} {
			t := runtime.Lookup(generated.AllBaseTools(), name)
			in, err := t.Decode([]byte(raw))
			Expect(err).NotTo(HaveOccurred())
			Expect(t.ValidateInput(context.Background(), in, tc)).To(MatchError(ContainSubstring("plan mode needs a session")), name)
		}
	})
})
