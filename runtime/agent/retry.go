package agent

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime/provider"
)

// The retry policy's defaults are Claude Code's: ten retries, a back-off
// from half a second doubling up to 32 s plus up to a quarter of jitter,
// the server's retry-after honoured.
const (
	// DefaultMaxRetries is how often a failed request is retried.
	DefaultMaxRetries = 10
	// DefaultRetryBaseDelay is the first back-off.
	DefaultRetryBaseDelay = 500 * time.Millisecond
	// DefaultRetryMaxDelay caps one back-off (not a server's retry-after).
	DefaultRetryMaxDelay = 32 * time.Second
	// DefaultRetryMaxTotal caps the time from a request's first failure
	// to its last retry. Ten back-offs at most take about 200 s; the
	// rest leaves room for the attempts and for retry-after waits.
	DefaultRetryMaxTotal = 15 * time.Minute
	// MaxOverloadedBeforeFallback is how many overloaded answers in a row
	// a request gets before it goes to Config.Fallback, when there is one
	// (Claude Code's three 529s).
	MaxOverloadedBeforeFallback = 3
)

// RetryPolicy says how the loop retries a model request that failed with a
// retryable error (provider.Retryable: 408, 409, 429, 5xx, 529, an error
// event inside the stream, a connection reset, a timeout, a stall). The
// zero value is Claude Code's policy; every field's zero value is its
// default.
type RetryPolicy struct {
	// MaxRetries is how often one request is retried; 0 means
	// DefaultMaxRetries, a negative value none.
	MaxRetries int
	// BaseDelay is the first back-off; each retry doubles it, up to
	// MaxDelay, and adds up to a quarter of random jitter. A retry-after
	// the server named is waited instead.
	BaseDelay, MaxDelay time.Duration
	// MaxTotal caps the time from the first failed attempt to the last
	// retry: a retry whose wait would end later is not made. 0 means
	// DefaultRetryMaxTotal, a negative value no cap.
	MaxTotal time.Duration
	// Sleep waits d, or until ctx ends (an interrupt), and reports
	// whether it waited the whole d; nil: a timer. Specs inject one that
	// does not wait.
	Sleep func(ctx context.Context, d time.Duration) bool
	// Now is the clock of MaxTotal; nil: time.Now.
	Now func() time.Time
	// Jitter returns a number in [0, 1); nil: math/rand.
	Jitter func() float64
}

func (p RetryPolicy) maxRetries() int {
	switch {
	case p.MaxRetries < 0:
		return 0
	case p.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return p.MaxRetries
}

func (p RetryPolicy) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Delay is the back-off before retry n (from 1): after, when the server
// named a wait, else BaseDelay·2^(n−1) capped at MaxDelay, plus up to a
// quarter of it at random.
func (p RetryPolicy) Delay(n int, after time.Duration) time.Duration {
	if after > 0 {
		return after
	}
	base, ceiling := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = DefaultRetryBaseDelay
	}
	if ceiling <= 0 {
		ceiling = DefaultRetryMaxDelay
	}
	d := base
	for i := 1; i < n && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	jitter := p.Jitter
	if jitter == nil {
		jitter = rand.Float64
	}
	return d + time.Duration(jitter()*0.25*float64(d))
}

