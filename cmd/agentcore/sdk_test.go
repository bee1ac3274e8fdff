//go:build !internal && !ant

package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// sdkEntry returns the Agent SDK's module, skipping the spec (and saying
// why) when node or the package is missing.
func sdkEntry() string {
	return tooltest.NeedNpmFile(filepath.Join("@anthropic-ai", "claude-agent-sdk", "sdk.mjs"))
}

// scriptedAPI is a Messages API on loopback that answers the n-th
// request (n = the tool_result blocks it carries) with the n-th reply: a
// tool_use as [name, input JSON] or, past the list, the text "done".
func scriptedAPI(calls ...[2]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body strings.Builder
		_, _ = bufio.NewReader(r.Body).WriteTo(&body)
		n := strings.Count(body.String(), `"tool_result"`)
		if n < len(calls) {
			fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: fmt.Sprintf("toolu_%d", n), Tool: calls[n][0], Input: calls[n][1]}}}.write(w)
			return
		}
		fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "done"}}}.write(w)
	}))
	DeferCleanup(srv.Close)
	return srv
}

var _ = Describe("the Agent SDK driving agentcore (pathToClaudeCodeExecutable)", Label("node"), func() {
	It("asks the host's canUseTool: an allow with updatedInput runs the changed call, a deny's message reaches the model", func() {
		o := runCanUseTool(sdkEntry(), agentcoreCLI())
		Expect(o.Asked).To(Equal([]string{"Bash", "Write"}))
		Expect(o.Files).To(Equal([]string{"changed.txt"}), "the Bash call ran with the host's updatedInput, the Write did not run")
		Expect(o.IsError).To(Equal([]bool{false, true}))
		Expect(o.Denied).To(ContainSubstring("The host does not allow Write here."))
		Expect(o.Subtype).To(Equal("success"))
		Expect(o.Result).To(Equal("done"))
		Expect(o.Denials).To(Equal(1))
	})
})

// sdkLine is one line of a testdata/sdk script's output.
type sdkLine struct {
	Kind  string  `json:"kind"`
	Name  string  `json:"name"`
	Event string  `json:"event"`
	Tool  string  `json:"tool"`
	MS    float64 `json:"ms"`
	// Decision is what a hook callback answered (defer.mjs).
	Decision string         `json:"decision"`
	Input    map[string]any `json:"input"`
	Message  map[string]any `json:"message"`
}

// agentcoreCLI writes the executable the SDK starts for agentcore: a
// wrapper adding --model claude-sonnet-4-5 to the SDK's own flags.
func agentcoreCLI() string {
	wrapper := filepath.Join(GinkgoT().TempDir(), "agentcore-cli")
	Expect(os.WriteFile(wrapper, []byte("#!/bin/sh\nexec "+binaries["external"]+" --model claude-sonnet-4-5 \"$@\"\n"), 0o755)).To(Succeed())
	return wrapper
}

// sdkScript runs testdata/sdk/NAME with the SDK at entry, cli as its
// executable and dir as the query's directory, against api, in a fresh
// HOME and TMPDIR (Claude Code's telemetry and updates off, for the
// comparisons; its claude-0 and cc-socks folders stay out of /tmp); it
// returns the lines the script printed.
func sdkScript(name, entry, cli, dir string, api *httptest.Server, env ...string) []sdkLine {
	home := GinkgoT().TempDir()
	cmd := exec.Command("node", filepath.Join(repoRoot(), "cmd", "agentcore", "testdata", "sdk", name), entry, cli, dir)
	cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+GinkgoT().TempDir(), "AGENTCORE_CONFIG_DIR="+filepath.Join(home, ".agentcore"), "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+api.URL, "ANTHROPIC_MODEL=",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = GinkgoWriter
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), string(out))
	var lines []sdkLine
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var v sdkLine
		Expect(json.Unmarshal([]byte(l), &v)).To(Succeed(), l)
		lines = append(lines, v)
	}
	return lines
}

// runSDKScript runs testdata/sdk/NAME with the SDK and agentcore in dir,
// against api.
func runSDKScript(name, dir string, api *httptest.Server) []sdkLine {
	return sdkScript(name, sdkEntry(), agentcoreCLI(), dir, api)
}

