package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// shTool is a small shell tool: it runs its command with bash -c in the
// call's directory, and permission rules match the command.
func shTool() runtime.Tool {
	type in struct{ Command string }
	return runtime.Define(runtime.Definition[in]{
		Name:        "Sh",
		Description: "Sh runs a shell command.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`),
		Decode: func(raw json.RawMessage) (in, error) {
			var v struct {
				Command *string `json:"command"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || v.Command == nil {
				return in{}, errors.New("command: required string")
			}
			return in{Command: *v.Command}, nil
		},
		Call: func(ctx context.Context, i in, c *runtime.Call) (runtime.Result, error) {
			cmd := exec.CommandContext(ctx, "bash", "-c", i.Command)
			cmd.Dir = c.Context.Cwd
			out, err := cmd.CombinedOutput()
			if err != nil {
				return runtime.Result{}, errors.New(string(out) + err.Error())
			}
			return runtime.Result{Data: map[string]string{"stdout": string(out)}, Content: []runtime.Block{runtime.TextBlock(string(out))}}, nil
		},
		PermissionTarget: func(i in) runtime.Target { return runtime.Target{Kind: runtime.TargetCommand, Value: i.Command} },
		RenderUse:        func(i in) string { return i.Command },
	})
}

// recordingAsker answers every ask with its answer and keeps the requests.
type recordingAsker struct {
	mu     sync.Mutex
	answer ask.Answer
	asked  []ask.AskRequest
}

func (a *recordingAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	return a.answer, nil
}

// requests returns the asks so far.
func (a *recordingAsker) requests() []ask.AskRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]ask.AskRequest(nil), a.asked...)
}

var _ = Describe("Hooks from settings files", func() {
	var (
		dir string
		ctx context.Context
	)

	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})

	// script writes an executable hook script under dir/.claude/hooks.
	script := func(name, body string) string { return hookScript(dir, name, body) }
	// settings writes file (relative to dir) with hooks for ev.
	settings := func(file, ev, matcher, command string, extra string) {
		p := filepath.Join(dir, file)
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		cmd, _ := json.Marshal(command)
		m, _ := json.Marshal(matcher)
		body := `{` + extra + `"hooks":{"` + ev + `":[{"matcher":` + string(m) + `,"hooks":[{"type":"command","command":` + string(cmd) + `,"timeout":10}]}]}}`
		Expect(os.WriteFile(p, []byte(body), 0o644)).To(Succeed())
	}
	open := func(o session.Options) *session.Session {
		o.Dir, o.Home = dir, GinkgoT().TempDir()
		o.Tools = append(o.Tools, shTool(), echo())
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(dir, "nouser")
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	exec1 := func(s *session.Session, name, input string) orchestrate.Event {
		var out []orchestrate.Event
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "toolu_1", Name: name, Input: json.RawMessage(input)}}) {
			if ev.Kind == orchestrate.EventResult {
				out = append(out, ev)
			}
		}
		Expect(out).To(HaveLen(1))
		return out[0]
	}
	allow := func(rules ...string) permission.Sources {
		r, err := permission.ParseRules(rules, runtime.Allow, permission.SourceFlag, "test")
		Expect(err).NotTo(HaveOccurred())
		return permission.Sources{Rules: r}
	}
	marker := func() string { return filepath.Join(dir, "ran") }

	It("blocks a call on exit 2, with the hook's stderr as the reason, before the permission check", func() {
		settings(".claude/settings.json", "PreToolUse", "Sh", script("guard.sh", `grep -q 'rm -rf' && { echo "rm -rf is not allowed here" >&2; exit 2; }; exit 0`), "")
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, "Sh", `{"command":"touch ran; rm -rf nothing"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.IsError).To(BeTrue())
		Expect(ev.Result.Text()).To(Equal("PreToolUse:Sh hook blocked this call: rm -rf is not allowed here"))
		Expect(marker()).NotTo(BeAnExistingFile())
		Expect(exec1(s, "Sh", `{"command":"echo fine"}`).Result.Text()).To(Equal("fine\n"), "the hook lets other commands through")
	})

	It("denies by JSON even where an allow rule would allow", func() {
		settings(".claude/settings.local.json", "PreToolUse", "Sh|Echo", script("deny.sh",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"frozen until Friday"}}'`), "")
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, "Sh", `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(ContainSubstring("frozen until Friday"))
		Expect(marker()).NotTo(BeAnExistingFile())
	})

	It("allows by JSON what would be asked, but not what a deny rule denies", func() {
		settings(".claude/settings.json", "PreToolUse", "", script("allow.sh",
			`echo '{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"trusted"}}'`),
			`"permissions":{"deny":["Sh(rm:*)"]},`)
		s := open(session.Options{}) // no asker: an ask would be denied
		Expect(exec1(s, "Sh", `{"command":"touch ran"}`).Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(marker()).To(BeAnExistingFile())
		ev := exec1(s, "Sh", `{"command":"rm ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(ContainSubstring("denied by the rule"))
		Expect(marker()).To(BeAnExistingFile())
	})

	It("without a hook, the same call is asked and, non-interactively, denied", func() {
		s := open(session.Options{})
		Expect(exec1(s, "Sh", `{"command":"touch ran"}`).Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(marker()).NotTo(BeAnExistingFile())
	})

	It("asks by JSON even where an allow rule would allow, with the hook's reason in the prompt", func() {
		settings(".claude/settings.json", "PreToolUse", "Sh", script("ask.sh",
			`echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"touching files: sure?"}}'`), "")
		asker := &recordingAsker{answer: ask.AnswerDeny}
		src := allow("Sh")
		src.Asker = asker
		s := open(session.Options{Permissions: src})
		ev := exec1(s, "Sh", `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(asker.asked).To(HaveLen(1))
		Expect(asker.asked[0].Message).To(Equal("touching files: sure?"))
		asker.answer = ask.AnswerAllowOnce
		Expect(exec1(s, "Sh", `{"command":"touch ran"}`).Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(marker()).To(BeAnExistingFile())
	})

	It("rewrites a command with updatedInput, and checks the new input again", func() {
		settings(".claude/settings.json", "PreToolUse", "Sh", script("rewrite.sh", `
input=$(cat)
case "$input" in
  *'"bad"'*) echo '{"hookSpecificOutput":{"updatedInput":{"cmd":"oops"}}}' ;;
  *'"denied"'*) echo '{"hookSpecificOutput":{"updatedInput":{"command":"rm -f x"}}}' ;;
  *) echo '{"hookSpecificOutput":{"updatedInput":{"command":"echo rewritten"},"additionalContext":"the command was rewritten"}}' ;;
esac`), `"permissions":{"deny":["Sh(rm:*)"]},`)
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, "Sh", `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("rewritten\n\nthe command was rewritten"))
		Expect(marker()).NotTo(BeAnExistingFile())

		ev = exec1(s, "Sh", `{"command":"bad"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeInvalidInput))
		Expect(ev.Result.Text()).To(ContainSubstring("rewrote the input of Sh, and the new input is invalid"))

		ev = exec1(s, "Sh", `{"command":"denied"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected), "the rewritten command meets the deny rule")
	})

	It("adds PostToolUse context and blocking feedback to the result, with the tool's response on stdin", func() {
		seen := filepath.Join(dir, "post.json")
		settings(".claude/settings.json", "PostToolUse", "Sh", script("post.sh", `
cat > `+seen+`
echo '{"decision":"block","reason":"output mentions a secret","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: 0 warnings"}}'`), "")
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, "Sh", `{"command":"echo hello"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("hello\n\nPostToolUse:Sh hook feedback: output mentions a secret\nlint: 0 warnings"))
		var in map[string]any
		data, err := os.ReadFile(seen)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &in)).To(Succeed())
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PostToolUse"))
		Expect(in).To(HaveKeyWithValue("tool_response", map[string]any{"stdout": "hello\n"}))
		Expect(in["tool_input"]).To(Equal(map[string]any{"command": "echo hello"}))
	})

	It("does not run PostToolUse hooks for tools the matcher leaves out", func() {
		settings(".claude/settings.json", "PostToolUse", "Sh", script("post.sh", `echo '{"hookSpecificOutput":{"additionalContext":"sh only"}}'`), "")
		s := open(session.Options{})
		Expect(exec1(s, "Echo", `{"text":"x"}`).Result.Text()).To(Equal("echo: x"))
	})

	replayProvider := func(text string) *replay.Provider {
		sc, err := replay.Parse([]byte(text))
		Expect(err).NotTo(HaveOccurred())
		return replay.New(sc, replay.Options{})
	}
	toolResult := func(s *session.Session, id string) provider.Block {
		for _, m := range s.Messages() {
			for _, b := range m.Content {
				if b.Type == provider.ToolResultBlock && b.ToolUseID == id {
					return b
				}
			}
		}
		Fail("no tool_result for " + id)
		return provider.Block{}
	}
	resultText := func(b provider.Block) string { return runtime.Result{Content: b.Content}.Text() }

	It("sends a blocking hook's reason to the model as the tool_result, and the turn goes on", func() {
		settings(".claude/settings.json", "PreToolUse", "Sh", script("guard.sh", `echo "use the Echo tool instead" >&2; exit 2`), "")
		prov := replayProvider(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch ran"}}]}
{"blocks":[{"type":"text","text":"Understood."}]}`)
		s := open(session.Options{Provider: prov, Permissions: allow("Sh")})
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopEndTurn))
		b := toolResult(s, "t1")
		Expect(b.IsError).To(BeTrue())
		Expect(resultText(b)).To(Equal("PreToolUse:Sh hook blocked this call: use the Echo tool instead"))
		Expect(marker()).NotTo(BeAnExistingFile())
	})

	It("goes on when a PreToolUse hook hangs past its timeout, and tells the user; the hook's whole process group is gone", Label("faults"), func() {
		p := filepath.Join(dir, ".claude", "settings.json")
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		// The hook leaves a child that ignores SIGTERM, then hangs.
		hang := script("hang.sh", `echo $$ > `+filepath.Join(dir, "hook.pgid")+`
bash -c 'trap "" TERM; sleep 1000' &
sleep 1000`)
		Expect(os.WriteFile(p, []byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"`+hang+`","timeout":0.5}]}]}}`), 0o644)).To(Succeed())
		prov := replayProvider(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch ran"}}]}
{"blocks":[{"type":"text","text":"Done."}]}`)
		s := open(session.Options{Provider: prov, Permissions: allow("Sh")})
		var notes []string
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventHook {
				notes = append(notes, ev.Text)
			}
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopEndTurn))
		Expect(notes).To(ConsistOf(ContainSubstring("timed out after 500ms and was killed")))
		Expect(toolResult(s, "t1").IsError).To(BeFalse())
		Expect(marker()).To(BeAnExistingFile(), "the call ran as if the hook had not been there")
		b, err := os.ReadFile(filepath.Join(dir, "hook.pgid"))
		Expect(err).NotTo(HaveOccurred())
		pgid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		Expect(err).NotTo(HaveOccurred())
		Expect(tooltest.GroupMembers(pgid)).To(BeEmpty(), "no process of the hook's group may be left")
	})

	It("blocks a prompt from a UserPromptSubmit hook, and adds a hook's context to the prompt", func() {
		settings(".claude/settings.json", "UserPromptSubmit", "", script("prompt.sh", `
if grep -q password; then echo "prompts must not contain passwords" >&2; exit 2; fi
echo "branch: main"`), "")
		prov := replayProvider(`{"prompt":"hello"}
{"blocks":[{"type":"text","text":"Hi."}]}`)
		s := open(session.Options{Provider: prov})
		var last agent.Event
		for ev := range s.Run(ctx, "my password is x") {
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopError))
		Expect(last.Outcome.Err).To(MatchError(ContainSubstring("prompts must not contain passwords")))
		Expect(s.Messages()).To(BeEmpty(), "a blocked prompt never reaches the model")

		for ev := range s.Run(ctx, "hello") {
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopEndTurn))
		first := s.Messages()[0]
		Expect(first.Content[0].Text).To(Equal("hello\n\nbranch: main"))
	})

	It("gives a SessionStart hook's output to the model with the first request", func() {
		settings(".claude/settings.json", "SessionStart", "startup", script("start.sh", `echo "remember: tabs, not spaces"`), "")
		prov := replayProvider(`{"prompt":"hello"}
{"blocks":[{"type":"text","text":"Hi."}]}`)
		s := open(session.Options{Provider: prov})
		for range s.Run(ctx, "hello") {
		}
		var texts []string
		for _, b := range s.Messages()[0].Content {
			texts = append(texts, b.Text)
		}
		Expect(strings.Join(texts, "\n")).To(ContainSubstring("remember: tabs, not spaces"))
	})

	It("makes the model go on when a Stop hook blocks, once: stop_hook_active lets the turn end", func() {
		log := filepath.Join(dir, "stop.log")
		settings(".claude/settings.json", "Stop", "", script("stop.sh", `in=$(cat); echo "$in" >> `+log+`
if echo "$in" | grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"run the tests first"}'; fi`), "")
		prov := replayProvider(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Done."}]}
{"blocks":[{"type":"text","text":"Tests pass."}]}`)
		s := open(session.Options{Provider: prov})
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopEndTurn))
		msgs := s.Messages()
		Expect(msgs).To(HaveLen(4))
		Expect(msgs[2].Role).To(Equal(provider.User))
		Expect(msgs[2].Content[0].Text).To(Equal("Stop hook feedback: run the tests first"))
		Expect(msgs[3].Content[0].Text).To(Equal("Tests pass."))
		b, err := os.ReadFile(log)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		Expect(lines).To(HaveLen(2))
		Expect(lines[0]).To(ContainSubstring(`"hook_event_name":"Stop"`))
		Expect(lines[1]).To(ContainSubstring(`"stop_hook_active":true`))
	})

	It("ends the run with the stopReason when a Stop hook says continue: false", func() {
		settings(".claude/settings.json", "Stop", "", script("halt.sh", `echo '{"continue":false,"stopReason":"budget spent"}'`), "")
		prov := replayProvider(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Done."}]}`)
		s := open(session.Options{Provider: prov})
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopError))
		Expect(last.Outcome.Err).To(MatchError(ContainSubstring("budget spent")))
	})

	It("stops the session when a PreToolUse hook says continue: false, without running the call", func() {
		settings(".claude/settings.json", "PreToolUse", "Sh", script("halt.sh", `echo '{"continue":false,"stopReason":"maintenance window"}'`), "")
		prov := replayProvider(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch ran"}}]}
{"blocks":[{"type":"text","text":"Should not be reached."}]}`)
		s := open(session.Options{Provider: prov, Permissions: allow("Sh")})
		var notes []string
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventHook {
				notes = append(notes, ev.Text)
			}
			last = ev
		}
		Expect(last.Outcome.Stop).To(Equal(agent.StopInterrupted))
		Expect(notes).To(ContainElement(ContainSubstring("maintenance window")))
		Expect(marker()).NotTo(BeAnExistingFile())
	})
})

// hookScript writes an executable bash hook script under
// dir/.claude/hooks and returns its path.
func hookScript(dir, name, body string) string {
	GinkgoHelper()
	p := filepath.Join(dir, ".claude", "hooks", name)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte("#!/bin/bash\n"+body+"\n"), 0o755)).To(Succeed())
	return p
}
