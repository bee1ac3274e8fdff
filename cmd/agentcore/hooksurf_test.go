//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hookScenarioAPI is a Messages API on loopback for the hook specs: the
// main conversation's n-th request (n = the tool_result blocks it
// carries) gets calls[n] as a tool_use, past the list the text "done"; a
// sub-agent's first request (its prompt says SUBTASK) gets "sub done".
// It keeps every request's body.
func hookScenarioAPI(calls ...[2]string) (*httptest.Server, func() []map[string]any) {
	return bodyAPI(func(id int, raw []byte, w http.ResponseWriter) {
		n := strings.Count(string(raw), `"tool_result"`)
		rep := fakeReply{ID: fmt.Sprintf("msg_%d", id), InputTokens: 50, OutputTokens: 5}
		switch {
		case n == 0 && strings.Contains(string(raw), "SUBTASK"):
			rep.Blocks = []fakeBlock{{Text: "sub done"}}
		case n < len(calls):
			rep.Blocks = []fakeBlock{{ID: fmt.Sprintf("toolu_%d", n), Tool: calls[n][0], Input: calls[n][1]}}
		default:
			rep.Blocks = []fakeBlock{{Text: "done"}}
		}
		rep.write(w)
	})
}

// recordingHooks writes dir/.claude/settings.json with, for every event
// of events, a command hook that saves its stdin to rec/EVENT.N.json,
// plus the extra hooks (event → hook objects) after them.
func recordingHooks(dir, rec string, events []string, extra map[string][]map[string]any) {
	Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
	Expect(os.MkdirAll(rec, 0o755)).To(Succeed())
	h := map[string]any{}
	for _, ev := range events {
		hs := []map[string]any{{"type": "command", "command": fmt.Sprintf("cat > %s/%s.$$.json", rec, ev)}}
		hs = append(hs, extra[ev]...)
		h[ev] = []any{map[string]any{"hooks": hs}}
	}
	for ev, hs := range extra {
		if !slices.Contains(events, ev) {
			h[ev] = []any{map[string]any{"hooks": hs}}
		}
	}
	data, err := json.Marshal(map[string]any{"hooks": h})
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
}

// recorded reads rec's hook inputs: per event, each input's field names,
// sorted.
func recorded(rec string) map[string][][]string {
	out := map[string][][]string{}
	for ev, sets := range recordedSets(rec) {
		for _, keys := range sets {
			out[ev] = append(out[ev], keys)
		}
	}
	return out
}

// fieldUnion is, per event, the field names of all its recorded inputs.
func fieldUnion(rec string) map[string][]string {
	out := map[string][]string{}
	for ev, sets := range recordedSets(rec) {
		for _, keys := range sets {
			for _, k := range keys {
				if !slices.Contains(out[ev], k) {
					out[ev] = append(out[ev], k)
				}
			}
		}
		sort.Strings(out[ev])
	}
	return out
}

