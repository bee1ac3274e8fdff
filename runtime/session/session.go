// Package session assembles agentcore's engine for one conversation: the
// permission engine, the MCP servers, the tool pool, the tool context and
// the agent loop, from typed options. It is the front door of the runtime
// as a library: cmd/agentcore is flag parsing into Options plus output, and
// another program embeds the same engine with its own tools and front end.
//
//	s, err := session.Open(ctx, session.Options{
//		Tools:    append(generated.AllBaseTools(), myTools...),
//		Provider: anthropic.New("claude-sonnet-4-5"),
//	})
//	if err != nil { … }
//	defer s.Close()
//	for ev := range s.Run(ctx, "fix the failing test") {
//		… // text, tool starts, progress, results, the outcome
//	}
//
// The runtime imports no concrete tool: the caller passes the tools (the
// generated registry and/or its own, hand-written with runtime.Define) and
// the names that differ between tools' roles (simple mode, the search tool).
// Close stops the MCP servers and everything the tools started in the
// session (background shells), and leaks nothing.
package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/checkpoint"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/sandbox/egress"
	"github.com/agentcore/agentcore/runtime/settings"
	"github.com/agentcore/agentcore/runtime/structured"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// Options are everything a session is made of. The zero value of each
// field is a sensible default; Tools and, to run prompts, Provider are
// what a caller usually sets.
type Options struct {
	// ID names the session: the key of its state on disk (task lists)
	// and stream-json's session_id. Empty: a random one.
	ID string
	// Dir is the working directory; empty means the process's.
	Dir string
	// Home is the user's home directory (the user settings, "~" in rules
	// and paths); empty means os.UserHomeDir.
	Home string
	// Tools are the built-in tools: generated.AllBaseTools() and/or the
	// caller's own. MCP tools join them from the configured servers.
	Tools []runtime.Tool
	// Permissions are the sources of the permission engine. Its Tools are
	// set to Tools.
	Permissions permission.Sources
	// MCP are the MCP servers to use as tools (mcp.ResolveConfig reads
	// .mcp.json and more); MCPOptions tune their manager (its Dir defaults
	// to the working directory).
	MCP        mcp.Config
	MCPOptions mcp.Options
	// MCPWait is how long Open waits for every MCP server's first
	// connection; zero returns at once (servers that connect later join
	// the pool between turns).
	MCPWait time.Duration
	// MCPStartupTimeout, when set, picks MCPWait from the settings'
	// mcp.startupTimeoutMs once the settings are read, replacing MCPWait
	// (the CLI: mcp.ResolveStartupTimeout(os.Getenv, ms)).
	MCPStartupTimeout func(settingMs int) (time.Duration, error)
	// Pool steers the tool pool. SearchTool and SimpleTools name tools of
	// Tools (Claude Code's: "ToolSearch"; "Bash", "Edit", "Read"); Defer is
	// the deferral mode (the zero value defers always). DenyTool is set to
	// the permission engine's.
	Pool pool.Options
	// DeferMode, when set, picks the deferral mode from the settings'
	// toolSearch value once the settings are read, replacing Pool.Defer
	// (the CLI: pool.ResolveDeferMode(os.Getenv, setting)).
	DeferMode func(setting string) (pool.DeferMode, error)
	// Provider is the model the agent loop talks to; Run needs it. It is
	// also registered as a ToolContext service for tools that talk to
	// the model themselves.
	Provider provider.Provider
	// Fallback, if set, takes over when Provider fails with an overload
	// or a server error (agent.Config.Fallback; --fallback-model).
	Fallback provider.Provider
	// Retry is how failed model requests are retried (agent.Config.Retry;
	// the zero value is Claude Code's policy). Sub-agents inherit it.
	Retry agent.RetryPolicy
	// System is the system prompt. The names of deferred tools are
	// appended to it.
	System string
	// MaxTurns caps the model requests of one Run; 0 means no cap.
	MaxTurns int
	// MaxTokens caps each response; 0 lets the provider choose.
	MaxTokens int
	// PartialMessages hands the API's own stream events to the run as
	// agent.EventStream (stream-json's --include-partial-messages).
	PartialMessages bool
	// MaxConcurrency caps parallel tool calls; 0 means
	// orchestrate.DefaultMaxConcurrency (agentcore reads
	// AGENTCORE_MAX_TOOL_USE_CONCURRENCY: orchestrate.MaxConcurrencyFromEnv).
	MaxConcurrency int
	// CallTimeout bounds each call Exec runs; AbandonAfter is how long a
	// timed-out call that ignores its context is waited for. Zero: none,
	// the executor's default.
	CallTimeout, AbandonAfter time.Duration
	// JSONSchema, when set, holds every Run to a structured final answer
	// (Claude Code's --json-schema; package structured): the model gets
	// the StructuredOutput tool with this input schema, and the run ends
	// once it has called it with an input the schema accepts (the
	// Outcome's StructuredOutput). Open fails on a schema that cannot be
	// used. Sub-agents do not get the tool.
	JSONSchema json.RawMessage
	// StructuredOutputRetries is how many failed answers a run allows;
	// 0 means structured.DefaultMaxRetries.
	StructuredOutputRetries int
	// Hooks are hooks besides the settings files' (which Open reads with
	// the permissions); both run.
	Hooks hooks.Config

	// Transcripts, when set, keeps the session on disk as it goes:
	// every message is appended to Transcripts.Path(Dir, ID), synced at
	// each turn end (transcript.StoreIn(transcript.ConfigDir(home)) is agentcore's
	// ~/.agentcore/projects). Nil: nothing is written.
	Transcripts *transcript.Store
	// Continue continues the latest stored session of Dir (Claude Code's
	// -c); Resume continues the stored session with that ID (--resume).
	// Either makes ID the stored session's (unless ForkSession), its
	// messages the start of the conversation, and needs Transcripts. An
	// unknown session is an error wrapping transcript.ErrNotFound.
	Continue bool
	Resume   string
	// ForkSession, when continuing, writes to a new session (ID, or a
	// random one) that starts with the old one's messages, leaving the
	// old transcript as it was (--fork-session).
	ForkSession bool
	// Version is written on each transcript line.
	Version string
	// HookCallback runs Hooks' hooks.TypeCallback hooks (the Agent SDK
	// host's callbacks).
	HookCallback hooks.CallbackFunc
	// Print says the session runs headless, as claude -p does: a
	// PreToolUse hook's permissionDecision "defer" then ends the run
	// (agent.StopDeferred) with the call left open for a resumed run.
	// Otherwise, as in Claude Code's interactive sessions, a defer is
	// ignored with a warning and the call goes through the permission
	// check.
	Print bool

	// Sandbox turns the sandbox on whatever the settings say (the CLI's
	// --sandbox); the settings' sandbox.enabled turns it on too. A
	// session with the sandbox on owns a *sandbox.Sandbox (Sandbox),
	// offered to tools as a service of the tool context, that the tools
	// running shell commands confine them with; Close ends it.
	Sandbox bool
	// CheckSandbox checks, when the sandbox is on, that the confinement
	// can run on this machine; nil is sandbox.Check (bubblewrap is
	// installed and can make its namespaces). Open fails with its error.
	CheckSandbox func(*sandbox.Config) error
	// SandboxOptions tune the session's sandbox (its network policy).
	SandboxOptions sandbox.Options
	// FileHistory, when set, is the directory the sessions' file
	// checkpoints are kept in (agentcore's ~/.agentcore/file-history):
	// before Edit, Write or NotebookEdit writes a file, what it held is
	// kept in FileHistory/<ID> under the current user turn, for
	// RewindFiles. Files changed by shell commands are not kept. Empty:
	// nothing is kept.
	FileHistory string
	// LSPTool names the tool that needs a language server (agentcore's
	// "LSP"): the pool leaves it out when the settings' lspServers name no
	// server and gopls is not on PATH. Empty: the tool stays, and says
	// how to configure a server when called.
	LSPTool string
	// LSPDiagnosticsWait bounds how long Edit and Write wait for a
	// running language server's diagnostics of the file they wrote; zero
	// is lsp.DefaultDiagnosticsWait.
	LSPDiagnosticsWait time.Duration
	// ContextWindow is the model's context window in tokens; 0 is
	// provider.ContextWindow of the provider's name. Near it the
	// conversation is compacted (Compact) before the next request, at
	// agent.AutoCompactThreshold: AutoCompactPercent in (0, 100] is a
	// percentage of the window instead (CLAUDE_AUTOCOMPACT_PCT_OVERRIDE),
	// NoAutoCompact turns it off (DISABLE_AUTO_COMPACT).
	// CompactKeepTokens bounds the recent messages a compaction keeps
	// (agent.ContextPolicy.KeepTokens).
	ContextWindow      int
	AutoCompactPercent float64
	NoAutoCompact      bool
	CompactKeepTokens  int
	// MaxResultSizeChars are size caps of tool results by tool name,
	// winning over a tool's own (runtime.Traits.MaxResultSizeChars; 0 is
	// agent.DefaultMaxResultSizeChars, negative never): a larger result
	// is written to a file in ToolResultsDir and the model gets a preview
	// and the path, which the tools may read. ToolResultsDir defaults to
	// <transcript>/tool-results (a temporary directory without
	// Transcripts); NoResultFiles keeps every result whole.
	MaxResultSizeChars map[string]int
	ToolResultsDir     string
	NoResultFiles      bool
	// SessionEndTimeout lengthens the time the SessionEnd hooks get
	// together (Claude Code's CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS), up
	// to an hour; zero leaves Claude Code's budget: the largest timeout a
	// SessionEnd hook sets, from 1.5 s to a minute.
	SessionEndTimeout time.Duration
	// ToolOptions are the tools' switches (a shell command's default
	// timeout, what file-name searches list, the user directory …),
	// offered on the tool context; the zero value is every default.
	ToolOptions runtime.ToolOptions
}

