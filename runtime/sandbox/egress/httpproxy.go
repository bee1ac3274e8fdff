package egress

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"time"

	"github.com/elazarl/goproxy"
)

// newHTTPProxy is the HTTP proxy sandboxed commands reach through
// HTTP_PROXY and HTTPS_PROXY: CONNECT tunnels (HTTPS, or anything else)
// filtered by the CONNECT host, and plain HTTP requests filtered by the
// request's host. Nothing is decrypted. A refusal is a 403 whose body
// and X-Proxy-Error header say which host and which setting.
func newHTTPProxy(p *Policy) http.Handler {
	px := goproxy.NewProxyHttpServer()
	px.Logger = log.New(io.Discard, "", 0)
	px.Tr = &http.Transport{
		DialContext:           p.dial,
		ForceAttemptHTTP2:     false,
		MaxIdleConns:          16,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 5 * time.Minute,
	}
	px.ConnectDialWithReq = func(req *http.Request, network, addr string) (net.Conn, error) {
		return p.dial(req.Context(), network, addr)
	}
	px.OnRequest().HandleConnectFunc(func(host string, ctx *goproxy.ProxyCtx) (*goproxy.ConnectAction, string) {
		if err := check(ctx.Req.Context(), p, host); err != nil {
			ctx.Resp = refusal(ctx.Req, err)
			return goproxy.RejectConnect, host
		}
		return goproxy.OkConnect, host
	})
	px.OnRequest().DoFunc(func(r *http.Request, ctx *goproxy.ProxyCtx) (*http.Request, *http.Response) {
		if err := check(r.Context(), p, r.URL.Host); err != nil {
			return r, refusal(r, err)
		}
		return r, nil
	})
	return px
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

func refusal(r *http.Request, err error) *http.Response {
	code := http.StatusForbidden
	var d *Denied
	if !errors.As(err, &d) {
		code = http.StatusBadGateway
	}
	resp := goproxy.NewResponse(r, goproxy.ContentTypeText, code, err.Error()+"\n")
	resp.Header.Set("X-Proxy-Error", "blocked-by-sandbox")
	return resp
}