func recordedSets(rec string) map[string][][]string {
	out := map[string][][]string{}
	files, err := filepath.Glob(filepath.Join(rec, "*.json"))
	Expect(err).NotTo(HaveOccurred())
	for _, f := range files {
		data, err := os.ReadFile(f)
		Expect(err).NotTo(HaveOccurred())
		var in map[string]any
		Expect(json.Unmarshal(data, &in)).To(Succeed(), f)
		var keys []string
		for k := range in {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ev, _ := in["hook_event_name"].(string)
		out[ev] = append(out[ev], keys)
	}
	return out
}

// hookScenario is the scenario both programs run for the parity spec: a
// Bash call that needs approval (a PermissionRequest hook gives it) and
// fails, then an Agent call whose sub-agent answers at once.
var hookScenario = [][2]string{
	{"Bash", `{"command":"exit 3","description":"fail on purpose"}`},
	{"Agent", `{"description":"sub","prompt":"SUBTASK: say done","subagent_type":"general-purpose"}`},
}

// newHookEvents are the events this spec records; PermissionDenied is
// left out: Claude Code fires it only when its auto mode classifier
// denies a call, which needs a model the fake API does not play.
var newHookEvents = []string{"PostToolUseFailure", "PermissionRequest", "SubagentStart", "SessionEnd",
	"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "Stop", "SubagentStop"}

// allowingRequest is a PermissionRequest hook that approves the call.
func allowingRequest() map[string][]map[string]any {
	return map[string][]map[string]any{"PermissionRequest": {{"type": "command",
		"command": `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`}}}
}

var _ = Describe("the hook surface in agentcore -p", func() {
	It("matches Claude Code's hook input field for field, recorded from its npm package against the same loopback API", Label("node"), func() {
		claude := bundledClaude()
		// Claude Code.
		ccDir, ccHome := GinkgoT().TempDir(), GinkgoT().TempDir()
		ccRec := filepath.Join(GinkgoT().TempDir(), "rec")
		recordingHooks(ccDir, ccRec, newHookEvents, allowingRequest())
		api, _ := hookScenarioAPI(hookScenario...)
		cmd := exec.Command(claude, "-p", "go", "--output-format", "json")
		cmd.Dir = ccDir
		cmd.Env = append(os.Environ(), "HOME="+ccHome, "CLAUDE_CONFIG_DIR="+filepath.Join(ccHome, ".claude"), "TMPDIR="+GinkgoT().TempDir(),
			"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_MODEL=",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1")
		cmd.Stderr = GinkgoWriter
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), string(out))
		// The sub-agent of Claude Code runs in the background: its
		// SubagentStart may land after the result; the process waits for it.
		cc := fieldUnion(ccRec)

		// agentcore.
		acDir := GinkgoT().TempDir()
		acRec := filepath.Join(GinkgoT().TempDir(), "rec")
		recordingHooks(acDir, acRec, newHookEvents, allowingRequest())
		api2, _ := hookScenarioAPI(hookScenario...)
		stdout, stderr, code := invoke(invocation{dir: acDir, home: acDir, configDir: acDir, env: []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api2.URL}},
			"-p", "go", "--model", "claude-fake-1", "--output-format", "json")
		Expect(code).To(Equal(0), stderr+stdout)
		ac := fieldUnion(acRec)

		// Fields only Claude Code sends: prompt_id (its OpenTelemetry
		// prompt id) and effort (the model's reasoning effort) everywhere;
		// Stop's and SubagentStop's background_tasks, and SubagentStop's
		// agent_transcript_path (agentcore keeps no transcript per
		// sub-agent).
		ccOnly := []string{"effort", "prompt_id", "background_tasks", "agent_transcript_path"}
		for _, ev := range newHookEvents {
			Expect(cc[ev]).NotTo(BeEmpty(), "Claude Code fired no %s", ev)
			Expect(ac[ev]).NotTo(BeEmpty(), "agentcore fired no %s", ev)
			want := slices.DeleteFunc(slices.Clone(cc[ev]), func(k string) bool { return slices.Contains(ccOnly, k) })
			Expect(ac[ev]).To(Equal(want), "the fields of %s", ev)
		}
	})

	It("POSTs each new event to a loopback http hook, and a 500 from it does not block anything", func() {
		var mu sync.Mutex
		got := map[string]map[string]any{}
		recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var in map[string]any
			_ = json.NewDecoder(r.Body).Decode(&in)
			ev, _ := in["hook_event_name"].(string)
			mu.Lock()
			got[ev] = in
			mu.Unlock()
			if ev == "PermissionRequest" {
				_, _ = io.WriteString(w, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`)
				return
			}
			w.WriteHeader(http.StatusInternalServerError) // non-blocking: the run goes on
		}))
		DeferCleanup(recv.Close)
		dir := GinkgoT().TempDir()
		h := map[string][]map[string]any{}
		for _, ev := range []string{"PostToolUseFailure", "PermissionRequest", "SubagentStart", "SessionEnd", "PreToolUse"} {
			h[ev] = []map[string]any{{"type": "http", "url": recv.URL + "/" + ev, "timeout": 10}}
		}
		recordingHooks(dir, filepath.Join(dir, "rec"), nil, h)
		api, bodies := hookScenarioAPI(hookScenario...)
		stdout, stderr, code := invoke(invocation{dir: dir, home: dir, configDir: dir, env: []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api.URL}},
			"-p", "go", "--model", "claude-fake-1", "--output-format", "json")
		Expect(code).To(Equal(0), stderr+stdout)
		var res map[string]any
		Expect(json.Unmarshal([]byte(stdout), &res)).To(Succeed(), stdout)
		Expect(res).To(HaveKeyWithValue("result", "done"))
		mu.Lock()
		defer mu.Unlock()
		Expect(got).To(HaveKey("PreToolUse"), "a PreToolUse hook answering 500 let the calls run")
		Expect(got["PostToolUseFailure"]).To(HaveKeyWithValue("tool_use_id", "toolu_0"))
		Expect(got["PostToolUseFailure"]).To(HaveKeyWithValue("is_interrupt", false))
		Expect(got["PostToolUseFailure"]["error"]).To(ContainSubstring("Exit code 3"))
		Expect(got["PermissionRequest"]).To(HaveKeyWithValue("tool_name", "Bash"))
		Expect(got["SubagentStart"]).To(HaveKeyWithValue("agent_type", "general-purpose"))
		Expect(got["SessionEnd"]).To(HaveKeyWithValue("reason", "other"))
		Expect(len(bodies())).To(BeNumerically(">=", 3), "the model got the failure and the sub-agent's answer")
	})

	It("gives the model PostToolUse's updatedToolOutput in its next request, and fires PermissionDenied on a deny", func() {
		dir := GinkgoT().TempDir()
		rec := filepath.Join(dir, "rec")
		recordingHooks(dir, rec, []string{"PermissionDenied"}, map[string][]map[string]any{
			"PostToolUse": {{"type": "command", "command": `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"REPLACED BY THE HOOK","stderr":""}}}'`}},
		})
		api, bodies := hookScenarioAPI(
			[2]string{"Bash", `{"command":"echo the-real-output","description":"echo"}`},
			[2]string{"Bash", `{"command":"touch denied.txt","description":"touch"}`},
		)
		stdout, stderr, code := invoke(invocation{dir: dir, home: dir, configDir: dir, env: []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + api.URL}},
			"-p", "go", "--model", "claude-fake-1", "--output-format", "json", "--allowedTools", "Bash(echo:*)")
		Expect(code).To(Equal(0), stderr+stdout)
		all := bodies()
		Expect(len(all)).To(BeNumerically(">=", 2))
		second, _ := json.Marshal(all[1]["messages"])
		Expect(string(second)).To(ContainSubstring("REPLACED BY THE HOOK"))
		Expect(string(second)).NotTo(ContainSubstring("the-real-output\\n"), "the tool's own output is not sent")
		Expect(filepath.Join(dir, "denied.txt")).NotTo(BeAnExistingFile())
		denied := recorded(rec)["PermissionDenied"]
		Expect(denied).To(Equal([][]string{{"cwd", "hook_event_name", "permission_mode", "reason", "session_id", "tool_input", "tool_name", "tool_use_id", "transcript_path"}}),
			"PermissionDenied has the fields of Claude Code's PermissionDeniedHookInput")
	})
})
