//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// deferBatch is the turn the defer specs' model asks for: a text, then
// the call the hook defers (it appends to side.txt), then a sibling call
// (it appends to sibling.txt).
var deferBatch = []fakeBlock{
	{Text: "I will run both."},
	{ID: "toolu_A", Tool: "Bash", Input: `{"command":"echo ran >> side.txt","description":"side effect"}`},
	{ID: "toolu_B", Tool: "Bash", Input: `{"command":"echo ran >> sibling.txt","description":"sibling"}`},
}

// deferAPI is a Messages API on loopback: a request with no tool_result
// gets blocks, any other "done". It keeps every request's body.
func deferAPI(blocks []fakeBlock) (*httptest.Server, func() []map[string]any) {
	return bodyAPI(func(n int, raw []byte, w http.ResponseWriter) {
		rep := fakeReply{ID: fmt.Sprintf("msg_%d", n), InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "done"}}}
		if !strings.Contains(string(raw), `"tool_result"`) {
			rep.Blocks = blocks
		}
		rep.write(w)
	})
}

// deferHooks writes dir/.claude/settings.json with a PreToolUse command
// hook that saves each input to rec and defers the calls that write
// side.txt while dir/defer.flag exists, and allows the others; it returns
// the flag's path.
func deferHooks(dir, rec string) string {
	GinkgoHelper()
	flag := filepath.Join(dir, "defer.flag")
	Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
	Expect(os.MkdirAll(rec, 0o755)).To(Succeed())
	Expect(os.WriteFile(flag, nil, 0o644)).To(Succeed())
	script := filepath.Join(rec, "..", "defer-hook.sh")
	Expect(os.WriteFile(script, []byte(`#!/bin/bash
in=$(cat)
printf '%s' "$in" > "$(mktemp -p `+rec+` pre.XXXXXX)"
if [ -f `+flag+` ] && [[ $in == *side.txt* ]]; then
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"a person decides"}}'
else
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'
fi
`), 0o755)).To(Succeed())
	data, err := json.Marshal(map[string]any{
		"hooks": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash",
			"hooks": []any{map[string]any{"type": "command", "command": script, "timeout": 10}}}}},
	})
	Expect(err).NotTo(HaveOccurred())
	Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
	return flag
}

// deferRecord is what one program did in the defer scenario.
type deferRecord struct {
	// first, again and resumed are the json results of the run that
	// deferred, of the resume that deferred again and of the resume that
	// ran the call; stale is the exit code and output of a resume with no
	// prompt and nothing deferred.
	first, again, resumed map[string]any
	staleCode             int
	staleOut              string
	// bodies are the API requests, by the end of each step.
	bodiesAfter [3]int
	bodies      []map[string]any
	// side and sibling are the files' contents after each step.
	side, sibling [3]string
	// hooked counts the PreToolUse inputs per tool_use_id.
	hooked map[string]int
}

// deferProgram runs a program (agentcore or Claude Code) in dir against
// the API at url: stdout and the exit code.
type deferProgram func(dir, url string, args ...string) (string, int)

// agentcoreProgram is the external agentcore binary.
func agentcoreProgram(dir, url string, args ...string) (string, int) {
	stdout, stderr, code := invoke(invocation{dir: dir, home: dir, configDir: filepath.Join(dir, ".cfg"),
		env: []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + url}}, append(args, "--model", "claude-fake-1")...)
	GinkgoWriter.Println("agentcore", args, "stderr:", stderr)
	return stdout, code
}

// claudeProgram is the Agent SDK's bundled Claude Code, its config and
// sessions in home.
func claudeProgram(claude, home string) deferProgram {
	return func(dir, url string, args ...string) (string, int) {
		cmd := exec.Command(claude, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "TMPDIR="+GinkgoT().TempDir(),
			"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+url, "ANTHROPIC_MODEL=",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1")
		cmd.Stderr = GinkgoWriter
		cmd.WaitDelay = 10 * time.Second
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			Expect(err).NotTo(HaveOccurred())
		}
		return string(out), code
	}
}

