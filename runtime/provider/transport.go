package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The defaults of Timeouts, as Claude Code's: CLAUDE_STREAM_IDLE_TIMEOUT_MS
// (300 s) for a stream, API_TIMEOUT_MS (600 s) for a request.
const (
	DefaultConnectTimeout = 30 * time.Second
	DefaultIdleTimeout    = 300 * time.Second
	DefaultRequestTimeout = 600 * time.Second
)

// drainTime bounds the reading of what follows the end of a message
// (message_stop, [DONE]) before the connection is closed: long enough for
// the body's last bytes, which keeps the connection for the next request;
// short enough that a server that holds the connection open costs nothing.
const drainTime = time.Second

// Timeouts bound a model request, so that none waits forever; the zero
// value of each field takes its default.
type Timeouts struct {
	// Connect bounds the dial and the TLS handshake (DefaultConnectTimeout).
	Connect time.Duration
	// Idle bounds each wait for a byte of a streamed response, the wait
	// for its headers among them (DefaultIdleTimeout). When it passes in
	// the middle of a response the request fails with ErrStalled.
	Idle time.Duration
	// Request bounds a request answered in one piece (Request.NoStream),
	// from sending it to the response's last byte (DefaultRequestTimeout).
	Request time.Duration
}

func (t Timeouts) withDefaults() Timeouts {
	if t.Connect <= 0 {
		t.Connect = DefaultConnectTimeout
	}
	if t.Idle <= 0 {
		t.Idle = DefaultIdleTimeout
	}
	if t.Request <= 0 {
		t.Request = DefaultRequestTimeout
	}
	return t
}

// HTTPClients are the two HTTP clients of a provider: one for streamed
// requests, bounded by Timeouts.Idle between bytes, and one for requests
// answered in one piece, bounded by Timeouts.Request. They share one
// connection pool. Every failure of a request made through them is an
// *APIError (wrapped by net/http in a *url.Error), except the caller's
// own cancellation, which stays the context's error.
type HTTPClients struct {
	Stream  *http.Client
	OneShot *http.Client
	// dialer and transport are the pool's (Preconnect).
	dialer    *dialer
	transport *http.Transport
}

// NewHTTPClients returns the clients of the provider name (e.g.
// "anthropic"), with h for the advice in its errors.
func NewHTTPClients(name string, t Timeouts, h Hints) HTTPClients {
	t = t.withDefaults()
	base := http.DefaultTransport.(*http.Transport).Clone()
	d := &dialer{dial: (&net.Dialer{Timeout: t.Connect, KeepAlive: 30 * time.Second}).DialContext, connect: t.Connect, life: preconnectLife}
	base.DialContext = d.DialContext
	base.TLSHandshakeTimeout = t.Connect
	return HTTPClients{
		Stream:    &http.Client{Transport: &watchdog{base: base, name: name, hints: h, limit: t.Idle, idle: true, connect: t.Connect}},
		OneShot:   &http.Client{Transport: &watchdog{base: base, name: name, hints: h, limit: t.Request, connect: t.Connect}},
		dialer:    d,
		transport: base,
	}
}

// watchdog is a RoundTripper that bounds a request with a timer: with idle
// set, the timer restarts at each byte of the response; without, it runs
// from the request to the body's end. It classifies every failure.
type watchdog struct {
	base    http.RoundTripper
	name    string
	hints   Hints
	limit   time.Duration
	idle    bool
	connect time.Duration
}

// watch is the timer of one request.
type watch struct {
	timer  *time.Timer
	cancel context.CancelFunc
	mu     sync.Mutex
	fired  bool
}

func (w *watch) fire() {
	w.mu.Lock()
	w.fired = true
	w.mu.Unlock()
	w.cancel()
}

func (w *watch) hasFired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

func (d *watchdog) RoundTrip(req *http.Request) (*http.Response, error) {
	parent := req.Context()
	ctx, cancel := context.WithCancel(parent)
	w := &watch{cancel: cancel}
	w.timer = time.AfterFunc(d.limit, w.fire)
	res, err := d.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		w.timer.Stop()
		cancel()
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		if w.hasFired() {
			return nil, &APIError{Provider: d.name, Kind: ErrTimeout, Err: err,
				Message: fmt.Sprintf("no response from %s within %s of sending the request", req.URL.Host, d.limit),
				Hint:    d.hints.Hint(ErrTimeout)}
		}
		if e := classifyConnect(d.name, req.URL.Host, err, d.hints); e != nil {
			return nil, e
		}
		return nil, &APIError{Provider: d.name, Kind: ErrConnection, Err: err,
			Message: fmt.Sprintf("the request to %s failed (%v)", req.URL.Host, err), Hint: d.hints.Hint(ErrConnection)}
	}
	if d.idle {
		w.timer.Reset(d.limit) // the headers were a sign of life
	}
	res.Body = &body{rc: res.Body, d: d, w: w, parent: parent, oneShot: !d.idle}
	return res, nil
}

