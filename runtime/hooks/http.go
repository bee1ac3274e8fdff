package hooks

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxHTTPAnswer bounds the body read from an HTTP hook's answer.
const maxHTTPAnswer = 1 << 20

// envRef is a $VAR or ${VAR} reference in a header value, compiled at
// the first HTTP hook rather than before main.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)
})

// expandHeader replaces the environment references of v: a variable
// allowed names is replaced by its value in the hooks' environment, any
// other by "" (Claude Code's rule: only listed variables are read).
func (r *Runner) expandHeader(v string, allowed []string) string {
	re := envRef()
	return re.ReplaceAllStringFunc(v, func(ref string) string {
		m := re.FindStringSubmatch(ref)
		name := m[1] + m[2]
		if !slices.Contains(allowed, name) {
			return ""
		}
		return r.getenv(name)
	})
}

// getenv reads name from the hooks' environment: Runner.Env first, then
// the process's.
func (r *Runner) getenv(name string) string {
	for i := len(r.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(r.Env[i], "="); ok && k == name {
			return v
		}
	}
	return os.Getenv(name)
}

// runHTTP POSTs the input to h.URL under the hook's timeout. A 2xx
// answer's body is read as a command's stdout on exit 0; another status
// or no answer is a non-blocking error, as Claude Code documents.
func (r *Runner) runHTTP(ctx context.Context, h Hook, input []byte) answer {
	timeout := DefaultTimeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := answer{timeout: timeout}
	req, err := http.NewRequestWithContext(hctx, http.MethodPost, h.URL, bytes.NewReader(input))
	if err != nil {
		a.err = fmt.Errorf("the URL is not usable: %w", err)
		return a
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.Headers {
		switch http.CanonicalHeaderKey(k) {
		case "Content-Length", "Transfer-Encoding":
			continue // the body's own length is sent
		}
		req.Header.Set(k, r.expandHeader(v, h.AllowedEnvVars))
	}
	resp, err := http.DefaultClient.Do(req)
	switch {
	case hctx.Err() != nil && ctx.Err() == nil:
		a.timedOut, a.err = true, hctx.Err()
		return a
	case ctx.Err() != nil:
		a.err = ctx.Err()
		return a
	case err != nil:
		a.err = fmt.Errorf("no answer: %w", err)
		return a
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPAnswer))
	if err != nil {
		a.err = fmt.Errorf("the answer could not be read: %w", err)
		return a
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 200 {
			msg = msg[:200] + "…"
		}
		a.err = fmt.Errorf("it answered %s; it did not block anything (%s)", resp.Status, msg)
		return a
	}
	a.stdout = string(body)
	return a
}
