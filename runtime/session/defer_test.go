package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/runtime/transcript"
)

var _ = Describe("a PreToolUse hook's defer (Claude Code's permissionDecision \"defer\")", func() {
	var (
		dir, flag string
		store     *transcript.Store
	)
	// The turn the model asks for: the deferred call first, a sibling
	// after it, both Sh calls that append a line to a file.
	const turn = `{"prompt":"x"}
{"blocks":[{"type":"text","text":"on it"},{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo ran >> side.txt"}},{"type":"tool_use","id":"t2","name":"Sh","input":{"command":"echo ran >> sibling.txt"}}]}
`
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		store = &transcript.Store{Root: filepath.Join(GinkgoT().TempDir(), "projects")}
		flag = filepath.Join(dir, "defer.flag")
		Expect(os.WriteFile(flag, nil, 0o644)).To(Succeed())
		// The hook defers the calls that write side.txt while defer.flag
		// exists, and has no opinion otherwise.
		hook := hookScript(dir, "defer.sh", `in=$(cat)
if [ -f `+flag+` ] && [[ $in == *side.txt* ]]; then
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"a person decides"}}'
fi`)
		data, err := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": hook, "timeout": 10}}}}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
	})

	open := func(o session.Options) *session.Session {
		GinkgoHelper()
		o.Dir, o.Home = dir, GinkgoT().TempDir()
		o.Tools = []runtime.Tool{shTool()}
		o.Transcripts = store
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(dir, "nouser")
		rules, err := permission.ParseRules([]string{"Sh"}, runtime.Allow, permission.SourceFlag, "test")
		Expect(err).NotTo(HaveOccurred())
		o.Permissions.Rules = rules
		s, err := session.Open(context.Background(), o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	run := func(s *session.Session, prompt string) *agent.Outcome {
		var out *agent.Outcome
		for ev := range s.Run(context.Background(), prompt) {
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		return out
	}
	lines := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		return string(data)
	}
	// deferred runs the turn in a print-mode session until the hook
	// defers, and returns the session's ID.
	deferred := func() string {
		GinkgoHelper()
		s := open(session.Options{Print: true, Provider: scripted(turn + `{"blocks":[{"type":"text","text":"never asked"}]}`)})
		out := run(s, "go")
		Expect(out.Stop).To(Equal(agent.StopDeferred))
		Expect(out.Deferred).NotTo(BeNil())
		Expect(out.Deferred.ID).To(Equal("t1"))
		Expect(out.Deferred.Name).To(Equal("Sh"))
		Expect(string(out.Deferred.Input)).To(MatchJSON(`{"command":"echo ran >> side.txt"}`))
		Expect(out.Text).To(BeEmpty(), "Claude Code's result is empty on a defer")
		Expect(lines("side.txt")).To(BeEmpty(), "the deferred call did not run")
		Expect(lines("sibling.txt")).To(Equal("ran\n"), "its sibling in the batch ran")
		Expect(s.Deferred()).NotTo(BeNil())
		Expect(s.Close()).To(Succeed())
		return s.ID()
	}
	// paired says every tool_use of msgs is answered by the next message.
	paired := func(msgs []provider.Message) {
		GinkgoHelper()
		for i, m := range msgs {
			for _, u := range m.ToolUses() {
				Expect(i+1).To(BeNumerically("<", len(msgs)), "tool_use %s is the last message", u.ID)
				var ids []string
				for _, b := range msgs[i+1].Content {
					ids = append(ids, b.ToolUseID)
				}
				Expect(ids).To(ContainElement(u.ID), "tool_use %s has its tool_result", u.ID)
			}
		}
	}

	It("ends a print-mode run there, the call not run and its sibling's result kept; resumed with no prompt, it asks the hook again and runs the call once", func() {
		id := deferred()
		msgs, rep, err := transcript.Load(store.Path(dir, id))
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs[len(msgs)-1].Role).To(Equal(provider.Assistant), "the turn stays open in the transcript")
		Expect(rep.Answered).To(BeEmpty(), "the deferred call is not answered as interrupted")
		Expect(rep.Deferred).NotTo(BeNil())
		Expect(rep.Deferred.Pending()).To(HaveLen(1))
		Expect(rep.Deferred.Results).To(HaveKey("t2"))

		Expect(os.Remove(flag)).To(Succeed())
		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"both done"}]}`)
		s := open(session.Options{Print: true, Provider: next, Resume: id})
		Expect(s.Deferred()).NotTo(BeNil())
		out := run(s, "")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("both done"))
		Expect(lines("side.txt")).To(Equal("ran\n"), "the deferred call ran, once")
		Expect(lines("sibling.txt")).To(Equal("ran\n"), "the sibling did not run again")
		reqs := next.requests()
		Expect(reqs).To(HaveLen(1))
		paired(reqs[0])
		last := reqs[0][len(reqs[0])-1]
		Expect(last.Content).To(HaveLen(3))
		Expect(last.Content[0].ToolUseID).To(Equal("t1"), "the results in the calls' order")
		Expect(last.Content[1].ToolUseID).To(Equal("t2"))
		Expect(last.Content[2].Text).To(Equal(agent.ContinueNotice))
		Expect(s.Deferred()).To(BeNil())
		Expect(s.Close()).To(Succeed())

		stored, rep, err := transcript.Load(store.Path(dir, id))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Deferred).To(BeNil())
		Expect(rep.Answered).To(BeEmpty())
		paired(stored)
	})

	It("ends the resumed run deferred again when the hook defers again, before any model request", func() {
		id := deferred()
		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"never asked"}]}`)
		s := open(session.Options{Print: true, Provider: next, Resume: id})
		out := run(s, "")
		Expect(out.Stop).To(Equal(agent.StopDeferred))
		Expect(out.DeferredAgain).To(BeTrue())
		Expect(out.Deferred.ID).To(Equal("t1"))
		Expect(next.requests()).To(BeEmpty())
		Expect(lines("side.txt")).To(BeEmpty())
		Expect(s.Close()).To(Succeed())
		_, rep, err := transcript.Load(store.Path(dir, id))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Deferred).NotTo(BeNil(), "still open for the next resume")
	})

	It("resumed with a new prompt: runs the call once the hook allows, lets the model go on, then sends the prompt", func() {
		id := deferred()
		Expect(os.Remove(flag)).To(Succeed())
		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"continued"}]}
{"blocks":[{"type":"text","text":"answered the prompt"}]}`)
		s := open(session.Options{Print: true, Provider: next, Resume: id})
		out := run(s, "and now this")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("answered the prompt"))
		Expect(lines("side.txt")).To(Equal("ran\n"))
		reqs := next.requests()
		Expect(reqs).To(HaveLen(2))
		paired(reqs[1])
		Expect(reqs[0][len(reqs[0])-1].Content[2].Text).To(Equal(agent.ContinueNotice))
		Expect(reqs[1][len(reqs[1])-1].Content[0].Text).To(Equal("and now this"))
	})

	It("resumed with a new prompt while the hook still defers: the call is answered as not run, and the prompt goes on", func() {
		id := deferred()
		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"fine"}]}`)
		s := open(session.Options{Print: true, Provider: next, Resume: id})
		out := run(s, "never mind")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(lines("side.txt")).To(BeEmpty())
		reqs := next.requests()
		Expect(reqs).To(HaveLen(1))
		paired(reqs[0])
		last := reqs[0][len(reqs[0])-1]
		Expect(last.Content[0].ToolUseID).To(Equal("t1"))
		Expect(last.Content[0].IsError).To(BeTrue())
		Expect(last.Content[2].Text).To(Equal("never mind"))
	})

	It("is ignored with a warning in an interactive session (Print unset), as in Claude Code: the call goes through the permission check and runs", func() {
		model := scripted(turn + `{"blocks":[{"type":"text","text":"done"}]}`)
		s := open(session.Options{Provider: model})
		var warned []string
		var out *agent.Outcome
		for ev := range s.Run(context.Background(), "go") {
			switch ev.Kind {
			case agent.EventHook:
				warned = append(warned, ev.Text)
			case agent.EventDone:
				out = ev.Outcome
			}
		}
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(lines("side.txt")).To(Equal("ran\n"))
		Expect(warned).To(ContainElement(ContainSubstring("ignored (defer is print-mode only)")))
		Expect(s.Deferred()).To(BeNil())
	})
})
