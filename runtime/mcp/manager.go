package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// DefaultConnectTimeout bounds one server's start-up (MCP_TIMEOUT, in
// milliseconds, overrides it, as in Claude Code).
const DefaultConnectTimeout = 30 * time.Second

// DefaultCallTimeout bounds one tool call when MCP_TOOL_TIMEOUT does not
// say (Claude Code's default is 100,000,000 ms, about 28 hours, which in
// practice is none: a server that never answers hangs the turn). Five
// minutes is codex's default, and more than any built-in tool runs
// without being asked to (Bash's default limit is two minutes); a tool
// that legitimately runs longer is configured with MCP_TOOL_TIMEOUT.
const DefaultCallTimeout = 5 * time.Minute

// Options tune a Manager; the zero value is ready to use. A Manager reads
// no environment variable itself: FromEnv fills the options Claude
// Code's variables set.
type Options struct {
	// Dir is the working directory of stdio servers (default: the process's).
	Dir string
	// ConnectTimeout bounds each connection attempt of each server.
	// Default DefaultConnectTimeout (FromEnv: MCP_TIMEOUT, in ms).
	ConnectTimeout time.Duration
	// CallTimeout bounds each tool call: past it the call is cancelled
	// (notifications/cancelled) and ends in an error result naming the
	// server and the limit. Default DefaultCallTimeout (FromEnv:
	// MCP_TOOL_TIMEOUT, in ms).
	CallTimeout time.Duration
	// TerminateDuration is how long a stdio server gets to exit after its
	// stdin closes before its process group is sent SIGTERM, then SIGKILL.
	// Default DefaultTerminateDuration.
	TerminateDuration time.Duration
	// Connected, when set, is called (on a goroutine of the Manager's)
	// each time a server connects, with its status.
	Connected func(ServerStatus)
	// Log, when set, receives a line for each misbehaviour of a server
	// that agentcore tolerated (a line of stdout that is not JSON-RPC, an
	// answer it could not read); the CLI sets it with --verbose or --debug.
	Log func(line string)
	// MaxOutputChars caps the text of one result. Default
	// DefaultMaxOutputChars (FromEnv: MAX_MCP_OUTPUT_TOKENS×4); negative:
	// no cap.
	MaxOutputChars int
	// ClientName and ClientVersion identify agentcore to servers.
	ClientName, ClientVersion string
	// LookupEnv resolves ${VAR} in the config (FromEnv: the
	// environment's). Nil: no variable is set, so only ${VAR:-default}
	// expands.
	LookupEnv func(string) (string, bool)
	// Roots are the directories offered to servers as roots (the
	// session's working directories); default Dir. SetRoots changes them.
	Roots []string
	// Elicit, when set, answers servers' requests for input
	// (elicitation, form and URL modes), and the capability is declared.
	Elicit Elicitor
	// Sample, when set, answers servers' sampling requests with a model,
	// and the capability is declared.
	Sample Sampler
}

func (o Options) withDefaults() Options {
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.TerminateDuration <= 0 {
		o.TerminateDuration = DefaultTerminateDuration
	}
	if o.MaxOutputChars == 0 {
		o.MaxOutputChars = DefaultMaxOutputChars
	}
	if o.ClientName == "" {
		o.ClientName = "agentcore"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.LookupEnv == nil {
		o.LookupEnv = func(string) (string, bool) { return "", false }
	}
	if o.Roots == nil {
		dir := o.Dir
		if dir == "" {
			dir, _ = os.Getwd()
		}
		o.Roots = []string{dir}
	}
	return o
}

// FromEnv returns o with what Claude Code's environment variables set,
// read through lookup (os.LookupEnv in a program), where o leaves it
// unset: ConnectTimeout from MCP_TIMEOUT and CallTimeout from
// MCP_TOOL_TIMEOUT (milliseconds), MaxOutputChars from
// MAX_MCP_OUTPUT_TOKENS (four characters a token), and LookupEnv itself,
// for ${VAR} in the config. A value that is not a positive whole number
// is ignored.
func (o Options) FromEnv(lookup func(string) (string, bool)) Options {
	positive := func(name string) int {
		v, _ := lookup(name)
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			return n
		}
		return 0
	}
	if n := positive(EnvStartupTimeout); o.ConnectTimeout == 0 && n > 0 {
		o.ConnectTimeout = time.Duration(n) * time.Millisecond
	}
	if n := positive("MCP_TOOL_TIMEOUT"); o.CallTimeout == 0 && n > 0 {
		o.CallTimeout = time.Duration(n) * time.Millisecond
	}
	if n := positive("MAX_MCP_OUTPUT_TOKENS"); o.MaxOutputChars == 0 && n > 0 {
		o.MaxOutputChars = 4 * n
	}
	if o.LookupEnv == nil {
		o.LookupEnv = lookup
	}
	return o
}