// body is a response body under a watchdog: it restarts the idle timer on
// each read, turns a failed read into an *APIError, and can be released
// (Release) without waiting for its end.
type body struct {
	rc      io.ReadCloser
	d       *watchdog
	w       *watch
	parent  context.Context
	oneShot bool
	once    sync.Once
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 && !b.oneShot {
		b.w.timer.Reset(b.d.limit)
	}
	if err == nil || err == io.EOF {
		return n, err
	}
	if b.parent.Err() != nil {
		return n, b.parent.Err()
	}
	return n, b.failure(err)
}

// failure classifies a read that failed in the middle of the response.
func (b *body) failure(err error) *APIError {
	d := b.d
	out := &APIError{Provider: d.name, Kind: ErrStream, Err: err, Hint: d.hints.Hint(ErrStream)}
	switch {
	case b.w.hasFired() && b.oneShot:
		out.Kind, out.Hint = ErrTimeout, d.hints.Hint(ErrTimeout)
		out.Message = fmt.Sprintf("the response did not finish within %s", d.limit)
	case b.w.hasFired():
		out.Kind, out.Hint = ErrStalled, d.hints.Hint(ErrStalled)
		out.Message = fmt.Sprintf("no data for %s in the middle of the response", d.limit)
	case errors.Is(err, io.ErrUnexpectedEOF):
		out.Message = "the connection closed in the middle of the response (unexpected EOF)"
	case errors.Is(err, syscall.ECONNRESET):
		out.Message = "the connection was reset in the middle of the response (connection reset by peer)"
	default:
		out.Message = fmt.Sprintf("the connection broke in the middle of the response (%v)", err)
	}
	return out
}

// Close stops the timer and closes the body at once.
func (b *body) Close() error {
	var err error
	b.once.Do(func() {
		b.w.timer.Stop()
		err = b.rc.Close()
		b.w.cancel()
	})
	return err
}

// Release ends the response without waiting for it: what is left of the
// body is read for up to drainTime in the background (so the connection
// can serve the next request), then the body is closed.
func (b *body) Release() {
	b.once.Do(func() {
		b.w.timer.Stop()
		t := time.AfterFunc(drainTime, b.w.cancel)
		go func() {
			_, _ = io.CopyN(io.Discard, b.rc, 256<<10)
			t.Stop()
			_ = b.rc.Close()
			b.w.cancel()
		}()
	})
}

// Release ends a response whose message is complete without waiting for
// the rest of its body: a body from HTTPClients is drained in the
// background for a moment and closed; any other body is closed.
func Release(rc io.ReadCloser) {
	if b, ok := rc.(*body); ok {
		b.Release()
		return
	}
	_ = rc.Close()
}

// classifyConnect returns the APIError of a failure to connect or of a
// connection that broke before the response began, nil when err is none
// of these.
func classifyConnect(name, host string, err error, h Hints) *APIError {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) && !isNetTimeout(err) {
		return nil
	}
	if ue, ok := errors.AsType[*url.Error](err); ok && host == "" {
		if u, perr := url.Parse(ue.URL); perr == nil {
			host = u.Host
		}
	}
	out := &APIError{Provider: name, Err: err}
	set := func(k ErrorKind, format string, args ...any) *APIError {
		out.Kind, out.Message, out.Hint = k, fmt.Sprintf(format, args...), h.Hint(k)
		return out
	}
	if dns, ok := errors.AsType[*net.DNSError](err); ok {
		if dns.IsNotFound || !dns.IsTemporary && !dns.IsTimeout {
			return set(ErrDNS, "the host name %s does not resolve (%s)", dns.Name, dns.Err)
		}
		out.Kind, out.Hint = ErrConnection, "the name server did not answer: check the network and try again"
		out.Message = fmt.Sprintf("looking up the host name %s failed (%s)", dns.Name, dns.Err)
		return out
	}
	if m := tlsFailure(err); m != "" {
		return set(ErrTLS, "the TLS handshake with %s failed: %s", cmpOr(host, "the server"), m)
	}
	op, isOp := errors.AsType[*net.OpError](err)
	dial := isOp && op.Op == "dial"
	addr := host
	if isOp && op.Addr != nil {
		addr = op.Addr.String()
	}
	switch {
	case dial && errors.Is(err, syscall.ECONNREFUSED):
		return set(ErrConnection, "connection refused: nothing is listening at %s", addr)
	case dial && isNetTimeout(err):
		out.Kind, out.Hint = ErrTimeout, "the server did not accept the connection: is it up? "+h.Connection+
			"; a firewall or a VPN may be dropping it"
		out.Message = fmt.Sprintf("could not connect to %s in time (%v)", addr, op.Err)
		return out
	case isNetTimeout(err) && strings.Contains(err.Error(), "TLS handshake timeout"):
		out.Kind, out.Hint = ErrTimeout, "the TLS handshake did not finish: try again; if it keeps happening, "+h.Connection
		out.Message = fmt.Sprintf("the TLS handshake with %s did not finish in time", cmpOr(host, "the server"))
		return out
	case dial:
		return set(ErrConnection, "could not connect to %s (%v)", addr, op.Err)
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE), isOp:
		out.Kind = ErrConnection
		out.Hint = "the server or a proxy dropped the request: try again; if it keeps happening, check the server's log"
		out.Message = fmt.Sprintf("the connection to %s closed before the server answered (%v)", cmpOr(host, "the server"), rootCause(err))
		return out
	}
	return nil
}

