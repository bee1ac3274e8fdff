package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// Resolver looks up the addresses of a host; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// AskFunc asks the user whether a sandboxed command may reach host, which
// no rule decides. It returns the answer, or an error when nobody can be
// asked.
type AskFunc func(ctx context.Context, host string) (bool, error)

// Policy decides which hosts sandboxed commands may reach: the settings'
// sandbox.network.allowedDomains and deniedDomains (exact names and "*."
// wildcards), then, for a host neither decides, the user (Ask), whose
// answer is kept for the session. An address that is private, loopback,
// link-local or otherwise not on the public internet is refused unless
// the host is listed by name (not by a wildcard) or the address itself
// is listed; the check is made on the resolved addresses, which are the
// ones dialled, so a name that resolves differently the second time
// (DNS rebinding) gains nothing.
type Policy struct {
	// Allowed and Denied are the settings' domain lists. Denied wins.
	Allowed, Denied []string
	// Resolver resolves host names; nil is net.DefaultResolver.
	Resolver Resolver
	// Ask decides a host no rule decides; nil refuses it.
	Ask AskFunc

	mu       sync.Mutex
	answers  map[string]bool // the user's answers, by host
	denials  []string        // refusals, oldest first (bounded)
	askGroup map[string]*pending
}

type pending struct {
	done chan struct{}
	ok   bool
	err  error
}

// Denied is the error of a refused destination.
type Denied struct {
	Host   string
	Reason string
}

func (d *Denied) Error() string {
	return fmt.Sprintf("the sandbox refused network access to %s: %s", d.Host, d.Reason)
}

// maxDenials bounds the hosts Denials remembers.
const maxDenials = 32

// Decide reports whether a sandboxed command may connect to host and
// returns the addresses it may dial: the host's resolved addresses that
// passed the checks (the literal for an IP address). A refusal is a
// *Denied that names the host and the setting that refused it.
func (p *Policy) Decide(ctx context.Context, host string) ([]netip.Addr, error) {
	host = Normalize(host)
	addrs, err := p.decide(ctx, host)
	if err != nil {
		var d *Denied
		if errors.As(err, &d) {
			p.mu.Lock()
			p.denials = append(p.denials, d.Error())
			if len(p.denials) > maxDenials {
				p.denials = p.denials[len(p.denials)-maxDenials:]
			}
			p.mu.Unlock()
		}
	}
	return addrs, err
}

func (p *Policy) decide(ctx context.Context, host string) ([]netip.Addr, error) {
	if host == "" {
		return nil, &Denied{Host: "(no host)", Reason: "the request names no host"}
	}
	if matchAny(p.Denied, host) {
		return nil, &Denied{Host: host, Reason: "sandbox.network.deniedDomains lists it"}
	}
	// Only the settings can open a private address, by naming the host
	// or the address: not a wildcard, and not the user's answer (a name
	// the user allowed could later resolve to loopback).
	exact := listedExactly(p.Allowed, host)
	lit, err := netip.ParseAddr(host)
	isLit := err == nil
	if isLit && !public(lit.Unmap()) && !exact {
		return nil, &Denied{Host: host, Reason: "it is a private, loopback or link-local address; list it in sandbox.network.allowedDomains to allow it"}
	}
	if !exact && !matchAny(p.Allowed, host) {
		ok, err := p.ask(ctx, host)
		if err != nil {
			return nil, &Denied{Host: host, Reason: "it is not in sandbox.network.allowedDomains (" + err.Error() + "); add it to sandbox.network.allowedDomains to allow it"}
		}
		if !ok {
			return nil, &Denied{Host: host, Reason: "it is not in sandbox.network.allowedDomains and the permission prompt refused it; add it to sandbox.network.allowedDomains to allow it"}
		}
	}
	if isLit {
		return []netip.Addr{lit.Unmap()}, nil
	}
	r := p.Resolver
	if r == nil {
		r = net.DefaultResolver
	}
	found, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", host, err)
	}
	var ok []netip.Addr
	for _, a := range found {
		a = a.Unmap()
		if public(a) || exact || listedExactly(p.Allowed, a.String()) {
			ok = append(ok, a)
		}
	}
	if len(ok) == 0 {
		return nil, &Denied{Host: host, Reason: "it resolves to private, loopback or link-local addresses only; list the host by name in sandbox.network.allowedDomains to allow them"}
	}
	return ok, nil
}

// ask asks once per host: concurrent connections to the same host wait
// for the one question, and the answer is kept.
func (p *Policy) ask(ctx context.Context, host string) (bool, error) {
	p.mu.Lock()
	if ok, seen := p.answers[host]; seen {
		p.mu.Unlock()
		return ok, nil
	}
	if p.Ask == nil {
		p.mu.Unlock()
		return false, errors.New("nobody can be asked here")
	}
	if w, busy := p.askGroup[host]; busy {
		p.mu.Unlock()
		select {
		case <-w.done:
			return w.ok, w.err
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	w := &pending{done: make(chan struct{})}
	if p.askGroup == nil {
		p.askGroup = map[string]*pending{}
	}
	p.askGroup[host] = w
	p.mu.Unlock()

	w.ok, w.err = p.Ask(ctx, host)
	p.mu.Lock()
	delete(p.askGroup, host)
	if w.err == nil {
		if p.answers == nil {
			p.answers = map[string]bool{}
		}
		p.answers[host] = w.ok
	}
	p.mu.Unlock()
	close(w.done)
	return w.ok, w.err
}

// Denials returns the refusals since the last call, each naming its host
// and why, and forgets them: a tool result reports them.
func (p *Policy) Denials() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.denials
	p.denials = nil
	return d
}

// Normalize is the form of a host that rules match: lower case, no
// trailing dot, no brackets or zone around an IPv6 literal, an
// IPv4-mapped IPv6 address as IPv4.
func Normalize(host string) string {
	host = strings.ToLower(strings.TrimSpace(host))
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	host = strings.TrimRight(host, ".")
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().WithZone("").String()
	}
	return host
}

// matchAny reports whether a rule matches host: "example.com" matches
// itself only, "*.example.com" its subdomains (not example.com itself),
// "*" every host.
func matchAny(rules []string, host string) bool {
	for _, r := range rules {
		r = Normalize(r)
		switch {
		case r == "*":
			return true
		case strings.HasPrefix(r, "*."):
			if strings.HasSuffix(host, r[1:]) {
				return true
			}
		case r == host:
			return true
		}
	}
	return false
}

// listedExactly reports whether a rule names host itself, not by a
// wildcard.
func listedExactly(rules []string, host string) bool {
	for _, r := range rules {
		if Normalize(r) == host {
			return true
		}
	}
	return false
}

// public reports whether a is an address on the public internet: not
// private, loopback, link-local, unspecified, multicast or in the
// shared (CGNAT) and benchmarking ranges.
func public(a netip.Addr) bool {
	if !a.IsValid() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsUnspecified() || a.IsMulticast() || a.IsInterfaceLocalMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("2002::/16"),
}

// dial connects to host:port through the policy: to the first of its
// checked addresses that answers.
func (p *Policy) dial(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	addrs, err := p.Decide(ctx, host)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	var last error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}