// State is where a server's connection stands.
type State int

const (
	// StatePending: the first connection attempt is running.
	StatePending State = iota
	// StateConnected: the server is up and its tools are listed.
	StateConnected
	// StateFailed: connecting failed; the next use tries again.
	StateFailed
	// StateDisconnected: the server stopped after connecting; the next use
	// starts it again.
	StateDisconnected
	// StateClosed: the Manager was closed.
	StateClosed
)

// String returns the state's lower-case name.
func (s State) String() string {
	switch s {
	case StatePending:
		return "pending"
	case StateConnected:
		return "connected"
	case StateFailed:
		return "failed"
	case StateDisconnected:
		return "disconnected"
	default:
		return "closed"
	}
}

// ServerStatus describes one configured server.
type ServerStatus struct {
	Name      string
	Transport string
	State     State
	// Err is the last connection error (failed, disconnected).
	Err error
	// Tools is the number of tools listed; Resources whether the server
	// offers resources.
	Tools     int
	Resources bool
	// Prompts is the number of prompts listed; PromptErr why listing them
	// failed (the server's tools still work).
	Prompts   int
	PromptErr error
}

// Manager runs the MCP servers of a Config: it connects to all of them in
// the background, serves their tools, reconnects a server that died on its
// next use, and stops them all on Close.
type Manager struct {
	opts    Options
	ctx     context.Context
	cancel  context.CancelFunc
	servers []*server // sorted by name
	byName  map[string]*server
	listRes runtime.Tool
	readRes runtime.Tool

	mu     sync.Mutex // guards closed and wg.Add
	closed bool
	wg     sync.WaitGroup

	progressMu sync.Mutex
	progress   map[string]func(any)
	tokens     atomic.Uint64

	rootsMu sync.Mutex // guards roots and clients, and orders root changes
	roots   []string
	clients map[*sdk.Client]*rootsListener // of the live connections
}

// NewManager starts connecting to every server of cfg, each in its own
// goroutine, and returns at once.
func NewManager(cfg Config, opts Options) *Manager {
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{
		opts:     opts.withDefaults(),
		ctx:      ctx,
		cancel:   cancel,
		byName:   map[string]*server{},
		progress: map[string]func(any){},
		clients:  map[*sdk.Client]*rootsListener{},
	}
	m.roots = cleanDirs(m.opts.Roots)
	m.listRes = newListResourcesTool(m)
	m.readRes = newReadResourceTool(m)
	for _, name := range cfg.Names() {
		s := &server{m: m, name: name, cfg: cfg.Servers[name], settled: make(chan struct{})}
		m.servers = append(m.servers, s)
		m.byName[name] = s
	}
	for _, s := range m.servers {
		s.mu.Lock()
		s.startAttemptLocked()
		s.mu.Unlock()
	}
	return m
}

