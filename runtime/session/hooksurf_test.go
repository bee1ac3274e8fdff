package session_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// hookReceiver is a loopback HTTP hook endpoint: it keeps every event it
// is POSTed, by hook_event_name, and answers each event with answers[ev]
// (200 and an empty body when none is set).
type hookReceiver struct {
	mu      sync.Mutex
	got     map[string][]map[string]any
	answers map[string]string
}

func newHookReceiver(answers map[string]string) (*hookReceiver, *httptest.Server) {
	rc := &hookReceiver{got: map[string][]map[string]any{}, answers: answers}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var in map[string]any
		_ = json.Unmarshal(raw, &in)
		ev, _ := in["hook_event_name"].(string)
		rc.mu.Lock()
		rc.got[ev] = append(rc.got[ev], in)
		rc.mu.Unlock()
		_, _ = io.WriteString(w, rc.answers[ev])
	}))
	DeferCleanup(srv.Close)
	return rc, srv
}

func (rc *hookReceiver) events(ev string) []map[string]any {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.got[ev]
}

var _ = Describe("The newer hook events: PostToolUseFailure, PermissionRequest, PermissionDenied, SubagentStart, SessionEnd, and http hooks", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	script := func(name, body string) string { return hookScript(dir, name, body) }
	// hooksFile writes .claude/settings.json with hooks, an object from
	// event to a list of hook objects (no matcher), and extra settings.
	hooksFile := func(hooks map[string][]map[string]any, extra map[string]any) {
		cfg := map[string]any{}
		for k, v := range extra {
			cfg[k] = v
		}
		h := map[string]any{}
		for ev, hs := range hooks {
			h[ev] = []any{map[string]any{"hooks": hs}}
		}
		cfg["hooks"] = h
		data, err := json.Marshal(cfg)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
	}
	command := func(c string) map[string]any { return map[string]any{"type": "command", "command": c, "timeout": 10} }
	httpHook := func(url string) map[string]any { return map[string]any{"type": "http", "url": url, "timeout": 10} }
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
	exec1 := func(s *session.Session, input string) orchestrate.Event {
		var out []orchestrate.Event
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "toolu_1", Name: "Sh", Input: json.RawMessage(input)}}) {
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
	readJSON := func(p string) map[string]any {
		data, err := os.ReadFile(p)
		Expect(err).NotTo(HaveOccurred())
		var in map[string]any
		Expect(json.Unmarshal(data, &in)).To(Succeed())
		return in
	}

	It("runs PostToolUseFailure hooks on a failing call, with Claude Code's fields, and gives their context to the model", func() {
		seen := filepath.Join(dir, "failure.json")
		hooksFile(map[string][]map[string]any{
			"PostToolUseFailure": {command(script("fail.sh", `cat > `+seen+`
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"the failure hook saw it"}}'`))},
			"PostToolUse": {command(script("post.sh", `touch `+filepath.Join(dir, "post-ran")))},
		}, nil)
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, `{"command":"echo broken >&2; exit 3"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeToolError))
		Expect(ev.Result.Text()).To(ContainSubstring("the failure hook saw it"))
		Expect(filepath.Join(dir, "post-ran")).NotTo(BeAnExistingFile(), "PostToolUse is for calls that succeeded")
		in := readJSON(seen)
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PostToolUseFailure"))
		Expect(in).To(HaveKeyWithValue("tool_name", "Sh"))
		Expect(in).To(HaveKeyWithValue("tool_use_id", "toolu_1"))
		Expect(in).To(HaveKeyWithValue("is_interrupt", false))
		Expect(in).To(HaveKey("duration_ms"))
		Expect(in["error"]).To(ContainSubstring("exit status 3"))
		Expect(in["tool_input"]).To(Equal(map[string]any{"command": "echo broken >&2; exit 3"}))
	})

	It("lets a PermissionRequest hook allow (with updatedInput) what a non-interactive run would deny", func() {
		seen := filepath.Join(dir, "request.json")
		hooksFile(map[string][]map[string]any{"PermissionRequest": {command(script("allow.sh", `cat > `+seen+`
echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"echo approved-and-changed"}}}}'`))}}, nil)
		s := open(session.Options{}) // no asker: an ask would be denied
		ev := exec1(s, `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("approved-and-changed\n"))
		Expect(filepath.Join(dir, "ran")).NotTo(BeAnExistingFile())
		in := readJSON(seen)
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PermissionRequest"))
		Expect(in).To(HaveKeyWithValue("tool_name", "Sh"))
		Expect(in["tool_input"]).To(Equal(map[string]any{"command": "touch ran"}))
		Expect(in).To(HaveKey("permission_suggestions"))
		Expect(in).NotTo(HaveKey("tool_use_id"), "Claude Code gives PermissionRequest no tool_use_id")
	})

	It("denies by a PermissionRequest hook's decision, and fires PermissionDenied whose retry reaches the model", func() {
		seen := filepath.Join(dir, "denied.json")
		hooksFile(map[string][]map[string]any{
			"PermissionRequest": {command(script("deny.sh", `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not on a Friday"}}}'`))},
			"PermissionDenied": {command(script("denied.sh", `cat > `+seen+`
echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'`))},
		}, nil)
		asker := &recordingAsker{}
		s := open(session.Options{Permissions: permission.Sources{Asker: asker}})
		ev := exec1(s, `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(Equal("not on a Friday A PermissionDenied hook says you may retry this call."))
		Expect(asker.requests()).To(BeEmpty(), "the hook answered for the user")
		Expect(filepath.Join(dir, "ran")).NotTo(BeAnExistingFile())
		in := readJSON(seen)
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PermissionDenied"))
		Expect(in).To(HaveKeyWithValue("reason", "not on a Friday"))
		Expect(in).To(HaveKeyWithValue("tool_use_id", "toolu_1"))
	})

	It("fires PermissionDenied on a deny rule too, and not on an allowed call", func() {
		seen := filepath.Join(dir, "denied.json")
		hooksFile(map[string][]map[string]any{"PermissionDenied": {command(script("denied.sh", `cat >> `+seen+`; echo >> `+seen))}},
			map[string]any{"permissions": map[string]any{"deny": []string{"Sh(rm:*)"}, "allow": []string{"Sh(echo:*)"}}})
		s := open(session.Options{})
		Expect(exec1(s, `{"command":"echo fine"}`).Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(seen).NotTo(BeAnExistingFile())
		Expect(exec1(s, `{"command":"rm -f x"}`).Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(readJSON(seen)["reason"]).To(ContainSubstring("denied by the rule"))
	})

	It("replaces the output the model reads with PostToolUse's updatedToolOutput", func() {
		hooksFile(map[string][]map[string]any{"PostToolUse": {command(script("redact.sh",
			`echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"[redacted]","stderr":""}}}'`))}}, nil)
		s := open(session.Options{Permissions: allow("Sh")})
		ev := exec1(s, `{"command":"echo the-secret"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(ev.Result.Text()).To(Equal("[redacted]"))
	})

	It("refuses a sub-agent's call a PreToolUse hook defers (its turn cannot be left open), and never runs it", func() {
		hooksFile(map[string][]map[string]any{"PreToolUse": {command(script("defer.sh",
			`echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"a person decides"}}'`))}}, nil)
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"unused"}]}
{"agent":"a1","blocks":[{"type":"text","text":"unused"}]}`))
		Expect(err).NotTo(HaveOccurred())
		parent := open(session.Options{Permissions: allow("Sh"), Print: true, Provider: replay.New(sc, replay.Options{})})
		sub, err := parent.Subagent(parent.ToolContext(), agent.SubagentOptions{ID: "a1", Type: "general-purpose"})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(sub.Close)
		ev := exec1(sub, `{"command":"touch ran"}`)
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(ContainSubstring("a sub-agent's call cannot be deferred"))
		Expect(filepath.Join(dir, "ran")).NotTo(BeAnExistingFile())
	})

	It("gives PostToolUse the call's duration_ms and Stop the last assistant message, as Claude Code does", func() {
		post, stop := filepath.Join(dir, "post.json"), filepath.Join(dir, "stop.json")
		hooksFile(map[string][]map[string]any{
			"PostToolUse": {command(`cat > ` + post)},
			"Stop":        {command(`cat > ` + stop)},
		}, nil)
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"sleep 0.05; echo hi"}}]}
{"blocks":[{"type":"text","text":"All "},{"type":"text","text":"done."}]}`))
		Expect(err).NotTo(HaveOccurred())
		s := open(session.Options{Provider: replay.New(sc, replay.Options{}), Permissions: allow("Sh")})
		for range s.Run(ctx, "go") {
		}
		Expect(readJSON(post)["duration_ms"]).To(BeNumerically(">=", 50))
		in := readJSON(stop)
		Expect(in).To(HaveKeyWithValue("last_assistant_message", "All done."))
		Expect(in).To(HaveKeyWithValue("session_crons", BeEmpty()))
	})

	It("runs SessionEnd hooks once when the session closes, with the exit reason", func() {
		seen := filepath.Join(dir, "end.json")
		hooksFile(map[string][]map[string]any{"SessionEnd": {command(script("end.sh", `cat >> `+seen+`; echo >> `+seen))}}, nil)
		s := open(session.Options{})
		s.SetExitReason("prompt_input_exit")
		Expect(s.Close()).To(Succeed())
		Expect(s.Close()).To(Succeed())
		in := readJSON(seen)
		Expect(in).To(HaveKeyWithValue("hook_event_name", "SessionEnd"))
		Expect(in).To(HaveKeyWithValue("reason", "prompt_input_exit"))
		Expect(in).NotTo(HaveKey("permission_mode"))
	})

	It("bounds SessionEnd hooks as Claude Code does: one without a timeout is killed after 1.5 s, and the session ends", func() {
		late := filepath.Join(dir, "late")
		hooksFile(map[string][]map[string]any{"SessionEnd": {{"type": "command", "command": "sleep 4; touch " + late}}}, nil)
		s := open(session.Options{})
		Expect(s.Close()).To(Succeed())
		Expect(late).NotTo(BeAnExistingFile(), "the hook was stopped before it could finish")
	})

	It("POSTs every new event to a loopback http hook: SubagentStart with the agent's id and type, its context to the sub-agent", func() {
		rc, srv := newHookReceiver(map[string]string{
			"SubagentStart":     `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"the sub-agent's briefing"}}`,
			"PermissionRequest": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"http says no"}}}`,
		})
		hooks := map[string][]map[string]any{}
		for _, ev := range []string{"PostToolUseFailure", "PermissionRequest", "PermissionDenied", "SubagentStart", "SessionEnd"} {
			hooks[ev] = []map[string]any{httpHook(srv.URL + "/" + ev)}
		}
		hooksFile(hooks, map[string]any{"permissions": map[string]any{"allow": []string{"Sh(exit:*)"}}})
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a1","name":"Agent","input":{"prompt":"p"}}]}
{"agent":"a1","blocks":[{"type":"text","text":"sub done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s := open(session.Options{Provider: replay.New(sc, replay.Options{})})
		Expect(exec1(s, `{"command":"exit 4"}`).Outcome).To(Equal(orchestrate.OutcomeToolError))
		Expect(exec1(s, `{"command":"touch ran"}`).Result.Text()).To(Equal("http says no"))
		child, err := s.Subagent(s.ToolContext(), agent.SubagentOptions{ID: "a1", Type: "general-purpose", Label: "helper"})
		Expect(err).NotTo(HaveOccurred())
		for range child.Run(ctx, "p") {
		}
		first := child.Messages()[0]
		texts := ""
		for _, b := range first.Content {
			texts += b.Text
		}
		Expect(texts).To(ContainSubstring("the sub-agent's briefing"))
		Expect(child.Close()).To(Succeed())
		Expect(rc.events("SessionEnd")).To(BeEmpty(), "a sub-agent's end is not the session's")
		Expect(s.Close()).To(Succeed())

		Expect(rc.events("PostToolUseFailure")).To(HaveLen(1))
		Expect(rc.events("PermissionRequest")).To(HaveLen(1))
		Expect(rc.events("PermissionDenied")).To(HaveLen(1))
		Expect(rc.events("PermissionDenied")[0]).To(HaveKeyWithValue("reason", "http says no"))
		Expect(rc.events("SubagentStart")).To(ConsistOf(And(HaveKeyWithValue("agent_id", "a1"), HaveKeyWithValue("agent_type", "general-purpose"))))
		Expect(rc.events("SessionEnd")).To(ConsistOf(HaveKeyWithValue("reason", "other")))
	})
})