// The transcript keeps each tool result as its call ends.
var _ agent.ResultRecorder = (*transcript.Writer)(nil)
var _ agent.CompactRecorder = (*transcript.Writer)(nil)

// Session is one conversation's engine. Its methods are safe to call from
// several goroutines, but Run runs one prompt at a time.
type Session struct {
	opts    Options
	engine  *permission.Engine
	mcp     *mcp.Manager
	tc      *runtime.ToolContext
	runMu   sync.Mutex // one Run at a time
	agentMu sync.Mutex // guards agent
	agent   *agent.Agent
	sink    sink
	closeMu sync.Mutex
	closed  bool

	mu       sync.Mutex
	pool     *pool.Pool
	mcpTools []runtime.Tool

	// A sub-agent's session (Subagent) has a parent, a fixed pool and no
	// MCP manager of its own.
	parent *Session
	sub    agent.SubagentOptions

	// hooks runs the settings' command hooks; nil when there are none.
	hooks   *hooks.Runner
	started bool // SessionStart ran (under runMu)
	// exitReason is the SessionEnd hooks' reason (SetExitReason).
	exitReason string

	noticeMu sync.Mutex
	notices  []string
	afterRun []func() // atRunEnd's, under noticeMu

	// history is the resumed conversation; transcript, when set, records
	// the conversation (nil for a sub-agent).
	history []provider.Message
	// deferred is the deferred turn history ends with (a resumed session
	// a PreToolUse hook stopped), for the agent loop.
	deferred   *agent.Deferred
	transcript *transcript.Writer
	// transcriptPath is the transcript's file, "" without one (under mu).
	transcriptPath string

	// checkpoints keeps the files the tools write, per user turn; nil
	// without Options.FileHistory (and in a sub-agent, which uses its
	// parent's).
	checkpoints *checkpoint.Store
	// awaitingRequest is set as a run starts its loop: the transcript
	// holds its lines, and the turn's checkpoint is not written, until
	// the first event after the model request, or requestOutDelay after
	// it started (observe, requestOut), so that the disk is off the
	// request's path and a slow answer does not keep them from it.
	awaitingRequest atomic.Bool

	// lsp runs the language servers (started on demand, stopped by
	// Close); a sub-agent uses its parent's.
	lsp *lsp.Manager

	// answer is the structured answer Options.JSONSchema asks for; nil
	// without one.
	answer *structured.Output

	// hookAgent is set in the sub-agent of an agent hook (hookagent.go);
	// hookAgents counts those started, for their IDs.
	hookAgent  *hookAgentRun
	hookAgents atomic.Int64

	// resultsDir is where large tool results go ("" when kept whole).
	resultsDir string

	// announced are the names of the tools the model was told of (the
	// pool when the conversation started, and every change announced
	// since); Turn announces the difference when the pool changes.
	announced []string
}

