package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Prompt and agent hooks (the replay model answers them)", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	// settingsHooks writes .claude/settings.json with one matcher group
	// per event.
	settingsHooks := func(hooks map[string]map[string]any) {
		h := map[string]any{}
		for ev, hook := range hooks {
			h[ev] = []any{map[string]any{"hooks": []any{hook}}}
		}
		data, err := json.Marshal(map[string]any{"hooks": h, "permissions": map[string]any{"allow": []string{"Sh"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
	}
	open := func(scenario string, o session.Options) *session.Session {
		sc, err := replay.Parse([]byte(scenario))
		Expect(err).NotTo(HaveOccurred())
		o.Provider = replay.New(sc, replay.Options{Cwd: dir})
		o.Dir, o.Home = dir, GinkgoT().TempDir()
		o.Tools = append(o.Tools, shTool())
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(dir, "nouser")
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	run := func(s *session.Session, prompt string) (*agent.Outcome, []string) {
		var out *agent.Outcome
		var notes []string
		for ev := range s.Run(ctx, prompt) {
			switch ev.Kind {
			case agent.EventDone:
				out = ev.Outcome
			case agent.EventHook:
				notes = append(notes, ev.Text)
			}
		}
		Expect(out).NotTo(BeNil())
		return out, notes
	}
	// texts joins the text of every block of the conversation's messages
	// of role, tool results included.
	texts := func(s *session.Session, role provider.Role) string {
		var b strings.Builder
		for _, m := range s.Messages() {
			if m.Role != role {
				continue
			}
			for _, c := range m.Content {
				b.WriteString(c.Text)
				for _, r := range c.Content {
					b.WriteString(r.Text)
				}
				b.WriteString("\n")
			}
		}
		return b.String()
	}

	It("denies a call on a PreToolUse prompt hook's ok:false, with the reason for the model, and lets the next one run on ok:true", func() {
		settingsHooks(map[string]map[string]any{"PreToolUse": {"type": "prompt", "prompt": "Is this command safe? $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch removed"}}]}
{"blocks":[{"type":"text","text":"{\"ok\": false, \"reason\": \"touching removed is not allowed\"}"}]}
{"blocks":[{"type":"tool_use","id":"t2","name":"Sh","input":{"command":"touch kept"}}]}
{"blocks":[{"type":"text","text":"{\"ok\": true}"}]}
{"blocks":[{"type":"text","text":"Done."}]}`, session.Options{})
		out, _ := run(s, "go")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Done."))
		Expect(filepath.Join(dir, "removed")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "kept")).To(BeAnExistingFile())
		Expect(texts(s, provider.User)).To(ContainSubstring("PreToolUse:Sh hook blocked this call: Prompt hook condition was not met: touching removed is not allowed"))
		Expect(s.Messages()).To(HaveLen(6), "the hooks' requests are not part of the conversation")
	})

	It("makes the model go on after a Stop prompt hook's ok:false, with the reason, until it says ok", func() {
		settingsHooks(map[string]map[string]any{"Stop": {"type": "prompt", "prompt": "Did it run the tests? $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"All done."}]}
{"blocks":[{"type":"text","text":"{\"ok\": false, \"reason\": \"the tests were not run\"}"}]}
{"blocks":[{"type":"text","text":"Ran the tests: they pass."}]}
{"blocks":[{"type":"text","text":"{\"ok\": true}"}]}`, session.Options{})
		out, _ := run(s, "go")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Ran the tests: they pass."))
		Expect(texts(s, provider.User)).To(ContainSubstring("Stop hook feedback: Prompt hook condition was not met: the tests were not run"))
	})

	It("ends the turn on a PostToolUse prompt hook's ok:false, and only gives feedback with continueOnBlock", func() {
		settingsHooks(map[string]map[string]any{"PostToolUse": {"type": "prompt", "prompt": "Was the output fine? $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo out"}}]}
{"blocks":[{"type":"text","text":"{\"ok\": false, \"reason\": \"the output says out\"}"}]}
{"blocks":[{"type":"text","text":"Should not be reached."}]}`, session.Options{})
		out, notes := run(s, "go")
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
		Expect(notes).To(ContainElement("PostToolUse hook stopped the turn: the output says out"))

		settingsHooks(map[string]map[string]any{"PostToolUse": {"type": "prompt", "prompt": "Was the output fine?", "continueOnBlock": true}})
		s = open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo out"}}]}
{"blocks":[{"type":"text","text":"{\"ok\": false, \"reason\": \"the output says out\"}"}]}
{"blocks":[{"type":"text","text":"Noted."}]}`, session.Options{})
		out, _ = run(s, "go")
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Noted."))
		Expect(texts(s, provider.User)).To(ContainSubstring("PostToolUse:Sh hook feedback: Prompt hook condition was not met: the output says out"))
	})

	It("lets the call run when the prompt hook's answer is malformed, and tells the user", func() {
		settingsHooks(map[string]map[string]any{"PreToolUse": {"type": "prompt", "prompt": "Safe? $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch made"}}]}
{"blocks":[{"type":"text","text":"Looks safe to me."}]}
{"blocks":[{"type":"text","text":"Done."}]}`, session.Options{})
		_, notes := run(s, "go")
		Expect(filepath.Join(dir, "made")).To(BeAnExistingFile())
		Expect(notes).To(ContainElement(And(ContainSubstring("PreToolUse prompt hook"), ContainSubstring("is not JSON"))))
	})

	It("runs an agent hook as a read-only sub-agent that reads a file with the real Read tool and answers through StructuredOutput", func() {
		Expect(os.WriteFile(filepath.Join(dir, "STATUS"), []byte("tests: FAILING\n"), 0o644)).To(Succeed())
		settingsHooks(map[string]map[string]any{"Stop": {"type": "agent", "prompt": "Check STATUS says the tests pass. $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Finished."}]}
{"agent":"hook-agent-1","blocks":[{"type":"tool_use","id":"h1","name":"Read","input":{"file_path":"${CWD}/STATUS"}}]}
{"agent":"hook-agent-1","when":{"said":{"h1":"tests: FAILING"}},"blocks":[{"type":"tool_use","id":"h2","name":"StructuredOutput","input":{"ok":false,"reason":"STATUS says the tests are failing"}}]}
{"blocks":[{"type":"text","text":"Fixed the tests."}]}
{"agent":"hook-agent-2","blocks":[{"type":"tool_use","id":"h3","name":"StructuredOutput","input":{"ok":true}}]}`,
			session.Options{Tools: generated.AllBaseTools()})
		out, notes := run(s, "go")
		Expect(notes).To(BeEmpty())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Fixed the tests."))
		Expect(texts(s, provider.User)).To(ContainSubstring("Stop hook feedback: Agent hook condition was not met: STATUS says the tests are failing"))
	})

	It("gives an agent hook no tool that writes, reminds it to answer, and lets the call run on ok:true", func() {
		settingsHooks(map[string]map[string]any{
			"PreToolUse": {"type": "agent", "prompt": "Check $ARGUMENTS", "timeout": 30},
		})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch allowed"}}]}
{"agent":"hook-agent-1","blocks":[{"type":"tool_use","id":"h1","name":"Bash","input":{"command":"touch `+"${CWD}"+`/by-hook"}},{"type":"tool_use","id":"h2","name":"Write","input":{"file_path":"${CWD}/by-hook","content":"x"}}]}
{"agent":"hook-agent-1","when":{"errors":["h1","h2"]},"blocks":[{"type":"text","text":"I could not write."}]}
{"agent":"hook-agent-1","blocks":[{"type":"tool_use","id":"h3","name":"StructuredOutput","input":{"ok":true}}]}
{"blocks":[{"type":"text","text":"Done."}]}`,
			session.Options{Tools: generated.AllBaseTools()})
		out, notes := run(s, "go")
		Expect(notes).To(BeEmpty())
		Expect(out.Text).To(Equal("Done."))
		Expect(filepath.Join(dir, "by-hook")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "allowed")).To(BeAnExistingFile())
	})

	It("lets the event go on when the agent hook's sub-agent cannot answer", func() {
		settingsHooks(map[string]map[string]any{"PreToolUse": {"type": "agent", "prompt": "Check $ARGUMENTS"}})
		s := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch allowed"}}]}
{"blocks":[{"type":"text","text":"Done."}]}`, session.Options{})
		out, notes := run(s, "go")
		Expect(out.Text).To(Equal("Done."))
		Expect(filepath.Join(dir, "allowed")).To(BeAnExistingFile(), "a hook that fails never blocks")
		Expect(notes).To(ContainElement(And(ContainSubstring("PreToolUse agent hook"), ContainSubstring("scripts no sub-agent for the Agent call hook-agent-1"))))
	})
})
