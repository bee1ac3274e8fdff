package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/settings"
	"github.com/agentcore/agentcore/runtime/skills"
)

// permissionFlags are the permission flags: mode, rules, extra working
// directories.
type permissionFlags struct {
	mode            string
	allowedTools    []string
	disallowedTools []string
	addDirs         []string
	// allowedKebab and disallowedKebab hold Claude Code's kebab-case
	// spellings (--allowed-tools); a flag value owns its slice.
	allowedKebab, disallowedKebab []string
	// settings and settingSources are Claude Code's --settings and
	// --setting-sources (settings_flags.go).
	settings       string
	settingSources *string
	// read are the settings files readSettings read last, and the
	// directory they were read for: the next session opened there
	// reuses them, once.
	read struct {
		cwd   string
		files []settings.SettingsFile
	}
}

func (f *permissionFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.mode, "permission-mode", "", "default, acceptEdits, plan, bypassPermissions or dontAsk (default: the settings' permissions.defaultMode, else default)")
	fl.StringArrayVar(&f.allowedTools, "allowedTools", nil, `allow rules, e.g. "Bash(git log:*) Read" (repeatable)`)
	fl.StringArrayVar(&f.disallowedTools, "disallowedTools", nil, `deny rules, e.g. "Bash(rm:*)" or "mcp__github" (repeatable)`)
	fl.StringArrayVar(&f.addDirs, "add-dir", nil, "another directory the file tools may use (repeatable)")
	// Claude Code's kebab-case spellings of the rule flags.
	fl.StringArrayVar(&f.allowedKebab, "allowed-tools", nil, "the same as --allowedTools")
	fl.StringArrayVar(&f.disallowedKebab, "disallowed-tools", nil, "the same as --disallowedTools")
	_ = fl.MarkHidden("allowed-tools")
	_ = fl.MarkHidden("disallowed-tools")
	f.registerSettings(fl)
}

// sources maps the flags to the permission engine's sources, with the
// settings files: one flag value may hold several rules separated by
// commas or spaces ("Bash(git log:*) Read").
func (f *permissionFlags) sources() (permission.Sources, error) {
	src := permission.Sources{SettingsFiles: true, AddDirs: f.addDirs, Advice: cliAdvice,
		ConfigDir: os.Getenv("AGENTCORE_CONFIG_DIR"), ClaudeConfigDir: os.Getenv("CLAUDE_CONFIG_DIR")}
	if err := f.settingsSources(&src); err != nil {
		return src, err
	}
	if f.mode != "" {
		mode, err := permission.ParseMode(f.mode)
		if err != nil {
			return src, fmt.Errorf("--permission-mode: %w", err)
		}
		src.Mode = mode
	}
	for _, flag := range []struct {
		name   string
		values []string
		b      runtime.Behavior
	}{
		{"--allowedTools", append(f.allowedTools, f.allowedKebab...), runtime.Allow},
		{"--disallowedTools", append(f.disallowedTools, f.disallowedKebab...), runtime.Deny},
	} {
		var split []string
		for _, v := range flag.values {
			split = append(split, permission.SplitRuleList(v)...)
		}
		rules, err := permission.ParseRules(split, flag.b, permission.SourceFlag, flag.name)
		if err != nil {
			return src, fmt.Errorf("permission settings: %w%s", err, argumentHint(flag.name, flag.values))
		}
		src.Rules = append(src.Rules, rules...)
	}
	return src, nil
}

// argumentHint explains a rule flag's value that names an existing file:
// the flag took every value after it (expandVariadic), an argument meant
// for the command too.
func argumentHint(flag string, values []string) string {
	for _, v := range values {
		if strings.ContainsAny(v, "() ") {
			continue
		}
		if _, err := os.Stat(v); err == nil {
			return fmt.Sprintf(" (%s takes every value after it up to the next flag, as Claude Code's does, so it took the file %q: put the file before the flag, or after --)", flag, v)
		}
	}
	return ""
}

// sessionFlags are the flags every command that assembles the tool pool
// shares: the permission flags, the MCP configuration and simple mode.
type sessionFlags struct {
	perm       permissionFlags
	mcpConfigs []string
	strictMCP  bool
	simple     bool
	// sandbox is --sandbox (run, -p and exec: registerSandbox).
	sandbox bool
}