// Open builds a session: it checks the working directory, loads the
// permission engine, starts the MCP servers (waiting up to MCPWait) and
// assembles the pool. The caller must Close it.
func Open(ctx context.Context, o Options) (*Session, error) {
	dir, err := workingDir(o.Dir)
	if err != nil {
		return nil, err
	}
	o.Dir = dir
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	var answer *structured.Output
	if len(o.JSONSchema) > 0 {
		if answer, err = structured.New(o.JSONSchema, o.StructuredOutputRetries); err != nil {
			return nil, fmt.Errorf("structured output: %w", err)
		}
		o.Tools = append(slices.Clip(o.Tools), answer.Tool())
	}
	src := o.Permissions
	src.Tools = o.Tools
	engine, err := permission.Load(dir, o.Home, src)
	if err != nil {
		return nil, err
	}
	sb, off, err := openSandbox(engine.Settings().Sandbox, o, engine)
	if err != nil {
		return nil, err
	}
	mopts := o.MCPOptions
	if mopts.Dir == "" {
		mopts.Dir = dir
	}
	writer, history, err := openTranscript(&o)
	if err != nil {
		return nil, err
	}
	s := &Session{opts: o, engine: engine, tc: runtime.NewToolContext(dir), history: history, transcript: writer, answer: answer}
	if writer != nil {
		s.deferred = writer.Pending()
	}
	if o.FileHistory != "" {
		if s.checkpoints, err = checkpoint.Open(filepath.Join(o.FileHistory, o.ID)); err != nil {
			if writer != nil {
				writer.Close()
			}
			return nil, fmt.Errorf("file history: %w", err)
		}
	}
	if writer != nil {
		s.transcriptPath = writer.Path()
	}
	if s.resultsDir = toolResultsDirFor(o, s.transcriptPath); s.resultsDir != "" {
		engine.AddReadDir(s.resultsDir)
	}
	s.tc.WorkingDirs = engine.WorkingDirs(s.tc)
	s.applySettingsEnv()
	s.clientCapabilities(&mopts)
	s.mcp = mcp.NewManager(o.MCP, mopts)
	s.provide(s.tc)
	runtime.WithService(s.tc, o.ToolOptions)
	secrets := engine.Settings().Sandbox.Secrets()
	runtime.WithService(s.tc, &secrets)
	// Grep and Glob leave out what a Read deny rule covers.
	runtime.WithService[runtime.ReadGuard](s.tc, engine)
	if sb != nil {
		runtime.WithService(s.tc, sb)
		_ = s.tc.OnClose(sb.Close)
		if n, ok := sb.Network().(*egress.Network); ok {
			_ = s.tc.OnClose(func() { _ = n.Close() })
		}
	}
	if off != nil {
		runtime.WithService(s.tc, off)
	}
	if o.Provider != nil {
		runtime.WithService[provider.Provider](s.tc, o.Provider)
	}
	if o.MCPStartupTimeout != nil {
		wait, err := o.MCPStartupTimeout(engine.Settings().MCP.StartupTimeoutMs)
		if err != nil {
			s.closeTranscript()
			s.mcp.Close()
			return nil, err
		}
		o.MCPWait, s.opts.MCPWait = wait, wait
	}
	if o.MCPWait > 0 {
		wctx, cancel := context.WithTimeout(ctx, o.MCPWait)
		_ = s.mcp.Wait(wctx) // servers that failed say so in MCP().Servers()
		cancel()
	}
	if o.DeferMode != nil {
		mode, err := o.DeferMode(engine.Settings().ToolSearch)
		if err != nil {
			s.closeTranscript()
			s.mcp.Close()
			return nil, err
		}
		s.opts.Pool.Defer = mode
	}
	s.hooks = s.newHooks()
	engine.SetAskNotifier(s.notification)
	engine.SetPermissionRequestHook(s.permissionRequest)
	s.opts.Pool.DenyTool = engine.DeniesTool
	s.openLSP(engine.Settings().LSPServers)
	s.opts.Pool.Pending = s.mcp
	s.assemble(s.mcp.Tools())
	return s, nil
}

