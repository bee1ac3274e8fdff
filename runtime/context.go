package runtime

import (
	"context"
	"path/filepath"
	"slices"
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
}

// NewToolContext returns a context rooted at dir, with an empty file-state
// cache.
func NewToolContext(dir string) *ToolContext {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return &ToolContext{Cwd: abs, WorkingDirs: []string{abs}, FileState: NewFileStateCache()}
}

// Clone returns a copy whose slices and maps can be changed independently.
// The file-state cache is shared: it is safe for concurrent use.
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
