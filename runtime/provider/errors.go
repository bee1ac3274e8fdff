package provider

import (
	"errors"
	"fmt"
	"net"
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
	// RetryAfter is the wait the server asked for (its retry-after
	// header), 0 when it named none.
	RetryAfter time.Duration
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

// Retryable reports whether the same request may succeed later.
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
	}
	return ""
}

// ConnectionError returns err as an ErrConnection APIError when it is a
// network failure (no response at all), else nil.
func ConnectionError(name string, err error, h Hints) *APIError {
	var op *net.OpError
	var dns *net.DNSError
	if !errors.As(err, &op) && !errors.As(err, &dns) {
		return nil
	}
	return &APIError{Provider: name, Kind: ErrConnection, Message: err.Error(), Hint: h.Hint(ErrConnection), Err: err}
}
