package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/web"
)

var _ = Describe("Fetcher", func() {
	var (
		srv   *httptest.Server
		other *httptest.Server
		hits  atomic.Int32
		f     *web.Fetcher
		now   time.Time
	)

	BeforeEach(func() {
		hits.Store(0)
		other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, "elsewhere")
		}))
		mux := http.NewServeMux()
		mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><body><h1>Install</h1><p>Run <code>make</code> then <a href="/docs">read</a>.</p></body></html>`)
		})
		mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/page", http.StatusFound) })
		mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other.URL+"/x", http.StatusFound) })
		mux.HandleFunc("/as-user", func(w http.ResponseWriter, r *http.Request) {
			// The same host, with credentials in the new URL.
			http.Redirect(w, r, strings.Replace(srv.URL, "http://", "http://user:pw@", 1)+"/page", http.StatusFound)
		})
		mux.HandleFunc("/dotted", func(w http.ResponseWriter, r *http.Request) {
			// The same host, written as an IPv4-mapped IPv6 address.
			http.Redirect(w, r, strings.Replace(srv.URL, "127.0.0.1", "[::ffff:127.0.0.1]", 1)+"/page", http.StatusFound)
		})
		mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			chunk := strings.Repeat("a", 1<<20)
			for range 11 {
				fmt.Fprint(w, chunk)
			}
		})
		mux.HandleFunc("/long", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("b", web.MaxContentChars+10))
		})
		mux.HandleFunc("/bin", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write([]byte{0, 1, 2})
		})
		mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
		srv = httptest.NewServer(mux)
		now = time.Unix(1_000_000, 0)
		f = &web.Fetcher{Now: func() time.Time { return now }}
		DeferCleanup(func() {
			srv.Client().CloseIdleConnections()
			srv.Close()
			other.Close()
			http.DefaultClient.CloseIdleConnections()
		})
	})

	It("converts HTML to Markdown", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/page")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Content).To(ContainSubstring("# Install"))
		Expect(p.Content).To(ContainSubstring("`make`"))
		Expect(p.Content).To(ContainSubstring("[read](/docs)"))
		Expect(p.ContentType).To(Equal("text/html"))
	})

	It("serves a page from the cache for 15 minutes, then fetches again", func() {
		_, err := f.Fetch(context.Background(), srv.URL+"/page")
		Expect(err).NotTo(HaveOccurred())
		now = now.Add(14 * time.Minute)
		p, err := f.Fetch(context.Background(), srv.URL+"/page")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Cached).To(BeTrue())
		Expect(hits.Load()).To(Equal(int32(1)))
		now = now.Add(2 * time.Minute)
		p, err = f.Fetch(context.Background(), srv.URL+"/page")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Cached).To(BeFalse())
		Expect(hits.Load()).To(Equal(int32(2)))
	})

	It("follows a redirect on the same host", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/moved")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.RedirectURL).To(BeEmpty())
		Expect(p.Content).To(ContainSubstring("Install"))
	})

	It("reports a redirect to another host without following it", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/away")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.RedirectURL).To(Equal(other.URL + "/x"))
		Expect(p.Content).To(BeEmpty())
	})

	It("reports a redirect that adds a user name and password, even to the same host", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/as-user")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.RedirectURL).To(ContainSubstring("user:pw@"))
		Expect(p.Content).To(BeEmpty())
	})

	It("follows a redirect to the same host written another way (hosts compare normalised)", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/dotted")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.RedirectURL).To(BeEmpty())
		Expect(p.Content).To(ContainSubstring("Install"))
	})

	DescribeTable("PermittedRedirect, as Claude Code's WebFetch decides but with www. another host",
		func(from, to string, want bool) {
			f, err := url.Parse(from)
			Expect(err).NotTo(HaveOccurred())
			t, err := url.Parse(to)
			Expect(err).NotTo(HaveOccurred())
			Expect(web.PermittedRedirect(f, t)).To(Equal(want))
		},
		Entry("same host, other path", "https://a.example/x", "https://a.example/y", true),
		Entry("same host, explicit default port", "https://a.example/x", "https://a.example:443/y", true),
		Entry("case and trailing dot", "https://A.example/x", "https://a.example./y", true),
		Entry("IPv4-mapped IPv6 of the same address", "http://127.0.0.1:8080/", "http://[::ffff:127.0.0.1]:8080/", true),
		Entry("another host", "https://a.example/", "https://b.example/", false),
		Entry("a suffix of the host", "https://a.example/", "https://a.example.evil.test/", false),
		Entry("www. is another host", "https://a.example/", "https://www.a.example/", false),
		Entry("scheme downgrade", "https://a.example/", "http://a.example/", false),
		Entry("another port", "http://a.example/", "http://a.example:8080/", false),
		Entry("credentials added", "https://a.example/", "https://u:p@a.example/", false),
	)

	It("refuses a body over the size cap", func() {
		_, err := f.Fetch(context.Background(), srv.URL+"/big")
		Expect(err).To(MatchError(ContainSubstring("larger than 10 MB")))
	})

	It("cuts long content and says so", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/long")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Truncated).To(BeTrue())
		Expect(p.Content).To(HaveLen(web.MaxContentChars))
	})

	It("refuses binary content", func() {
		_, err := f.Fetch(context.Background(), srv.URL+"/bin")
		Expect(err).To(MatchError(ContainSubstring("is not text")))
	})

	It("returns the status of an error page and does not cache it", func() {
		p, err := f.Fetch(context.Background(), srv.URL+"/missing")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Status).To(Equal(404))
	})

	DescribeTable("rejects bad URLs",
		func(raw, want string) {
			_, err := f.Fetch(context.Background(), raw)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no scheme", "example.com/x", "must start with http"),
		Entry("file scheme", "file:///etc/passwd", "must start with http"),
		Entry("no host", "http:///x", "has no host"),
		Entry("credentials", "http://u:p@127.0.0.1/", "username or password"),
		Entry("garbage", "http://[::1", "not a valid URL"),
	)
})

var _ = Describe("Searcher", func() {
	var srv *httptest.Server
	var gotQuery atomic.Value

	BeforeEach(func() {
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			gotQuery.Store(r.URL.Query().Get("q"))
			if r.URL.Query().Get("q") == "broken" {
				fmt.Fprint(w, "<html>")
				return
			}
			json.NewEncoder(w).Encode(map[string]any{"results": []web.SearchResult{
				{Title: "Go", URL: "https://go.dev/doc", Snippet: "docs"},
				{Title: "Blog", URL: "https://blog.example.com/go"},
				{Title: "Spam", URL: "https://spam.test/"},
			}})
		}))
		DeferCleanup(srv.Close)
	})

	It("says how to configure a backend when there is none", func() {
		_, err := web.Searcher{}.Search(context.Background(), "go", nil, nil, 10)
		Expect(err).To(MatchError(ContainSubstring(`set "webSearch.endpoint"`)))
	})

	It("returns the backend's results for the query", func() {
		rs, err := web.Searcher{Endpoint: srv.URL}.Search(context.Background(), "golang generics", nil, nil, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(rs).To(HaveLen(3))
		Expect(gotQuery.Load()).To(Equal("golang generics"))
	})

	It("filters blocked and allowed domains itself, subdomains included", func() {
		rs, err := web.Searcher{Endpoint: srv.URL}.Search(context.Background(), "go", nil, []string{"spam.test"}, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(rs).To(HaveLen(2))
		rs, err = web.Searcher{Endpoint: srv.URL}.Search(context.Background(), "go", []string{"example.com"}, nil, 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(rs).To(ConsistOf(HaveField("Title", "Blog")))
	})

	It("reports a backend that does not answer JSON", func() {
		_, err := web.Searcher{Endpoint: srv.URL}.Search(context.Background(), "broken", nil, nil, 10)
		Expect(err).To(MatchError(ContainSubstring("is not {\"results\"")))
	})
})

var _ = Describe("Endpoint", func() {
	It("prefers the environment, then project settings, then user settings", func() {
		project, user := GinkgoT().TempDir(), GinkgoT().TempDir()
		env := map[string]string{"AGENTCORE_CONFIG_DIR": user}
		getenv := func(k string) string { return env[k] }
		Expect(web.Endpoint(getenv, project)).To(BeEmpty())

		Expect(os.WriteFile(filepath.Join(user, "settings.json"), []byte(`{"webSearch":{"endpoint":"http://user"}}`), 0o644)).To(Succeed())
		Expect(web.Endpoint(getenv, project)).To(Equal("http://user"))

		Expect(os.MkdirAll(filepath.Join(project, ".agentcore"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(project, ".agentcore", "settings.json"), []byte(`{"webSearch":{"endpoint":"http://project"}}`), 0o644)).To(Succeed())
		Expect(web.Endpoint(getenv, project)).To(Equal("http://project"))

		env["AGENTCORE_WEB_SEARCH_URL"] = "http://env"
		Expect(web.Endpoint(getenv, project)).To(Equal("http://env"))
	})
})
