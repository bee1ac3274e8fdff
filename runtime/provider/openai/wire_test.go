package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/openai"
	"github.com/agentcore/agentcore/runtime/provider/providertest"
)

var _ = Describe("the provider's own HTTP and server-sent events (loopback server writing the bytes)", func() {
	var srv *providertest.Server
	serve := func(o openai.Options, scripts ...providertest.Script) *openai.Provider {
		srv = providertest.NewServer(scripts...)
		DeferCleanup(srv.Close)
		o.Model, o.BaseURL = "fake-model", srv.URL()+"/v1/"
		if o.APIKey == "" {
			o.APIKey = "k"
		}
		p, err := openai.New(o)
		Expect(err).NotTo(HaveOccurred())
		return p
	}
	run := func(p *openai.Provider) ([]provider.Event, error) {
		var evs []provider.Event
		for ev, err := range p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("go")}}}}) {
			if err != nil {
				return evs, err
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}

	It("reads CRLF line ends, comments, named events and data split over several lines", func() {
		p := serve(openai.Options{}, func(s *providertest.Stream) {
			s.Raw(": keep-alive\r\n\r\n")
			s.Raw("event: chunk\r\nid: 1\r\ndata: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"he\"}}]}\r\n\r\n")
			s.Raw("data:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"llo\"},\"finish_reason\":\"stop\"}]}\n\n")
			s.Raw("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}\r\n\r\n")
			s.Raw("data: [DONE]\r\n\r\n")
		})
		evs, err := run(p)
		Expect(err).NotTo(HaveOccurred())
		last := evs[len(evs)-1]
		Expect(last.Message.Content).To(Equal([]provider.Block{provider.Text("hello")}))
		Expect(last.StopReason).To(Equal(provider.StopEndTurn))
		Expect(last.Usage).To(Equal(provider.Usage{InputTokens: 9, OutputTokens: 2}))
	})

	It("reads a chunk far larger than its read buffer: a tool call's arguments in one piece", func() {
		big := strings.Repeat("x", 200<<10)
		args := `{"content":"` + big + `"}`
		p := serve(openai.Options{}, func(s *providertest.Stream) {
			s.ChatTool(0, "call_a", "Write", args, len(args))
			s.ChatFinish("tool_calls")
			s.Done()
		})
		evs, err := run(p)
		Expect(err).NotTo(HaveOccurred())
		last := evs[len(evs)-1]
		Expect(last.StopReason).To(Equal(provider.StopToolUse))
		Expect(string(last.Message.ToolUses()[0].Input)).To(Equal(args))
	})

	It("drops an event the stream ends in the middle of, and says the stream ended early", func() {
		p := serve(openai.Options{}, func(s *providertest.Stream) {
			s.ChatText("partly")
			s.Raw(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`)
		})
		_, err := run(p)
		e, ok := errors.AsType[*provider.APIError](err)
		Expect(ok).To(BeTrue(), "want an APIError, got %v", err)
		Expect(e.Kind).To(Equal(provider.ErrStream))
		Expect(e.Message).To(ContainSubstring("the stream ended before a finish_reason"))
		Expect(e.Partial.Content).To(Equal([]provider.Block{provider.Text("partly")}))
	})

	It("posts to the base URL's chat/completions with its headers, a trailing slash or not", func() {
		p := serve(openai.Options{APIKey: "sk-x", UserAgent: "agentcore/9", Header: http.Header{"x-gateway": {"g1"}}},
			func(s *providertest.Stream) { s.ChatText("hi"); s.ChatFinish("stop"); s.Done() })
		_, err := run(p)
		Expect(err).NotTo(HaveOccurred())
		r := srv.Requests()[0]
		Expect(r.Path).To(Equal("/v1/chat/completions"))
		Expect(r.Header.Get("Authorization")).To(Equal("Bearer sk-x"))
		Expect(r.Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(r.Header.Get("User-Agent")).To(Equal("agentcore/9"))
		Expect(r.Header.Get("X-Gateway")).To(Equal("g1"))
	})

	DescribeTable("an error response's message: the API's, else the error as sent, else the body",
		func(script providertest.Script, status int, message string) {
			_, err := run(serve(openai.Options{}, script))
			e, ok := errors.AsType[*provider.APIError](err)
			Expect(ok).To(BeTrue(), "want an APIError, got %v", err)
			Expect(e.Status).To(Equal(status))
			Expect(e.Message).To(Equal(message))
		},
		Entry("{error: {message}}", func(s *providertest.Stream) { s.Error(400, "invalid_request_error", "bad tools") },
			400, "bad tools"),
		Entry("{error: string}", func(s *providertest.Stream) { s.Status(500, "application/json", `{"error":"the model runner died"}`) },
			500, "the model runner died"),
		Entry("{error: {code}} without a message", func(s *providertest.Stream) {
			s.Status(429, "application/json", `{"error":{"code":"quota"}}`)
		}, 429, `{"code":"quota"}`),
		Entry("a proxy's HTML page", func(s *providertest.Stream) {
			s.Status(502, "text/html", "<html><body>Bad Gateway</body></html>\n")
		}, 502, `"<html><body>Bad Gateway</body></html>"`),
		Entry("an empty body", func(s *providertest.Stream) { s.Status(503, "text/plain", "") },
			503, ""),
	)

	It("refuses a base URL that is not an http or https URL, saying what to set", func() {
		_, err := openai.New(openai.Options{Model: "m", BaseURL: "localhost:11434/v1"})
		Expect(err).To(MatchError(ContainSubstring(`the base URL "localhost:11434/v1" is not an http or https URL: set OPENAI_BASE_URL`)))
	})

	It("encodes tools and messages as the API's JSON", func() {
		tools, err := openai.Tools([]provider.Tool{{Name: "Bare"}})
		Expect(err).NotTo(HaveOccurred())
		data, err := json.Marshal(tools)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal(`[{"type":"function","function":{"name":"Bare"}}]`))
	})
})