// openLSP makes the session's language-server manager from the settings'
// servers and the defaults (gopls on PATH), offers it to the tools, and
// leaves Options.LSPTool out of the pool when there is no server. No
// server starts until a tool needs one; Close stops them.
func (s *Session) openLSP(configured lsp.Servers) {
	s.lsp = lsp.NewManager(lsp.Options{
		Servers:         configured.WithDefaults(lsp.DefaultServers(nil)),
		DiagnosticsWait: s.opts.LSPDiagnosticsWait,
	})
	runtime.WithService(s.tc, s.lsp)
	runtime.WithService[runtime.FileDiagnostics](s.tc, s.lsp)
	_ = s.tc.OnClose(s.lsp.Close)
	if name := s.opts.LSPTool; name != "" && !s.lsp.Configured() {
		deny := s.opts.Pool.DenyTool
		s.opts.Pool.DenyTool = func(t runtime.Tool) bool {
			return t.Name() == name || deny != nil && deny(t)
		}
	}
}

// openSandbox is the session's sandbox: nil when the sandbox is off,
// else one made from the settings' sandbox object, checked to run here.
// Settings the sandbox cannot honour stop the session. A sandbox that
// cannot run here stops it too when asked for by Options.Sandbox (the
// CLI's --sandbox) or sandbox.failIfUnavailable; when only the settings'
// sandbox.enabled asked for it, the session runs commands unconfined and
// says so (the *sandbox.Off it returns).
func openSandbox(set settings.SandboxSettings, o Options, engine *permission.Engine) (*sandbox.Sandbox, *sandbox.Off, error) {
	if !o.Sandbox && !set.On() {
		return nil, nil, nil
	}
	conf, err := set.Confinement()
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox settings: %w", err)
	}
	check := o.CheckSandbox
	if check == nil {
		check = func(*sandbox.Config) error { return sandbox.Check(o.SandboxOptions.Bwrap) }
	}
	if err := check(conf); err != nil {
		if o.Sandbox || conf.FailIfUnavailable {
			return nil, nil, err
		}
		return nil, &sandbox.Off{Why: err}, nil
	}
	conf.DenyRead = append(hiddenPaths(o), conf.DenyRead...)
	opts := o.SandboxOptions
	if opts.Network == nil && len(conf.AllowedDomains) > 0 {
		// Some hosts are allowed: commands reach them through the
		// filtering proxies, and nothing else.
		opts.Network = &egress.Network{Policy: &egress.Policy{
			Allowed: conf.AllowedDomains, Denied: conf.DeniedDomains, Ask: networkAsker(engine),
		}}
	}
	return sandbox.New(conf, opts), nil, nil
}

