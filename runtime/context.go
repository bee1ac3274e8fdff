package runtime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
)

// ToolContext is the state tools run in. The orchestrator owns it: tools
// read it during a call and change it only through context modifiers.
type ToolContext struct {
	// Cwd is the current working directory; Bash moves it.
	Cwd string
	// WorkingDirs are the roots file tools may touch (Cwd's root first).
	WorkingDirs []string
	// FileState records what was read, for Edit/Write staleness checks.
	FileState *FileStateCache
	// Services carries optional shared services (model client, search
	// backend, tool pool) keyed by type; see Service and WithService.
	Services map[any]any
	// Env holds extra environment variables for processes tools start.
	Env map[string]string

	// session is what lives as long as the session rather than a call:
	// values tools make on first use (SessionValue) and the cleanups Close
	// runs. NewToolContext makes it; Clone shares it.
	session *session
}

// session is the per-session state a ToolContext and its clones share.
type session struct {
	mu       sync.Mutex
	values   map[any]any
	cleanups []func()
	closed   bool
}

// NewToolContext returns a context rooted at dir, with an empty file-state
// cache.
func NewToolContext(dir string) *ToolContext {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &ToolContext{Cwd: abs, WorkingDirs: []string{abs}, FileState: NewFileStateCache(), session: &session{}}
}

// Clone returns a copy whose slices and maps can be changed independently.
// The file-state cache is shared: it is safe for concurrent use. The
// session is shared too, not copied: a value one copy makes with
// SessionValue is the value every copy gets, and Close on any copy ends the
// session for all of them.
func (tc *ToolContext) Clone() *ToolContext {
	c := *tc
	c.WorkingDirs = slices.Clone(tc.WorkingDirs)
	if tc.Services != nil {
		c.Services = make(map[any]any, len(tc.Services))
		for k, v := range tc.Services {
			c.Services[k] = v
		}
	}
	if tc.Env != nil {
		c.Env = make(map[string]string, len(tc.Env))
		for k, v := range tc.Env {
			c.Env[k] = v
		}
	}
	return &c
}

// WithService registers a service under its type key K.
func WithService[K any](tc *ToolContext, v K) {
	if tc.Services == nil {
		tc.Services = map[any]any{}
	}
	tc.Services[serviceKey[K]{}] = v
}

// Service returns the service registered under type K, if any.
func Service[K any](tc *ToolContext) (K, bool) {
	var zero K
	if tc == nil || tc.Services == nil {
		return zero, false
	}
	v, ok := tc.Services[serviceKey[K]{}].(K)
	if !ok {
		return zero, false
	}
	return v, true
}

type serviceKey[K any] struct{}

// ErrNoSession is the one error of a tool context without a session: what
// SessionValue and OnClose return for a context built as a literal rather
// than by NewToolContext, and what Need's error wraps when no session
// provides a capability.
var ErrNoSession = errors.New("the tool context has no session")

// errNoSessionState is SessionValue's and OnClose's ErrNoSession.
func errNoSessionState() error {
	return fmt.Errorf("%w: make it with runtime.NewToolContext", ErrNoSession)
}

// ErrSessionClosed is returned by SessionValue and OnClose once Close has
// ended the session.
var ErrSessionClosed = errors.New("the session is closed")

// SessionValue returns the value of type K that tc's session keeps,
// calling create on the first request; the cleanup create returns, when
// not nil, runs when the session closes. This is how a tool keeps state
// for as long as the session (the Bash tool's background shells) without
// its caller knowing of it. create runs at most once per session, under the
// session's lock: it must not call SessionValue or OnClose itself.
func SessionValue[K any](tc *ToolContext, create func() (K, func())) (K, error) {
	var zero K
	if tc == nil || tc.session == nil {
		return zero, errNoSessionState()
	}
	s := tc.session
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return zero, ErrSessionClosed
	}
	if v, ok := s.values[serviceKey[K]{}].(K); ok {
		return v, nil
	}
	v, cleanup := create()
	if s.values == nil {
		s.values = map[any]any{}
	}
	s.values[serviceKey[K]{}] = v
	if cleanup != nil {
		s.cleanups = append(s.cleanups, cleanup)
	}
	return v, nil
}

// OnClose registers f to run when the session closes. It fails, and f
// does not run, when tc has no session or the session is already closed.
func (tc *ToolContext) OnClose(f func()) error {
	if tc == nil || tc.session == nil {
		return errNoSessionState()
	}
	s := tc.session
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrSessionClosed
	}
	s.cleanups = append(s.cleanups, f)
	return nil
}

// Close ends tc's session: it runs the cleanups, last registered first,
// and forgets the session's values. Only the first call does anything; a
// context without a session has nothing to close. Whoever made the
// context with NewToolContext calls Close when the session ends.
func (tc *ToolContext) Close() {
	if tc == nil || tc.session == nil {
		return
	}
	s := tc.session
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	cleanups := s.cleanups
	s.cleanups, s.values = nil, nil
	s.mu.Unlock()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
}

// Resolve makes p absolute against Cwd.
func (tc *ToolContext) Resolve(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(tc.Cwd, p)
}

type ctxKey struct{}

// WithToolContext attaches tc to ctx.
func WithToolContext(ctx context.Context, tc *ToolContext) context.Context {
	return context.WithValue(ctx, ctxKey{}, tc)
}

// FromContext returns the ToolContext attached to ctx, or nil.
func FromContext(ctx context.Context) *ToolContext {
	tc, _ := ctx.Value(ctxKey{}).(*ToolContext)
	return tc
}

// Summarizer applies a prompt to fetched content with a model; WebFetch
// uses it when the agent registers one (runtime.WithService).
type Summarizer interface {
	Summarize(ctx context.Context, prompt, content string) (string, error)
}