// Tools returns the tools of every server connected so far (and of
// servers that stopped and will be restarted on use), sorted by name, plus
// the resource tools when any server offers resources. A name that two
// servers produce goes to the server whose name sorts first.
func (m *Manager) Tools() []runtime.Tool {
	var out []runtime.Tool
	seen := map[string]bool{}
	resources := false
	for _, s := range m.servers {
		s.mu.Lock()
		tools, res := s.tools, s.resources
		s.mu.Unlock()
		resources = resources || res
		for _, t := range tools {
			if !seen[t.name] {
				seen[t.name] = true
				out = append(out, t)
			}
		}
	}
	if resources {
		out = append(out, m.listRes, m.readRes)
	}
	slices.SortFunc(out, func(a, b runtime.Tool) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// PendingServers names the servers still connecting (first start or
// restart), sorted; ToolSearch reports them to the model.
func (m *Manager) PendingServers() []string {
	var out []string
	for _, s := range m.servers {
		s.mu.Lock()
		if s.state == StatePending || s.attempt != nil {
			out = append(out, s.name)
		}
		s.mu.Unlock()
	}
	return out
}

// Servers reports the status of every configured server, sorted by name.
func (m *Manager) Servers() []ServerStatus {
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		s.mu.Lock()
		out = append(out, s.statusLocked())
		s.mu.Unlock()
	}
	return out
}

// statusLocked is the server's status; s.mu must be held.
func (s *server) statusLocked() ServerStatus {
	return ServerStatus{
		Name: s.name, Transport: s.cfg.Transport(), State: s.state, Err: s.err,
		Tools: len(s.tools), Resources: s.resources,
		Prompts: len(s.prompts), PromptErr: s.promptErr,
	}
}

// Wait blocks until every server's first connection attempt has ended
// (connected or failed), or ctx is done. Commands that list the tools
// (agentcore tools) use it; the agent loop does not.
func (m *Manager) Wait(ctx context.Context) error {
	for _, s := range m.servers {
		select {
		case <-s.settled:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Close stops every server and waits for their processes and the
// Manager's goroutines to end. It is safe to call more than once.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	var conns []*conn
	for _, s := range m.servers {
		s.mu.Lock()
		if s.conn != nil {
			conns = append(conns, s.conn)
			s.conn = nil
		}
		s.state = StateClosed
		s.mu.Unlock()
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(c.close)
	}
	wg.Wait()
	m.wg.Wait()
	return nil
}

// logf sends a line to Options.Log, when set.
func (m *Manager) logf(format string, args ...any) {
	if m.opts.Log != nil {
		m.opts.Log(fmt.Sprintf(format, args...))
	}
}

// goTracked runs f in a goroutine Close waits for; false when closed.
func (m *Manager) goTracked(f func()) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		f()
	}()
	return true
}

func (m *Manager) server(name string) (*server, error) {
	if s, ok := m.byName[name]; ok {
		return s, nil
	}
	names := slices.Collect(maps.Keys(m.byName))
	slices.Sort(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("no MCP server named %q: no servers are configured", name)
	}
	return nil, fmt.Errorf("no MCP server named %q; configured servers: %s", name, joinQuoted(names))
}

func (m *Manager) addProgress(f func(any)) string {
	tok := "agentcore-" + strconv.FormatUint(m.tokens.Add(1), 10)
	m.progressMu.Lock()
	m.progress[tok] = f
	m.progressMu.Unlock()
	return tok
}

func (m *Manager) removeProgress(tok string) {
	m.progressMu.Lock()
	delete(m.progress, tok)
	m.progressMu.Unlock()
}

func (m *Manager) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	tok := fmt.Sprint(req.Params.ProgressToken)
	m.progressMu.Lock()
	f := m.progress[tok]
	m.progressMu.Unlock()
	if f != nil {
		f(Progress{Message: req.Params.Message, Progress: req.Params.Progress, Total: req.Params.Total})
	}
}

// server is one configured server and its current connection.
type server struct {
	m    *Manager
	name string
	cfg  ServerConfig

	mu        sync.Mutex
	state     State
	conn      *conn
	tools     []*Tool
	resources bool
	prompts   []Prompt
	promptErr error // listing the prompts failed
	err       error
	attempt   chan struct{} // closed when the running attempt ends; nil if none
	settled   chan struct{} // closed when the first attempt ends
	everDone  bool
}