// runDeferScenario: the model asks for deferBatch; the hook defers the
// side.txt call (the run ends); a resume with no prompt while the hook
// still defers (it ends again); a resume once the hook lets it through
// (the call runs, the model answers); a resume with nothing deferred.
func runDeferScenario(run deferProgram) deferRecord {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	rec := filepath.Join(GinkgoT().TempDir(), "rec")
	flag := deferHooks(dir, rec)
	api, bodies := deferAPI(deferBatch)
	var r deferRecord
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		return string(data)
	}
	result := func(out string, code int) map[string]any {
		GinkgoHelper()
		Expect(code).To(Equal(0), out)
		var res map[string]any
		Expect(json.Unmarshal([]byte(out), &res)).To(Succeed(), out)
		return res
	}
	step := func(i int) {
		r.bodiesAfter[i] = len(bodies())
		r.side[i], r.sibling[i] = read("side.txt"), read("sibling.txt")
	}
	r.first = result(run(dir, api.URL, "-p", "go", "--output-format", "json"))
	step(0)
	id, _ := r.first["session_id"].(string)
	Expect(id).NotTo(BeEmpty())
	r.again = result(run(dir, api.URL, "-p", "--resume", id, "--output-format", "json"))
	step(1)
	Expect(os.Remove(flag)).To(Succeed())
	r.resumed = result(run(dir, api.URL, "-p", "--resume", id, "--output-format", "json"))
	step(2)
	r.staleOut, r.staleCode = run(dir, api.URL, "-p", "--resume", id, "--output-format", "json")
	r.bodies = bodies()
	r.hooked = map[string]int{}
	files, err := filepath.Glob(filepath.Join(rec, "pre.*"))
	Expect(err).NotTo(HaveOccurred())
	for _, f := range files {
		data, err := os.ReadFile(f)
		Expect(err).NotTo(HaveOccurred())
		var in map[string]any
		Expect(json.Unmarshal(data, &in)).To(Succeed(), string(data))
		id, _ := in["tool_use_id"].(string)
		r.hooked[id]++
	}
	return r
}

// promptRecord is what one program did when a deferred session was
// resumed with a new prompt.
type promptRecord struct {
	result        map[string]any
	bodies        []map[string]any
	side, sibling string
}

// runDeferPrompt: the model asks for deferBatch and the hook defers the
// side.txt call; then a resume with a new prompt, the hook still
// deferring or (allow) letting the call through.
func runDeferPrompt(run deferProgram, allow bool) promptRecord {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	flag := deferHooks(dir, filepath.Join(GinkgoT().TempDir(), "rec"))
	api, bodies := deferAPI(deferBatch)
	out, code := run(dir, api.URL, "-p", "go", "--output-format", "json")
	Expect(code).To(Equal(0), out)
	var first map[string]any
	Expect(json.Unmarshal([]byte(out), &first)).To(Succeed(), out)
	id, _ := first["session_id"].(string)
	if allow {
		Expect(os.Remove(flag)).To(Succeed())
	}
	out, code = run(dir, api.URL, "-p", "new prompt", "--resume", id, "--output-format", "json")
	Expect(code).To(Equal(0), out)
	var r promptRecord
	Expect(json.Unmarshal([]byte(out), &r.result)).To(Succeed(), out)
	r.bodies = bodies()
	side, _ := os.ReadFile(filepath.Join(dir, "side.txt"))
	sibling, _ := os.ReadFile(filepath.Join(dir, "sibling.txt"))
	r.side, r.sibling = string(side), string(sibling)
	return r
}

// lastUsers is lastUser of each request.
func lastUsers(bodies []map[string]any) [][]string {
	var out [][]string
	for _, b := range bodies {
		out = append(out, lastUser(b))
	}
	return out
}

// resultFields are the result fields the defer specs compare.
func resultFields(res map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"type", "subtype", "is_error", "result", "stop_reason", "terminal_reason", "deferred_tool_use"} {
		if v, ok := res[k]; ok {
			out[k] = v
		}
	}
	return out
}

// expectPaired checks that every tool_use of every request is answered
// by a tool_result in the next message.
func expectPaired(bodies []map[string]any) {
	GinkgoHelper()
	for n, body := range bodies {
		msgs, _ := body["messages"].([]any)
		for i, x := range msgs {
			m, _ := x.(map[string]any)
			blocks, _ := m["content"].([]any)
			for _, y := range blocks {
				b, _ := y.(map[string]any)
				if b["type"] != "tool_use" {
					continue
				}
				Expect(i+1).To(BeNumerically("<", len(msgs)), "request %d ends with tool_use %s unanswered", n+1, b["id"])
				next, _ := msgs[i+1].(map[string]any)
				var ids []any
				nb, _ := next["content"].([]any)
				for _, z := range nb {
					if c, _ := z.(map[string]any); c["type"] == "tool_result" {
						ids = append(ids, c["tool_use_id"])
					}
				}
				Expect(ids).To(ContainElement(b["id"]), "request %d: tool_use %s has its tool_result", n+1, b["id"])
			}
		}
	}
}

