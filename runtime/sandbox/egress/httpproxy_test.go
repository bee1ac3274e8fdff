package egress_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox/egress"
)

var _ = Describe("the HTTP proxy, spoken to directly on its socket", func() {
	var (
		px       *egress.Proxies
		upstream *httptest.Server
		step     chan struct{}
		seen     chan http.Header
		sock     string
	)
	BeforeEach(func() {
		step, seen = make(chan struct{}), make(chan http.Header, 1)
		upstream = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			seen <- r.Header.Clone()
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Connection", "X-Hop")
			w.Header().Set("X-Hop", "dropped")
			w.Header().Set("X-End", "kept")
			fmt.Fprintf(w, "got %s %s\n", r.Method, body)
			w.(http.Flusher).Flush()
			select { // the first line must reach the client before this
			case <-step:
			case <-r.Context().Done():
			}
			fmt.Fprint(w, "second\n")
		}))
		DeferCleanup(upstream.Close)
		var err error
		px, err = egress.Start(&egress.Policy{Allowed: []string{"127.0.0.1"}, Resolver: loopbackResolver{}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(px.Close)
		sock = filepath.Join(px.Dir, "http.sock")
	})
	client := func() *http.Client {
		proxy, _ := url.Parse("http://proxy.invalid")
		return &http.Client{Transport: &http.Transport{
			Proxy: http.ProxyURL(proxy),
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "unix", sock)
			},
		}}
	}

	It("forwards a request with its body, drops hop-by-hop headers both ways, and streams the response", func() {
		req, err := http.NewRequest(http.MethodPost, upstream.URL+"/x", strings.NewReader("payload"))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Connection", "X-Secret")
		req.Header.Set("X-Secret", "hop")
		req.Header.Set("X-Kept", "yes")
		res, err := client().Do(req)
		Expect(err).NotTo(HaveOccurred())
		defer res.Body.Close()
		hdr := <-seen
		Expect(hdr.Get("X-Secret")).To(BeEmpty())
		Expect(hdr.Get("X-Kept")).To(Equal("yes"))
		Expect(res.Header.Get("X-Hop")).To(BeEmpty())
		Expect(res.Header.Get("X-End")).To(Equal("kept"))
		r := bufio.NewReader(res.Body)
		line, err := r.ReadString('\n')
		Expect(err).NotTo(HaveOccurred())
		Expect(line).To(Equal("got POST payload\n"), "the first piece arrives while the upstream still holds the response")
		close(step)
		rest, err := io.ReadAll(r)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rest)).To(Equal("second\n"))
	})

	It("refuses a host the policy does not allow with a 403 naming it, and a request not meant for a proxy with a 400", func() {
		close(step)
		res, err := client().Get("http://denied.test:1/")
		Expect(err).NotTo(HaveOccurred())
		body, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		Expect(res.StatusCode).To(Equal(http.StatusForbidden))
		Expect(res.Header.Get("X-Proxy-Error")).To(Equal("blocked-by-sandbox"))
		Expect(string(body)).To(ContainSubstring("denied.test"))

		direct := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}}
		res, err = direct.Get("http://127.0.0.1/not-a-proxy-request")
		Expect(err).NotTo(HaveOccurred())
		_ = res.Body.Close()
		Expect(res.StatusCode).To(Equal(http.StatusBadRequest))
	})
})
