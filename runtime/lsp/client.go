package lsp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// DefaultStartupTimeout bounds a server's start and handshake.
const DefaultStartupTimeout = 60 * time.Second

// shutdownWait is how long a server gets to answer shutdown and to exit
// before it is killed.
const shutdownWait = 3 * time.Second

// client is one running language server for one root directory.
type client struct {
	name string
	conf ServerConfig
	root string
	cmd  *exec.Cmd
	rpc  *conn
	in   io.WriteCloser
	exit chan struct{} // closed once the process was reaped
	errb *tailBuffer
	tmp  string // the server's TMPDIR, removed when it ends

	docMu sync.Mutex // one document change at a time
	docs  map[string]*document

	diagMu  sync.Mutex
	diags   map[string]published // by URI
	changed chan struct{}        // closed and replaced on each publish
}

// document is a file open in the server.
type document struct {
	path    string
	version int
	sum     [32]byte
	// size and mod are the file's when it was last sent, to see cheaply
	// whether it changed on disk since.
	size int64
	mod  time.Time
}

// published is the last diagnostics a server published for a file.
type published struct {
	version int // 0 when the server gave none
	seq     uint64
	list    []Diagnostic
}

// start runs the server in root and completes the initialize handshake.
func start(ctx context.Context, name string, conf ServerConfig, root string) (*client, error) {
	timeout := DefaultStartupTimeout
	if conf.StartupTimeout > 0 {
		timeout = time.Duration(conf.StartupTimeout) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The server's temporary files (gopls's go commands' work
	// directories among them) go to a directory of its own, removed when
	// it ends: a server killed at close leaves nothing in /tmp.
	tmp, err := os.MkdirTemp("", "agentcore-lsp-")
	if err != nil {
		return nil, fmt.Errorf("start language server %s: %w", name, err)
	}
	cmd := exec.Command(conf.Command, conf.Args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	for k, v := range conf.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	c := &client{name: name, conf: conf, root: root, cmd: cmd, in: in, exit: make(chan struct{}), tmp: tmp,
		errb: &tailBuffer{max: 4 << 10}, docs: map[string]*document{}, diags: map[string]published{}, changed: make(chan struct{})}
	cmd.Stderr = c.errb
	if err := procgroup.Start(cmd); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("start language server %s (%s): %w; install it or fix lspServers.%s.command in settings.json", name, conf.Command, err, name)
	}
	c.rpc = newConn(out, in, c.handle)
	go func() {
		// Wait closes stdout: let the reader see the end first.
		<-c.rpc.Done()
		_ = cmd.Wait()
		close(c.exit)
		_ = os.RemoveAll(tmp) // a server that ended by itself; kill removes it too
	}()
	if err := c.initialize(ctx); err != nil {
		c.kill()
		return nil, fmt.Errorf("language server %s did not start: %w%s", name, err, c.stderrTail())
	}
	return c, nil
}

// initialize is the handshake: initialize, initialized, and the settings.
func (c *client) initialize(ctx context.Context) error {
	uri := fileURI(c.root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]string{"name": "agentcore"},
		"rootUri":          uri,
		"rootPath":         c.root,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": filepath.Base(c.root)}},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{
				"configuration":    true,
				"workspaceFolders": true,
				"symbol":           map[string]any{},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": false},
				"hover":              map[string]any{"contentFormat": []string{"plaintext", "markdown"}},
				"definition":         map[string]any{"linkSupport": true},
				"implementation":     map[string]any{"linkSupport": true},
				"references":         map[string]any{},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"callHierarchy":      map[string]any{},
				"publishDiagnostics": map[string]any{"versionSupport": true},
			},
		},
	}
	if c.conf.InitializationOptions != nil {
		params["initializationOptions"] = c.conf.InitializationOptions
	}
	if err := c.rpc.Call(ctx, "initialize", params, nil); err != nil {
		return err
	}
	if err := c.rpc.Notify("initialized", map[string]any{}); err != nil {
		return err
	}
	if c.conf.Settings != nil {
		return c.rpc.Notify("workspace/didChangeConfiguration", map[string]any{"settings": c.conf.Settings})
	}
	return nil
}

// handle answers what the server asks and keeps what it publishes.
func (c *client) handle(method string, params json.RawMessage) (any, error) {
	switch method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         string       `json:"uri"`
			Version     int          `json:"version"`
			Diagnostics []Diagnostic `json:"diagnostics"`
		}
		if json.Unmarshal(params, &p) == nil {
			c.diagMu.Lock()
			prev := c.diags[p.URI]
			c.diags[p.URI] = published{version: p.Version, seq: prev.seq + 1, list: p.Diagnostics}
			close(c.changed)
			c.changed = make(chan struct{})
			c.diagMu.Unlock()
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(params, &p)
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = c.conf.Settings
		}
		return out, nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": fileURI(c.root), "name": filepath.Base(c.root)}}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
		"window/showMessageRequest", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	}
	return nil, &RPCError{Code: -32601, Message: "method not supported by agentcore: " + method}
}