// tlsFailure says what failed in a TLS handshake, "" when err is not one.
func tlsFailure(err error) string {
	if e, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return rootCause(e.Err).Error()
	}
	if e, ok := errors.AsType[x509.UnknownAuthorityError](err); ok {
		return e.Error()
	}
	if e, ok := errors.AsType[x509.HostnameError](err); ok {
		return e.Error()
	}
	if e, ok := errors.AsType[x509.CertificateInvalidError](err); ok {
		return e.Error()
	}
	if _, ok := errors.AsType[tls.RecordHeaderError](err); ok {
		return "the server did not answer in TLS (is it plain http? then the URL should say http://)"
	}
	if e, ok := errors.AsType[tls.AlertError](err); ok {
		return "the server refused the handshake (" + e.Error() + ")"
	}
	return ""
}

func isNetTimeout(err error) bool {
	ne, ok := errors.AsType[net.Error](err)
	return ok && ne.Timeout()
}

// rootCause is err without the layers net/http and net put around it.
func rootCause(err error) error {
	for {
		var next error
		switch e := err.(type) {
		case *url.Error:
			next = e.Err
		case *net.OpError:
			next = e.Err
		case *tls.CertificateVerificationError:
			next = e.Err
		default:
			return err
		}
		if next == nil {
			return err
		}
		err = next
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// RetryAfter is the wait a response asks for in its retry-after-ms or
// retry-after header (seconds or an HTTP date), 0 when it names none.
func RetryAfter(h http.Header) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// StatusError is the APIError of an HTTP error status: Kind by status,
// the API's message (or the body) as Message, the retry-after wait, and
// advice for the status.
func StatusError(name string, status int, header http.Header, message string, h Hints, err error) *APIError {
	k := KindOf(status)
	out := &APIError{Provider: name, Status: status, Kind: k, Message: message, Hint: h.Hint(k), Err: err}
	if header != nil {
		out.RetryAfter = RetryAfter(header)
	}
	switch status {
	case http.StatusRequestTimeout:
		out.Hint = "the server timed out waiting for the request: try again"
	case http.StatusConflict:
		out.Hint = "the server reported a conflict: try again"
	case http.StatusRequestEntityTooLarge:
		out.Hint = "the request is too large for the API: compact the conversation (/compact) or read less at once"
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		if out.Hint == "" {
			out.Hint = "the API refused the request as sent; the message says why"
		}
	}
	return out
}

// Malformed is the APIError of a stream whose event does not make sense:
// what was wrong, and a bounded quote of the event's data.
func Malformed(name string, what string, data []byte, err error, h Hints) *APIError {
	msg := "the stream was malformed: " + what
	if err != nil {
		msg += " (" + err.Error() + ")"
	}
	if q := Quote(data, 80); q != "" {
		msg += ": " + q
	}
	return &APIError{Provider: name, Kind: ErrStream, Message: msg, Err: err,
		Hint: "the server, or a proxy in between, sent something that is not the API's stream: try again; if it keeps happening, " + h.Connection}
}

// Quote returns data as a Go string literal of at most n runes, with "…"
// when it was cut.
func Quote(data []byte, n int) string {
	s := strings.TrimRight(string(data), "\r\n")
	if s == "" {
		return ""
	}
	r := []rune(s)
	if len(r) > n {
		return strconv.Quote(string(r[:n])) + "…"
	}
	return strconv.Quote(s)
}

// ResolveTimeouts reads the timeouts Claude Code's environment variables
// set, through getenv (os.Getenv in a program): CLAUDE_STREAM_IDLE_TIMEOUT_MS
// for Timeouts.Idle and API_TIMEOUT_MS for Timeouts.Request, each a
// positive number of milliseconds. An unset variable leaves the default.
func ResolveTimeouts(getenv func(string) string) (Timeouts, error) {
	var t Timeouts
	for _, v := range []struct {
		name string
		dst  *time.Duration
	}{{"CLAUDE_STREAM_IDLE_TIMEOUT_MS", &t.Idle}, {"API_TIMEOUT_MS", &t.Request}} {
		s := strings.TrimSpace(getenv(v.name))
		if s == "" {
			continue
		}
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil || ms <= 0 {
			return Timeouts{}, fmt.Errorf("%s=%q: want a positive number of milliseconds, e.g. %s=300000", v.name, s, v.name)
		}
		*v.dst = time.Duration(ms) * time.Millisecond
	}
	return t, nil
}
