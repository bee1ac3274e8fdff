// Package settings reads the whole application's settings files
// (permissions, model, env, hooks, sandbox, MCP, tool search) in Claude
// Code's layout: which files, in which precedence (user, project, local,
// then --settings), how they merge, and --setting-sources. The permission
// engine, the session and the CLI read what they need from the result.
package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/lsp"
)

// Settings is the part of a settings file agentcore's permissions and
// pool read. Other keys are ignored: the file is shared with other
// features.
type Settings struct {
	Permissions PermissionSettings `json:"permissions"`
	// ToolSearch is the deferred-discovery mode: always, never, auto or auto:N.
	ToolSearch string `json:"toolSearch,omitempty"`
	// Env holds environment variables the settings file sets, e.g.
	// AGENTCORE_TOOL_SEARCH.
	Env map[string]string `json:"env,omitempty"`
	// MCP tunes the MCP servers.
	MCP MCPSettings `json:"mcp,omitzero"`
	// Hooks are Claude Code's command hooks, per event.
	Hooks hooks.Config `json:"hooks,omitempty"`
	// Model is the default model, below --model and ANTHROPIC_MODEL.
	Model string `json:"model,omitempty"`
	// Sandbox is Claude Code's "sandbox" object: whether Bash commands
	// run confined, and how.
	Sandbox SandboxSettings `json:"sandbox,omitzero"`
	// LSPServers are the language servers of the LSP tool and of the
	// diagnostics after edits, by name, each shaped like an entry of
	// Claude Code's plugin .lsp.json (command, args,
	// extensionToLanguage, …).
	LSPServers lsp.Servers `json:"lspServers,omitempty"`
}

// SandboxSettings is the "sandbox" object of a settings file, in Claude
// Code's schema. Booleans are pointers so that a later file can turn off
// what an earlier one turned on; lists accumulate across files.
// Filesystem paths are made absolute when the files are merged: "~/"
// against the home directory, a relative path against the project root
// (for project and local files) or the home directory (for user files).
type SandboxSettings struct {
	// Enabled runs every Bash command inside the sandbox.
	Enabled *bool `json:"enabled,omitempty"`
	// FailIfUnavailable refuses to run commands when the sandbox cannot
	// start (Claude Code's name); without it the session runs them
	// unconfined and its first result says the sandbox is off and why.
	FailIfUnavailable *bool `json:"failIfUnavailable,omitempty"`
	// AutoAllowBashIfSandboxed is Claude Code's auto-allow of sandboxed
	// commands. agentcore keeps the regular permission checks for
	// sandboxed commands (Claude Code's "regular permissions" mode)
	// whatever it says: the sandbox is a net under the rules, not a
	// replacement for them.
	AutoAllowBashIfSandboxed *bool `json:"autoAllowBashIfSandboxed,omitempty"`
	// AllowUnsandboxedCommands lets a call ask to run outside the sandbox
	// (Bash's dangerouslyDisableSandbox); false refuses every such call.
	// Default true.
	AllowUnsandboxedCommands *bool `json:"allowUnsandboxedCommands,omitempty"`
	// ExcludedCommands are commands Claude Code runs outside the sandbox.
	// agentcore does not exempt any command: a non-empty list is refused
	// at start (see the session), so nobody believes a command confined
	// or free when it is not.
	ExcludedCommands []string `json:"excludedCommands,omitempty"`
	// Network says which hosts sandboxed commands may reach.
	Network SandboxNetwork `json:"network,omitzero"`
	// Filesystem adds writable and read-only paths.
	Filesystem SandboxFilesystem `json:"filesystem,omitzero"`
	// Credentials are the environment variables kept from commands.
	Credentials SandboxCredentials `json:"credentials,omitzero"`
	// Limits bound what one sandboxed command may take.
	Limits SandboxLimits `json:"limits,omitzero"`
}

