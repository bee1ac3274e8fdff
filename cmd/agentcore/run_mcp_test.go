//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

// sse writes one Messages API response: text, or one tool_use.
func sse(w http.ResponseWriter, text, toolName, toolInput string) {
	b := fakeBlock{Text: text}
	if toolName != "" {
		b = fakeBlock{ID: "toolu_1", Tool: toolName, Input: toolInput}
	}
	fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{b}}.write(w)
}

var _ = Describe("agentcore run with MCP servers (fake Messages API on loopback)", func() {
	It("waits for the servers, names their tools in the first request, and announces a late one in the next without touching earlier messages", func() {
		slow, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/slowserver")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		gate := filepath.Join(dir, "gate")

		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			if n == 1 {
				// Release the slow server; the call below gives it time to
				// connect before the next request.
				Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
				sse(w, "", "Bash", `{"command":"sleep 2"}`)
				return
			}
			sse(w, "done", "", "")
		})

		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"self": map[string]any{"command": binaries["external"], "args": []string{"mcp", "serve"}},
			"slow": map[string]any{"command": slow, "env": map[string]string{"SLOW_GATE": gate}},
		}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("Always answer in haiku.\n"), 0o644)).To(Succeed())
		// mcp.startupTimeoutMs bounds the wait before the first request
		// only; MCP_TIMEOUT would also fail a server not up by then.
		Expect(os.MkdirAll(filepath.Join(dir, ".agentcore"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".agentcore", "settings.json"), []byte(`{"mcp":{"startupTimeoutMs":1500}}`), 0o644)).To(Succeed())
		_, stderr, code := runIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"--model", "anthropic:fake", "-p", "go", "--output-format", "json", "--permission-mode", "bypassPermissions",
			"--mcp-config", string(cfg))
		Expect(code).To(Equal(0), stderr)
		Expect(stderr).To(ContainSubstring(`MCP server "slow" has not connected after 1.5s`))
		Expect(stderr).To(ContainSubstring(`MCP server "slow" connected (1 tool); its tools join from the next request`), "the user hears of the late server too")

		bodies := requests()
		Expect(bodies).To(HaveLen(2))
		system := func(b map[string]any) string {
			data, _ := json.Marshal(b["system"])
			return string(data)
		}
		Expect(system(bodies[0])).To(ContainSubstring("mcp__self__Read"), "the first request names the connected server's deferred tools")
		Expect(system(bodies[0])).NotTo(ContainSubstring("mcp__slow__hello"))
		Expect(system(bodies[1])).To(Equal(system(bodies[0])), "the system prompt stays byte-identical")
		Expect(system(bodies[0])).To(ContainSubstring("Always answer in haiku."), "CLAUDE.md joins the system prompt")

		first := bodies[0]["messages"].([]any)
		second := bodies[1]["messages"].([]any)
		Expect(second).To(HaveLen(3))
		// The cache breakpoint moves to the last message, as it should;
		// the content before it is what the prompt cache keys on.
		Expect(withoutCacheControl(second[0])).To(Equal(withoutCacheControl(first[0])), "earlier messages stay byte-identical")
		last, _ := json.Marshal(second[2])
		Expect(string(last)).To(ContainSubstring("New deferred tools (load them with ToolSearch before calling them): mcp__slow__hello"))
		Expect(strings.Count(string(last), "tool_result")).To(Equal(1))
	})
})

var _ = Describe("agentcore run with an MCP server that changes its tool list", func() {
	It("announces the added and the removed tool in the next request, earlier messages byte-identical", func() {
		toolserver, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/toolserver")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				// The server adds "added" and removes "echo", and says
				// so with notifications/tools/list_changed.
				sse(w, "", "mcp__tools__add_tool", `{"remove":"echo"}`)
			case 2:
				// The refreshed list may land just after the result:
				// one more turn gives it time, and the notice must come
				// exactly once whichever request it joins.
				sse(w, "", "Bash", `{"command":"sleep 1"}`)
			default:
				sse(w, "done", "", "")
			}
		})
		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"tools": map[string]any{"command": toolserver}}})
		Expect(err).NotTo(HaveOccurred())
		_, stderr, code := runIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"--model", "anthropic:fake", "-p", "go", "--output-format", "json", "--permission-mode", "bypassPermissions",
			"--mcp-config", string(cfg))
		Expect(code).To(Equal(0), stderr)

		bodies := requests()
		Expect(bodies).To(HaveLen(3))
		first, _ := json.Marshal(bodies[0])
		Expect(string(first)).To(ContainSubstring("mcp__tools__echo"))
		Expect(string(first)).NotTo(ContainSubstring("mcp__tools__added"))
		system := func(b map[string]any) string {
			data, _ := json.Marshal(b["system"])
			return string(data)
		}
		Expect(system(bodies[1])).To(Equal(system(bodies[0])), "the system prompt stays byte-identical")
		Expect(system(bodies[2])).To(Equal(system(bodies[0])))
		msgs1, msgs2 := bodies[1]["messages"].([]any), bodies[2]["messages"].([]any)
		Expect(msgs2).To(HaveLen(5))
		for i := range msgs1[:len(msgs1)-1] {
			Expect(withoutCacheControl(msgs2[i])).To(Equal(withoutCacheControl(msgs1[i])), "earlier messages stay byte-identical")
		}
		Expect(withoutCacheControl(msgs2[0])).To(Equal(withoutCacheControl(bodies[0]["messages"].([]any)[0])))
		all, _ := json.Marshal(msgs2)
		Expect(strings.Count(string(all), "The available tools changed")).To(Equal(1), "announced once: %s", all)
		Expect(string(all)).To(ContainSubstring("New deferred tools (load them with ToolSearch before calling them): mcp__tools__added"))
		Expect(string(all)).To(ContainSubstring("Removed tools (no longer callable): mcp__tools__echo"))
		// The notice is appended to a user message after the call, never
		// to the first one.
		head, _ := json.Marshal(msgs2[0])
		Expect(string(head)).NotTo(ContainSubstring("The available tools changed"))
	})
})

