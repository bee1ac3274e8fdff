package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultDiagnosticsWait is how long AfterWrite waits for a server's
// diagnostics of a file just written.
const DefaultDiagnosticsWait = 1500 * time.Millisecond

// DefaultRequestTimeout bounds one request to a server, so that a server
// that hangs does not hold the call for ever.
const DefaultRequestTimeout = 2 * time.Minute

// Options configure a Manager.
type Options struct {
	// Servers are the servers to use (settings' lspServers, usually with
	// DefaultServers added: Servers.WithDefaults).
	Servers Servers
	// DiagnosticsWait bounds AfterWrite's wait; zero is
	// DefaultDiagnosticsWait.
	DiagnosticsWait time.Duration
	// RequestTimeout bounds each request of Query; zero is
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
}

// ErrClosed is the error of a Manager used after Close.
var ErrClosed = errors.New("lsp: the session's language servers were shut down")

// Manager starts language servers on demand, one per server and root
// directory, and stops them all on Close. It is safe for concurrent use.
type Manager struct {
	servers    Servers
	wait       time.Duration
	reqTimeout time.Duration

	mu      sync.Mutex
	closed  bool
	running map[serverKey]*entry
	// reported are the diagnostics AfterWrite last reported, per file.
	reported map[string]map[string]bool
}

type serverKey struct{ name, root string }

// entry is a server starting or started; ready is closed once c or err
// is set.
type entry struct {
	ready chan struct{}
	c     *client
	err   error
}

// NewManager makes a manager; no server starts until one is needed.
func NewManager(o Options) *Manager {
	wait := o.DiagnosticsWait
	if wait <= 0 {
		wait = DefaultDiagnosticsWait
	}
	req := o.RequestTimeout
	if req <= 0 {
		req = DefaultRequestTimeout
	}
	return &Manager{servers: o.Servers, wait: wait, reqTimeout: req, running: map[serverKey]*entry{}, reported: map[string]map[string]bool{}}
}

// Configured reports whether any server is configured.
func (m *Manager) Configured() bool { return m != nil && len(m.servers) > 0 }

// Servers are the configured servers.
func (m *Manager) Servers() Servers { return m.servers }

// NoServerError is the error for a file no server serves: it says how to
// configure one.
func (m *Manager) NoServerError(path string) error {
	ext := filepath.Ext(path)
	if ext == "" {
		ext = filepath.Base(path)
	}
	have := "none is configured"
	if exts := m.servers.Extensions(); len(exts) > 0 {
		have = "servers are configured for " + strings.Join(exts, " ")
	}
	return fmt.Errorf("no language server handles %s files (%s): add one under \"lspServers\" in settings.json, e.g. {\"lspServers\": {\"pyright\": {\"command\": \"pyright-langserver\", \"args\": [\"--stdio\"], \"extensionToLanguage\": {\".py\": \"python\"}}}}, or put gopls on PATH for Go", ext, have)
}

// client returns the running server for path in root, starting it when
// none runs (or the last one exited).
func (m *Manager) client(ctx context.Context, path, root string) (*client, error) {
	name, ok := m.servers.For(filepath.Ext(path))
	if !ok {
		return nil, m.NoServerError(path)
	}
	k := serverKey{name, root}
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, ErrClosed
		}
		e := m.running[k]
		if e == nil {
			e = &entry{ready: make(chan struct{})}
			m.running[k] = e
			m.mu.Unlock()
			e.c, e.err = start(ctx, name, m.servers[name], root)
			m.mu.Lock()
			if e.err != nil || m.closed {
				delete(m.running, k)
			}
			closed := m.closed
			m.mu.Unlock()
			close(e.ready)
			if closed && e.c != nil {
				e.c.close()
				return nil, ErrClosed
			}
			return e.c, e.err
		}
		m.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil {
			return nil, e.err
		}
		if e.c.alive() {
			return e.c, nil
		}
		// It exited: forget it and start another.
		m.mu.Lock()
		if m.running[k] == e {
			delete(m.running, k)
		}
		m.mu.Unlock()
		go e.c.kill()
	}
}