// lastUser is the blocks of a request's last message, as "tool_result
// ID" and "text: TEXT" (cache_control and system reminders left out),
// of the last message that is not Claude Code's system-role one, with the
// tool_result ids sorted: Claude Code puts the results in the
// order they came (the sibling's first), agentcore in the calls' order.
func lastUser(body map[string]any) []string {
	msgs, _ := body["messages"].([]any)
	var m map[string]any
	for i := len(msgs) - 1; i >= 0; i-- { // Claude Code's system-role messages left out
		if m, _ = msgs[i].(map[string]any); m["role"] != "system" {
			break
		}
	}
	content := m["content"]
	if s, ok := content.(string); ok {
		content = []any{map[string]any{"type": "text", "text": s}}
	}
	blocks, _ := content.([]any)
	var ids, texts []string
	for _, y := range blocks {
		b, _ := y.(map[string]any)
		switch b["type"] {
		case "tool_result":
			ids = append(ids, fmt.Sprintf("tool_result %s is_error=%v", b["tool_use_id"], b["is_error"] == true))
		case "text":
			t, _ := b["text"].(string)
			if !strings.HasPrefix(t, "<system-reminder>") {
				texts = append(texts, "text: "+t)
			}
		}
	}
	slices.Sort(ids)
	return append(ids, texts...)
}