// SandboxCredentials is the "sandbox.credentials" object: which
// environment variables commands run without, beyond the agent's own
// credentials (sandbox.CredentialEnv), sandbox on or off.
type SandboxCredentials struct {
	// Env are more names to remove ("GITHUB_TOKEN").
	Env []string `json:"env,omitempty"`
	// KeepEnv are names a command run outside the sandbox keeps; inside
	// it none is kept.
	KeepEnv []string `json:"keepEnv,omitempty"`
}

// SandboxLimits is the "sandbox.limits" object; zero means no bound.
type SandboxLimits struct {
	// MemoryMB bounds a sandboxed command's memory, in MiB.
	MemoryMB int64 `json:"memoryMB,omitempty"`
	// MaxProcesses bounds the processes a sandboxed command may have at
	// once.
	MaxProcesses int `json:"maxProcesses,omitempty"`
}

// SandboxNetwork is the "sandbox.network" object.
type SandboxNetwork struct {
	// AllowedDomains are the hosts sandboxed commands may reach
	// ("example.com", "*.example.com"); none means no network.
	AllowedDomains []string `json:"allowedDomains,omitempty"`
	// DeniedDomains are hosts refused even when AllowedDomains match.
	DeniedDomains []string `json:"deniedDomains,omitempty"`
	// AllowManagedDomainsOnly, AllowUnixSockets, AllowAllUnixSockets,
	// AllowLocalBinding, HTTPProxyPort and SOCKSProxyPort are Claude
	// Code's further keys, read so that a Claude Code settings file
	// loads; see RELIABILITY.md ("Bash sandbox") for what each does here.
	AllowManagedDomainsOnly *bool    `json:"allowManagedDomainsOnly,omitempty"`
	AllowUnixSockets        []string `json:"allowUnixSockets,omitempty"`
	AllowAllUnixSockets     *bool    `json:"allowAllUnixSockets,omitempty"`
	AllowLocalBinding       *bool    `json:"allowLocalBinding,omitempty"`
	HTTPProxyPort           int      `json:"httpProxyPort,omitempty"`
	SOCKSProxyPort          int      `json:"socksProxyPort,omitempty"`
}

// SandboxFilesystem is the "sandbox.filesystem" object.
type SandboxFilesystem struct {
	// AllowWrite are paths writable beyond the working directories.
	AllowWrite []string `json:"allowWrite,omitempty"`
	// DenyWrite are paths read-only even inside writable ones.
	DenyWrite []string `json:"denyWrite,omitempty"`
	// DenyRead are paths hidden from sandboxed commands, beyond the
	// credential files and the agent's own directories; AllowRead are
	// paths under any of them shown again.
	DenyRead  []string `json:"denyRead,omitempty"`
	AllowRead []string `json:"allowRead,omitempty"`
}

// On reports whether the sandbox is enabled.
func (s SandboxSettings) On() bool { return s.Enabled != nil && *s.Enabled }

// UnsandboxedAllowed reports whether a call may ask to run outside the
// sandbox: allowUnsandboxedCommands, true unless set false.
func (s SandboxSettings) UnsandboxedAllowed() bool {
	return s.AllowUnsandboxedCommands == nil || *s.AllowUnsandboxedCommands
}

// MCPSettings is the "mcp" object of a settings file.
type MCPSettings struct {
	// StartupTimeoutMs bounds the wait for the MCP servers before the
	// first model request, in milliseconds (MCP_TIMEOUT wins over it).
	StartupTimeoutMs int `json:"startupTimeoutMs,omitempty"`
}

// PermissionSettings is the "permissions" object of a settings file.
type PermissionSettings struct {
	Allow                 []string `json:"allow,omitempty"`
	Deny                  []string `json:"deny,omitempty"`
	Ask                   []string `json:"ask,omitempty"`
	DefaultMode           string   `json:"defaultMode,omitempty"`
	AdditionalDirectories []string `json:"additionalDirectories,omitempty"`
}

// SettingsFile is one settings file that was looked for.
type SettingsFile struct {
	Source Source
	Path   string
	// Found is false when the file does not exist.
	Found    bool
	Settings Settings
}

