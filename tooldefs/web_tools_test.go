package tooldefs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

// echoSummarizer answers with the prompt and the content's length.
type echoSummarizer struct{}

func (echoSummarizer) Summarize(_ context.Context, prompt, content string) (string, error) {
	return fmt.Sprintf("answer to %q from %d chars", prompt, len(content)), nil
}

var _ = Describe("WebFetch and WebSearch, through their generated wrappers", func() {
	var (
		srv *httptest.Server
		tc  *runtime.ToolContext
	)

	BeforeEach(func() {
		mux := http.NewServeMux()
		mux.HandleFunc("/doc", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<h1>Guide</h1><p>Install with make.</p>")
		})
		mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
			json.NewEncoder(w).Encode(map[string]any{"results": []map[string]string{
				{"title": "Guide", "url": "https://docs.example.com/guide", "snippet": "how to " + r.URL.Query().Get("q")},
			}})
		})
		srv = httptest.NewServer(mux)
		DeferCleanup(srv.Close)
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		tc.Env = map[string]string{"AGENTCORE_WEB_SEARCH_URL": srv.URL + "/search", "AGENTCORE_CONFIG_DIR": GinkgoT().TempDir()}
	})

	call := func(name, raw string) (runtime.Result, error) {
		tool := runtime.Lookup(generated.AllBaseTools(), name)
		Expect(tool).NotTo(BeNil())
		in, err := tool.Decode(json.RawMessage(raw))
		Expect(err).NotTo(HaveOccurred())
		if err := tool.ValidateInput(context.Background(), in, tc); err != nil {
			return runtime.Result{}, err
		}
		return tool.Call(context.Background(), in, runtime.NewCall("w", tc, nil))
	}

	It("returns the page as Markdown when no model is available", func() {
		res, err := call("WebFetch", fmt.Sprintf(`{"url":%q,"prompt":"how to install?"}`, srv.URL+"/doc"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(ContainSubstring("# Guide"))
		Expect(res.Text()).To(ContainSubstring("Install with make."))
	})

	It("applies the prompt with the model when one is registered", func() {
		runtime.WithService[runtime.Summarizer](tc, echoSummarizer{})
		res, err := call("WebFetch", fmt.Sprintf(`{"url":%q,"prompt":"how to install?"}`, srv.URL+"/doc"))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(HavePrefix(`answer to "how to install?" from`))
	})

	It("refuses a URL that is not http(s) before fetching", func() {
		_, err := call("WebFetch", `{"url":"file:///etc/passwd","prompt":"x"}`)
		Expect(err).To(MatchError(ContainSubstring("must start with http")))
	})

	It("searches the configured backend and lists the hits", func() {
		res, err := call("WebSearch", `{"query":"build agentcore"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(ContainSubstring("1. Guide"))
		Expect(res.Text()).To(ContainSubstring("https://docs.example.com/guide"))
		Expect(res.Text()).To(ContainSubstring("how to build agentcore"))
	})

	It("refuses allowed and blocked domains together", func() {
		_, err := call("WebSearch", `{"query":"go","allowed_domains":["a.com"],"blocked_domains":["b.com"]}`)
		Expect(err).To(MatchError(ContainSubstring("not both")))
	})

	It("says how to configure a backend when none is", func() {
		delete(tc.Env, "AGENTCORE_WEB_SEARCH_URL")
		GinkgoT().Setenv("AGENTCORE_WEB_SEARCH_URL", "")
		GinkgoT().Setenv("HOME", GinkgoT().TempDir())
		_, err := call("WebSearch", `{"query":"go"}`)
		Expect(err).To(MatchError(ContainSubstring("no web search backend is configured")))
	})
})
