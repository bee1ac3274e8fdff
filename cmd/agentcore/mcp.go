package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/features"
	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
)

func newMCPCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Model Context Protocol: serve agentcore's tools to MCP clients",
		Long: `Commands for the Model Context Protocol.

agentcore is an MCP client too: servers listed in .mcp.json (Claude Code's
format) become tools named mcp__<server>__<tool>.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newMCPServeCmd(), newMCPListCmd())
	return cmd
}

// mcpServerInfo is one entry of `agentcore mcp list --json`.
type mcpServerInfo struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport"`
	State     string   `json:"state"`
	Tools     []string `json:"tools"`
	Resources bool     `json:"resources"`
	Error     string   `json:"error,omitempty"`
}

func newMCPListCmd() *cobra.Command {
	var (
		configs []string
		strict  bool
		asJSON  bool
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Connect to the configured MCP servers and show their state and tools",
		Long: `Start every MCP server of .mcp.json (and --mcp-config), wait for each to
connect (at most --timeout), and show its state and tools, then stop them.
Use it to check an .mcp.json before a session: a server that fails shows why.

.mcp.json uses Claude Code's format:

  {"mcpServers": {
     "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]},
     "api":   {"type": "http", "url": "https://example.com/mcp",
               "headers": {"Authorization": "Bearer ${API_TOKEN}"}}}}

${VAR} and ${VAR:-default} are expanded from the environment.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cwd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("no working directory: %w", err)
			}
			cfg, err := mcp.ResolveConfig(cwd, configs, strict)
			if err != nil {
				return err
			}
			m := mcp.NewManager(cfg, mcp.Options{Dir: cwd, ConnectTimeout: timeout})
			defer m.Close()
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			if err := m.Wait(ctx); err != nil {
				return err
			}
			tools := map[string][]string{}
			for _, t := range m.Tools() {
				if mt, ok := t.(*mcp.Tool); ok {
					tools[mt.Server()] = append(tools[mt.Server()], t.Name())
				}
			}
			infos := []mcpServerInfo{}
			for _, st := range m.Servers() {
				info := mcpServerInfo{
					Name: st.Name, Transport: st.Transport, State: st.State.String(),
					Tools: tools[st.Name], Resources: st.Resources,
				}
				if info.Tools == nil {
					info.Tools = []string{}
				}
				if st.Err != nil {
					info.Error = st.Err.Error()
				}
				infos = append(infos, info)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			if len(infos) == 0 {
				_, err := fmt.Fprintln(out, "No MCP servers configured (add them to .mcp.json or pass --mcp-config).")
				return err
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			for _, i := range infos {
				detail := fmt.Sprintf("%d tools", len(i.Tools))
				if i.Resources {
					detail += ", resources"
				}
				if i.Error != "" {
					detail = i.Error
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.Name, i.Transport, i.State, detail)
			}
			return tw.Flush()
		},
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&configs, "mcp-config", nil, "an MCP config file, or the JSON itself (repeatable; later ones win)")
	fl.BoolVar(&strict, "strict-mcp-config", false, "use only --mcp-config, ignoring .mcp.json")
	fl.BoolVar(&asJSON, "json", false, "print JSON")
	fl.DurationVar(&timeout, "timeout", mcp.DefaultConnectTimeout, "how long each server may take to connect")
	return cmd
}

const mcpServeLong = `Serve every enabled tool of this build as an MCP server over stdin/stdout,
for any MCP client (Claude Code, Claude Desktop, an IDE, go-sdk).

Each tool is listed with its JSON schema and description; its annotations
say readOnlyHint when the tool never changes anything and destructiveHint
unless it is known never to destroy anything. Every call goes through the
same pipeline as in agentcore run: input validation, then the permission
rules and mode of the settings files (~/.agentcore/settings.json,
.agentcore/settings.json, .agentcore/settings.local.json) and the flags
below, then the tool. Standard input and output carry the protocol, so a
call that would need approval ("ask") is denied, with a message saying
which rule would allow it.

Example .mcp.json entry for a client:

  {"mcpServers": {"agentcore": {"command": "agentcore",
    "args": ["mcp", "serve", "--permission-mode", "acceptEdits"]}}}`

func newMCPServeCmd() *cobra.Command {
	var perm permissionFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve this build's tools over MCP on stdin/stdout",
		Long:  mcpServeLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return serveMCP(cmd.Context(), perm, &sdk.StdioTransport{})
		},
	}
	perm.register(cmd.Flags())
	return cmd
}

// serveMCP runs the MCP server until the client disconnects.
func serveMCP(ctx context.Context, perm permissionFlags, transport sdk.Transport) error {
	if ctx == nil {
		ctx = context.Background()
	}
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("no working directory: %w", err)
	}
	src, err := perm.sources()
	if err != nil {
		return err
	}
	base := generated.AllBaseTools()
	src.Tools = base
	home, _ := os.UserHomeDir()
	engine, err := permission.Load(cwd, home, src)
	if err != nil {
		return err
	}
	var tools []runtime.Tool
	for _, t := range base {
		if !engine.DeniesTool(t) && t.IsEnabled() {
			tools = append(tools, t)
		}
	}
	tc := runtime.NewToolContext(cwd)
	defer tc.Close() // the background shells started over MCP end with the server
	tc.WorkingDirs = engine.WorkingDirs(tc)
	exec := &orchestrate.Executor{Tools: tools, CanUseTool: engine.CanUseTool}
	return mcp.Serve(ctx, tools, pipelineRunner(exec, tc), transport, mcp.ServeOptions{
		Name:    "agentcore",
		Version: moduleVersion() + " (" + features.Variant + ")",
	})
}

// pipelineRunner runs each MCP call as a one-call batch of the
// orchestrator: decode and validate, permissions, then the tool, with a
// result for every outcome. Each call works on its own copy of tc, so
// concurrent calls never race on it; the working directory a call leaves
// behind (Bash cd) carries over to later calls, and the file-state cache
// is shared by all.
func pipelineRunner(exec *orchestrate.Executor, tc *runtime.ToolContext) mcp.Runner {
	var mu sync.Mutex
	var ids atomic.Int64
	return func(ctx context.Context, tool runtime.Tool, input json.RawMessage, progress func(any)) runtime.Result {
		mu.Lock()
		callTC := tc.Clone()
		mu.Unlock()
		use := orchestrate.ToolUse{ID: "mcp_" + strconv.FormatInt(ids.Add(1), 10), Name: tool.Name(), Input: input}
		res := runtime.ErrorResult(tool.Name() + ": the call ended without a result")
		for ev := range exec.RunTools(ctx, []orchestrate.ToolUse{use}, callTC) {
			switch ev.Kind {
			case orchestrate.EventProgress:
				progress(ev.Progress)
			case orchestrate.EventResult:
				res = ev.Result
			}
		}
		mu.Lock()
		tc.Cwd = callTC.Cwd
		mu.Unlock()
		res.Modifier = nil
		return res
	}
}
