package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
)

// sessionFlags are the flags every command that assembles the tool pool
// shares: permission mode and rules, extra working directories, MCP
// configuration and simple mode.
type sessionFlags struct {
	perm       permission.Flags
	mcpConfigs []string
	strictMCP  bool
	simple     bool
}

func (f *sessionFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.perm.PermissionMode, "permission-mode", "", "default, acceptEdits, plan, bypassPermissions or dontAsk (default: the settings' permissions.defaultMode, else default)")
	fl.StringArrayVar(&f.perm.AllowedTools, "allowedTools", nil, `allow rules, e.g. "Bash(git log:*) Read" (repeatable)`)
	fl.StringArrayVar(&f.perm.DisallowedTools, "disallowedTools", nil, `deny rules, e.g. "Bash(rm:*)" or "mcp__github" (repeatable)`)
	fl.StringArrayVar(&f.perm.AddDirs, "add-dir", nil, "another directory the file tools may use (repeatable)")
	fl.StringArrayVar(&f.mcpConfigs, "mcp-config", nil, "an MCP config file or JSON string in .mcp.json format (repeatable)")
	fl.BoolVar(&f.strictMCP, "strict-mcp-config", false, "use only --mcp-config, not ./.mcp.json")
	fl.BoolVar(&f.simple, "simple", false, "simple mode: only the Bash, Read and Edit built-ins")
}

// The Claude Code defaults the pool is assembled with: simple mode keeps
// Bash, Edit and Read; ToolSearch loads deferred tools.
var (
	simpleModeTools = []string{"Bash", "Edit", "Read"}
	searchTool      = "ToolSearch"
)

// session is what one command run needs to run tools: the permission
// engine, the MCP servers, the assembled pool and the tool context.
type session struct {
	Engine  *permission.Engine
	MCP     *mcp.Manager
	Pool    *pool.Pool
	Context *runtime.ToolContext

	base     []runtime.Tool
	mcpTools []runtime.Tool
	poolOpts pool.Options
}

// openOptions tune openSession.
type openOptions struct {
	// waitMCP waits (up to the MCP connect timeout) for every server's
	// first connection, for commands that list tools.
	waitMCP bool
	// dir is the working directory; empty means the process's.
	dir string
}

// openSession loads the settings, starts the MCP servers in the background
// and assembles the pool, in the process's working directory.
func (f *sessionFlags) openSession(ctx context.Context, opts openOptions) (*session, error) {
	cwd, err := filepath.Abs(opts.dir)
	if opts.dir == "" {
		cwd, err = os.Getwd()
	}
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("working directory %s is not a directory", cwd)
	}
	home, _ := os.UserHomeDir()
	engine, err := permission.Load(cwd, home, f.perm)
	if err != nil {
		return nil, err
	}
	mgr, err := mcp.Start(cwd, f.mcpConfigs, f.strictMCP, mcp.Options{ClientName: "agentcore", ClientVersion: moduleVersion()})
	if err != nil {
		return nil, fmt.Errorf("MCP configuration: %w", err)
	}
	if opts.waitMCP {
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		_ = mgr.Wait(wctx)
		cancel()
	}
	mode, err := pool.ResolveDeferMode(os.Getenv, engine.Settings().ToolSearch)
	if err != nil {
		mgr.Close()
		return nil, err
	}
	base := generated.AllBaseTools()
	engine.UseTools(base)
	tc := runtime.NewToolContext(cwd)
	tc.WorkingDirs = engine.WorkingDirs(tc)
	s := &session{Engine: engine, MCP: mgr, Context: tc, base: base, poolOpts: pool.Options{
		Simple:      f.simple,
		SimpleTools: simpleModeTools,
		SearchTool:  searchTool,
		DenyTool:    engine.DeniesTool,
		Defer:       mode,
		Pending:     mgr,
	}}
	s.assemble(mgr.Tools())
	return s, nil
}

// assemble builds the pool from the built-ins and mcpTools and gives it
// to ToolSearch.
func (s *session) assemble(mcpTools []runtime.Tool) {
	s.mcpTools = mcpTools
	s.Pool = pool.Assemble(s.base, mcpTools, s.poolOpts)
	pool.Provide(s.Context, s.Pool)
}

// Turn gives the agent loop a turn's tools (agent.Tools): it reassembles
// the pool when the MCP servers' tools changed since the last assembly (a
// slow server finished connecting, one listed new tools). The loop asks
// between turns only.
func (s *session) Turn(tc *runtime.ToolContext) (callable, sent []runtime.Tool) {
	now := s.MCP.Tools()
	if !sameToolNames(now, s.mcpTools) {
		s.assemble(now)
	}
	return s.Pool.Turn(tc)
}

func sameToolNames(a, b []runtime.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name() != b[i].Name() {
			return false
		}
	}
	return true
}

// Close stops the MCP servers and ends the tool context's session, which
// runs what the tools registered for its end (the Bash tool's background
// shells are killed).
func (s *session) Close() {
	if s.MCP != nil {
		_ = s.MCP.Close()
	}
	s.Context.Close()
}
