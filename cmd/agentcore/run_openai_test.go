//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider/openai/openaitest"
)

var _ = Describe("agentcore run --model openai:NAME (OpenAI-compatible fake on loopback)", func() {
	It("completes a tool turn: the first call runs while the response streams, and every tool call is answered", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)).To(Succeed())
		flag := filepath.Join(dir, "started.flag")
		var startedBeforeEnd atomic.Bool
		srv := openaitest.NewServer(
			func(s *openaitest.Stream) {
				s.Text("Checking.")
				s.ToolCall(0, "call_mark", "Bash", `{"command":"touch started.flag","description":"Mark the start"}`, 9)
				s.ToolStart(1, "call_read", "Read")
				// The response stays open until the first call has run.
				deadline := time.Now().Add(10 * time.Second)
				for time.Now().Before(deadline) {
					if _, err := os.Stat(flag); err == nil {
						startedBeforeEnd.Store(true)
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				args, _ := json.Marshal(map[string]any{"file_path": filepath.Join(dir, "a.txt")})
				s.ToolArgs(1, string(args), 7)
				s.Finish("tool_calls")
			},
			func(s *openaitest.Stream) {
				s.Text("a.txt says alpha.")
				s.Finish("stop")
			},
		)
		DeferCleanup(srv.Close)

		stdout, stderr, code := runIn(dir, []string{"OPENAI_API_KEY=", "OPENAI_BASE_URL=" + srv.URL()},
			"--model", "openai:fake-model", "-p", "hi", "--output-format", "json", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		var res map[string]any
		Expect(json.Unmarshal([]byte(stdout), &res)).To(Succeed(), stdout)
		Expect(res).To(HaveKeyWithValue("result", "a.txt says alpha."))
		Expect(res).To(HaveKeyWithValue("num_turns", BeNumerically("==", 2)))
		Expect(startedBeforeEnd.Load()).To(BeTrue(), "the first call should run while the response still streams")

		reqs := srv.Requests()
		Expect(reqs).To(HaveLen(2))
		first := reqs[0]
		Expect(first.Header.Get("User-Agent")).To(HavePrefix("agentcore/"))
		Expect(first.Header.Get("Authorization")).To(HavePrefix("Bearer "), "a placeholder key for a local server")
		Expect(first.Body).To(HaveKeyWithValue("model", "fake-model"))
		Expect(first.Body).To(HaveKeyWithValue("stream", true))
		Expect(openaitest.Messages(first.Body)[0]).To(HaveKeyWithValue("role", "system"))
		tools := first.Body["tools"].([]any)
		Expect(tools).NotTo(BeEmpty())
		Expect(tools[0]).To(HaveKeyWithValue("type", "function"))

		Expect(openaitest.PairingProblems(reqs[1].Body)).To(BeEmpty())
		msgs := openaitest.Messages(reqs[1].Body)
		var answered []string
		for _, m := range msgs {
			if m["role"] == "tool" {
				answered = append(answered, m["tool_call_id"].(string))
				if m["tool_call_id"] == "call_read" {
					Expect(m["content"]).To(ContainSubstring("alpha"))
				}
			}
		}
		Expect(answered).To(Equal([]string{"call_mark", "call_read"}))
	})

	DescribeTable("refuses a model it cannot reach, saying what to set",
		func(want string, env []string, args ...string) {
			_, stderr, code := runIn(GinkgoT().TempDir(), append([]string{"OPENAI_API_KEY=", "OPENAI_BASE_URL="}, env...), args...)
			Expect(code).To(Equal(1))
			Expect(stderr).To(ContainSubstring(want))
		},
		Entry("no model name", "--model openai:NAME", nil, "--model", "openai", "-p", "hi"),
		Entry("neither a key nor a base URL", "set OPENAI_API_KEY, or set OPENAI_BASE_URL", nil, "--model", "openai:gpt-x", "-p", "hi"),
		Entry("an unknown model kind", "or openai:NAME", nil, "--model", "gpt:4"),
	)

	It("reports an API failure with its status and what to do", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) { s.Error(401, "Incorrect API key provided") })
		DeferCleanup(srv.Close)
		_, stderr, code := runIn(GinkgoT().TempDir(), []string{"OPENAI_API_KEY=sk-wrong", "OPENAI_BASE_URL=" + srv.URL()},
			"--model", "openai:fake-model", "-p", "hi")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("openai: 401 Unauthorized (authentication failed): Incorrect API key provided: check OPENAI_API_KEY"))
		Expect(strings.Count(stderr, "\n")).To(BeNumerically("<", 5), stderr)
	})
})