// conn is one live session with a server.
type conn struct {
	m         *Manager
	client    *sdk.Client
	cs        *sdk.ClientSession
	stderr    *tailBuffer
	onClose   func()
	closeOnce sync.Once
	// dead is closed when the session ended (its Wait returned).
	dead chan struct{}
	// stdio: the session is a process's stdin and stdout, whose end
	// dead reports (an HTTP session has no such end).
	stdio bool
}

func (c *conn) close() {
	c.closeOnce.Do(func() {
		c.m.dropClient(c.client)
		_ = c.cs.Close()
		if c.onClose != nil {
			c.onClose()
		}
	})
}

// startAttemptLocked starts a connection attempt unless one is running,
// and returns the channel closed when it ends. s.mu must be held.
func (s *server) startAttemptLocked() chan struct{} {
	if s.attempt != nil {
		return s.attempt
	}
	ch := make(chan struct{})
	s.attempt = ch
	if !s.m.goTracked(func() { s.runAttempt(ch) }) {
		s.attempt = nil
		s.state = StateClosed
		close(ch)
	}
	return ch
}

func (s *server) runAttempt(done chan struct{}) {
	ctx, cancel := context.WithTimeout(s.m.ctx, s.m.opts.ConnectTimeout)
	c, got, err := s.connect(ctx)
	if err != nil {
		switch {
		case s.m.ctx.Err() != nil:
			err = fmt.Errorf("MCP server %q: not connected: agentcore is shutting down", s.name)
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			err = fmt.Errorf("MCP server %q did not finish starting within %v (raise MCP_TIMEOUT, in milliseconds, to wait longer)%s",
				s.name, s.m.opts.ConnectTimeout, c.stderrNote())
		default:
			err = fmt.Errorf("MCP server %q failed to start: %w%s", s.name, err, c.stderrNote())
		}
	}
	cancel()

	s.mu.Lock()
	s.attempt = nil
	if !s.everDone {
		s.everDone = true
		close(s.settled)
	}
	if s.state == StateClosed {
		s.mu.Unlock()
		if err == nil {
			c.close()
		}
		close(done)
		return
	}
	if err != nil {
		s.state = StateFailed
		s.err = err
		s.mu.Unlock()
		close(done)
		return
	}
	s.state, s.conn, s.err = StateConnected, c, nil
	s.tools, s.resources = got.tools, got.resources
	s.prompts, s.promptErr = got.prompts, got.promptErr
	if f := s.m.opts.Connected; f != nil {
		st := s.statusLocked()
		s.m.goTracked(func() { f(st) })
	}
	s.m.goTracked(func() {
		waitErr := c.cs.Wait()
		close(c.dead)
		s.connectionLost(c, fmt.Errorf("MCP server %q stopped (%v)%s", s.name, orExited(waitErr), c.stderrNote()))
	})
	s.mu.Unlock()
	close(done)
}

func orExited(err error) string {
	if err == nil {
		return "connection closed"
	}
	return err.Error()
}

// stderrNote is "; its stderr ends with: …" when the server wrote any.
func (c *conn) stderrNote() string {
	if c == nil || c.stderr == nil {
		return ""
	}
	if t := c.stderr.String(); t != "" {
		return "; its stderr ends with: " + t
	}
	return ""
}

// connectionLost retires c after its server stopped; the next use
// reconnects.
func (s *server) connectionLost(c *conn, err error) {
	s.mu.Lock()
	if s.conn == c {
		s.conn = nil
		s.state = StateDisconnected
		s.err = err
	}
	s.mu.Unlock()
	c.close()
}

// offers is what a server offers on connecting.
type offers struct {
	tools     []*Tool
	resources bool
	prompts   []Prompt
	promptErr error // listing the prompts failed; the connection stands
}

