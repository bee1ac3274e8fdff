// Package egress filters the network of sandboxed commands by host.
//
// A sandboxed command gets a network namespace of its own with only
// loopback: it has no route out. The host side runs two proxies, an HTTP
// proxy (CONNECT tunnels and plain HTTP, httpproxy.go) and
// a SOCKS5 server, each listening on a Unix socket in a private
// directory. The sandbox binds that directory into the namespace, and its
// server process bridges a loopback port inside to each socket; the
// command's HTTP_PROXY, HTTPS_PROXY and ALL_PROXY point at those ports.
//
//	sandboxed command ── 127.0.0.1:3128 ─┐ (inside the namespace)
//	                     127.0.0.1:1080 ─┤ bridged by the sandbox server
//	                                     ▼
//	             <dir>/http.sock, <dir>/socks.sock (bound into the sandbox)
//	                                     ▼
//	          agentcore's proxies ── Policy.Decide ── the host's network
//
// Every destination is decided by a Policy: the settings' allowed and
// denied domains, then the user, with private addresses refused unless
// listed. HTTPS is filtered by the CONNECT host, never decrypted; a
// program that ignores the proxy variables reaches nothing.
package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/agentcore/agentcore/runtime/sandbox"
)

// Ports inside the sandbox that the bridges listen on.
const (
	HTTPPort  = 3128
	SOCKSPort = 1080
)

// Proxies are the running HTTP and SOCKS5 proxies of a session, on Unix
// sockets in Dir.
type Proxies struct {
	// Dir holds http.sock and socks.sock.
	Dir string

	policy *Policy
	http   *http.Server
	lns    []net.Listener
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Start starts the proxies of policy on Unix sockets in a new private
// directory under the system's temporary directory. Close stops them
// and removes the directory.
func Start(policy *Policy) (*Proxies, error) {
	dir, err := os.MkdirTemp("", "agentcore-egress-")
	if err != nil {
		return nil, fmt.Errorf("start the sandbox's network proxies: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	px := &Proxies{Dir: dir, policy: policy, cancel: cancel}
	hl, err := net.Listen("unix", filepath.Join(dir, "http.sock"))
	if err != nil {
		px.Close()
		return nil, fmt.Errorf("start the sandbox's HTTP proxy: %w", err)
	}
	px.lns = append(px.lns, hl)
	sl, err := net.Listen("unix", filepath.Join(dir, "socks.sock"))
	if err != nil {
		px.Close()
		return nil, fmt.Errorf("start the sandbox's SOCKS5 proxy: %w", err)
	}
	px.lns = append(px.lns, sl)
	px.http = &http.Server{Handler: newHTTPProxy(policy), BaseContext: func(net.Listener) context.Context { return ctx }}
	px.wg.Add(2)
	go func() {
		defer px.wg.Done()
		_ = px.http.Serve(hl)
	}()
	go func() {
		defer px.wg.Done()
		serveSOCKS(ctx, sl, policy)
	}()
	return px, nil
}

// Policy is the policy the proxies apply.
func (px *Proxies) Policy() *Policy { return px.policy }

// Close stops the proxies, ends their connections and removes Dir.
func (px *Proxies) Close() error {
	px.cancel()
	if px.http != nil {
		_ = px.http.Close()
	}
	for _, l := range px.lns {
		_ = l.Close()
	}
	px.wg.Wait()
	return os.RemoveAll(px.Dir)
}

// Env are the variables that send a command's traffic to the bridges.
func Env() []string {
	h := "http://127.0.0.1:" + strconv.Itoa(HTTPPort)
	s := "socks5h://127.0.0.1:" + strconv.Itoa(SOCKSPort)
	return []string{
		"HTTP_PROXY=" + h, "HTTPS_PROXY=" + h, "ALL_PROXY=" + s,
		"http_proxy=" + h, "https_proxy=" + h, "all_proxy=" + s,
		"NO_PROXY=", "no_proxy=",
	}
}

// Network is the sandbox.Network that filters by host: commands get no
// network of their own, and reach the proxies through bridges. The
// proxies start on the first command and stop with Close.
type Network struct {
	// Policy decides the destinations.
	Policy *Policy

	mu  sync.Mutex
	px  *Proxies
	err error
}

// Egress starts the proxies (once) and returns the namespace, binds,
// bridges and variables of a filtered network.
func (n *Network) Egress(conf *sandbox.Config) (sandbox.Egress, error) {
	if n == nil || n.Policy == nil {
		return sandbox.Egress{}, errors.New("egress: no policy")
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.px == nil && n.err == nil {
		n.px, n.err = Start(n.Policy)
	}
	if n.err != nil {
		return sandbox.Egress{}, n.err
	}
	return sandbox.Egress{
		Binds: []string{n.px.Dir},
		Env:   Env(),
		Bridges: []sandbox.Bridge{
			{Port: HTTPPort, Socket: filepath.Join(n.px.Dir, "http.sock")},
			{Port: SOCKSPort, Socket: filepath.Join(n.px.Dir, "socks.sock")},
		},
	}, nil
}

// Denials returns the hosts refused since the last call (for a tool
// result's note).
func (n *Network) Denials() []string {
	if n == nil || n.Policy == nil {
		return nil
	}
	return n.Policy.Denials()
}

// Close stops the proxies.
func (n *Network) Close() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.px == nil {
		return nil
	}
	err := n.px.Close()
	n.px = nil
	return err
}