// ReadSettingsFile reads one settings file. A missing file is not an
// error; a file that is not a JSON object is, and the error names it.
func ReadSettingsFile(path string) (Settings, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Settings{}, false, nil
	}
	if err != nil {
		return Settings{}, false, fmt.Errorf("read settings %s: %w", path, err)
	}
	var s Settings
	if len(bytes.TrimSpace(data)) == 0 {
		return s, true, nil
	}
	if err := json.Unmarshal(data, &s); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		if errors.As(err, &syntax) || errors.As(err, &typ) {
			return Settings{}, true, fmt.Errorf("settings %s is not valid JSON (%w): fix or remove the file", path, err)
		}
		return Settings{}, true, fmt.Errorf("settings %s: %w: fix or remove the file", path, err)
	}
	return s, true, nil
}

// SettingsPaths returns the settings files in precedence order (later
// overrides earlier): user, project, local — at each level Claude Code's
// file first and agentcore's after it, so a Claude Code project's rules
// hold and agentcore's settings win a conflict. configDir is the user's
// agentcore directory (~/.agentcore), claudeDir Claude Code's (~/.claude,
// or CLAUDE_CONFIG_DIR); projectRoot holds .agentcore/ or .claude/.
func SettingsPaths(configDir, claudeDir, projectRoot string) []SettingsFile {
	var out []SettingsFile
	if claudeDir != "" {
		out = append(out, SettingsFile{Source: SourceUser, Path: filepath.Join(claudeDir, "settings.json")})
	}
	if configDir != "" {
		out = append(out, SettingsFile{Source: SourceUser, Path: filepath.Join(configDir, "settings.json")})
	}
	if projectRoot != "" {
		out = append(out,
			SettingsFile{Source: SourceProject, Path: filepath.Join(projectRoot, ".claude", "settings.json")},
			SettingsFile{Source: SourceProject, Path: filepath.Join(projectRoot, ".agentcore", "settings.json")},
			SettingsFile{Source: SourceLocal, Path: filepath.Join(projectRoot, ".claude", "settings.local.json")},
			SettingsFile{Source: SourceLocal, Path: filepath.Join(projectRoot, ".agentcore", "settings.local.json")},
		)
	}
	return out
}

