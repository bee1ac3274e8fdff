package openai_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/openai"
	"github.com/agentcore/agentcore/runtime/provider/providertest"
)

var _ = Describe("faults of the network and the server (fault-injecting Chat Completions API on loopback)", func() {
	var srv *providertest.Server
	newP := func(base string, t provider.Timeouts) *openai.Provider {
		p, err := openai.New(openai.Options{Model: "fake-model", APIKey: "k", BaseURL: base, Timeouts: t})
		Expect(err).NotTo(HaveOccurred())
		return p
	}
	serveWith := func(t provider.Timeouts, scripts ...providertest.Script) *openai.Provider {
		srv = providertest.NewServer(scripts...)
		DeferCleanup(srv.Close)
		return newP(srv.URL()+"/v1", t)
	}
	serve := func(scripts ...providertest.Script) *openai.Provider {
		return serveWith(provider.Timeouts{Idle: 300 * time.Millisecond, Request: 300 * time.Millisecond}, scripts...)
	}
	run := func(ctx context.Context, p *openai.Provider, req provider.Request) ([]provider.Event, error) {
		req.Messages = []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("go")}}}
		var evs []provider.Event
		for ev, err := range p.Stream(ctx, req) {
			if err != nil {
				return evs, err
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}
	apiErr := func(err error) *provider.APIError {
		GinkgoHelper()
		e, ok := errors.AsType[*provider.APIError](err)
		Expect(ok).To(BeTrue(), "want an *provider.APIError, got %T: %v", err, err)
		return e
	}
	broke := "the response broke off: try again"

	DescribeTable("each failure has its own kind, message and advice",
		func(script providertest.Script, kind provider.ErrorKind, status int, message, hint string, retry bool, after time.Duration) {
			_, err := run(context.Background(), serve(script), provider.Request{})
			e := apiErr(err)
			Expect(e.Kind).To(Equal(kind))
			Expect(e.Status).To(Equal(status))
			Expect(e.Message).To(Equal(message))
			Expect(e.Hint).To(Equal(strings.ReplaceAll(hint, "$BASE", srv.URL()+"/v1")))
			r, a := provider.Retryable(err)
			Expect(r).To(Equal(retry))
			Expect(a).To(Equal(after))
		},
		Entry("a reset after two chunks", func(s *providertest.Stream) { s.ChatText("half done"); s.Reset() },
			provider.ErrStream, 0, "the connection was reset in the middle of the response (connection reset by peer)", broke, true, time.Duration(0)),
		Entry("a close after two chunks", func(s *providertest.Stream) { s.ChatText("half done"); s.Cut() },
			provider.ErrStream, 0, "the connection closed in the middle of the response (unexpected EOF)", broke, true, time.Duration(0)),
		Entry("a stall after the first chunk", func(s *providertest.Stream) { s.ChatText("half"); s.Hang() },
			provider.ErrStalled, 0, "no data for 300ms in the middle of the response",
			"the server stopped sending in the middle of the response: try again (the request is repeated without streaming)", true, time.Duration(0)),
		Entry("a garbage data line", func(s *providertest.Stream) { s.ChatText("half"); s.Data("garbage{oops") },
			provider.ErrStream, 0, `the stream was malformed: a chunk's data is not JSON (invalid character 'g' looking for beginning of value): "garbage{oops"`,
			"the server, or a proxy in between, sent something that is not the API's stream: try again; if it keeps happening, the base URL is $BASE (OPENAI_BASE_URL)", true, time.Duration(0)),
		Entry("an error chunk", func(s *providertest.Stream) {
			s.ChatText("half")
			s.Data(`{"error":{"message":"overloaded, try later","type":"server_overloaded"}}`)
		}, provider.ErrOverloaded, 0, "the server reported an error in the middle of the response: server_overloaded: overloaded, try later",
			"the service is busy, not your request: try again in a moment", true, time.Duration(0)),
		Entry("529 with retry-after", func(s *providertest.Stream) { s.Error(529, "overloaded_error", "Overloaded", "retry-after", "3") },
			provider.ErrOverloaded, 529, "Overloaded", "the service is busy, not your request: try again in a moment", true, 3*time.Second),
		Entry("500", func(s *providertest.Stream) { s.Error(500, "server_error", "boom") },
			provider.ErrServer, 500, "boom", "the server failed, not your request: try again; if it keeps failing, check the service's status or the server's log", true, time.Duration(0)),
		Entry("401", func(s *providertest.Stream) { s.Error(401, "invalid_request_error", "Incorrect API key") },
			provider.ErrAuth, 401, "Incorrect API key", "check OPENAI_API_KEY (a local server needs none: unset it and set OPENAI_BASE_URL)", false, time.Duration(0)),
	)

	It("marks the tool call a broken stream cut off as Incomplete, and keeps the finished one", func() {
		p := serve(func(s *providertest.Stream) {
			s.ChatTool(0, "call_a", "Read", `{"file_path":"a.go"}`, 6)
			s.ChatTool(1, "call_b", "Bash", `{"command":"rm -rf bu`, 6)
			s.Reset()
		})
		_, err := run(context.Background(), p, provider.Request{})
		e := apiErr(err)
		Expect(e.Partial).NotTo(BeNil())
		Expect(e.Partial.Content).To(HaveLen(2))
		Expect(e.Partial.Content[0].Incomplete).To(BeFalse())
		Expect(string(e.Partial.Content[0].Input)).To(Equal(`{"file_path":"a.go"}`))
		Expect(e.Partial.Content[1].Incomplete).To(BeTrue())
		Expect(string(e.Partial.Content[1].Input)).To(Equal(`{}`))
	})

	It("marks a tool call cut off by finish_reason length as Incomplete", func() {
		p := serve(func(s *providertest.Stream) {
			s.ChatTool(0, "call_a", "Write", `{"file_path":"a.go","content":"pack`, 6)
			s.ChatFinish("length")
			s.Done()
		})
		evs, err := run(context.Background(), p, provider.Request{})
		Expect(err).NotTo(HaveOccurred())
		last := evs[len(evs)-1]
		Expect(last.StopReason).To(Equal(provider.StopMaxTokens))
		Expect(last.Message.Content[0].Incomplete).To(BeTrue())
		Expect(evs[len(evs)-2].Type).To(Equal(provider.EventToolUse))
		Expect(evs[len(evs)-2].Block.Incomplete).To(BeTrue())
	})

	It("hands the message on at the last chunk while the server still holds the connection", func() {
		release, letGo := make(chan struct{}), make(chan struct{})
		p := serveWith(provider.Timeouts{}, func(s *providertest.Stream) {
			s.ChatText("pong")
			s.ChatFinish("stop")
			s.Hold(release) // no [DONE] yet: the usage chunk is the last one
			close(letGo)
			s.Done()
		})
		defer close(release)
		var got *provider.Event
		for ev, err := range p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("ping")}}}}) {
			Expect(err).NotTo(HaveOccurred())
			if ev.Type == provider.EventMessage {
				select {
				case <-letGo:
					Fail("the message came only after the server let go")
				default:
				}
				got = &ev
			}
		}
		Expect(got).NotTo(BeNil())
		Expect(got.Message.Content).To(Equal([]provider.Block{provider.Text("pong")}))
		Expect(got.Usage.OutputTokens).To(Equal(int64(5)))
	})

	It("hands the message on at [DONE] while the server still holds the connection", func() {
		release, letGo := make(chan struct{}), make(chan struct{})
		p := serveWith(provider.Timeouts{}, func(s *providertest.Stream) {
			s.ChatText("pong")
			s.Chunk(map[string]any{}, "stop")
			s.Done()
			s.Hold(release)
			close(letGo)
		})
		defer close(release)
		var got bool
		for ev, err := range p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("ping")}}}}) {
			Expect(err).NotTo(HaveOccurred())
			if ev.Type == provider.EventMessage {
				select {
				case <-letGo:
					Fail("the message came only after the server let go")
				default:
				}
				got = true
			}
		}
		Expect(got).To(BeTrue())
	})

	It("sends a NoStream request without streaming and yields the same events at the end", func() {
		p := serve(func(s *providertest.Stream) {
			s.JSON(map[string]any{"id": "c1", "object": "chat.completion", "created": 0, "model": "fake-model",
				"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "message": map[string]any{
					"role": "assistant", "content": "Reading.",
					"tool_calls": []any{map[string]any{"id": "call_a", "type": "function",
						"function": map[string]any{"name": "Read", "arguments": `{"file_path":"a.go"}`}}}}}},
				"usage": map[string]any{"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}})
		})
		evs, err := run(context.Background(), p, provider.Request{NoStream: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Requests()[0].Body).NotTo(HaveKey("stream"))
		var types []provider.EventType
		for _, ev := range evs {
			types = append(types, ev.Type)
		}
		Expect(types).To(Equal([]provider.EventType{provider.EventText, provider.EventToolUseStart, provider.EventToolUse, provider.EventMessage}))
		last := evs[3]
		Expect(last.StopReason).To(Equal(provider.StopToolUse))
		Expect(last.Usage.OutputTokens).To(Equal(int64(5)))
		Expect(string(last.Message.ToolUses()[0].Input)).To(Equal(`{"file_path":"a.go"}`))
	})

	It("says nothing listens at a refused port", func() {
		base := providertest.RefusedURL()
		_, err := run(context.Background(), newP(base+"/v1", provider.Timeouts{}), provider.Request{})
		e := apiErr(err)
		u, _ := url.Parse(base)
		Expect(e.Kind).To(Equal(provider.ErrConnection))
		Expect(e.Message).To(Equal("connection refused: nothing is listening at " + u.Host))
		Expect(e.Hint).To(Equal("is the server up? the base URL is " + base + "/v1 (OPENAI_BASE_URL)"))
	})

	It("ends a wait at once when the caller cancels, with the context's error", func() {
		srv = providertest.NewServer(func(s *providertest.Stream) { s.ChatText("hello"); s.Hang() })
		DeferCleanup(srv.Close)
		p := newP(srv.URL()+"/v1", provider.Timeouts{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var err error
		for ev, e := range p.Stream(ctx, provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("hi")}}}}) {
			if ev.Type == provider.EventText {
				cancel()
			}
			if e != nil {
				err = e
			}
		}
		Expect(err).To(MatchError(context.Canceled))
	})
})