// SandboxOff says why the sandbox the settings turned on could not start
// (its commands run unconfined), nil when it runs or was not asked for.
func (s *Session) SandboxOff() error {
	if off, ok := runtime.Service[*sandbox.Off](s.tc); ok {
		return off.Why
	}
	return nil
}

// hiddenPaths are the paths no sandboxed command reads unless the
// settings' allowRead shows them: the user's credential files
// (sandbox.CredentialFiles) and the agent's own settings and sessions.
func hiddenPaths(o Options) []string {
	paths := sandbox.CredentialFiles(o.Home)
	if o.Home != "" {
		paths = append(paths, filepath.Join(o.Home, ".claude"), filepath.Join(o.Home, ".claude.json"), filepath.Join(o.Home, ".agentcore"))
	}
	if d := o.Permissions.ConfigDir; d != "" && !slices.Contains(paths, d) {
		paths = append(paths, d)
	}
	if o.Transcripts != nil && o.Transcripts.Root != "" {
		paths = append(paths, o.Transcripts.Root)
	}
	return paths
}

// networkAsker asks the engine's Asker (the user, or an SDK host) about a
// host the sandbox's network rules do not decide; with none set (a -p
// run) nobody can be asked and the host is refused.
func networkAsker(engine *permission.Engine) egress.AskFunc {
	return func(ctx context.Context, host string) (bool, error) {
		a := engine.Asker()
		if a == nil {
			return false, errors.New("nobody can be asked in a non-interactive run")
		}
		ans, err := a.Ask(ctx, ask.AskRequest{Tool: "Sandbox network", Use: host,
			Message: "A sandboxed command wants to reach " + host + ", which sandbox.network.allowedDomains does not list"})
		if err != nil {
			return false, err
		}
		return ans != ask.AnswerDeny, nil
	}
}

// Sandbox returns the sandbox of the session's shell commands, nil when
// the sandbox is off.
func (s *Session) Sandbox() *sandbox.Sandbox {
	sb, _ := runtime.Service[*sandbox.Sandbox](s.tc)
	return sb
}

// openTranscript resolves the options' session: a new ID, or the stored
// session to continue, and the writer that records it.
func openTranscript(o *Options) (*transcript.Writer, []provider.Message, error) {
	resuming := o.Continue || o.Resume != ""
	if o.Continue && o.Resume != "" {
		return nil, nil, errors.New("session: Continue and Resume are exclusive: continue the latest session or resume one by ID")
	}
	if resuming && o.Transcripts == nil {
		return nil, nil, errors.New("session: continuing a session needs Options.Transcripts, the store it is kept in")
	}
	if o.ID != "" && resuming && !o.ForkSession {
		return nil, nil, errors.New("session: a session ID for a continued session needs ForkSession (the ID of the new session it is copied to)")
	}
	if o.Transcripts == nil {
		if o.ID == "" {
			o.ID = NewID()
		}
		return nil, nil, nil
	}
	st := *o.Transcripts
	if !resuming {
		if o.ID == "" {
			o.ID = NewID()
		}
		w, err := st.Create(transcript.Meta{SessionID: o.ID, Cwd: o.Dir, Version: o.Version})
		return w, nil, err
	}
	id := o.Resume
	if o.Continue {
		var err error
		if id, err = st.Latest(o.Dir); err != nil {
			return nil, nil, err
		}
	}
	w, history, err := st.Resume(o.Dir, id)
	if err != nil {
		if w != nil {
			w.Close()
		}
		return nil, nil, err
	}
	if !o.ForkSession {
		o.ID = id
		w.SetVersion(o.Version)
		return w, history, nil
	}
	w.Close()
	if o.ID == "" {
		o.ID = NewID()
	}
	fork, err := st.ForkDeferred(transcript.Meta{SessionID: o.ID, Cwd: o.Dir, Version: o.Version}, history, w.Pending())
	if err != nil {
		if fork != nil {
			fork.Close()
		}
		return nil, nil, err
	}
	return fork, history, nil
}

// closeTranscript closes the transcript, if any.
func (s *Session) closeTranscript() error {
	if s.transcript == nil {
		return nil
	}
	return s.transcript.Close()
}

// Transcript returns the writer recording the session, nil when the
// session is not kept (no Options.Transcripts, or a sub-agent). Its Err
// says whether every message reached the file.
func (s *Session) Transcript() *transcript.Writer { return s.transcript }

func workingDir(dir string) (string, error) {
	var err error
	if dir == "" {
		dir, err = os.Getwd()
	} else {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		return "", fmt.Errorf("session: no working directory: %w", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("session: working directory %s is not a directory", dir)
	}
	return dir, nil
}

// assemble builds the pool from the built-ins and mcpTools and gives it
// to the search tool. Callers hold s.mu or own s alone.
func (s *Session) assemble(mcpTools []runtime.Tool) {
	s.mcpTools = mcpTools
	s.pool = pool.Assemble(s.opts.Tools, mcpTools, s.opts.Pool)
	pool.Provide(s.tc, s.pool)
}

// Pool returns the current tool pool, reassembled first when the MCP
// servers' tools changed (a slow server finished connecting, one listed
// new tools). Call it between turns: a running call may see either pool.
func (s *Session) Pool() *pool.Pool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parent != nil {
		return s.pool // a sub-agent's tools were picked when it started
	}
	if now := s.mcp.Tools(); !sameNames(now, s.mcpTools) {
		s.assemble(now)
	}
	return s.pool
}

