package provider

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ErrorKind classifies a failed model request by what the user can do
// about it.
type ErrorKind string

const (
	// ErrAuth: the credential is missing, wrong or lacks access (401, 403).
	ErrAuth ErrorKind = "authentication failed"
	// ErrNotFound: the model or the endpoint does not exist (404).
	ErrNotFound ErrorKind = "not found"
	// ErrInvalidRequest: the API refused the request as sent (400, 413, 422).
	ErrInvalidRequest ErrorKind = "invalid request"
	// ErrRateLimit: too many requests or tokens for the account (429).
	ErrRateLimit ErrorKind = "rate limited"
	// ErrOverloaded: the service is busy, the request was fine (503, 529).
	ErrOverloaded ErrorKind = "overloaded"
	// ErrServer: the server failed (other 5xx).
	ErrServer ErrorKind = "server error"
	// ErrConnection: no response at all (refused, unreachable, reset).
	ErrConnection ErrorKind = "connection failed"
	// ErrStream: the response started but broke off or made no sense.
	ErrStream ErrorKind = "stream failed"
	// ErrTimeout: no response, or no byte of one, within the time allowed.
	ErrTimeout ErrorKind = "timed out"
	// ErrStalled: a streamed response stopped sending for longer than the
	// idle timeout. The loop repeats such a request once with
	// Request.NoStream set, as Claude Code does.
	ErrStalled ErrorKind = "stream stalled"
	// ErrDNS: the API's host name does not resolve. Not retried: a name
	// that does not exist will not exist a second later (a failure of
	// the resolver itself is an ErrConnection).
	ErrDNS ErrorKind = "host not found"
	// ErrTLS: the TLS handshake failed, e.g. on a certificate the
	// machine does not trust. Not retried: the same certificate comes
	// back.
	ErrTLS ErrorKind = "TLS failed"
)

// KindOf classifies an HTTP status of a failed request.
func KindOf(status int) ErrorKind {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusTooManyRequests:
		return ErrRateLimit
	case status == http.StatusServiceUnavailable || status == 529:
		return ErrOverloaded
	case status >= 500:
		return ErrServer
	default:
		return ErrInvalidRequest
	}
}

// APIError is a model request that failed, with what to do about it. The
// providers return it for every failure that is not the caller's own
// cancellation.
type APIError struct {
	// Provider names the API, e.g. "openai".
	Provider string
	// Status is the HTTP status; 0 when there was no response, or the
	// failure came in the middle of a stream.
	Status int
	// Kind classifies the failure.
	Kind ErrorKind
	// Message is the API's own explanation, if it gave one.
	Message string
	// Hint says what to do.
	Hint string
	// Err is the underlying error.
	Err error
	// RetryAfter is the wait the server asked for (its retry-after-ms or
	// retry-after header), 0 when it named none.
	RetryAfter time.Duration
	// Partial is what had arrived of the response when a stream broke,
	// nil when nothing had: its text, its finished tool_use blocks, and
	// the tool_use block that was streaming when it broke, marked
	// Incomplete. The loop decides what of it to keep.
	Partial *Message
}

// Error reads like "openai: 401 Unauthorized (authentication failed):
// Incorrect API key: check OPENAI_API_KEY".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider + ": ")
	if e.Status != 0 {
		fmt.Fprintf(&b, "%d %s (%s)", e.Status, http.StatusText(e.Status), e.Kind)
	} else {
		b.WriteString(string(e.Kind))
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Hint != "" {
		b.WriteString(": " + e.Hint)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *APIError) Unwrap() error { return e.Err }

// Retryable reports whether the same request may succeed later: rate
// limits, overload, server errors, 408 and 409, connections that broke
// or were refused, timeouts and stalls. Authentication, a request the API
// refused, a host name that does not resolve and a TLS failure are not.
func (e *APIError) Retryable() bool {
	switch e.Kind {
	case ErrRateLimit, ErrOverloaded, ErrServer, ErrConnection, ErrStream, ErrTimeout, ErrStalled:
		return true
	}
	return e.Status == http.StatusRequestTimeout || e.Status == http.StatusConflict
}

// Retryable reports whether err is a failed model request that sending the
// same request again may cure, and the wait the server asked for (0 when
// it named none). Errors that are not an *APIError (the caller's own
// cancellation among them) are not retryable.
func Retryable(err error) (retry bool, after time.Duration) {
	var e *APIError
	if !errors.As(err, &e) || !e.Retryable() {
		return false, 0
	}
	return true, e.RetryAfter
}

// Hints are the provider-specific parts of the advice in an APIError.
type Hints struct {
	// Auth names the credential to check, e.g. "check OPENAI_API_KEY".
	Auth string
	// NotFound says what to check for a 404, e.g. the model name.
	NotFound string
	// Connection says where the address comes from, e.g. "check OPENAI_BASE_URL".
	Connection string
}

// Hint returns the advice for a failure of kind k.
func (h Hints) Hint(k ErrorKind) string {
	switch k {
	case ErrAuth:
		return h.Auth
	case ErrNotFound:
		return h.NotFound
	case ErrRateLimit:
		return "wait a minute and try again, or lower the request rate"
	case ErrOverloaded:
		return "the service is busy, not your request: try again in a moment"
	case ErrServer:
		return "the server failed, not your request: try again; if it keeps failing, check the service's status or the server's log"
	case ErrConnection:
		return "is the server up? " + h.Connection
	case ErrStream:
		return "the response broke off: try again"
	case ErrTimeout:
		return "the server did not answer in time: try again; if it keeps happening, check the service's status and the network"
	case ErrStalled:
		return "the server stopped sending in the middle of the response: try again (the request is repeated without streaming)"
	case ErrDNS:
		return "the name is wrong, or the network's DNS is down: " + h.Connection
	case ErrTLS:
		return "the server's certificate is not trusted or the handshake was refused: check the URL's host and scheme (" +
			h.Connection + "), or, behind a proxy that intercepts TLS, name its CA in SSL_CERT_FILE"
	}
	return ""
}

// ConnectionError returns err as an APIError when it is a network
// failure, else nil: a failure to connect (refused, a name that does not
// resolve, a TLS handshake, a connect timeout) or a connection that broke
// before the response began. Failures in the middle of a response come
// from the body of a response made through Transport, already classified.
func ConnectionError(name string, err error, h Hints) *APIError {
	if e, ok := errors.AsType[*APIError](err); ok {
		return e
	}
	return classifyConnect(name, "", err, h)
}

// PromptTooLong reports whether err is the API refusing a request whose
// conversation does not fit the model's context window: Anthropic's 400
// "prompt is too long: N tokens > M maximum", OpenAI's
// context_length_exceeded ("maximum context length"), or a 413. The loop
// answers it by compacting the conversation, as Claude Code does.
func PromptTooLong(err error) bool {
	e, ok := errors.AsType[*APIError](err)
	if !ok {
		return false
	}
	if e.Status == http.StatusRequestEntityTooLarge {
		return true
	}
	if e.Kind != ErrInvalidRequest {
		return false
	}
	msg := strings.ToLower(e.Message)
	for _, s := range []string{"prompt is too long", "maximum context length", "context_length_exceeded", "context window"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