var _ = Describe("agentcore run: what deferral saves, offline", func() {
	It("counts the tool definitions sent in the replay model's input tokens: deferring MCP tools shows as fewer tokens", func() {
		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"self": map[string]any{"command": binaries["external"], "args": []string{"mcp", "serve"}},
		}})
		Expect(err).NotTo(HaveOccurred())
		tokens := func(mode string, extra ...string) float64 {
			dir := GinkgoT().TempDir()
			args := append([]string{"-p", "hi", "--output-format", "json", "--mcp-config", string(cfg)}, extra...)
			stdout, stderr, code := runIn(dir, []string{"AGENTCORE_TOOL_SEARCH=" + mode}, args...)
			Expect(code).To(Equal(0), stderr)
			var res struct {
				Usage struct {
					InputTokens float64 `json:"input_tokens"`
				} `json:"usage"`
			}
			Expect(json.Unmarshal([]byte(stdout), &res)).To(Succeed(), stdout)
			return res.Usage.InputTokens
		}
		never, always := tokens("never"), tokens("always")
		Expect(always).To(BeNumerically("<", never*0.8), "deferred: %v tokens, all sent: %v", always, never)
		// Simple mode keeps ToolSearch when MCP tools are there, so they
		// stay deferred.
		simpleNever, simpleAlways := tokens("never", "--simple"), tokens("always", "--simple")
		Expect(simpleAlways).To(BeNumerically("<", simpleNever*0.8), "simple mode: deferred %v, all sent %v", simpleAlways, simpleNever)
	})
})

// withoutCacheControl drops the cache_control markers from a decoded
// message.
func withoutCacheControl(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "cache_control" {
				out[k] = withoutCacheControl(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutCacheControl(e)
		}
		return out
	}
	return v
}

var _ = Describe("agentcore run with a misbehaving MCP server", Label("faults"), func() {
	It("skips its stray stdout lines (logged with --debug), ends a call it never answers at MCP_TOOL_TIMEOUT with an error the model sees, and its next call works", func() {
		bad, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/badserver")
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		call := func(w http.ResponseWriter, id, tool, input string) {
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{ID: id, Tool: tool, Input: input}}}.write(w)
		}
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				call(w, "toolu_hang", "mcp__bad__hang", `{}`)
			case 2:
				call(w, "toolu_echo", "mcp__bad__echo", `{"text":"still here"}`)
			default:
				sse(w, "done", "", "")
			}
		})
		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"bad": map[string]any{"command": bad, "env": map[string]string{"BAD_GARBAGE": "1", "BAD_DIR": dir}},
		}})
		Expect(err).NotTo(HaveOccurred())
		_, stderr, code := runIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL, "MCP_TOOL_TIMEOUT=300"},
			"--model", "anthropic:fake", "-p", "go", "--output-format", "json", "--permission-mode", "bypassPermissions",
			"--debug", "--mcp-config", string(cfg))
		Expect(code).To(Equal(0), stderr)
		Expect(stderr).To(ContainSubstring(`agentcore: MCP server "bad": skipped a line of stdout that is not a JSON-RPC message: badserver: this is a log line on stdout`))

		bodies := requests()
		Expect(bodies).To(HaveLen(3))
		second, _ := json.Marshal(bodies[1]["messages"])
		Expect(string(second)).To(ContainSubstring(`MCP server \"bad\": the call of tool \"hang\" timed out after 300ms and was cancelled`))
		Expect(string(second)).To(ContainSubstring(`"is_error":true`))
		third, _ := json.Marshal(bodies[2]["messages"])
		Expect(string(third)).To(ContainSubstring(`"still here"`))
		Expect(strings.Count(string(third), `"tool_use_id"`)).To(Equal(2), "each call answered once")
	})
})
