package provider_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
)

// countingListener counts the connections it accepts, and closes the
// first `drop` of them at once, as a server that drops idle connections.
type countingListener struct {
	net.Listener
	mu       sync.Mutex
	accepted int
	drop     int
	dropped  chan struct{}
}

func (l *countingListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		l.accepted++
		drop := l.accepted <= l.drop
		l.mu.Unlock()
		if !drop {
			return c, nil
		}
		_ = c.Close()
		l.dropped <- struct{}{}
	}
}

func (l *countingListener) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.accepted
}

// loopback is an HTTP server on loopback that counts its connections,
// its requests, and the connections it saw closed.
type loopback struct {
	srv      *httptest.Server
	ln       *countingListener
	mu       sync.Mutex
	requests int
	closed   int
}

func newLoopback(drop int) *loopback {
	s := &loopback{}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests++
		s.mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "ok")
	}))
	s.ln = &countingListener{Listener: s.srv.Listener, drop: drop, dropped: make(chan struct{}, drop)}
	s.srv.Listener = s.ln
	s.srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateClosed {
			s.mu.Lock()
			s.closed++
			s.mu.Unlock()
		}
	}
	s.srv.Start()
	DeferCleanup(s.srv.Close)
	return s
}

func (s *loopback) requestCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *loopback) closedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func get(c *http.Client, url string) string {
	GinkgoHelper()
	res, err := c.Get(url)
	Expect(err).NotTo(HaveOccurred())
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("connecting ahead of the first request (HTTPClients.Preconnect, loopback server)", func() {
	It("opens the connection before any request, and the first request goes over it", func() {
		s := newLoopback(0)
		c := provider.NewHTTPClients("test", provider.Timeouts{}, provider.Hints{})
		c.Preconnect(s.srv.URL + "/v1/messages")
		Eventually(s.ln.count).Should(Equal(1), "the connection is made with no request")
		Expect(s.requestCount()).To(BeZero())

		Expect(get(c.Stream, s.srv.URL+"/v1/messages")).To(Equal("ok"))
		Expect(get(c.OneShot, s.srv.URL+"/v1/messages")).To(Equal("ok"))
		Expect(s.requestCount()).To(Equal(2))
		Expect(s.ln.count()).To(Equal(1), "both requests used the early connection, the second as the pool's idle one")
	})

	It("dials anew when the server closed the early connection before the request", func() {
		s := newLoopback(1)
		c := provider.NewHTTPClients("test", provider.Timeouts{}, provider.Hints{})
		c.Preconnect(s.srv.URL)
		<-s.ln.dropped

		Expect(get(c.Stream, s.srv.URL)).To(Equal("ok"), "the dead connection is not used")
		Expect(s.ln.count()).To(Equal(2))
	})

	It("closes an early connection that no request takes in its life", func() {
		DeferCleanup(provider.SetPreconnectLife(50 * time.Millisecond))
		s := newLoopback(0)
		c := provider.NewHTTPClients("test", provider.Timeouts{}, provider.Hints{})
		c.Preconnect(s.srv.URL)
		Eventually(s.ln.count).Should(Equal(1))
		Eventually(s.closedCount).Should(Equal(1), "the unused connection is closed")

		Expect(get(c.Stream, s.srv.URL)).To(Equal("ok"))
		Expect(s.ln.count()).To(Equal(2), "the request dialed its own")
	})

	It("connects once for several calls, and ignores a URL it cannot dial", func() {
		s := newLoopback(0)
		c := provider.NewHTTPClients("test", provider.Timeouts{}, provider.Hints{})
		c.Preconnect(s.srv.URL)
		c.Preconnect(s.srv.URL)
		c.Preconnect("::not a url")
		c.Preconnect("unix:///tmp/socket")
		Eventually(s.ln.count).Should(Equal(1))
		Consistently(s.ln.count, 100*time.Millisecond).Should(Equal(1))
		var zero provider.HTTPClients
		zero.Preconnect(s.srv.URL) // clients not made by NewHTTPClients: nothing happens
	})
})
