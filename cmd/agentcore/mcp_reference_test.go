//go:build !internal && !ant

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// npmMCPTimeout lets `agentcore run` wait a minute for the npm servers
// before its first request, not the default 5 s: node takes longer than
// that to start them on a loaded machine, and the run then goes on
// without their tools.
const npmMCPTimeout = "MCP_TIMEOUT=60000"

// The three npm reference servers of issue 13 (server-everything,
// server-filesystem, server-memory), configured together as a user would.
// Claude Code 2.1.197 sees 38 of their tools: it declares neither
// sampling nor url-mode elicitation, so server-everything does not list
// trigger-sampling-request or trigger-url-elicitation to it. agentcore
// declares both and sees those two as well: 40.
var _ = Describe("the three npm reference MCP servers", Label("node"), func() {
	var dir, cfg string

	BeforeEach(func() {
		bins := map[string]string{}
		for _, b := range []string{"mcp-server-everything", "mcp-server-filesystem", "mcp-server-memory"} {
			bins[b] = tooltest.NeedNpm(b)
		}
		d, err := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		dir = d
		b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"everything": map[string]any{"command": bins["mcp-server-everything"]},
			"filesystem": map[string]any{"command": bins["mcp-server-filesystem"], "args": []string{dir}},
			"memory": map[string]any{"command": bins["mcp-server-memory"],
				"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
		}})
		Expect(err).NotTo(HaveOccurred())
		cfg = string(b)
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), b, 0o644)).To(Succeed())
	})

	// mcpNames lists the MCP tools `tools --json` shows, sorted.
	mcpNames := func() []string {
		GinkgoHelper()
		cmd := exec.Command(binaries["external"], "tools", "--json", "--strict-mcp-config", "--mcp-config", cfg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "AGENTCORE_CONFIG_DIR="+dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), stderr.String())
		var tools []struct {
			Name string `json:"name"`
		}
		Expect(json.Unmarshal(stdout.Bytes(), &tools)).To(Succeed())
		var out []string
		for _, t := range tools {
			if strings.HasPrefix(t.Name, "mcp__") {
				out = append(out, t.Name)
			}
		}
		slices.Sort(out)
		return out
	}

	perServer := func(names []string) map[string]int {
		out := map[string]int{}
		for _, n := range names {
			out[strings.Split(n, "__")[1]]++
		}
		return out
	}

	It("lists 40 MCP tools in `tools --json`: Claude Code's 38, the sampling tool and the url-elicitation tool", func() {
		names := mcpNames()
		Expect(perServer(names)).To(Equal(map[string]int{"everything": 17, "filesystem": 14, "memory": 9}), "%v", names)
		Expect(names).To(HaveLen(40))
		Expect(names).To(ContainElements("mcp__everything__trigger-sampling-request", "mcp__everything__trigger-url-elicitation",
			"mcp__everything__trigger-elicitation-request", "mcp__everything__get-roots-list"))
	})

	It("sees every tool Claude Code sees in its first request, and only the two it declares capabilities for besides", func() {
		// @anthropic-ai/claude-code at the version .ci/npm/package.json pins.
		claude := tooltest.NeedNpm("claude")
		var mu sync.Mutex
		var first map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body map[string]any
			_ = json.NewDecoder(r.Body).Decode(&body)
			mu.Lock()
			if first == nil && body["tools"] != nil {
				first = body
			}
			mu.Unlock()
			sse(w, "ok", "", "")
		}))
		DeferCleanup(srv.Close)
		home := GinkgoT().TempDir()
		cmd := exec.Command(claude, "-p", "hi", "--model", "claude-sonnet-4-5", "--strict-mcp-config", "--mcp-config", cfg)
		cmd.Dir = dir
		// MCP_CONNECTION_NONBLOCKING=0: wait for the servers before the
		// first request, as agentcore does (without it Claude Code sends
		// WaitForMcpServers and no MCP tool at all); MCP_CONNECT_TIMEOUT_MS:
		// wait longer than its 5 s, which the npm servers can take to start
		// on a loaded machine (it then proceeds without their tools).
		cmd.Env = append(os.Environ(), "HOME="+home, "TMPDIR="+home, "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=test",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "MCP_CONNECTION_NONBLOCKING=0", "MCP_CONNECT_TIMEOUT_MS=60000")
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		mu.Lock()
		defer mu.Unlock()
		Expect(first).NotTo(BeNil(), "Claude Code sent no request with tools: %s", out)
		var cc []string
		for _, t := range first["tools"].([]any) {
			if n, _ := t.(map[string]any)["name"].(string); strings.HasPrefix(n, "mcp__") {
				cc = append(cc, n)
			}
		}
		slices.Sort(cc)
		Expect(cc).To(HaveLen(38), "%v", cc)
		ours := mcpNames()
		var extra []string
		for _, n := range ours {
			if !slices.Contains(cc, n) {
				extra = append(extra, n)
			}
		}
		Expect(ours).To(ContainElements(cc))
		Expect(extra).To(ConsistOf("mcp__everything__trigger-sampling-request", "mcp__everything__trigger-url-elicitation"))
	})

	It("names every MCP tool in the first request of `run -p`, and the model's ToolSearch → call round trip works", func() {
		names := mcpNames()
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				sse(w, "", "ToolSearch", `{"query":"add two numbers"}`)
			case 2:
				sse(w, "", "mcp__everything__get-sum", `{"a":2,"b":3}`)
			default:
				sse(w, "five", "", "")
			}
		})
		stdout, stderr, code := runIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL, npmMCPTimeout},
			"--model", "anthropic:fake", "-p", "go", "--output-format", "json", "--allowedTools", "mcp__everything",
			"--strict-mcp-config", "--mcp-config", cfg)
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("five"))

		bodies := requests()
		Expect(bodies).To(HaveLen(3))
		firstJSON, _ := json.Marshal(bodies[0])
		for _, n := range names {
			Expect(string(firstJSON)).To(ContainSubstring(n), "the first request names every MCP tool")
		}
		toolNames := func(b map[string]any) []string {
			var out []string
			for _, t := range b["tools"].([]any) {
				out = append(out, t.(map[string]any)["name"].(string))
			}
			return out
		}
		Expect(toolNames(bodies[0])).NotTo(ContainElement("mcp__everything__get-sum"), "MCP tools are deferred")
		Expect(toolNames(bodies[1])).To(ContainElement("mcp__everything__get-sum"), "ToolSearch loaded it")
		msgs := bodies[2]["messages"].([]any)
		last, _ := json.Marshal(msgs[len(msgs)-1])
		Expect(string(last)).To(ContainSubstring("tool_result"))
		Expect(string(last)).To(ContainSubstring("The sum of 2 and 3 is 5"))
		Expect(string(last)).NotTo(ContainSubstring(`"is_error":true`))
	})
})