// announce queues a notice for the next request when p's tools differ
// from those the model was told of: an MCP server connected late, or one
// changed its tool list. The system prompt and earlier messages stay as
// they were, so the prompt cache holds.
func (s *Session) announce(p *pool.Pool) {
	s.mu.Lock()
	if s.announced == nil || s.parent != nil {
		s.mu.Unlock()
		return
	}
	now := toolNames(p.Tools())
	var added, removed []string
	for _, n := range now {
		if !slices.Contains(s.announced, n) {
			added = append(added, n)
		}
	}
	for _, n := range s.announced {
		if !slices.Contains(now, n) {
			removed = append(removed, n)
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		s.mu.Unlock()
		return
	}
	s.announced = now
	s.mu.Unlock()
	s.notify(toolsChanged(p, s.opts.Pool.SearchTool, added, removed))
}

// toolsChanged is the notice of a change of the tool list.
func toolsChanged(p *pool.Pool, search string, added, removed []string) string {
	var deferred, sent []string
	for _, n := range added {
		if p.IsDeferred(n) {
			deferred = append(deferred, n)
		} else {
			sent = append(sent, n)
		}
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nThe available tools changed since the conversation started (MCP servers connected or changed their tool lists).\n")
	if len(deferred) > 0 {
		fmt.Fprintf(&b, "New deferred tools (load them with %s before calling them): %s\n", search, strings.Join(deferred, ", "))
	}
	if len(sent) > 0 {
		fmt.Fprintf(&b, "New tools (their definitions are in the tool list): %s\n", strings.Join(sent, ", "))
	}
	if len(removed) > 0 {
		fmt.Fprintf(&b, "Removed tools (no longer callable): %s\n", strings.Join(removed, ", "))
	}
	b.WriteString("</system-reminder>")
	return b.String()
}

func toolNames(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name()
	}
	return out
}

func sameNames(a, b []runtime.Tool) bool {
	return slices.EqualFunc(a, b, func(x, y runtime.Tool) bool { return x.Name() == y.Name() })
}

// Turn gives the agent loop a turn's tools (agent.Tools): every pool
// tool is callable, the definitions sent are those not deferred plus the
// ones the search tool loaded.
func (s *Session) Turn(tc *runtime.ToolContext) (callable, sent []runtime.Tool) {
	s.syncRoots()
	p := s.Pool()
	s.announce(p)
	return p.Turn(tc)
}

// Tools returns every tool of the pool, in pool order, deferred or not.
func (s *Session) Tools() []runtime.Tool { return s.Pool().Tools() }

// Definitions returns the tools whose definitions go to the model now,
// in the order sent; provider.ToolsOf makes them API tool definitions.
func (s *Session) Definitions() []runtime.Tool {
	return s.Pool().Sent(pool.LoadedIn(s.tc))
}

// System returns the system prompt the next request carries: Options'
// System and the names of the deferred tools.
func (s *Session) System() string { return s.systemFor(s.Pool()) }

func (s *Session) systemFor(p *pool.Pool) string {
	system := s.opts.System
	if deferred := p.DeferredPrompt(); deferred != "" {
		if system != "" {
			system += "\n\n"
		}
		system += deferred
	}
	return system
}

// MCPWait returns how long Open waited for the MCP servers.
func (s *Session) MCPWait() time.Duration { return s.opts.MCPWait }

// Dir returns the session's working directory as it was opened (a
// sub-agent's: the directory it started in); the ToolContext's Cwd is
// where the conversation's cd moved it since.
func (s *Session) Dir() string { return s.opts.Dir }

// Engine returns the permission engine (to set an Asker, change the
// mode, read the rules).
func (s *Session) Engine() *permission.Engine { return s.engine }

// MCP returns the MCP server manager (server states, resources).
func (s *Session) MCP() *mcp.Manager { return s.mcp }

// ToolContext returns the context tools run in: the working directory as
// the conversation changed it, the file-state cache, the services.
func (s *Session) ToolContext() *runtime.ToolContext { return s.tc }

// ErrNoProvider is Run's error when Options.Provider is nil.
var ErrNoProvider = errors.New("session: no model provider; set Options.Provider to run prompts")

// Run sends prompt (empty: continue the conversation as it stands) and
// runs the agent loop until the model ends its turn, MaxTurns is reached,
// the user interrupts (Interrupt) or ctx is cancelled. It yields every
// event as it happens, in order, one at a time: the loop waits while the
// caller handles an event, so what the caller prints before a permission
// prompt is everything that happened before it. The last event is
// agent.EventDone, carrying the Outcome. Breaking out of the loop cancels
// the run. Another Run waits for this one to end.
func (s *Session) Run(ctx context.Context, prompt string) iter.Seq[agent.Event] {
	return func(yield func(agent.Event) bool) {
		if s.opts.Provider == nil {
			yield(agent.Event{Kind: agent.EventDone, At: time.Now(), Outcome: &agent.Outcome{Stop: agent.StopError, Err: ErrNoProvider}})
			return
		}
		s.runMu.Lock()
		defer s.runMu.Unlock()
		s.agentMu.Lock()
		ag := s.agentLocked()
		s.agentMu.Unlock()
		if s.parent != nil && s.sub.Label != "" {
			ctx = ask.WithAgent(ctx, s.sub.Label)
		}
		runCtx, cancel := context.WithCancel(ctx)
		defer cancel()
		events := s.sink.open()
		go func() {
			defer s.sink.close()
			defer s.endRun()
			if !s.started {
				s.started = true
				if s.parent == nil {
					s.sessionStart(runCtx)
				} else {
					s.subagentStart(runCtx)
				}
			}
			prompt, err := s.userPromptSubmit(runCtx, prompt)
			if err == nil && prompt != "" && s.checkpoints != nil {
				_, err = s.checkpoints.BeginNext(prompt)
			}
			if err != nil {
				s.observe(agent.Event{Kind: agent.EventDone, At: time.Now(), Outcome: &agent.Outcome{Stop: agent.StopError, Err: err}})
				return
			}
			if s.transcript != nil {
				s.transcript.Hold()
			}
			s.awaitingRequest.Store(true) // observe ends the wait
			ag.Run(runCtx, prompt)
		}()
		// However the caller leaves (break, panic), the run is cancelled
		// and its remaining events are let through, so the loop ends.
		var cur *sinkItem
		finished := false
		defer func() {
			if finished {
				return
			}
			cancel()
			if cur != nil {
				close(cur.ack)
			}
			for it := range events {
				close(it.ack)
			}
		}()
		for it := range events {
			cur = &it
			ok := yield(it.ev)
			cur = nil
			close(it.ack)
			if !ok {
				return
			}
		}
		finished = true
	}
}

// agentLocked returns the session's agent loop, made at the first use
// (Run, Compact); agentMu is held.
func (s *Session) agentLocked() *agent.Agent {
	if s.agent == nil {
		p := s.Pool()
		s.mu.Lock()
		s.announced = toolNames(p.Tools())
		s.mu.Unlock()
		var rec agent.Recorder
		if s.transcript != nil {
			rec = s.transcript
		}
		var answer agent.Answer
		if s.answer != nil {
			answer = s.answer
		}
		s.agent = agent.New(agent.Config{
			Provider:           s.opts.Provider,
			Fallback:           s.opts.Fallback,
			Retry:              s.opts.Retry,
			Tools:              s,
			CanUseTool:         s.canUseTool,
			PreToolUse:         s.preHook(),
			PostToolUse:        s.postHook(),
			PostToolUseFailure: s.failureHook(),
			MaxConcurrency:     s.opts.MaxConcurrency,
			System:             s.systemFor(p),
			MaxTurns:           s.opts.MaxTurns,
			MaxTokens:          s.opts.MaxTokens,
			PartialMessages:    s.opts.PartialMessages,
			Observer:           s.observe,
			Notices:            s.takeNotices,
			OnStop:             s.stopHook(),
			Answer:             answer,
			History:            s.history,
			Deferred:           s.deferred,
			Recorder:           rec,
			Context:            s.contextPolicy(),
			Compaction:         compactHooks{s},
			LargeResults:       s.largeResults(),
		}, s.tc)
	}
	return s.agent
}

// Interrupt interrupts the running turn: the model stream stops, calls
// whose interrupt behaviour is cancel stop, the others finish, and Run
// ends with agent.StopInterrupted once every call has its result. Without
// a running turn it does nothing. Safe from any goroutine (a signal
// handler).
func (s *Session) Interrupt() {
	s.agentMu.Lock()
	a := s.agent
	s.agentMu.Unlock()
	if a != nil {
		a.Interrupt()
	}
}

// Messages returns a copy of the conversation so far (a resumed
// session's stored messages first). It is safe during a run (a tool
// inspecting its own context): the copy holds the messages complete when
// it is called, so the running turn's assistant message joins once the
// model has finished it.
func (s *Session) Messages() []provider.Message {
	s.agentMu.Lock()
	defer s.agentMu.Unlock()
	if s.agent == nil {
		return slices.Clone(s.history)
	}
	return s.agent.Messages()
}

// Deferred returns the deferred turn the conversation ends with — a
// PreToolUse hook deferred some of its calls (Options.Print) — or nil.
// The next Run asks about its pending calls again first; with no prompt
// it then continues from there. Not during a run.
func (s *Session) Deferred() *agent.Deferred {
	s.agentMu.Lock()
	defer s.agentMu.Unlock()
	if s.agent == nil {
		return s.deferred
	}
	return s.agent.Deferred()
}

// Exec runs tool calls directly, as the model would make them, through
// the same pipeline (decode, validate, permissions, scheduling: safe
// calls in parallel, results in the calls' order) and yields one event
// per call and per progress report. Calls use the session's pool, deferred
// tools included, and its ToolContext, whose changes they make.
func (s *Session) Exec(ctx context.Context, calls []orchestrate.ToolUse) iter.Seq[orchestrate.Event] {
	ex := &orchestrate.Executor{
		Tools:              s.Tools(),
		CanUseTool:         s.canUseTool,
		PreToolUse:         s.preHook(),
		PostToolUse:        s.postHook(),
		PostToolUseFailure: s.failureHook(),
		MaxConcurrency:     s.opts.MaxConcurrency,
		CallTimeout:        s.opts.CallTimeout,
		AbandonAfter:       s.opts.AbandonAfter,
	}
	return func(yield func(orchestrate.Event) bool) {
		defer s.syncRoots() // the calls may have moved the session (EnterWorktree)
		for ev := range ex.RunTools(ctx, calls, s.tc) {
			if !yield(ev) {
				return
			}
		}
	}
}

// Close stops the MCP servers and ends the ToolContext's session state
// (background shells are killed). It is safe to call more than once.
func (s *Session) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.sessionEnd(s.endReason())
	if s.parent == nil {
		s.hooks.Close() // async hooks still running are killed
	}
	s.endRun()
	// The MCP servers and the background shells (tc's cleanups) stop at
	// the same time: each waits out its own grace periods.
	var err error
	var wg sync.WaitGroup
	if s.parent == nil { // a sub-agent uses its parent's servers
		wg.Go(func() { err = s.mcp.Close() })
	}
	s.tc.Close()
	wg.Wait()
	if terr := s.closeTranscript(); err == nil {
		err = terr
	}
	if s.checkpoints != nil && s.parent == nil {
		if cerr := s.checkpoints.Flush(); err == nil {
			err = cerr
		}
	}
	s.removeTempResults()
	return err
}

