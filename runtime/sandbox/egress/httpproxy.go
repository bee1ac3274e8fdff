package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// httpProxy is the HTTP proxy sandboxed commands reach through HTTP_PROXY
// and HTTPS_PROXY: CONNECT tunnels (HTTPS, or anything else) filtered by
// the CONNECT host, and plain HTTP requests in absolute form filtered by
// the request's host. Nothing is decrypted. A refusal is a 403 whose body
// and X-Proxy-Error header say which host and which setting.
//
// It is written here rather than taken from a proxy library: what it
// does is small, and goproxy, used before, parsed its man-in-the-middle
// CA in an initialiser, which cost every start of agentcore about 0.6 ms
// before main (issue 36).
type httpProxy struct {
	policy *Policy
	tr     *http.Transport
}

func newHTTPProxy(p *Policy) http.Handler {
	return &httpProxy{policy: p, tr: &http.Transport{
		DialContext:           p.dial,
		ForceAttemptHTTP2:     false,
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 5 * time.Minute,
		// The body goes to the client as the server sent it.
		DisableCompression: true,
	}}
}

func (h *httpProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		h.connect(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		http.Error(w, "this is the sandbox's HTTP proxy: it takes requests with an absolute URL (HTTP_PROXY) and CONNECT", http.StatusBadRequest)
		return
	}
	if r.URL.Scheme != "http" {
		http.Error(w, fmt.Sprintf("the sandbox's HTTP proxy forwards http:// URLs; for %s:// use CONNECT", r.URL.Scheme), http.StatusBadRequest)
		return
	}
	// The host of the request line decides, not a Host header: net/http
	// sets r.Host from an absolute URL, and the request goes out to it.
	if err := check(r.Context(), h.policy, r.URL.Host); err != nil {
		refuse(w, err)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Host = r.URL.Host
	if r.ContentLength == 0 {
		out.Body = nil
	}
	dropHopHeaders(out.Header)
	res, err := h.tr.RoundTrip(out)
	if err != nil {
		if r.Context().Err() != nil {
			return // the client went away
		}
		refuse(w, err)
		return
	}
	defer func() { _ = res.Body.Close() }()
	dropHopHeaders(res.Header)
	for k, vs := range res.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(res.StatusCode)
	copyFlushing(w, res.Body)
}

// connect opens a tunnel to the CONNECT request's host, when the policy
// allows it.
func (h *httpProxy) connect(w http.ResponseWriter, r *http.Request) {
	up, err := h.policy.dial(r.Context(), "tcp", r.URL.Host)
	if err != nil {
		refuse(w, err)
		return
	}
	defer func() { _ = up.Close() }()
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "the sandbox's HTTP proxy cannot tunnel on this connection: "+err.Error(), http.StatusInternalServerError)
		return
	}
	defer func() { _ = client.Close() }()
	// Both ends close when the proxies stop.
	stop := context.AfterFunc(r.Context(), func() {
		_ = client.Close()
		_ = up.Close()
	})
	defer stop()
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	pipe(client, up, buf.Reader)
}

// refuse answers a request the policy refused (403) or whose host could
// not be reached (502), saying why.
func refuse(w http.ResponseWriter, err error) {
	code := http.StatusForbidden
	if _, ok := errors.AsType[*Denied](err); !ok {
		code = http.StatusBadGateway
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Proxy-Error", "blocked-by-sandbox")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, err.Error()+"\n")
}

// hopHeaders are the headers of one connection (RFC 9110 7.6.1), not
// forwarded.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func dropHopHeaders(h http.Header) {
	for _, v := range h.Values("Connection") {
		for name := range strings.SplitSeq(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				h.Del(name)
			}
		}
	}
	for _, name := range hopHeaders {
		h.Del(name)
	}
}

// copyFlushing copies a response body to the client, flushing each piece
// so that a streamed response streams.
func copyFlushing(w http.ResponseWriter, body io.Reader) {
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		n, err := body.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			_ = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}

// check decides the host of host:port (or a bare host).
func check(ctx context.Context, p *Policy, hostport string) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	_, err = p.Decide(ctx, host)
	return err
}