var _ = Describe("a PreToolUse hook's defer in agentcore -p", func() {
	It("ends the run with Claude Code's result (tool_deferred, deferred_tool_use), runs the call once on --resume with every tool_use paired, and ends deferred again while the hook defers", func() {
		r := runDeferScenario(agentcoreProgram)

		Expect(resultFields(r.first)).To(Equal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "",
			"stop_reason": "tool_deferred", "terminal_reason": "tool_deferred",
			"deferred_tool_use": map[string]any{"id": "toolu_A", "name": "Bash", "input": map[string]any{"command": "echo ran >> side.txt", "description": "side effect"}}}))
		Expect(r.side[0]).To(BeEmpty(), "the deferred call did not run")
		Expect(r.sibling[0]).To(Equal("ran\n"), "its sibling in the batch ran")
		Expect(r.bodiesAfter[0]).To(Equal(1))

		Expect(resultFields(r.again)).To(Equal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "",
			"stop_reason":       "tool_deferred",
			"deferred_tool_use": map[string]any{"id": "toolu_A", "name": "Bash", "input": map[string]any{"command": "echo ran >> side.txt", "description": "side effect"}}}),
			"deferred again on resume: no terminal_reason, as Claude Code")
		Expect(r.bodiesAfter[1]).To(Equal(1), "no model request while the call stays deferred")
		Expect(r.side[1]).To(BeEmpty())

		Expect(resultFields(r.resumed)).To(Equal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "done",
			"stop_reason": "end_turn", "terminal_reason": "completed"}))
		Expect(r.side[2]).To(Equal("ran\n"), "the deferred call ran exactly once")
		Expect(r.sibling[2]).To(Equal("ran\n"), "the sibling did not run again")
		Expect(r.bodiesAfter[2]).To(Equal(2))
		Expect(lastUser(r.bodies[1])).To(Equal([]string{"tool_result toolu_A is_error=false", "tool_result toolu_B is_error=false", "text: Continue from where you left off."}))
		expectPaired(r.bodies)
		Expect(r.hooked).To(Equal(map[string]int{"toolu_A": 3, "toolu_B": 1}), "the hooks are asked again for the deferred call only")

		Expect(r.staleCode).NotTo(Equal(0), "a resume with no prompt and nothing deferred is an error")
	})

	It("resumed with a new prompt: runs the call the hook now lets through, lets the model go on, then sends the prompt; a call still deferred is answered as not run and the prompt goes on", func() {
		r := runDeferPrompt(agentcoreProgram, true)
		Expect(resultFields(r.result)).To(HaveKeyWithValue("result", "done"))
		Expect(r.side).To(Equal("ran\n"))
		Expect(r.sibling).To(Equal("ran\n"))
		Expect(lastUsers(r.bodies)).To(Equal([][]string{{"text: go"},
			{"tool_result toolu_A is_error=false", "tool_result toolu_B is_error=false", "text: Continue from where you left off."},
			{"text: new prompt"}}))
		expectPaired(r.bodies)

		r = runDeferPrompt(agentcoreProgram, false)
		Expect(resultFields(r.result)).To(HaveKeyWithValue("stop_reason", "end_turn"))
		Expect(r.side).To(BeEmpty())
		Expect(lastUsers(r.bodies)).To(Equal([][]string{{"text: go"},
			{"tool_result toolu_A is_error=true", "tool_result toolu_B is_error=false", "text: new prompt"}}))
		expectPaired(r.bodies)
	})

	It("gives stream-json the same result line, no tool_result for the deferred call, and prints nothing in text mode with exit 0", func() {
		dir := GinkgoT().TempDir()
		deferHooks(dir, filepath.Join(GinkgoT().TempDir(), "rec"))
		api, _ := deferAPI(deferBatch)
		out, code := agentcoreProgram(dir, api.URL, "-p", "go", "--output-format", "stream-json", "--verbose")
		Expect(code).To(Equal(0), out)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var last map[string]any
		Expect(json.Unmarshal([]byte(lines[len(lines)-1]), &last)).To(Succeed())
		Expect(last).To(HaveKeyWithValue("stop_reason", "tool_deferred"))
		Expect(last).To(HaveKeyWithValue("terminal_reason", "tool_deferred"))
		Expect(last).To(HaveKeyWithValue("deferred_tool_use", HaveKeyWithValue("id", "toolu_A")))
		Expect(out).NotTo(ContainSubstring(`"tool_use_id":"toolu_A"`), "no tool_result of the deferred call is streamed")
		Expect(out).To(ContainSubstring(`"tool_use_id":"toolu_B"`), "the sibling's is")

		dir2 := GinkgoT().TempDir()
		deferHooks(dir2, filepath.Join(GinkgoT().TempDir(), "rec"))
		out, code = agentcoreProgram(dir2, api.URL, "-p", "go")
		Expect(code).To(Equal(0))
		Expect(strings.TrimSpace(out)).To(BeEmpty(), "Claude Code prints an empty result")
	})

	It("matches Claude Code's defer and resume, recorded from the Agent SDK's bundled CLI against the same loopback API", Label("node"), func() {
		claude := bundledClaude()
		cc := runDeferScenario(claudeProgram(claude, GinkgoT().TempDir()))
		ac := runDeferScenario(agentcoreProgram)

		Expect(resultFields(ac.first)).To(Equal(resultFields(cc.first)))
		Expect(resultFields(ac.again)).To(Equal(resultFields(cc.again)))
		Expect(resultFields(ac.resumed)).To(Equal(resultFields(cc.resumed)))
		Expect(ac.side).To(Equal(cc.side), "the deferred call's side effect, step by step")
		Expect(ac.sibling).To(Equal(cc.sibling), "the sibling's side effect, step by step")
		Expect(ac.bodiesAfter).To(Equal(cc.bodiesAfter), "model requests, step by step")
		Expect(lastUser(ac.bodies[len(ac.bodies)-1])).To(Equal(lastUser(cc.bodies[len(cc.bodies)-1])), "the resumed request's results and text")
		expectPaired(cc.bodies)
		expectPaired(ac.bodies)
		Expect(ac.hooked).To(Equal(cc.hooked))
		Expect(cc.staleCode).NotTo(Equal(0))
		Expect(ac.staleCode).NotTo(Equal(0))

		// Resumed with a new prompt, the hook letting the call through,
		// then still deferring it.
		for _, allow := range []bool{true, false} {
			cc := runDeferPrompt(claudeProgram(claude, GinkgoT().TempDir()), allow)
			ac := runDeferPrompt(agentcoreProgram, allow)
			Expect(resultFields(ac.result)).To(Equal(resultFields(cc.result)), "allow=%t", allow)
			Expect(lastUsers(ac.bodies)).To(Equal(lastUsers(cc.bodies)), "allow=%t", allow)
			Expect([]string{ac.side, ac.sibling}).To(Equal([]string{cc.side, cc.sibling}), "allow=%t", allow)
			expectPaired(cc.bodies)
		}
	})
})
