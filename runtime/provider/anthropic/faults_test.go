package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/providertest"
)

// faulty returns a provider for the fake at base with the given timeouts.
func faulty(base string, t provider.Timeouts) *Provider {
	return NewWithOptions(Options{Model: "fake-model", APIKey: "k", Timeouts: t,
		RequestOptions: []option.RequestOption{option.WithBaseURL(base)}})
}

// run streams one request and returns its events and its error.
func run(ctx context.Context, p *Provider, req provider.Request) ([]provider.Event, error) {
	if req.Messages == nil {
		req.Messages = []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("go")}}}
	}
	var evs []provider.Event
	for ev, err := range p.Stream(ctx, req) {
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// apiError is err as an *APIError, failing the spec when it is not one.
func apiError(err error) *provider.APIError {
	GinkgoHelper()
	e, ok := errors.AsType[*provider.APIError](err)
	Expect(ok).To(BeTrue(), "want an *provider.APIError, got %T: %v", err, err)
	return e
}

// fault is what one failure must yield.
type fault struct {
	kind    provider.ErrorKind
	status  int
	message string
	hint    string
	retry   bool
	after   time.Duration
}

var _ = Describe("faults of the network and the server (fault-injecting Messages API on loopback)", func() {
	var srv *providertest.Server
	serveWith := func(t provider.Timeouts, scripts ...providertest.Script) *Provider {
		srv = providertest.NewServer(scripts...)
		DeferCleanup(srv.Close)
		return faulty(srv.URL(), t)
	}
	serve := func(scripts ...providertest.Script) *Provider {
		return serveWith(provider.Timeouts{Idle: 300 * time.Millisecond, Request: 300 * time.Millisecond}, scripts...)
	}
	check := func(err error, f fault) *provider.APIError {
		GinkgoHelper()
		e := apiError(err)
		Expect(e.Kind).To(Equal(f.kind))
		Expect(e.Status).To(Equal(f.status))
		Expect(e.Message).To(Equal(f.message))
		Expect(e.Hint).To(Equal(f.hint))
		retry, after := provider.Retryable(err)
		Expect(retry).To(Equal(f.retry), "retryable")
		Expect(after).To(Equal(f.after))
		return e
	}
	broke := "the response broke off: try again"

	DescribeTable("each failure has its own kind, message and advice",
		func(script providertest.Script, f fault) {
			_, err := run(context.Background(), serve(script), provider.Request{})
			e := check(err, f)
			if f.kind != provider.ErrConnection {
				Expect(e.Error()).NotTo(ContainSubstring("is the server up"))
			}
		},
		Entry("a reset after two events", func(s *providertest.Stream) { s.Start(); s.Text(0, "half"); s.Reset() },
			fault{kind: provider.ErrStream, message: "the connection was reset in the middle of the response (connection reset by peer)", hint: broke, retry: true}),
		Entry("a close after two events", func(s *providertest.Stream) { s.Start(); s.Text(0, "half"); s.Cut() },
			fault{kind: provider.ErrStream, message: "the connection closed in the middle of the response (unexpected EOF)", hint: broke, retry: true}),
		Entry("a clean end before message_stop", func(s *providertest.Stream) { s.Start(); s.Text(0, "half") },
			fault{kind: provider.ErrStream, message: "the stream ended before message_stop: the server closed the response early", hint: broke, retry: true}),
		Entry("a stall after message_start", func(s *providertest.Stream) { s.Start(); s.Hang() },
			fault{kind: provider.ErrStalled, message: "no data for 300ms in the middle of the response",
				hint: "the server stopped sending in the middle of the response: try again (the request is repeated without streaming)", retry: true}),
		Entry("a garbage data line", func(s *providertest.Stream) { s.Start(); s.Event("content_block_delta", "garbage{oops") },
			fault{kind: provider.ErrStream, message: `the stream was malformed: the data of a "content_block_delta" event is not JSON (invalid character 'g' looking for beginning of value): "garbage{oops"`,
				hint: "the server, or a proxy in between, sent something that is not the API's stream: try again; if it keeps happening, check ANTHROPIC_BASE_URL and the network", retry: true}),
		Entry("an event out of order", func(s *providertest.Stream) {
			s.Start()
			s.Event("content_block_delta", `{"type":"content_block_delta","index":3,"delta":{}}`)
		}, fault{kind: provider.ErrStream, message: `the stream was malformed: a "content_block_delta" event does not fit the message so far (received event of type content_block_delta for content block at index 3 but there are only 0 content blocks): "{\"type\":\"content_block_delta\",\"index\":3,\"delta\":{}}"`,
			hint: "the server, or a proxy in between, sent something that is not the API's stream: try again; if it keeps happening, check ANTHROPIC_BASE_URL and the network", retry: true}),
		Entry("overloaded_error inside the stream", func(s *providertest.Stream) { s.Start(); s.ErrorEvent("overloaded_error", "Overloaded") },
			fault{kind: provider.ErrOverloaded, message: "the API reported an error in the middle of the response: overloaded_error: Overloaded",
				hint: "the service is busy, not your request: try again in a moment", retry: true}),
		Entry("api_error inside the stream", func(s *providertest.Stream) { s.Start(); s.ErrorEvent("api_error", "Internal server error") },
			fault{kind: provider.ErrServer, message: "the API reported an error in the middle of the response: api_error: Internal server error",
				hint: "the server failed, not your request: try again; if it keeps failing, check the service's status or the server's log", retry: true}),
		Entry("invalid_request_error inside the stream", func(s *providertest.Stream) { s.Start(); s.ErrorEvent("invalid_request_error", "bad") },
			fault{kind: provider.ErrInvalidRequest, message: "the API reported an error in the middle of the response: invalid_request_error: bad"}),
		Entry("529 with retry-after", func(s *providertest.Stream) { s.Error(529, "overloaded_error", "Overloaded", "retry-after", "2") },
			fault{kind: provider.ErrOverloaded, status: 529, message: "Overloaded", hint: "the service is busy, not your request: try again in a moment", retry: true, after: 2 * time.Second}),
		Entry("503 with retry-after-ms", func(s *providertest.Stream) {
			s.Error(503, "overloaded_error", "busy", "retry-after-ms", "1500", "retry-after", "9")
		}, fault{kind: provider.ErrOverloaded, status: 503, message: "busy", hint: "the service is busy, not your request: try again in a moment", retry: true, after: 1500 * time.Millisecond}),
		Entry("429 with retry-after", func(s *providertest.Stream) { s.Error(429, "rate_limit_error", "slow down", "retry-after", "30") },
			fault{kind: provider.ErrRateLimit, status: 429, message: "slow down", hint: "wait a minute and try again, or lower the request rate", retry: true, after: 30 * time.Second}),
		Entry("500", func(s *providertest.Stream) { s.Error(500, "api_error", "Internal server error") },
			fault{kind: provider.ErrServer, status: 500, message: "Internal server error",
				hint: "the server failed, not your request: try again; if it keeps failing, check the service's status or the server's log", retry: true}),
		Entry("a proxy's plain-text 502", func(s *providertest.Stream) { s.Status(502, "text/plain", "Bad Gateway") },
			fault{kind: provider.ErrServer, status: 502, message: "Bad Gateway",
				hint: "the server failed, not your request: try again; if it keeps failing, check the service's status or the server's log", retry: true}),
		Entry("408", func(s *providertest.Stream) { s.Error(408, "timeout_error", "too slow") },
			fault{kind: provider.ErrInvalidRequest, status: 408, message: "too slow", hint: "the server timed out waiting for the request: try again", retry: true}),
		Entry("409", func(s *providertest.Stream) { s.Error(409, "conflict_error", "conflict") },
			fault{kind: provider.ErrInvalidRequest, status: 409, message: "conflict", hint: "the server reported a conflict: try again", retry: true}),
		Entry("401", func(s *providertest.Stream) { s.Error(401, "authentication_error", "invalid x-api-key") },
			fault{kind: provider.ErrAuth, status: 401, message: "invalid x-api-key", hint: "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway)"}),
		Entry("404", func(s *providertest.Stream) { s.Error(404, "not_found_error", "model: nope") },
			fault{kind: provider.ErrNotFound, status: 404, message: "model: nope", hint: "check the model name (ANTHROPIC_MODEL or the one given) and ANTHROPIC_BASE_URL"}),
		Entry("400", func(s *providertest.Stream) { s.Error(400, "invalid_request_error", "messages: empty") },
			fault{kind: provider.ErrInvalidRequest, status: 400, message: "messages: empty", hint: "the API refused the request as sent; the message says why"}),
		Entry("413", func(s *providertest.Stream) { s.Error(413, "request_too_large", "too big") },
			fault{kind: provider.ErrInvalidRequest, status: 413, message: "too big", hint: "the request is too large for the API: compact the conversation (/compact) or read less at once"}),
	)

	It("quotes a bounded piece of a long garbage line", func() {
		p := serve(func(s *providertest.Stream) { s.Start(); s.Event("message_delta", strings.Repeat("x", 5000)) })
		_, err := run(context.Background(), p, provider.Request{})
		e := apiError(err)
		Expect(e.Message).To(HavePrefix(`the stream was malformed: the data of a "message_delta" event is not JSON`))
		Expect(e.Message).To(HaveSuffix(`"` + strings.Repeat("x", 80) + `"…`))
	})

	It("says no answer came within the idle time, naming the host", func() {
		p := serve(func(s *providertest.Stream) { s.Hang() })
		_, err := run(context.Background(), p, provider.Request{})
		u, _ := url.Parse(srv.URL())
		check(err, fault{kind: provider.ErrTimeout, message: "no response from " + u.Host + " within 300ms of sending the request",
			hint: "the server did not answer in time: try again; if it keeps happening, check the service's status and the network", retry: true})
	})

	It("says a connection dropped before any answer was dropped, not that the server may be down", func() {
		p := serve(func(s *providertest.Stream) { s.Drop() })
		_, err := run(context.Background(), p, provider.Request{})
		e := apiError(err)
		u, _ := url.Parse(srv.URL())
		Expect(e.Kind).To(Equal(provider.ErrConnection))
		Expect(e.Message).To(HavePrefix("the connection to " + u.Host + " closed before the server answered ("))
		Expect(e.Hint).To(Equal("the server or a proxy dropped the request: try again; if it keeps happening, check the server's log"))
		Expect(provider.Retryable(err)).To(BeTrue())
	})

	It("says nothing listens at a refused port, and only then asks whether the server is up", func() {
		base := providertest.RefusedURL()
		_, err := run(context.Background(), faulty(base, provider.Timeouts{}), provider.Request{})
		u, _ := url.Parse(base)
		check(err, fault{kind: provider.ErrConnection, message: "connection refused: nothing is listening at " + u.Host,
			hint: "is the server up? check ANTHROPIC_BASE_URL and the network", retry: true})
	})

	It("says a host name does not resolve, and does not retry it", func() {
		_, err := run(context.Background(), faulty(providertest.UnresolvableURL, provider.Timeouts{}), provider.Request{})
		check(err, fault{kind: provider.ErrDNS, message: "the host name api.agentcore.invalid does not resolve (no such host)",
			hint: "the name is wrong, or the network's DNS is down: check ANTHROPIC_BASE_URL and the network"})
	})

	It("says the TLS handshake failed on an untrusted certificate, and does not retry it", func() {
		tlsSrv := providertest.NewTLSServer()
		DeferCleanup(tlsSrv.Close)
		_, err := run(context.Background(), faulty(tlsSrv.URL(), provider.Timeouts{}), provider.Request{})
		u, _ := url.Parse(tlsSrv.URL())
		check(err, fault{kind: provider.ErrTLS, message: "the TLS handshake with " + u.Host + " failed: x509: certificate signed by unknown authority",
			hint: "the server's certificate is not trusted or the handshake was refused: check the URL's host and scheme " +
				"(check ANTHROPIC_BASE_URL and the network), or, behind a proxy that intercepts TLS, name its CA in SSL_CERT_FILE"})
	})

	It("gives up on a TLS handshake that does not finish within the connect timeout", func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		conns := make(chan net.Conn, 4)
		DeferCleanup(func() {
			_ = l.Close()
			for len(conns) > 0 {
				_ = (<-conns).Close()
			}
		})
		go func() { // accepts, and says nothing
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				select {
				case conns <- c:
				default:
					_ = c.Close()
				}
			}
		}()
		_, err = run(context.Background(), faulty("https://"+l.Addr().String(), provider.Timeouts{Connect: 200 * time.Millisecond}), provider.Request{})
		check(err, fault{kind: provider.ErrTimeout, message: "the TLS handshake with " + l.Addr().String() + " did not finish in time",
			hint: "the TLS handshake did not finish: try again; if it keeps happening, check ANTHROPIC_BASE_URL and the network", retry: true})
	})

	It("says the TLS handshake failed when the server speaks plain HTTP", func() {
		plain := providertest.NewServer()
		DeferCleanup(plain.Close)
		_, err := run(context.Background(), faulty(strings.Replace(plain.URL(), "http://", "https://", 1), provider.Timeouts{}), provider.Request{})
		e := apiError(err)
		Expect(e.Kind).To(Equal(provider.ErrTLS))
		Expect(e.Message).To(HaveSuffix("failed: the server did not answer in TLS (is it plain http? then the URL should say http://)"))
	})

	It("hands the tool_use blocks that had finished on with a broken stream, and marks the one cut off as Incomplete", func() {
		p := serve(func(s *providertest.Stream) {
			s.Start()
			s.Tool(0, "tu_1", "Read", `{"file_path":"a.go"}`)
			s.ToolStart(1, "tu_2", "Bash")
			s.ToolInput(1, `{"command":"rm -rf bu`, 5)
			s.Reset()
		})
		evs, err := run(context.Background(), p, provider.Request{})
		e := apiError(err)
		Expect(e.Kind).To(Equal(provider.ErrStream))
		Expect(e.Partial).NotTo(BeNil())
		Expect(e.Partial.Content).To(HaveLen(2))
		Expect(e.Partial.Content[0]).To(Equal(provider.ToolUse("tu_1", "Read", json.RawMessage(`{"file_path":"a.go"}`))))
		cut := e.Partial.Content[1]
		Expect(cut.ID).To(Equal("tu_2"))
		Expect(cut.Incomplete).To(BeTrue())
		Expect(string(cut.Input)).To(Equal(`{}`))
		var types []provider.EventType
		for _, ev := range evs {
			types = append(types, ev.Type)
		}
		Expect(types).To(Equal([]provider.EventType{provider.EventToolUseStart, provider.EventToolUse, provider.EventToolUseStart}),
			"the cut-off call never becomes an EventToolUse before the failure")
	})

	It("marks a tool_use cut off by max_tokens as Incomplete, in its EventToolUse and in the message", func() {
		p := serve(func(s *providertest.Stream) {
			s.Start()
			s.ToolStart(0, "tu_1", "Write")
			s.ToolInput(0, `{"file_path":"a.go","content":"package ma`, 9)
			s.BlockStop(0)
			s.Stop("max_tokens")
		})
		evs, err := run(context.Background(), p, provider.Request{})
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(3))
		Expect(evs[1].Type).To(Equal(provider.EventToolUse))
		Expect(evs[1].Block.Incomplete).To(BeTrue())
		Expect(string(evs[1].Block.Input)).To(Equal(`{}`))
		last := evs[2]
		Expect(last.Type).To(Equal(provider.EventMessage))
		Expect(last.StopReason).To(Equal(provider.StopMaxTokens))
		Expect(last.Message.Content[0].Incomplete).To(BeTrue())
	})

	It("does not mark a whole tool_use Incomplete", func() {
		p := serve(func(s *providertest.Stream) {
			s.Start()
			s.Tool(0, "tu_1", "Read", `{"file_path":"a.go"}`)
			s.Stop("tool_use")
		})
		evs, err := run(context.Background(), p, provider.Request{})
		Expect(err).NotTo(HaveOccurred())
		Expect(evs[len(evs)-1].Message.Content[0].Incomplete).To(BeFalse())
	})

	It("hands the message on at message_stop while the server still holds the connection", func() {
		release, letGo := make(chan struct{}), make(chan struct{})
		holding := make(chan struct{})
		p := serveWith(provider.Timeouts{}, func(s *providertest.Stream) {
			s.Start()
			s.Text(0, "pong")
			s.Stop("end_turn")
			close(holding)
			s.Hold(release)
			close(letGo)
		})
		defer close(release)
		var got *provider.Event
		for ev, err := range p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("ping")}}}}) {
			Expect(err).NotTo(HaveOccurred())
			if ev.Type == provider.EventMessage {
				Eventually(holding).Should(BeClosed())
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
	})

	It("sends a NoStream request without streaming and yields the same events at the end", func() {
		p := serve(func(s *providertest.Stream) {
			s.JSON(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": "fake-model",
				"content": []any{
					map[string]any{"type": "text", "text": "Reading."},
					map[string]any{"type": "tool_use", "id": "tu_1", "name": "Read", "input": map[string]any{"file_path": "a.go"}},
				},
				"stop_reason": "tool_use", "stop_sequence": nil, "usage": map[string]any{"input_tokens": 11, "output_tokens": 7}})
		})
		evs, err := run(context.Background(), p, provider.Request{NoStream: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Requests()[0].Body["stream"]).To(BeFalse())
		var types []provider.EventType
		for _, ev := range evs {
			types = append(types, ev.Type)
		}
		Expect(types).To(Equal([]provider.EventType{provider.EventText, provider.EventToolUseStart, provider.EventToolUse, provider.EventMessage}))
		Expect(evs[0].Text).To(Equal("Reading."))
		Expect(string(evs[2].Block.Input)).To(Equal(`{"file_path":"a.go"}`))
		last := evs[3]
		Expect(last.StopReason).To(Equal(provider.StopToolUse))
		Expect(last.Usage).To(Equal(provider.Usage{InputTokens: 11, OutputTokens: 7}))
		Expect(last.Message.ToolUses()).To(HaveLen(1))
	})

	It("bounds a NoStream request by the request timeout", func() {
		p := serve(func(s *providertest.Stream) { s.Hang() })
		_, err := run(context.Background(), p, provider.Request{NoStream: true})
		e := apiError(err)
		Expect(e.Kind).To(Equal(provider.ErrTimeout))
		Expect(e.Message).To(HaveSuffix("within 300ms of sending the request"))
	})

	It("ends a wait at once when the caller cancels, with the context's error", func() {
		srv = providertest.NewServer(func(s *providertest.Stream) { s.Start(); s.Text(0, "hello"); s.Hang() })
		DeferCleanup(srv.Close)
		p := faulty(srv.URL(), provider.Timeouts{}) // the default idle time: only the cancel can end this
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
		_, isAPI := errors.AsType[*provider.APIError](err)
		Expect(isAPI).To(BeFalse())
	})

	It("sends each request once: the loop, not the SDK, retries", func() {
		p := serve(func(s *providertest.Stream) { s.Error(500, "api_error", "boom") })
		_, err := run(context.Background(), p, provider.Request{})
		Expect(apiError(err).Status).To(Equal(500))
		Expect(srv.Requests()).To(HaveLen(1))
	})
})
