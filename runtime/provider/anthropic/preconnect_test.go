package anthropic

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
)

var _ = Describe("Preconnect (fake Messages API on loopback)", func() {
	It("connects to the base URL with no request, and the first request goes over that connection", func() {
		var mu sync.Mutex
		var conns, requests int
		srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			requests++
			mu.Unlock()
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range pong {
				var probe struct{ Type string }
				Expect(json.Unmarshal([]byte(ev), &probe)).To(Succeed())
				fmt.Fprintf(w, "event: %s\ndata: %s\n\n", probe.Type, ev)
			}
		}))
		srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				mu.Lock()
				conns++
				mu.Unlock()
			}
		}
		srv.Start()
		DeferCleanup(srv.Close)
		count := func() [2]int {
			mu.Lock()
			defer mu.Unlock()
			return [2]int{conns, requests}
		}

		p := NewWithOptions(Options{Model: "m", APIKey: "k", RequestOptions: []option.RequestOption{option.WithBaseURL(srv.URL)}})
		var _ provider.Preconnector = p
		p.Preconnect()
		Eventually(count).Should(Equal([2]int{1, 0}), "one connection, no request")

		text, err := ask(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("pong"))
		Expect(count()).To(Equal([2]int{1, 1}), "the request took the early connection")
	})

	It("does nothing on Bedrock, whose URL is made as the request is signed", func() {
		var mu sync.Mutex
		conns := 0
		srv := httptest.NewUnstartedServer(http.NotFoundHandler())
		srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				mu.Lock()
				conns++
				mu.Unlock()
			}
		}
		srv.Start()
		DeferCleanup(srv.Close)
		p := NewWithOptions(Options{Model: "m", APIKey: "k", RequestOptions: []option.RequestOption{option.WithBaseURL(srv.URL)}})
		p.platform = "bedrock"
		p.Preconnect()
		Consistently(func() int {
			mu.Lock()
			defer mu.Unlock()
			return conns
		}, 100*time.Millisecond).Should(BeZero())
	})
})
