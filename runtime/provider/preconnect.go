package provider

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// preconnectLife is how long a connection opened ahead of the first
// request waits to be taken before it is closed: a request sent later
// dials its own, so that no connection a server may have dropped as idle
// in the meantime is used.
var preconnectLife = 10 * time.Second

// Preconnector is a Provider that can open its connection to the API
// before its first request, while the caller prepares that request (a
// session opening): the request then skips the dial. It is optional; a
// provider without it dials when it sends.
type Preconnector interface {
	// Preconnect starts the connection in the background and returns at
	// once. A failed dial is not reported: the request dials again and
	// reports its own failure.
	Preconnect()
}

// dialer dials as its transport would, and hands out a connection opened
// ahead by preconnect to the first dial of the same address.
type dialer struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	connect time.Duration
	life    time.Duration // preconnectLife when made
	mu      sync.Mutex
	early   map[string]chan earlyConn // by network and address
}

type earlyConn struct {
	c   net.Conn
	err error
}

func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	key := network + " " + addr
	d.mu.Lock()
	ch, ok := d.early[key]
	delete(d.early, key)
	d.mu.Unlock()
	if ok {
		select {
		case e := <-ch:
			if e.err == nil && alive(e.c) {
				return e.c, nil
			}
		case <-ctx.Done():
			go closeEarly(ch)
			return nil, ctx.Err()
		}
	}
	return d.dial(ctx, network, addr)
}

// preconnect dials network addr in the background, for DialContext to
// take; one early connection per address at a time. One not taken
// within preconnectLife is closed.
func (d *dialer) preconnect(network, addr string) {
	key := network + " " + addr
	ch := make(chan earlyConn, 1)
	d.mu.Lock()
	if _, dup := d.early[key]; dup {
		d.mu.Unlock()
		return
	}
	if d.early == nil {
		d.early = map[string]chan earlyConn{}
	}
	d.early[key] = ch
	d.mu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), d.connect)
		c, err := d.dial(ctx, network, addr)
		cancel()
		ch <- earlyConn{c, err}
		time.AfterFunc(d.life, func() {
			d.mu.Lock()
			mine := d.early[key] == ch
			if mine {
				delete(d.early, key)
			}
			d.mu.Unlock()
			if mine {
				closeEarly(ch)
			}
		})
	}()
}

func closeEarly(ch chan earlyConn) {
	if e := <-ch; e.c != nil {
		_ = e.c.Close()
	}
}

// Preconnect opens, in the background, the connection a request to
// rawURL would open (to its proxy when the environment names one for
// it), for the clients' first request there to take instead of dialing.
// Only the TCP connection is made ahead; TLS follows when the request
// takes it. A URL that does not parse is ignored.
func (c HTTPClients) Preconnect(rawURL string) {
	if c.dialer == nil {
		return
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return
	}
	if c.transport != nil && c.transport.Proxy != nil {
		p, err := c.transport.Proxy(&http.Request{Method: http.MethodPost, URL: u, Header: http.Header{}})
		if err != nil {
			return
		}
		if p != nil {
			if p.Scheme != "http" && p.Scheme != "https" {
				return // a SOCKS proxy dials on its own
			}
			u = p
		}
	}
	c.dialer.preconnect("tcp", hostPort(u))
}

// hostPort is u's host with its port, the scheme's default when it has
// none, as net/http dials it.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