// ProjectRoot is the nearest directory at or above cwd (below home) that
// holds a .agentcore or a .claude directory, or cwd when there is none.
func ProjectRoot(cwd, home string) string {
	cwd = filepath.Clean(cwd)
	home = filepath.Clean(home)
	for d := cwd; ; d = filepath.Dir(d) {
		if home != "" && home != "." && d == home {
			break
		}
		for _, name := range []string{".agentcore", ".claude"} {
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.IsDir() {
				return d
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return cwd
}

// Merge combines settings files as Claude Code does: arrays (rule
// lists, directories) are concatenated without duplicates, hooks run from
// every file; single values (defaultMode, model, toolSearch,
// mcp.startupTimeoutMs, each env key, the sandbox's switches and ports)
// come from the last file that sets them.
func Merge(files []SettingsFile) Settings {
	var m Settings
	for _, f := range files {
		s := f.Settings
		m.Permissions.Allow = appendNew(m.Permissions.Allow, s.Permissions.Allow)
		m.Permissions.Deny = appendNew(m.Permissions.Deny, s.Permissions.Deny)
		m.Permissions.Ask = appendNew(m.Permissions.Ask, s.Permissions.Ask)
		m.Permissions.AdditionalDirectories = appendNew(m.Permissions.AdditionalDirectories, s.Permissions.AdditionalDirectories)
		if s.Permissions.DefaultMode != "" {
			m.Permissions.DefaultMode = s.Permissions.DefaultMode
		}
		if s.Model != "" {
			m.Model = s.Model
		}
		if s.ToolSearch != "" {
			m.ToolSearch = s.ToolSearch
		}
		if s.MCP.StartupTimeoutMs != 0 {
			m.MCP.StartupTimeoutMs = s.MCP.StartupTimeoutMs
		}
		m.Hooks = m.Hooks.Merge(s.Hooks)
		m.Sandbox = m.Sandbox.merge(s.Sandbox)
		for name, c := range s.LSPServers {
			if m.LSPServers == nil {
				m.LSPServers = lsp.Servers{}
			}
			m.LSPServers[name] = c
		}
		for k, v := range s.Env {
			if m.Env == nil {
				m.Env = map[string]string{}
			}
			m.Env[k] = v
		}
	}
	return m
}

// merge lays o over s: o's switches and ports where o sets them, lists
// appended without duplicates.
func (s SandboxSettings) merge(o SandboxSettings) SandboxSettings {
	pick := func(a, b *bool) *bool {
		if b != nil {
			return b
		}
		return a
	}
	s.Enabled = pick(s.Enabled, o.Enabled)
	s.FailIfUnavailable = pick(s.FailIfUnavailable, o.FailIfUnavailable)
	s.AutoAllowBashIfSandboxed = pick(s.AutoAllowBashIfSandboxed, o.AutoAllowBashIfSandboxed)
	s.AllowUnsandboxedCommands = pick(s.AllowUnsandboxedCommands, o.AllowUnsandboxedCommands)
	s.ExcludedCommands = appendNew(s.ExcludedCommands, o.ExcludedCommands)
	n, on := &s.Network, o.Network
	n.AllowedDomains = appendNew(n.AllowedDomains, on.AllowedDomains)
	n.DeniedDomains = appendNew(n.DeniedDomains, on.DeniedDomains)
	n.AllowManagedDomainsOnly = pick(n.AllowManagedDomainsOnly, on.AllowManagedDomainsOnly)
	n.AllowUnixSockets = appendNew(n.AllowUnixSockets, on.AllowUnixSockets)
	n.AllowAllUnixSockets = pick(n.AllowAllUnixSockets, on.AllowAllUnixSockets)
	n.AllowLocalBinding = pick(n.AllowLocalBinding, on.AllowLocalBinding)
	if on.HTTPProxyPort != 0 {
		n.HTTPProxyPort = on.HTTPProxyPort
	}
	if on.SOCKSProxyPort != 0 {
		n.SOCKSProxyPort = on.SOCKSProxyPort
	}
	f, of := &s.Filesystem, o.Filesystem
	f.AllowWrite = appendNew(f.AllowWrite, of.AllowWrite)
	f.DenyWrite = appendNew(f.DenyWrite, of.DenyWrite)
	f.DenyRead = appendNew(f.DenyRead, of.DenyRead)
	f.AllowRead = appendNew(f.AllowRead, of.AllowRead)
	s.Credentials.Env = appendNew(s.Credentials.Env, o.Credentials.Env)
	s.Credentials.KeepEnv = appendNew(s.Credentials.KeepEnv, o.Credentials.KeepEnv)
	if o.Limits.MemoryMB != 0 {
		s.Limits.MemoryMB = o.Limits.MemoryMB
	}
	if o.Limits.MaxProcesses != 0 {
		s.Limits.MaxProcesses = o.Limits.MaxProcesses
	}
	return s
}

// Absolute makes the filesystem paths absolute against base ("~/"
// against home).
func (f SandboxFilesystem) Absolute(base, home string) SandboxFilesystem {
	abs := func(ps []string) []string {
		if ps == nil {
			return nil
		}
		out := make([]string, len(ps))
		for i, p := range ps {
			p = ExpandHome(p, home)
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, p)
			}
			out[i] = filepath.Clean(p)
		}
		return out
	}
	return SandboxFilesystem{AllowWrite: abs(f.AllowWrite), DenyWrite: abs(f.DenyWrite), DenyRead: abs(f.DenyRead), AllowRead: abs(f.AllowRead)}
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list, add []string) []string {
	for _, v := range add {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// ExpandHome replaces a leading ~ with home.
func ExpandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}