// sleep waits d or until ctx ends.
func (p RetryPolicy) sleep(ctx context.Context, d time.Duration) bool {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// RetryInfo is what EventRetry reports.
type RetryInfo struct {
	// Attempt is the retry's number, from 1; MaxRetries the policy's cap.
	Attempt, MaxRetries int
	// Delay is the wait before the retry.
	Delay time.Duration
	// Status is the failed attempt's HTTP status; 0 when there was none
	// (a broken or stalled stream, a network failure).
	Status int
	// Kind classifies the failure ("" when it is not an APIError).
	Kind provider.ErrorKind
	// NoStream: the retry asks for the response without streaming (the
	// failed attempt stalled).
	NoStream bool
	// Err is the failed attempt's error.
	Err error
}

// RetryNotice is the line a front end shows for a retry: "retrying in 4 s
// (attempt 2 of 10): the server closed the stream".
func RetryNotice(r *RetryInfo) string {
	how := "retrying"
	if r.NoStream {
		how = "retrying without streaming"
	}
	return fmt.Sprintf("%s in %s (attempt %d of %d): %s", how, seconds(r.Delay), r.Attempt, r.MaxRetries, retryReason(r.Err))
}

// seconds says d as the notice does: "0.5 s", "4 s", "32 s" ("8 ms"
// below a tenth of a second).
func seconds(d time.Duration) string {
	if d < 100*time.Millisecond {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	s := d.Seconds()
	if s < 10 {
		return strings.TrimSuffix(strconv.FormatFloat(s, 'f', 1, 64), ".0") + " s"
	}
	return strconv.FormatFloat(s, 'f', 0, 64) + " s"
}

// retryReason says what went wrong, without the provider's name and the
// hint (the retry is what the loop does about it).
func retryReason(err error) string {
	var e *provider.APIError
	if !errors.As(err, &e) {
		return err.Error()
	}
	var b strings.Builder
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d ", e.Status)
		if t := http.StatusText(e.Status); t != "" { // 529 has none
			b.WriteString(t + " ")
		}
		fmt.Fprintf(&b, "(%s)", e.Kind)
	} else {
		b.WriteString(string(e.Kind))
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// retries is the state of one request's retries; it lasts across the
// turns of a broken response (a turn whose calls ran is continued with
// the next request, which counts as the retry) and ends with a response
// that completes.
type retries struct {
	n          int       // retries made
	overloaded int       // overloaded answers in a row
	stalled    bool      // a stall was retried without streaming
	first      time.Time // when the first failed attempt started
	noStream   bool      // the next request goes without streaming
}

// retry decides whether the request that failed with err, whose attempt
// started at began, is sent again: the wait before it, and the info its
// EventRetry reports. A failure that is not retryable, an overload that a
// fallback model should answer, a second stall, or a retry past the
// policy's limits is not.
func (a *Agent) retry(err error, began time.Time) (*RetryInfo, bool) {
	ok, after := provider.Retryable(err)
	if !ok {
		return nil, false
	}
	p := a.cfg.Retry
	r := &a.retries
	if r.n == 0 && r.first.IsZero() {
		r.first = began
	}
	var e *provider.APIError
	errors.As(err, &e) // Retryable found one
	if e.Kind == provider.ErrOverloaded {
		r.overloaded++
		if a.cfg.Fallback != nil && r.overloaded >= MaxOverloadedBeforeFallback {
			return nil, false
		}
	} else {
		r.overloaded = 0
	}
	stalled := e.Kind == provider.ErrStalled
	if stalled && r.stalled {
		return nil, false // the request without streaming stalled too
	}
	max := p.maxRetries()
	if r.n >= max {
		return nil, false
	}
	d := p.Delay(r.n+1, after)
	if total := p.MaxTotal; total >= 0 {
		if total == 0 {
			total = DefaultRetryMaxTotal
		}
		if p.now().Add(d).Sub(r.first) > total {
			return nil, false
		}
	}
	r.n++
	if stalled {
		r.stalled = true
	}
	r.noStream = stalled
	return &RetryInfo{Attempt: r.n, MaxRetries: max, Delay: d, Status: e.Status, Kind: e.Kind, NoStream: stalled, Err: err}, true
}

// retried ends a request's retries: its response completed.
func (a *Agent) retried() { a.retries = retries{} }

// backoff reports the retry and waits its delay; false when the wait was
// cut short (the user interrupted, ctx ended).
func (a *Agent) backoff(ctx context.Context, turn int, info *RetryInfo) bool {
	a.emit(Event{Kind: EventRetry, Turn: turn, Text: RetryNotice(info), Retry: info})
	return a.cfg.Retry.sleep(ctx, info.Delay)
}
