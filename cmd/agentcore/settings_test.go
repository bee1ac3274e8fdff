//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// projectAPI is a Messages API on loopback that answers the n-th
// request with replies[n] (the last one again after the end), keeping
// the request bodies.
func projectAPI(replies ...fakeReply) (*httptest.Server, func() []map[string]any) {
	return recordingAPI(func(n int, w http.ResponseWriter) { replies[min(n, len(replies))-1].write(w) })
}

// agentcoreIn runs agentcore in dir with HOME at home and the extra
// environment (FOO, which the settings specs export, cleared first); it
// returns stdout, stderr and the exit code.
func agentcoreIn(dir, home string, env []string, args ...string) (string, string, int) {
	return invoke(invocation{dir: dir, home: home, env: append([]string{"FOO="}, env...)}, args...)
}

// writeFile writes body to dir/rel.
func writeFile(dir, rel, body string) {
	p := filepath.Join(dir, rel)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(body), 0o644)).To(Succeed())
}

// toolResults are the tool_result blocks of a request body's last message.
func toolResults(body map[string]any) []map[string]any {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		return nil
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content, _ := last["content"].([]any)
	var out []map[string]any
	for _, c := range content {
		if b, ok := c.(map[string]any); ok && b["type"] == "tool_result" {
			out = append(out, b)
		}
	}
	return out
}

var _ = Describe("A Claude Code project's files", func() {
	It("holds .claude/settings.json's deny rule even under bypassPermissions, reads CLAUDE.md into the system prompt, and gives the settings' env to Bash", func() {
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		writeFile(project, ".claude/settings.json", `{"permissions":{"deny":["Bash(rm:*)"]}}`)
		writeFile(project, ".claude/settings.local.json", `{"env":{"FOO":"foo-from-settings"}}`)
		writeFile(project, "CLAUDE.md", "Always answer in haiku; the codeword is heron-42.\n")
		writeFile(project, "x", "keep me\n")
		srv, bodies := projectAPI(
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{ID: "toolu_rm", Tool: "Bash", Input: `{"command":"rm x"}`}}},
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{ID: "toolu_echo", Tool: "Bash", Input: `{"command":"echo $FOO"}`}}},
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: "done"}}},
		)
		stdout, stderr, code := agentcoreIn(project, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "clean up", "--model", "claude-fake-1", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal("done\n"))
		Expect(filepath.Join(project, "x")).To(BeAnExistingFile(), "rm x was not run")
		b := bodies()
		Expect(b).To(HaveLen(3))

		system, _ := json.Marshal(b[0]["system"])
		Expect(string(system)).To(ContainSubstring("the codeword is heron-42"))
		Expect(string(system)).To(ContainSubstring(filepath.Join(project, "CLAUDE.md")))

		rm := toolResults(b[1])
		Expect(rm).To(HaveLen(1))
		Expect(rm[0]).To(HaveKeyWithValue("is_error", true))
		text, _ := json.Marshal(rm[0]["content"])
		Expect(string(text)).To(ContainSubstring("Bash(rm:*)"), "the rule is named")
		Expect(string(text)).To(ContainSubstring(filepath.Join(project, ".claude", "settings.json")), "and its file")

		echo := toolResults(b[2])
		Expect(echo).To(HaveLen(1))
		Expect(echo[0]["is_error"]).NotTo(Equal(true))
		text, _ = json.Marshal(echo[0]["content"])
		Expect(string(text)).To(ContainSubstring("foo-from-settings"))
	})

	It("takes the model from the settings when neither --model nor ANTHROPIC_MODEL names one, and --settings over the files", func() {
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		writeFile(home, ".claude/settings.json", `{"model":"claude-user-model"}`)
		writeFile(project, ".claude/settings.json", `{"model":"claude-project-model"}`)
		srv, bodies := projectAPI(fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: "pong"}}})
		env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL}

		_, stderr, code := agentcoreIn(project, home, env, "-p", "ping")
		Expect(code).To(Equal(0), stderr)
		_, stderr, code = agentcoreIn(project, home, env, "-p", "ping", "--setting-sources", "user")
		Expect(code).To(Equal(0), stderr)
		_, stderr, code = agentcoreIn(project, home, env, "-p", "ping", "--settings", `{"model":"claude-flag-model"}`)
		Expect(code).To(Equal(0), stderr)
		_, stderr, code = agentcoreIn(project, home, append(env, "ANTHROPIC_MODEL=claude-env-model"), "-p", "ping")
		Expect(code).To(Equal(0), stderr)
		_, stderr, code = agentcoreIn(project, home, env, "-p", "ping", "--model", "claude-cli-model")
		Expect(code).To(Equal(0), stderr)

		var models []any
		for _, body := range bodies() {
			models = append(models, body["model"])
		}
		Expect(models).To(Equal([]any{"claude-project-model", "claude-user-model", "claude-flag-model", "claude-env-model", "claude-cli-model"}))
	})

	It("refuses a --settings file that does not exist and a bad --setting-sources, saying what to pass", func() {
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		_, stderr, code := agentcoreIn(project, home, nil, "-p", "ping", "--model", "replay", "--settings", "nope.json")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("pass an existing settings file or a JSON object"))
		_, stderr, code = agentcoreIn(project, home, nil, "-p", "ping", "--model", "replay", "--setting-sources", "user,policy")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring(`unknown setting source "policy"`))
	})
})