// alive reports whether the server still runs and reads.
func (c *client) alive() bool {
	select {
	case <-c.exit:
		return false
	case <-c.rpc.Done():
		return false
	default:
		return true
	}
}

// sync makes the server's copy of path its content on disk: didOpen the
// first time, didChange (the whole text) when it changed since. It returns
// the URI and the version the server holds.
func (c *client) sync(path string) (string, int, bool, error) {
	c.docMu.Lock()
	defer c.docMu.Unlock()
	return c.syncLocked(path)
}

func (c *client) syncLocked(path string) (string, int, bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", 0, false, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", 0, false, err
	}
	uri := fileURI(path)
	sum := sha256.Sum256(data)
	d := c.docs[uri]
	switch {
	case d == nil:
		d = &document{path: path, version: 1, sum: sum, size: fi.Size(), mod: fi.ModTime()}
		err = c.rpc.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": c.conf.Language(path), "version": d.version, "text": string(data)}})
		if err == nil {
			c.docs[uri] = d
		}
		return uri, d.version, true, err
	case d.sum != sum:
		d.version++
		d.sum, d.size, d.mod = sum, fi.Size(), fi.ModTime()
		err = c.rpc.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": d.version},
			"contentChanges": []map[string]string{{"text": string(data)}}})
		return uri, d.version, true, err
	}
	d.size, d.mod = fi.Size(), fi.ModTime()
	return uri, d.version, false, nil
}

// refresh re-sends every open file that changed on disk since it was
// sent (another tool or the user wrote it), and closes the ones that are
// gone, so that answers about other files see what is on disk too.
func (c *client) refresh() {
	c.docMu.Lock()
	defer c.docMu.Unlock()
	for uri, d := range c.docs {
		fi, err := os.Stat(d.path)
		switch {
		case err != nil:
			delete(c.docs, uri)
			_ = c.rpc.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": uri}})
		case fi.Size() != d.size || !fi.ModTime().Equal(d.mod):
			_, _, _, _ = c.syncLocked(d.path)
		}
	}
}

// diagnostics waits, until ctx ends, for what the server publishes for uri
// at version (or later) after seq, and returns it; ok is false when
// nothing came.
func (c *client) diagnostics(ctx context.Context, uri string, version int, after uint64) ([]Diagnostic, bool) {
	for {
		c.diagMu.Lock()
		p, seen := c.diags[uri]
		ch := c.changed
		c.diagMu.Unlock()
		if seen && p.seq > after && (p.version == 0 || p.version >= version) {
			return p.list, true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, false
		case <-c.exit:
			return nil, false
		}
	}
}

// seq is the number of publishes for uri so far.
func (c *client) seq(uri string) uint64 {
	c.diagMu.Lock()
	defer c.diagMu.Unlock()
	return c.diags[uri].seq
}

// close shuts the server down: shutdown and exit, then its input closed;
// one that does not end within shutdownWait is killed with its group.
func (c *client) close() {
	if c.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
		if c.rpc.Call(ctx, "shutdown", nil, nil) == nil {
			_ = c.rpc.Notify("exit", nil)
		}
		cancel()
	}
	_ = c.in.Close()
	select {
	case <-c.exit:
	case <-time.After(shutdownWait):
	}
	c.kill()
}

// kill ends the server's process group and waits for the process and the
// reader.
func (c *client) kill() {
	_ = procgroup.Kill(c.cmd.Process.Pid)
	_ = c.in.Close()
	<-c.exit
	<-c.rpc.Done()
	_ = os.RemoveAll(c.tmp)
}

// gone is the error of a call to a server that stopped: it waits a
// moment for the process to be reaped, so that all it wrote to stderr is
// in the message.
func (c *client) gone() error {
	select {
	case <-c.exit:
	case <-time.After(time.Second):
	}
	return fmt.Errorf("%s: %w%s", c.name, errServerGone, c.stderrTail())
}

// stderrTail is the end of what the server wrote to stderr, for errors.
func (c *client) stderrTail() string {
	s := strings.TrimSpace(c.errb.String())
	if s == "" {
		return ""
	}
	return "; its stderr ends: " + s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = bytes.Clone(t.b[len(t.b)-t.max:])
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// errServerGone is the error of a call to a server that exited.
var errServerGone = errors.New("the language server exited")