// connect starts the server and lists what it offers. On error the
// returned conn (possibly nil) carries stderr for the message only.
func (s *server) connect(ctx context.Context) (*conn, offers, error) {
	var got offers
	cfg, err := s.cfg.expanded(s.m.opts.LookupEnv)
	if err != nil {
		return nil, got, err
	}
	c := &conn{m: s.m, dead: make(chan struct{})}
	var transport sdk.Transport
	switch cfg.Transport() {
	case TransportStdio:
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Dir = s.m.opts.Dir
		cmd.Env = os.Environ()
		for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
			cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
		}
		c.stderr = &tailBuffer{max: 2048}
		cmd.Stderr = c.stderr
		cmd.WaitDelay = time.Second
		// Its own process group (stdioTransport sets it): the terminal's
		// Ctrl+C interrupts the agent's turn, not the MCP servers it is
		// talking to, and closing ends whatever the server started.
		c.stdio = true
		transport = &stdioTransport{cmd: cmd, server: s.name, grace: s.m.opts.TerminateDuration, logf: s.m.logf}
	case TransportHTTP, TransportSSE:
		rt := http.DefaultTransport.(*http.Transport).Clone()
		c.onClose = rt.CloseIdleConnections
		client := &http.Client{Transport: &headerTransport{base: rt, headers: cfg.Headers}}
		if cfg.Transport() == TransportHTTP {
			transport = &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client, DisableStandaloneSSE: true}
		} else {
			transport = detached{inner: &sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}, life: s.m.ctx}
		}
	case TransportSDK:
		if cfg.InProcess == nil {
			return c, got, fmt.Errorf("the in-process server %q has no connection to the SDK host", s.name)
		}
		transport = cfg.InProcess
	}
	ready := make(chan struct{}) // c.cs is set
	client := s.newClient(c, ready)
	cs, err := client.Connect(ctx, transport, nil)
	if err != nil {
		s.m.dropClient(client)
		if c.onClose != nil {
			c.onClose()
		}
		return c, got, err
	}
	c.cs = cs
	close(ready)
	var caps *sdk.ServerCapabilities
	if ir := cs.InitializeResult(); ir != nil {
		caps = ir.Capabilities
	}
	if caps == nil || caps.Tools != nil {
		if got.tools, err = s.listTools(ctx, cs); err != nil {
			c.close()
			return c, offers{}, err
		}
	}
	got.resources = caps != nil && caps.Resources != nil
	if caps != nil && caps.Prompts != nil {
		// As in Claude Code, a server whose prompts cannot be listed keeps
		// its tools; /mcp shows why its prompts are missing.
		got.prompts, got.promptErr = s.listPrompts(ctx, cs)
	}
	return c, got, nil
}

// listTools lists every tool of the session, as adapters sorted by name.
func (s *server) listTools(ctx context.Context, cs *sdk.ClientSession) ([]*Tool, error) {
	var tools []*Tool
	instructions := ""
	if ir := cs.InitializeResult(); ir != nil {
		instructions = ir.Instructions
	}
	for def, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list tools: %w", err)
		}
		t := newTool(s, def)
		t.instructions = instructions
		tools = append(tools, t)
	}
	slices.SortFunc(tools, func(a, b *Tool) int { return strings.Compare(a.name, b.name) })
	return tools, nil
}

