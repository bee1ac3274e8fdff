package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/features"
	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/session"
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
			m := mcp.NewManager(cfg, mcp.Options{Dir: cwd, ConnectTimeout: timeout}.FromEnv(os.LookupEnv))
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
below, then the tool. A call that needs approval ("ask") is put to the
client through elicitation when the client supports it (allow once, allow
for the session, deny); for other clients it is denied, with a message
saying which rule would allow it. The calls share one session: a cd, the
todo list and background shells carry over from call to call, and the
background shells are stopped when the client disconnects or the server
gets SIGINT, SIGTERM or SIGHUP.

Tools that work only inside an agent loop (Agent, ToolSearch, Skill,
AskUserQuestion, the plan-mode tools: +tool:agentOnly) are not offered.

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

// serveMCP runs the MCP server until the client disconnects or a signal
// (SIGINT, SIGTERM, SIGHUP) ends it; either way the session closes, and
// with it every background shell and worktree state its calls started.
func serveMCP(ctx context.Context, perm permissionFlags, transport sdk.Transport) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("no working directory: %w", err)
	}
	src, err := perm.sources()
	if err != nil {
		return err
	}
	// The tools that need an agent loop around them (the model's
	// conversation, its user, its permission mode) are not offered; the
	// others' descriptions are fitted to their absence.
	var tools []runtime.Tool
	known := generated.LeftOutTools()
	for _, t := range generated.AllBaseTools() {
		if t.Traits().AgentOnly {
			known = append(known, t.Name())
			continue
		}
		tools = append(tools, t)
	}
	src.Asker = elicitAsker{}
	s, err := session.Open(ctx, session.Options{Dir: cwd, Tools: tools, Permissions: src,
		Pool: pool.Options{Known: known}, ToolOptions: toolOptions(), LSPTool: lspTool})
	if err != nil {
		return err
	}
	defer s.Close()
	tools = s.Pool().Tools()
	exec := &orchestrate.Executor{Tools: tools, CanUseTool: s.Engine().CanUseTool, MaxConcurrency: orchestrate.MaxConcurrencyFromEnv(os.Getenv)}
	return mcp.Serve(ctx, tools, pipelineRunner(exec, s.ToolContext()), transport, mcp.ServeOptions{
		Name:    "agentcore",
		Version: moduleVersion() + " (" + features.Variant + ")",
	})
}

// elicitAsker asks the MCP client of a call for approval through
// elicitation (a form with the decision), when that client declared the
// capability; for other clients the call is denied with the rule that
// would allow it (ask.ConditionalAsker).
type elicitAsker struct{}

// CanAsk reports whether the call's client supports elicitation.
func (elicitAsker) CanAsk(ctx context.Context) bool { return mcp.ClientCanElicit(ctx) }

// The answers of the approval form.
const (
	elicitAllow   = "Allow"
	elicitAlways  = "Allow for this session"
	elicitDecline = "Deny"
)

// Ask shows the request to the client's user as a one-field form.
func (elicitAsker) Ask(ctx context.Context, req ask.AskRequest) (ask.Answer, error) {
	choices := []string{elicitAllow}
	if req.Suggestion != "" || req.AlwaysLabel != "" {
		choices = append(choices, elicitAlways)
	}
	choices = append(choices, elicitDecline)
	what := req.Tool
	if req.Use != "" {
		what += ": " + req.Use
	}
	msg := "agentcore asks for approval: " + what
	if req.Message != "" {
		msg += "\n" + req.Message
	}
	if req.Suggestion != "" {
		msg += "\n\"" + elicitAlways + "\" adds the rule " + req.Suggestion + "."
	}
	res, err := mcp.Elicit(ctx, &sdk.ElicitParams{
		Message: msg,
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"decision": map[string]any{"type": "string", "title": "Decision", "enum": choices},
			},
			"required": []string{"decision"},
		},
	})
	if errors.Is(err, mcp.ErrInputRequired) {
		return ask.AnswerDeny, err // the call stops; the client answers and repeats it
	}
	if err != nil {
		return ask.AnswerDeny, fmt.Errorf("ask the MCP client: %w", err)
	}
	if res.Action != "accept" {
		return ask.AnswerDeny, nil
	}
	switch res.Content["decision"] {
	case elicitAllow:
		return ask.AnswerAllowOnce, nil
	case elicitAlways:
		return ask.AnswerAllowSession, nil
	}
	return ask.AnswerDeny, nil
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