var _ = Describe("the Agent SDK's in-process MCP servers, hook callbacks, setModel and partial messages", Label("node"), func() {
	It("calls the createSdkMcpServer tool, blocks Bash by the PreToolUse callback, sends the next request to the new model and streams the API's events", func() {
		dir := GinkgoT().TempDir()
		var mu sync.Mutex
		var models []string
		var toolLists [][]string
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var req struct {
				Model string `json:"model"`
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			}
			var body strings.Builder
			_, _ = bufio.NewReader(r.Body).WriteTo(&body)
			_ = json.Unmarshal([]byte(body.String()), &req)
			var names []string
			for _, t := range req.Tools {
				names = append(names, t.Name)
			}
			mu.Lock()
			models, toolLists = append(models, req.Model), append(toolLists, names)
			mu.Unlock()
			switch strings.Count(body.String(), `"tool_result"`) {
			case 0:
				fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: "toolu_0", Tool: "mcp__calc__add", Input: `{"a":2,"b":3}`}}}.write(w)
			case 1:
				fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: "toolu_1", Tool: "Bash", Input: `{"command":"touch blocked.txt","description":"Make a file"}`}}}.write(w)
			default:
				fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "done"}}}.write(w)
			}
		}))
		DeferCleanup(api.Close)

		lines := runSDKScript("features.mjs", dir, api)
		var tools, hooked []string
		var results []map[string]any
		var final, init map[string]any
		streamTypes := map[string]int{}
		for _, l := range lines {
			switch {
			case l.Kind == "tool":
				tools = append(tools, l.Name)
			case l.Kind == "hook":
				hooked = append(hooked, l.Event+":"+l.Tool)
			case l.Kind == "message" && l.Message["type"] == "stream_event":
				streamTypes[l.Message["event"].(map[string]any)["type"].(string)]++
			case l.Kind == "message" && l.Message["type"] == "user":
				msg := l.Message["message"].(map[string]any)
				results = append(results, msg["content"].([]any)[0].(map[string]any))
			case l.Kind == "message" && l.Message["type"] == "result":
				final = l.Message
			case l.Kind == "message" && l.Message["subtype"] == "init":
				init = l.Message
			}
		}
		Expect(init["mcp_servers"]).To(ContainElement(map[string]any{"name": "calc", "status": "connected", "source": "sdk"}))
		Expect(tools).To(Equal([]string{"add"}), "the model's mcp__calc__add call ran the host's handler")
		Expect(results).To(HaveLen(2))
		Expect(results[0]).To(HaveKeyWithValue("content", "the sum is 5"))
		Expect(results[0]).To(HaveKeyWithValue("is_error", false))
		Expect(hooked).To(Equal([]string{"PreToolUse:Bash"}))
		Expect(results[1]).To(HaveKeyWithValue("is_error", true))
		Expect(results[1]["content"]).To(ContainSubstring("The host blocks Bash here."))
		Expect(filepath.Join(dir, "blocked.txt")).NotTo(BeAnExistingFile())
		Expect(final).To(HaveKeyWithValue("result", "done"))

		mu.Lock()
		defer mu.Unlock()
		Expect(models).To(Equal([]string{"claude-sonnet-4-5", "claude-opus-4-1", "claude-opus-4-1"}),
			"setModel, awaited inside the tool's handler, switches the requests after it")
		Expect(streamTypes).To(Equal(map[string]int{"message_start": 3, "content_block_start": 3, "content_block_delta": 3,
			"content_block_stop": 3, "message_delta": 3, "message_stop": 3}))
	})
})

var _ = Describe("the Agent SDK's control protocol (--input-format stream-json)", func() {
	It("answers every control request, an unknown one with an error, and runs the user messages", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hello from the replay"}]}`), 0o644)).To(Succeed())
		stdin := strings.Join([]string{
			`{"type":"control_request","request_id":"r1","request":{"subtype":"initialize"}}`,
			`{"type":"control_request","request_id":"r2","request":{"subtype":"rewind_files"}}`,
			`{"type":"control_request","request_id":"r3","request":{"subtype":"set_permission_mode","mode":"acceptEdits"}}`,
			`{"type":"control_request","request_id":"r4","request":{"subtype":"set_permission_mode","mode":"bogus"}}`,
			`{"type":"control_request","request_id":"r5","request":{"subtype":"set_model","model":"replay:` + filepath.Join(dir, "scn.jsonl") + `"}}`,
			`{"type":"control_request","request_id":"r6","request":{"subtype":"set_model","model":"bogus:x"}}`,
			`{"type":"control_request","request_id":"r7","request":{"subtype":"mcp_status"}}`,
			`{"type":"control_request","request_id":"r8","request":{"subtype":"initialize"}}`,
			`{"type":"control_request","request_id":"r9","request":{"subtype":"set_max_thinking_tokens","max_thinking_tokens":1000}}`,
			`not json`,
			`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"hi"}]},"parent_tool_use_id":null}`,
		}, "\n") + "\n"
		stdout, stderr, code := agentcoreRoot(stdin, nil, "--model", "replay:"+filepath.Join(dir, "scn.jsonl"),
			"--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
		Expect(code).To(Equal(0), stderr)
		responses := map[string]map[string]any{}
		var kinds []string
		for _, ev := range streamEvents(stdout) {
			if ev["type"] == "control_response" {
				r := ev["response"].(map[string]any)
				responses[r["request_id"].(string)] = r
				continue
			}
			kinds = append(kinds, kind(ev))
		}
		Expect(responses["r1"]).To(HaveKeyWithValue("subtype", "success"))
		Expect(responses["r1"]["response"]).To(HaveKey("commands"))
		Expect(responses["r2"]).To(HaveKeyWithValue("subtype", "error"))
		Expect(responses["r2"]["error"]).To(ContainSubstring(`rewind_files: user_message_id "" is not a turn number`))
		Expect(responses["r3"]).To(HaveKeyWithValue("subtype", "success"))
		Expect(responses["r4"]).To(HaveKeyWithValue("subtype", "error"))
		Expect(responses["r5"]).To(HaveKeyWithValue("subtype", "success"))
		Expect(responses["r6"]).To(HaveKeyWithValue("subtype", "error"))
		Expect(responses["r6"]["error"]).To(ContainSubstring(`unknown model "bogus:x"`))
		Expect(responses["r7"]).To(HaveKeyWithValue("subtype", "success"))
		Expect(responses["r7"]["response"]).To(HaveKeyWithValue("mcpServers", BeEmpty()))
		Expect(responses["r8"]).To(HaveKeyWithValue("subtype", "error"))
		Expect(responses["r8"]["error"]).To(ContainSubstring("first message"))
		Expect(responses["r9"]).To(HaveKeyWithValue("subtype", "error"))
		Expect(responses["r9"]["error"]).To(ContainSubstring("thinking"))
		Expect(kinds).To(Equal([]string{"system/init", "assistant", "result/success"}))
		Expect(stderr).To(ContainSubstring("not JSON"))
	})

	It("needs stream-json output", func() {
		_, stderr, code := agentcoreRoot("", nil, "--model", "replay", "--input-format", "stream-json")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("--input-format stream-json needs --output-format stream-json"))
	})
})