func (f *sessionFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.perm.register(fl)
	fl.StringArrayVar(&f.mcpConfigs, "mcp-config", nil, "an MCP config file or JSON string in .mcp.json format (repeatable)")
	fl.BoolVar(&f.strictMCP, "strict-mcp-config", false, "use only --mcp-config, not ./.mcp.json")
	fl.BoolVar(&f.simple, "simple", false, "simple mode: only the Bash, Read and Edit built-ins")
}

// registerSandbox adds --sandbox, for the commands that run tools.
func (f *sessionFlags) registerSandbox(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.sandbox, "sandbox", false, "run every Bash command inside a bubblewrap sandbox, as sandbox.enabled in the settings does (needs bwrap)")
}

// The Claude Code defaults the pool is assembled with: simple mode keeps
// Bash, Edit and Read; ToolSearch loads deferred tools.
var (
	simpleModeTools = []string{"Bash", "Edit", "Read"}
	searchTool      = "ToolSearch"
	// lspTool is left out of the pool when no language server is
	// configured and gopls is not on PATH (session.Options.LSPTool).
	lspTool = "LSP"
	// agentTool starts sub-agents: its description lists their types.
	agentTool = "Agent"
	// skillTool launches skills: its description lists them.
	skillTool = "Skill"
)

// cliAdvice names the CLI's flags in the permission engine's how-to-allow
// sentences.
var cliAdvice = permission.Advice{
	AllowRule: func(rule string) string {
		return fmt.Sprintf("pass --allowedTools '%s' or add it to permissions.allow in .agentcore/settings.json", rule)
	},
	AddDir: func(dir string) string { return "add the directory with --add-dir " + dir },
}

// options maps the flags to session options: the built-in tools, the
// settings files, the rules of the flags, the MCP configuration.
func (f *sessionFlags) options(dir string) (session.Options, error) {
	src, err := f.perm.sources()
	if err != nil {
		return session.Options{}, err
	}
	cwd := dir
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	home, _ := os.UserHomeDir()
	types, problems := agents.LoadTypes(cwd, home)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "agentcore: warning: skipped an agent type:", p)
	}
	found, problems := skills.Load(cwd, home)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "agentcore: warning: skipped a skill:", p)
	}
	if f.perm.read.files != nil && f.perm.read.cwd == cwd {
		// Read already, for the env and the model, a moment ago; a
		// session opened later (/clear, a resume) reads them anew.
		src.Files, f.perm.read.files = f.perm.read.files, nil
	}
	tools := agents.WithTypes(generated.AllBaseTools(), agentTool, types)
	o := session.Options{
		Sandbox:     f.sandbox,
		Dir:         dir,
		Tools:       skills.WithSkills(tools, skillTool, found),
		Permissions: src,
		MCPOptions:  mcp.Options{ClientName: "agentcore", ClientVersion: moduleVersion()},
		Pool: pool.Options{Simple: f.simple, SimpleTools: simpleModeTools, SearchTool: searchTool,
			Known: generated.LeftOutTools()},
		DeferMode: func(setting string) (pool.DeferMode, error) {
			return pool.ResolveDeferMode(os.Getenv, setting)
		},
	}
	envOptions(&o)
	if o.Retry, err = retryPolicy(os.Getenv); err != nil {
		return o, err
	}
	cfg, err := mcp.ResolveConfig(cwd, f.mcpConfigs, f.strictMCP)
	if err != nil {
		return o, fmt.Errorf("MCP configuration: %w", err)
	}
	o.MCP = cfg
	return o, nil
}

// openOptions tune openSession.
type openOptions struct {
	// waitMCP waits (up to a minute) for every MCP server's first
	// connection, for commands that list tools.
	waitMCP bool
	// dir is the working directory; empty means the process's.
	dir string
	// adjust, when set, changes the options before the session opens.
	adjust func(*session.Options)
}

// openSession opens the session the flags describe.
func (f *sessionFlags) openSession(ctx context.Context, opts openOptions) (*session.Session, error) {
	o, err := f.options(opts.dir)
	if err != nil {
		return nil, err
	}
	if opts.waitMCP {
		o.MCPWait = 60 * time.Second
	}
	if opts.adjust != nil {
		opts.adjust(&o)
	}
	s, err := session.Open(ctx, o)
	if err != nil {
		return nil, err
	}
	warnSandbox(s)
	return s, nil
}

// warnSandbox says on stderr what the session's sandbox does not do as
// its settings ask.
func warnSandbox(s *session.Session) {
	if why := s.SandboxOff(); why != nil {
		fmt.Fprintln(os.Stderr, "agentcore: warning:", (&sandbox.Off{Why: why}).Warning())
	}
}
