package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
)

// pong is a whole streamed response that says "pong".
var pong = []string{
	`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"pong"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`,
	`{"type":"message_stop"}`,
}

// seen is what the fake Messages API was sent.
type seen struct {
	header http.Header
	body   map[string]any
}

// fakeMessages serves every request with status and, for 200, the pong
// stream; otherwise body as the error.
func fakeMessages(status int, body string) (*httptest.Server, func() []seen) {
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b map[string]any
		_ = json.NewDecoder(r.Body).Decode(&b)
		mu.Lock()
		got = append(got, seen{header: r.Header.Clone(), body: b})
		mu.Unlock()
		if status != http.StatusOK {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range pong {
			var probe struct{ Type string }
			_ = json.Unmarshal([]byte(ev), &probe)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", probe.Type, ev)
		}
	}))
	DeferCleanup(srv.Close)
	GinkgoT().Setenv("ANTHROPIC_BASE_URL", srv.URL)
	return srv, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), got...)
	}
}

func ask(p *Provider) (string, error) {
	var text string
	for ev, err := range p.Stream(context.Background(), provider.Request{Messages: []provider.Message{
		{Role: provider.User, Content: []provider.Block{provider.Text("ping")}}}}) {
		if err != nil {
			return text, err
		}
		text += ev.Text
	}
	return text, nil
}

var _ = Describe("the environment and the wire (fake Messages API on loopback)", func() {
	BeforeEach(func() {
		for _, v := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_MODEL", "ANTHROPIC_PROFILE"} {
			GinkgoT().Setenv(v, "")
		}
		GinkgoT().Setenv("ANTHROPIC_CONFIG_DIR", GinkgoT().TempDir())
	})
	noRetry := option.WithMaxRetries(0)

	It("sends Options.AuthToken as the bearer credential in place of the environment's key, for gateways", func() {
		_, got := fakeMessages(http.StatusOK, "")
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "sk-ant-real-key")
		text, err := ask(NewWithOptions(Options{Model: "m", AuthToken: "gateway-token", RequestOptions: []option.RequestOption{noRetry}}))
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("pong"))
		h := got()[0].header
		Expect(h.Get("Authorization")).To(Equal("Bearer gateway-token"))
		Expect(h.Get("X-Api-Key")).To(BeEmpty())
		Expect(h.Values("Authorization")).To(HaveLen(1), "the real key is not sent along")
	})

	It("leaves the key to the SDK's credential chain when no credential is given", func() {
		_, got := fakeMessages(http.StatusOK, "")
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "sk-ant-env-key")
		_, err := ask(New("m", noRetry))
		Expect(err).NotTo(HaveOccurred())
		h := got()[0].header
		Expect([]string{h.Get("X-Api-Key"), h.Get("Authorization")}).To(ContainElement(Or(Equal("sk-ant-env-key"), Equal("Bearer sk-ant-env-key"))))
	})

	It("reads no ANTHROPIC_MODEL: the model is the one given, else DefaultModel", func() {
		_, got := fakeMessages(http.StatusOK, "")
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "k")
		GinkgoT().Setenv("ANTHROPIC_MODEL", "claude-from-env")
		p := New("", noRetry)
		Expect(p.Name()).To(Equal("anthropic:" + DefaultModel))
		_, err := ask(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(got()[0].body).To(HaveKeyWithValue("model", DefaultModel))
		Expect(New("claude-given").Name()).To(Equal("anthropic:claude-given"))
	})

	It("sends the User-Agent it is given", func() {
		_, got := fakeMessages(http.StatusOK, "")
		p := NewWithOptions(Options{Model: "m", APIKey: "k", UserAgent: "agentcore/1.2.3", RequestOptions: []option.RequestOption{noRetry}})
		_, err := ask(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(got()[0].header.Get("User-Agent")).To(Equal("agentcore/1.2.3"))
		Expect(got()[0].header.Get("Authorization")).To(Equal("Bearer k"))
	})

	DescribeTable("reports failures with the status, the kind and what to do",
		func(status int, body string, kind provider.ErrorKind, want ...string) {
			fakeMessages(status, body)
			_, err := ask(NewWithOptions(Options{Model: "m", APIKey: "k", RequestOptions: []option.RequestOption{noRetry}}))
			var apiErr *provider.APIError
			Expect(err).To(BeAssignableToTypeOf(apiErr))
			Expect(err.(*provider.APIError).Kind).To(Equal(kind))
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("overloaded", 529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			provider.ErrOverloaded, "anthropic: 529", "(overloaded): Overloaded", "try again in a moment"),
		Entry("a server error", 500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`,
			provider.ErrServer, "500 Internal Server Error (server error)"),
		Entry("a wrong key", 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`,
			provider.ErrAuth, "401 Unauthorized (authentication failed): invalid x-api-key", "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN"),
	)
})