var _ = Describe("server-everything over streamable HTTP", Label("node"), func() {
	It("lists its tools in `tools --json` and answers a call in `run -p`", func() {
		bin := tooltest.NeedNpm("mcp-server-everything")
		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		port := l.Addr().(*net.TCPAddr).Port
		Expect(l.Close()).To(Succeed())
		server := exec.Command(bin, "streamableHttp")
		server.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
		var serverLog bytes.Buffer
		server.Stdout, server.Stderr = &serverLog, &serverLog
		Expect(server.Start()).To(Succeed())
		DeferCleanup(func() {
			_ = server.Process.Kill()
			_ = server.Wait()
		})
		Eventually(func() error {
			c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err == nil {
				_ = c.Close()
			}
			return err
		}).WithTimeout(20*time.Second).WithPolling(100*time.Millisecond).Should(Succeed(), func() string { return serverLog.String() })

		b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"web": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/mcp", port)},
		}})
		Expect(err).NotTo(HaveOccurred())
		cfg := string(b)
		dir := GinkgoT().TempDir()
		cmd := exec.Command(binaries["external"], "tools", "--json", "--strict-mcp-config", "--mcp-config", cfg)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+dir, "AGENTCORE_CONFIG_DIR="+dir)
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring(`"mcp__web__get-sum"`))
		Expect(string(out)).To(ContainSubstring(`"mcp__web__trigger-sampling-request"`))

		file := filepath.Join(GinkgoT().TempDir(), "sc.jsonl")
		Expect(os.WriteFile(file, []byte(`{"name":"http"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__web__get-sum","input":{"a":20,"b":22}}]}
{"blocks":[{"type":"text","text":"done"}]}`), 0o644)).To(Succeed())
		stdout, stderr, code := runIn(dir, []string{npmMCPTimeout}, "--model", "replay:"+file, "-p", "go", "--output-format", "stream-json",
			"--strict-mcp-config", "--mcp-config", cfg, "--allowedTools", "mcp__web")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("The sum of 20 and 22 is 42"))
	})
})