// refreshTools lists the tools again after the server said its list
// changed (notifications/tools/list_changed).
func (s *server) refreshTools(c *conn) {
	ctx, cancel := context.WithTimeout(s.m.ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	tools, err := s.listTools(ctx, c.cs)
	if err != nil {
		return // the next failure of a call retires the connection
	}
	s.mu.Lock()
	if s.conn == c {
		s.tools = tools
	}
	s.mu.Unlock()
}

// session returns the live connection, connecting first when the server
// is not connected (waiting for a running attempt).
func (s *server) session(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	switch s.state {
	case StateConnected:
		c := s.conn
		s.mu.Unlock()
		return c, nil
	case StateClosed:
		s.mu.Unlock()
		return nil, fmt.Errorf("MCP server %q is not available: the MCP manager is closed", s.name)
	}
	ch := s.startAttemptLocked()
	s.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateConnected {
		return s.conn, nil
	}
	if s.err != nil {
		return nil, s.err
	}
	return nil, fmt.Errorf("MCP server %q is not connected (%s)", s.name, s.state)
}

// do runs f with a live session; a transport failure retires the
// connection so that the next use reconnects.
func (s *server) do(ctx context.Context, what string, f func(context.Context, *sdk.ClientSession) error) error {
	c, err := s.session(ctx)
	if err != nil {
		return err
	}
	callCtx := ctx
	if d := s.m.opts.CallTimeout; d > 0 {
		var cancel context.CancelFunc
		callCtx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	err = f(callCtx, c.cs)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case callCtx.Err() != nil:
		return fmt.Errorf("MCP server %q: %s timed out after %v and was cancelled; the server goes on serving other calls (MCP_TOOL_TIMEOUT, in milliseconds, sets the limit)",
			s.name, what, s.m.opts.CallTimeout)
	case c.broken(err):
		c.awaitEnd() // for the whole of its stderr
		msg := fmt.Errorf("MCP server %q stopped during %s (%w)%s; it will be restarted on its next use", s.name, what, err, c.stderrNote())
		s.connectionLost(c, msg)
		return msg
	default:
		return fmt.Errorf("MCP server %q: %s failed: %w", s.name, what, err)
	}
}

// awaitEnd waits (up to brokenWait) for a session that is ending to end.
func (c *conn) awaitEnd() {
	t := time.NewTimer(brokenWait)
	defer t.Stop()
	select {
	case <-c.dead:
	case <-t.C:
	}
}

// brokenWait bounds how long a failed call waits to learn whether its
// stdio session ended with it (the session ends just after its calls
// fail).
const brokenWait = 200 * time.Millisecond

// broken tells a dead transport from a failure of one call: an error the
// server sent, or an answer that could not be read as the call's result.
func (c *conn) broken(err error) bool {
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, os.ErrClosed) {
		return true
	}
	var we *jsonrpc.Error
	var se *json.SyntaxError
	var ue *json.UnmarshalTypeError
	if errors.As(err, &we) || errors.As(err, &se) || errors.As(err, &ue) {
		return false
	}
	if !c.stdio {
		return true // an HTTP request that failed: reconnect on the next use
	}
	t := time.NewTimer(brokenWait)
	defer t.Stop()
	select {
	case <-c.dead:
		return true
	case <-t.C:
		return false
	}
}

func (s *server) callTool(ctx context.Context, name string, args Input, onProgress func(any)) (*sdk.CallToolResult, error) {
	if args == nil {
		args = Input{}
	}
	var res *sdk.CallToolResult
	err := s.do(ctx, "the call of tool "+strconv.Quote(name), func(ctx context.Context, cs *sdk.ClientSession) error {
		params := &sdk.CallToolParams{Name: name, Arguments: args}
		if onProgress != nil {
			tok := s.m.addProgress(onProgress)
			defer s.m.removeProgress(tok)
			params.SetProgressToken(tok)
		}
		var err error
		res, err = cs.CallTool(ctx, params)
		return err
	})
	return res, err
}

// detached connects inner with a context that lasts as long as the
// connection rather than the handshake: the SSE transport ties its event
// stream to the context its Connect gets. The handshake context still
// bounds the connecting itself.
type detached struct {
	inner sdk.Transport
	life  context.Context
}

func (d detached) Connect(ctx context.Context) (sdk.Connection, error) {
	life, cancel := context.WithCancel(d.life)
	stop := context.AfterFunc(ctx, cancel)
	conn, err := d.inner.Connect(life)
	if !stop() {
		// The handshake context ended first and cancelled life.
		if conn != nil {
			_ = conn.Close()
		}
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &cancelOnClose{Connection: conn, cancel: cancel}, nil
}

// cancelOnClose ends a detached connection's context when it closes.
type cancelOnClose struct {
	sdk.Connection
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

// headerTransport adds configured headers to every request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	return h.base.RoundTrip(req)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// joinQuoted is "a", "b", "c".
func joinQuoted(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return strings.Join(quoted, ", ")
}