var _ = Describe("agentcore run with the Anthropic environment (fake Messages API on loopback)", func() {
	It("picks the Anthropic API by ANTHROPIC_AUTH_TOKEN and ANTHROPIC_MODEL alone, and names itself in the User-Agent", func() {
		api := newPongAPI()
		DeferCleanup(api.Close)
		stdout, stderr, code := runIn(GinkgoT().TempDir(), []string{"ANTHROPIC_AUTH_TOKEN=gw-token", "ANTHROPIC_MODEL=claude-env",
			"ANTHROPIC_BASE_URL=" + api.URL()}, "-p", "ping", "--output-format", "json")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`"result":"pong"`))
		got := api.Requests()
		Expect(got).To(HaveLen(1))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer gw-token"))
		Expect(got[0].Header.Get("User-Agent")).To(HavePrefix("agentcore/"))
		Expect(got[0].Body).To(HaveKeyWithValue("model", "claude-env"))
	})
})

var _ = Describe("agentcore run --model bedrock:MODEL (fake Bedrock on loopback)", func() {
	It("signs the request for Bedrock, puts the model in the path, and reads the answer", func() {
		api := newPongAPI()
		DeferCleanup(api.Close)
		dir := GinkgoT().TempDir()
		env := []string{"ANTHROPIC_BEDROCK_BASE_URL=" + api.URL(), "AWS_REGION=eu-west-1", "AWS_ACCESS_KEY_ID=AKIDFAKE",
			"AWS_SECRET_ACCESS_KEY=fake", "AWS_SESSION_TOKEN=", "AWS_PROFILE=", "AWS_BEARER_TOKEN_BEDROCK=", "AWS_EC2_METADATA_DISABLED=true",
			"AWS_CONFIG_FILE=" + filepath.Join(dir, "aws-config"), "AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(dir, "aws-credentials")}
		stdout, stderr, code := runIn(dir, env, "--model", "bedrock:eu.anthropic.claude-test-v1:0", "-p", "ping", "--output-format", "json")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`"result":"pong"`))
		got := api.Requests()
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/model/eu.anthropic.claude-test-v1:0/invoke-with-response-stream"))
		Expect(got[0].Header.Get("Authorization")).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDFAKE/"))
		Expect(got[0].Header.Get("User-Agent")).To(HavePrefix("agentcore/"))
		Expect(got[0].Body).To(HaveKey("anthropic_version"))
	})

	It("says what to set without a model ID or a region", func() {
		_, stderr, code := runIn(GinkgoT().TempDir(), []string{"ANTHROPIC_MODEL="}, "--model", "bedrock", "-p", "hi")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("--model bedrock:MODEL"))
		_, stderr, code = runIn(GinkgoT().TempDir(), []string{"AWS_REGION=", "AWS_DEFAULT_REGION=", "AWS_PROFILE=", "AWS_CONFIG_FILE=/nonexistent"},
			"--model", "bedrock:m", "-p", "hi")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("set AWS_REGION"))
	})
})

// pongAPI is a Messages API on loopback that answers every request with a
// streamed "pong".
type pongAPI struct {
	srv      *httptest.Server
	mu       sync.Mutex
	requests []openaitest.Request
}

func newPongAPI() *pongAPI {
	a := &pongAPI{}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		a.mu.Lock()
		a.requests = append(a.requests, openaitest.Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		a.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"pong"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`,
			`{"type":"message_stop"}`,
		} {
			var probe struct{ Type string }
			_ = json.Unmarshal([]byte(ev), &probe)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", probe.Type, ev)
		}
	}))
	return a
}

func (a *pongAPI) URL() string { return a.srv.URL }

func (a *pongAPI) Close() { a.srv.Close() }

func (a *pongAPI) Requests() []openaitest.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]openaitest.Request(nil), a.requests...)
}
