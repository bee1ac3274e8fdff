package permission

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
)

// Mode is a permission mode, set by --permission-mode or
// permissions.defaultMode.
type Mode string

// The permission modes.
const (
	// ModeDefault asks before anything that is not read-only.
	ModeDefault Mode = "default"
	// ModeAcceptEdits also allows file edits inside the working directories.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan denies every call that is not read-only.
	ModePlan Mode = "plan"
	// ModeBypass allows everything that deny rules, ask rules and the
	// safety checks do not stop.
	ModeBypass Mode = "bypassPermissions"
	// ModeDontAsk denies whatever would be asked.
	ModeDontAsk Mode = "dontAsk"
)

// Modes lists every mode, for help texts.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk}

// ParseMode parses a mode name (case-insensitive); "" is the default mode.
func ParseMode(s string) (Mode, error) {
	if strings.TrimSpace(s) == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if strings.EqualFold(strings.TrimSpace(s), string(m)) {
			return m, nil
		}
	}
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %s", s, strings.Join(names, ", "))
}

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
		return Settings{}, true, fmt.Errorf("settings %s is not valid JSON (%v): fix or remove the file", path, err)
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

// merged combines settings files as Claude Code does: arrays (rule
// lists, directories) are concatenated without duplicates, hooks run from
// every file; single values (defaultMode, model, toolSearch,
// mcp.startupTimeoutMs, each env key) come from the last file that sets
// them.
func merged(files []SettingsFile) Settings {
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
		for k, v := range s.Env {
			if m.Env == nil {
				m.Env = map[string]string{}
			}
			m.Env[k] = v
		}
	}
	return m
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