var _ = Describe("--fallback-model", func() {
	It("sends the turn again to the fallback model when the main one is overloaded three times in a row, and says so", func() {
		var mu sync.Mutex
		var models []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var body struct{ Model string }
			_ = json.NewDecoder(r.Body).Decode(&body)
			mu.Lock()
			models = append(models, body.Model)
			mu.Unlock()
			if body.Model == "claude-main" {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("retry-after-ms", "5")
				w.WriteHeader(529)
				_, _ = w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
				return
			}
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: "pong from " + body.Model}}}.write(w)
		}))
		DeferCleanup(srv.Close)
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		stdout, stderr, code := agentcoreIn(project, home, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL, "AGENTCORE_RETRY_BASE_DELAY_MS=1"},
			"-p", "ping", "--model", "claude-main", "--fallback-model", "claude-spare", "--output-format", "stream-json", "--verbose")
		Expect(code).To(Equal(0), stderr)
		mu.Lock()
		Expect(models).To(Equal([]string{"claude-main", "claude-main", "claude-main", "claude-spare"}), "two retries, then the fallback once, as Claude Code")
		mu.Unlock()
		var fallback, result map[string]any
		var retries []map[string]any
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var ev map[string]any
			Expect(json.Unmarshal([]byte(line), &ev)).To(Succeed(), line)
			switch {
			case ev["subtype"] == "api_retry":
				retries = append(retries, ev)
			case ev["subtype"] == "model_fallback":
				fallback = ev
			case ev["type"] == "result":
				result = ev
			}
		}
		Expect(retries).To(HaveLen(2))
		Expect(retries[0]).To(HaveKeyWithValue("error_status", 529.0))
		Expect(retries[0]).To(HaveKeyWithValue("error", "overloaded"))
		Expect(fallback).To(HaveKeyWithValue("content", "Switched to claude-spare due to high demand for claude-main"))
		Expect(fallback).To(HaveKeyWithValue("trigger", "overloaded"))
		Expect(fallback).To(HaveKeyWithValue("originalModel", "claude-main"))
		Expect(fallback).To(HaveKeyWithValue("fallbackModel", "claude-spare"))
		Expect(result).To(HaveKeyWithValue("subtype", "success"))
		Expect(result).To(HaveKeyWithValue("result", "pong from claude-spare"))
		Expect(result).To(HaveKeyWithValue("num_turns", BeNumerically("==", 1)))
	})

	It("fails after its retries without a fallback, saying each, and refuses the main model as its own fallback", func() {
		var requests atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			w.Header().Set("retry-after-ms", "5")
			w.WriteHeader(529)
			_, _ = w.Write([]byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
		}))
		DeferCleanup(srv.Close)
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL, "AGENTCORE_RETRY_BASE_DELAY_MS=1", "AGENTCORE_MAX_RETRIES=4"}
		_, stderr, code := agentcoreIn(project, home, env, "-p", "ping", "--model", "claude-main", "--verbose")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("overloaded"))
		Expect(requests.Load()).To(Equal(int32(5)), "the request and four retries")
		Expect(stderr).To(MatchRegexp(`retrying in \d+ ms \(attempt 4 of 4\): 529 \(overloaded\): Overloaded`))
		Expect(stderr).NotTo(ContainSubstring("Switched to"))
		_, stderr, code = agentcoreIn(project, home, env, "-p", "ping", "--model", "claude-main", "--fallback-model", "claude-main")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("is the main model"))
	})

	It("lists with config sources the files a session reads, what each contributes, and only the sources --setting-sources names", func() {
		project, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		writeFile(home, ".claude/settings.json", `{"model":"claude-user-model"}`)
		writeFile(project, ".claude/settings.json", `{"permissions":{"allow":["Read","Grep"],"deny":["Bash(rm:*)"]},"env":{"FOO":"1"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`)
		writeFile(project, "CLAUDE.md", "hello\n")

		stdout, stderr, code := agentcoreIn(project, home, nil, "config", "sources", "--json")
		Expect(code).To(Equal(0), stderr)
		var entries []map[string]any
		Expect(json.Unmarshal([]byte(stdout), &entries)).To(Succeed(), stdout)
		found := map[string]map[string]any{}
		var order []string
		for _, e := range entries {
			order = append(order, e["kind"].(string)+" "+e["type"].(string)+" "+e["path"].(string))
			if e["found"] == true {
				found[e["path"].(string)] = e
			}
		}
		Expect(order).To(Equal([]string{
			"user settings " + filepath.Join(home, ".claude/settings.json"),
			"user settings " + filepath.Join(home, ".agentcore/settings.json"),
			"project settings " + filepath.Join(project, ".claude/settings.json"),
			"project settings " + filepath.Join(project, ".agentcore/settings.json"),
			"local settings " + filepath.Join(project, ".claude/settings.local.json"),
			"local settings " + filepath.Join(project, ".agentcore/settings.local.json"),
			"project memory " + filepath.Join(project, "CLAUDE.md"),
		}), "lowest precedence first, Claude Code's file before agentcore's at each level")
		Expect(found).To(HaveLen(3))
		Expect(found[filepath.Join(home, ".claude/settings.json")]).To(HaveKeyWithValue("model", "claude-user-model"))
		proj := found[filepath.Join(project, ".claude/settings.json")]
		Expect(proj).To(HaveKeyWithValue("allow", 2.0))
		Expect(proj).To(HaveKeyWithValue("deny", 1.0))
		Expect(proj).To(HaveKeyWithValue("hooks", []any{"PreToolUse"}))
		Expect(proj).To(HaveKeyWithValue("env", []any{"FOO"}))

		stdout, stderr, code = agentcoreIn(project, home, nil, "config", "sources", "--setting-sources", "project")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("3 rules (2 allow, 1 deny); hooks: PreToolUse; env: FOO"))
		Expect(stdout).NotTo(ContainSubstring(home), "the user files are not read")
		Expect(stdout).To(ContainSubstring(filepath.Join(project, "CLAUDE.md")))
	})
})