// sink hands the agent loop's events to the goroutine ranging over Run,
// one at a time: observe waits until the event was handled. Run always
// drains the channel until the loop closes it, so observe never waits
// for nobody.
type sink struct {
	mu sync.Mutex // serialises observe: one event in flight
	ch chan sinkItem
}

type sinkItem struct {
	ev  agent.Event
	ack chan struct{}
}

func (k *sink) open() <-chan sinkItem {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.ch = make(chan sinkItem)
	return k.ch
}

func (k *sink) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	close(k.ch)
	k.ch = nil
}

// observe is the agent's Observer: it is called from the loop and from
// running tools, so it serialises them.
func (k *sink) observe(ev agent.Event) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.ch == nil {
		return
	}
	it := sinkItem{ev: ev, ack: make(chan struct{})}
	k.ch <- it
	<-it.ack
}

// ResumeStored switches the session to the stored conversation id of its
// directory, as opening it with Options.Resume would: the next Run sends
// that conversation's messages first, the transcript records to its file,
// and ID is id. It returns the resumed messages. It needs
// Options.Transcripts and no turn running; the hooks get the new ID and
// transcript path from then on.
func (s *Session) ResumeStored(id string) ([]provider.Message, error) {
	if s.parent != nil {
		return nil, errors.New("session: a sub-agent cannot resume a stored session")
	}
	if s.opts.Transcripts == nil {
		return nil, errors.New("session: resuming a stored session needs Options.Transcripts, the store it is kept in")
	}
	if id == s.ID() {
		return nil, fmt.Errorf("session %s is the one running", id)
	}
	if !s.runMu.TryLock() {
		return nil, errors.New("a turn is running: wait for it to end (or press Esc), then resume")
	}
	defer s.runMu.Unlock()
	w, history, err := s.opts.Transcripts.Resume(s.opts.Dir, id)
	if err != nil {
		if w != nil {
			w.Close()
		}
		return nil, err
	}
	w.SetVersion(s.opts.Version)
	old := s.transcript
	s.agentMu.Lock()
	s.agent = nil // the next Run starts from history, recording to w
	s.history = history
	s.deferred = w.Pending()
	s.transcript = w
	s.agentMu.Unlock()
	s.mu.Lock()
	s.opts.ID = id
	s.transcriptPath = w.Path()
	s.mu.Unlock()
	if old != nil {
		if err := old.Close(); err != nil {
			return slices.Clone(history), fmt.Errorf("resumed %s, but the previous transcript did not close cleanly: %w", id, err)
		}
	}
	return slices.Clone(history), nil
}
