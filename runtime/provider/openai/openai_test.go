package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/openai"
	"github.com/agentcore/agentcore/runtime/provider/openai/openaitest"
)

// newProvider talks to srv with no retries, with a test key.
func newProvider(srv *openaitest.Server) *openai.Provider {
	return newProviderKey(srv, "sk-test")
}

// newProviderKey talks to srv with no retries, sending key.
func newProviderKey(srv *openaitest.Server, key string) *openai.Provider {
	p, err := openai.New(openai.Options{Model: "fake-model", APIKey: key, BaseURL: srv.URL(), UserAgent: "agentcore/test"})
	Expect(err).NotTo(HaveOccurred())
	return p
}

// collect runs one request and returns its events and error.
func collect(p provider.Provider, req provider.Request, on func(provider.Event)) ([]provider.Event, error) {
	var evs []provider.Event
	for ev, err := range p.Stream(context.Background(), req) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
		if on != nil {
			on(ev)
		}
	}
	return evs, nil
}

func prompt(text string) provider.Request {
	return provider.Request{Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text(text)}}}}
}

var _ = Describe("the OpenAI provider against a fake Chat Completions API", func() {
	BeforeEach(func() {
		// The provider reads no environment: these must not be used.
		GinkgoT().Setenv("OPENAI_API_KEY", "sk-from-the-environment")
		GinkgoT().Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/not-used")
	})

	It("hands on each tool call as soon as the next one starts, before the stream ends", func() {
		seenA := make(chan struct{})
		var waited atomic.Bool
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.Text("Reading two files.")
			s.ToolCall(0, "call_a", "Read", `{"summary":"a.go","output":"alpha"}`, 5)
			s.ToolStart(1, "call_b", "Read")
			// The response stays open until call_a has been handed on.
			waited.Store(s.Wait(seenA))
			s.ToolArgs(1, `{"summary":"b.go","output":"beta"}`, 4)
			s.Finish("tool_calls")
		})
		DeferCleanup(srv.Close)

		evs, err := collect(newProvider(srv), prompt("read a and b"), func(ev provider.Event) {
			if ev.Type == provider.EventToolUse && ev.Block.ID == "call_a" {
				close(seenA)
			}
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(waited.Load()).To(BeTrue(), "call_a should be complete while call_b still streams")

		var kinds []provider.EventType
		for _, ev := range evs {
			if ev.Type != provider.EventText {
				kinds = append(kinds, ev.Type)
			}
		}
		Expect(kinds).To(Equal([]provider.EventType{provider.EventToolUseStart, provider.EventToolUse,
			provider.EventToolUseStart, provider.EventToolUse, provider.EventMessage}))
		Expect(evs[0]).To(Equal(provider.Event{Type: provider.EventText, Index: 0, Text: "Reading "}))

		final := evs[len(evs)-1]
		Expect(final.StopReason).To(Equal(provider.StopToolUse))
		Expect(final.Usage).To(Equal(provider.Usage{InputTokens: 80, OutputTokens: 17, CacheReadInputTokens: 40}))
		Expect(final.Message.Role).To(Equal(provider.Assistant))
		Expect(final.Message.Content).To(Equal([]provider.Block{
			provider.Text("Reading two files."),
			provider.ToolUse("call_a", "Read", json.RawMessage(`{"summary":"a.go","output":"alpha"}`)),
			provider.ToolUse("call_b", "Read", json.RawMessage(`{"summary":"b.go","output":"beta"}`)),
		}))
		// Indexes are the blocks' places in the final message (the
		// recorder relies on it).
		for _, ev := range evs[:len(evs)-1] {
			if ev.Type == provider.EventToolUse {
				Expect(final.Message.Content[ev.Index].ID).To(Equal(ev.Block.ID))
			}
		}
	})

	It("sends the request in the API's format: system message, function tools, streaming with usage", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.Text("hi")
			s.Finish("stop")
		})
		DeferCleanup(srv.Close)
		req := prompt("hello")
		req.System = "be brief"
		req.MaxTokens = 99
		req.Tools = []provider.Tool{{Name: "Read", Description: "reads a file",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"],"additionalProperties":false}`)}}
		evs, err := collect(newProvider(srv), req, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs[len(evs)-1].StopReason).To(Equal(provider.StopEndTurn))

		got := srv.Requests()
		Expect(got).To(HaveLen(1))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer sk-test"))
		Expect(got[0].Header.Get("User-Agent")).To(Equal("agentcore/test"))
		body := got[0].Body
		Expect(body).To(HaveKeyWithValue("model", "fake-model"))
		Expect(body).To(HaveKeyWithValue("stream", true))
		Expect(body).To(HaveKeyWithValue("stream_options", map[string]any{"include_usage": true}))
		Expect(body).To(HaveKeyWithValue("max_completion_tokens", BeNumerically("==", 99)))
		Expect(openaitest.Messages(body)).To(Equal([]map[string]any{
			{"role": "system", "content": "be brief"},
			{"role": "user", "content": "hello"},
		}))
		Expect(body["tools"]).To(Equal([]any{map[string]any{"type": "function", "function": map[string]any{
			"name": "Read", "description": "reads a file",
			"parameters": map[string]any{"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}},
				"required": []any{"file_path"}, "additionalProperties": false},
		}}}))
	})

	It("round-trips text, tool_use and tool_result blocks: tool_calls, one tool message per result, images after", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.Text("ok")
			s.Finish("stop")
		})
		DeferCleanup(srv.Close)
		shot := runtime.Result{Content: []runtime.Block{runtime.TextBlock("a screenshot"), {Type: "image", MediaType: "image/png", Data: "aGk="}}}
		req := provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("go")}},
			{Role: provider.Assistant, Content: []provider.Block{
				provider.Text("Looking."),
				provider.ToolUse("call_1", "Read", json.RawMessage(`{"file_path":"a.go"}`)),
				provider.ToolUse("call_2", "Shot", nil),
				provider.ToolUse("call_3", "Read", json.RawMessage(`"{\"file_path\": oops"`)),
			}},
			{Role: provider.User, Content: []provider.Block{
				provider.ToolResult("call_1", runtime.Result{Content: []runtime.Block{runtime.TextBlock("package a")}}),
				provider.ToolResult("call_2", shot),
				provider.ToolResult("call_3", runtime.Result{IsError: true, Content: []runtime.Block{runtime.TextBlock("bad input")}}),
				provider.Text("[Request interrupted by user]"),
			}},
		}}
		_, err := collect(newProvider(srv), req, nil)
		Expect(err).NotTo(HaveOccurred())
		body := srv.Requests()[0].Body
		Expect(openaitest.PairingProblems(body)).To(BeEmpty())
		msgs := openaitest.Messages(body)
		Expect(msgs).To(HaveLen(6))
		Expect(msgs[1]).To(Equal(map[string]any{"role": "assistant", "content": "Looking.", "tool_calls": []any{
			map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "Read", "arguments": `{"file_path":"a.go"}`}},
			map[string]any{"id": "call_2", "type": "function", "function": map[string]any{"name": "Shot", "arguments": `{}`}},
			map[string]any{"id": "call_3", "type": "function", "function": map[string]any{"name": "Read", "arguments": `{"file_path": oops`}},
		}}))
		Expect(msgs[2]).To(Equal(map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "package a"}))
		Expect(msgs[3]).To(Equal(map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "a screenshot\n(the image is in the next message)"}))
		Expect(msgs[4]).To(Equal(map[string]any{"role": "tool", "tool_call_id": "call_3", "content": "Error: bad input"}))
		Expect(msgs[5]["role"]).To(Equal("user"))
		parts := msgs[5]["content"].([]any)
		Expect(parts).To(HaveLen(3))
		Expect(parts[0]).To(HaveKeyWithValue("text", "The image(s) from the result of tool call call_2:"))
		Expect(parts[1]).To(Equal(map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,aGk="}}))
		Expect(parts[2]).To(Equal(map[string]any{"type": "text", "text": "[Request interrupted by user]"}))
	})

	It("keeps arguments that are not JSON as a string input, gives ids to calls without one, and reads {} for none", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.ToolCall(0, "call_bad", "Read", `{"file_path": oops`, 3)
			s.ToolCall(1, "", "Glob", ``, 3)
			s.Finish("stop") // some servers say "stop" with tool calls
		})
		DeferCleanup(srv.Close)
		evs, err := collect(newProvider(srv), prompt("go"), nil)
		Expect(err).NotTo(HaveOccurred())
		final := evs[len(evs)-1]
		Expect(final.StopReason).To(Equal(provider.StopToolUse))
		uses := final.Message.ToolUses()
		Expect(uses).To(HaveLen(2))
		Expect(string(uses[0].Input)).To(Equal(`"{\"file_path\": oops"`))
		Expect(uses[1].ID).To(HavePrefix("call_"))
		Expect(string(uses[1].Input)).To(Equal(`{}`))
		_, err = json.Marshal(final.Message)
		Expect(err).NotTo(HaveOccurred(), "the history stays encodable")
	})

	It("maps finish_reason length to max_tokens", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.Text("cut")
			s.Finish("length")
		})
		DeferCleanup(srv.Close)
		evs, err := collect(newProvider(srv), prompt("go"), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(evs[len(evs)-1].StopReason).To(Equal(provider.StopMaxTokens))
	})

	DescribeTable("reports failures with the status, what kind of failure, and what to do",
		func(script openaitest.Script, kind provider.ErrorKind, status int, want ...string) {
			srv := openaitest.NewServer(script)
			DeferCleanup(srv.Close)
			_, err := collect(newProvider(srv), prompt("go"), nil)
			var apiErr *provider.APIError
			Expect(err).To(BeAssignableToTypeOf(apiErr))
			apiErr = err.(*provider.APIError)
			Expect(apiErr.Kind).To(Equal(kind))
			Expect(apiErr.Status).To(Equal(status))
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("a wrong key", func(s *openaitest.Stream) { s.Error(401, "Incorrect API key provided") },
			provider.ErrAuth, 401, "openai: 401 Unauthorized (authentication failed): Incorrect API key provided", "check OPENAI_API_KEY"),
		Entry("an unknown model", func(s *openaitest.Stream) { s.Error(404, "model 'nope' not found") },
			provider.ErrNotFound, 404, "model 'nope' not found", `check the model name "fake-model"`, "/v1"),
		Entry("a rejected request", func(s *openaitest.Stream) { s.Error(400, "messages: too long") },
			provider.ErrInvalidRequest, 400, "400 Bad Request (invalid request): messages: too long"),
		Entry("rate limiting", func(s *openaitest.Stream) { s.Error(429, "slow down") },
			provider.ErrRateLimit, 429, "(rate limited)", "wait a minute"),
		Entry("an overloaded service", func(s *openaitest.Stream) { s.Error(503, "engine overloaded") },
			provider.ErrOverloaded, 503, "(overloaded)", "not your request", "try again in a moment"),
		Entry("a server error, plain text from a proxy", func(s *openaitest.Stream) { s.Raw(502, "text/plain", "Bad Gateway") },
			provider.ErrServer, 502, "502 Bad Gateway (server error)", "try again"),
		Entry("an error event in the stream", func(s *openaitest.Stream) {
			s.Text("partly ")
			s.Data(`{"error":{"message":"the model crashed","type":"server_error"}}`)
		}, provider.ErrServer, 0, "openai: server error: the server reported an error in the middle of the response: server_error: the model crashed"),
		Entry("a stream cut before finish_reason", func(s *openaitest.Stream) { s.Text("partly ") },
			provider.ErrStream, 0, "the stream ended before a finish_reason"),
	)

	It("says the server is not reachable, naming the base URL", func() {
		dead := httptest.NewServer(http.NotFoundHandler())
		url := dead.URL + "/v1"
		dead.Close()
		p, err := openai.New(openai.Options{Model: "m", APIKey: "k", BaseURL: url})
		Expect(err).NotTo(HaveOccurred())
		_, err = collect(p, prompt("go"), nil)
		Expect(err).To(MatchError(ContainSubstring("openai: connection failed")))
		Expect(err).To(MatchError(ContainSubstring("is the server up? the base URL is " + url + " (OPENAI_BASE_URL)")))
	})

	It("stops when the context is cancelled, with the context's error", func() {
		srv := openaitest.NewServer(func(s *openaitest.Stream) {
			s.Text("thinking ")
			s.Hang()
		})
		DeferCleanup(srv.Close)
		p := newProvider(srv)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var err error
		for ev, e := range p.Stream(ctx, prompt("go")) {
			if e != nil {
				err = e
				break
			}
			if ev.Type == provider.EventText {
				cancel()
			}
		}
		Expect(err).To(MatchError(context.Canceled))
	})

	Describe("credentials", func() {
		It("sends the key and base URL it is given, not the environment's", func() {
			srv := openaitest.NewServer(func(s *openaitest.Stream) {
				s.Text("hi")
				s.Finish("stop")
			})
			DeferCleanup(srv.Close)
			_, err := collect(newProvider(srv), prompt("go"), nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(srv.Requests()).To(HaveLen(1), "the request went to Options.BaseURL, not OPENAI_BASE_URL")
			Expect(srv.Requests()[0].Header.Get("Authorization")).To(Equal("Bearer sk-test"))
		})

		It("sends a placeholder key to a local server when no key is given", func() {
			srv := openaitest.NewServer(func(s *openaitest.Stream) {
				s.Text("hi")
				s.Finish("stop")
			})
			DeferCleanup(srv.Close)
			_, err := collect(newProviderKey(srv, ""), prompt("go"), nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(srv.Requests()[0].Header.Get("Authorization")).To(Equal("Bearer " + openai.PlaceholderKey))
		})

		It("refuses to start without a key or a base URL, saying what to set, whatever the environment holds", func() {
			_, err := openai.New(openai.Options{Model: "m"})
			Expect(err).To(MatchError(ContainSubstring("set OPENAI_API_KEY, or set OPENAI_BASE_URL to a local OpenAI-compatible server")))
		})

		It("needs a model name", func() {
			_, err := openai.New(openai.Options{})
			Expect(err).To(MatchError(ContainSubstring("no model name")))
		})
	})

	It("names itself after the model and streams", func() {
		p, err := openai.New(openai.Options{Model: "gpt-x", APIKey: "k"})
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Name()).To(Equal("openai:gpt-x"))
		Expect(p.Streams()).To(BeTrue())
	})

	It("converts definitions to function tools, keeping the schema as written, and refuses a schema that is not an object, naming the tool", func() {
		schema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}}}`
		tools, err := openai.Tools([]provider.Tool{{Name: "Noop", InputSchema: json.RawMessage(schema)}})
		Expect(err).NotTo(HaveOccurred())
		data, err := json.Marshal(tools)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(MatchJSON(`[{"type":"function","function":{"name":"Noop","parameters":` + schema + `}}]`))
		Expect(string(data)).To(ContainSubstring(schema), "the schema goes out as written, its properties in order")
		_, err = openai.Tools([]provider.Tool{{Name: "Bad", InputSchema: json.RawMessage(`[1]`)}})
		Expect(err).To(MatchError(ContainSubstring("tool Bad")))
	})
})