// Close shuts every server down (shutdown, exit, then a kill of its
// process group) and waits for them. Later calls fail with ErrClosed.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	entries := make([]*entry, 0, len(m.running))
	for _, e := range m.running {
		entries = append(entries, e)
	}
	m.running = map[serverKey]*entry{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, e := range entries {
		wg.Go(func() {
			<-e.ready
			if e.c != nil {
				e.c.close()
			}
		})
	}
	wg.Wait()
}

// Running lists the process IDs of the running servers.
func (m *Manager) Running() []int {
	m.mu.Lock()
	defer m.mu.Unlock()
	var pids []int
	for _, e := range m.running {
		select {
		case <-e.ready:
			if e.c != nil && e.c.alive() {
				pids = append(pids, e.c.cmd.Process.Pid)
			}
		default:
		}
	}
	return pids
}

// maxDiagnostics bounds what AfterWrite reports for one file.
const (
	maxDiagnostics   = 20
	maxDiagnosticLen = 300
)

// AfterWrite tells the running servers that serve path (an absolute path
// just written) its new content, waits up to the diagnostics wait for
// what they publish for it, and returns the errors and warnings not
// reported for it last time, as text for the model ("" when none, or no
// server runs for it). It starts no server.
func (m *Manager) AfterWrite(ctx context.Context, path string) string {
	if m == nil {
		return ""
	}
	name, ok := m.servers.For(filepath.Ext(path))
	if !ok {
		return ""
	}
	m.mu.Lock()
	var clients []*client
	for k, e := range m.running {
		if k.name != name {
			continue
		}
		select {
		case <-e.ready:
			if e.c != nil && e.c.alive() {
				clients = append(clients, e.c)
			}
		default:
		}
	}
	m.mu.Unlock()
	if len(clients) == 0 {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, m.wait)
	defer cancel()
	var all []Diagnostic
	got := false
	for _, c := range clients {
		uri := fileURI(path)
		seq := c.seq(uri)
		_, version, changed, err := c.sync(path)
		if err != nil {
			continue
		}
		if !changed {
			seq = 0 // the server has this content: what it published holds
		}
		if list, ok := c.diagnostics(ctx, uri, version, seq); ok {
			got = true
			all = append(all, list...)
		}
	}
	if !got {
		return ""
	}
	return m.newDiagnostics(path, all)
}

// newDiagnostics keeps list as what path has now and renders the errors
// and warnings of it not reported last time.
func (m *Manager) newDiagnostics(path string, list []Diagnostic) string {
	lines := fileLines(path)
	now := map[string]bool{}
	var fresh []string
	m.mu.Lock()
	before := m.reported[path]
	for _, d := range list {
		if d.Severity > 2 {
			continue
		}
		line := d.Range.Start.Line
		col := d.Range.Start.Character
		if line < len(lines) {
			col = runeColumn(lines[line], col)
		}
		msg := strings.ReplaceAll(strings.TrimSpace(d.Message), "\n", " ")
		if len(msg) > maxDiagnosticLen {
			msg = msg[:maxDiagnosticLen] + "…"
		}
		text := fmt.Sprintf("  %d:%d [%s] %s", line+1, col+1, severityName(d.Severity), msg)
		if d.Source != "" {
			text += " (" + d.Source + ")"
		}
		if now[text] {
			continue
		}
		now[text] = true
		if !before[text] {
			fresh = append(fresh, text)
		}
	}
	m.reported[path] = now
	m.mu.Unlock()
	if len(fresh) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<new-diagnostics>\nThe language server reports new problems in " + filepath.Base(path) + ":\n")
	for i, f := range fresh {
		if i == maxDiagnostics {
			fmt.Fprintf(&b, "  … and %d more\n", len(fresh)-maxDiagnostics)
			break
		}
		b.WriteString(f + "\n")
	}
	b.WriteString("</new-diagnostics>")
	return b.String()
}
