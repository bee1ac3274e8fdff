package main

import (
	"cmp"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/provider/openai"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// The environment is read here, in cmd/agentcore, and nowhere in the
// library packages: they take typed options, which these functions set
// from the variables (docs/embedding.md has the table).

// configDir is agentcore's user directory: $AGENTCORE_CONFIG_DIR when
// set, else home/.agentcore.
func configDir(home string) string {
	if d := os.Getenv("AGENTCORE_CONFIG_DIR"); d != "" {
		return d
	}
	return transcript.ConfigDir(home)
}

// claudeConfigDir is Claude Code's user directory: $CLAUDE_CONFIG_DIR
// when set, else home/.claude.
func claudeConfigDir(home string) string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// transcriptStore is the session store: configDir(home)/projects.
func transcriptStore(home string) transcript.Store {
	return transcript.StoreIn(configDir(home))
}

// envOptions sets in o what the environment sets: the tools' switches
// (toolOptions), the cap on parallel calls
// (AGENTCORE_MAX_TOOL_USE_CONCURRENCY) and the MCP manager's timeouts,
// output cap and ${VAR} expansion (MCP_TIMEOUT, MCP_TOOL_TIMEOUT,
// MAX_MCP_OUTPUT_TOKENS), and how long Edit and Write wait for a language
// server's diagnostics (AGENTCORE_LSP_DIAGNOSTICS_MS), and the SessionEnd
// hooks' time (CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS).
func envOptions(o *session.Options) {
	o.ToolOptions = toolOptions()
	o.LSPTool = lspTool
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv("AGENTCORE_LSP_DIAGNOSTICS_MS"))); err == nil && ms > 0 {
		o.LSPDiagnosticsWait = time.Duration(ms) * time.Millisecond
	}
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"))); err == nil && ms > 0 {
		o.SessionEndTimeout = time.Duration(ms) * time.Millisecond
	}
	if o.MaxConcurrency == 0 {
		o.MaxConcurrency = orchestrate.MaxConcurrencyFromEnv(os.Getenv)
	}
	o.MCPOptions = o.MCPOptions.FromEnv(os.LookupEnv)
	contextOptions(o)
}

// resultCaps are Claude Code's result size caps of the built-in tools
// whose cap is not the default 100,000 characters: a larger result is
// written to a file in the session's directory and the model gets a
// preview and the path. Read never spills (reading a spilled file must
// not spill it again); Bash lets its output through whole up to
// shellSpillChars, so that the file holds all of it.
var resultCaps = map[string]int{"Bash": 30_000, "Grep": 20_000, "Read": -1}

// shellSpillChars is how much output a Bash result carries before the
// tool itself keeps only the head and tail.
const shellSpillChars = 1_000_000

// contextOptions sets how the conversation is kept within the context
// window, from Claude Code's variables: CLAUDE_AUTOCOMPACT_PCT_OVERRIDE
// (compact at that percentage of the window, never later than the
// default), DISABLE_AUTO_COMPACT or DISABLE_COMPACT (no automatic
// compaction), CLAUDE_CODE_AUTO_COMPACT_WINDOW (the window, in tokens, in
// place of the model's) — and the result size caps.
func contextOptions(o *session.Options) {
	if pct, err := strconv.ParseFloat(strings.TrimSpace(os.Getenv("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE")), 64); err == nil {
		o.AutoCompactPercent = pct
	}
	for _, v := range []string{"DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"} {
		if on, _ := strconv.ParseBool(os.Getenv(v)); on {
			o.NoAutoCompact = true
		}
	}
	if w, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_AUTO_COMPACT_WINDOW"))); err == nil && w > 0 {
		o.ContextWindow = w
	}
	if o.MaxResultSizeChars == nil {
		o.MaxResultSizeChars = resultCaps
	}
	if o.ToolOptions.ShellMaxOutputChars == 0 {
		o.ToolOptions.ShellMaxOutputChars = shellSpillChars
	}
}

// anthropicOptions are the Messages API's options for --model
// anthropic[:name] or bedrock:name: the model named, else
// $ANTHROPIC_MODEL (else the provider's default); $ANTHROPIC_AUTH_TOKEN,
// when set, as the bearer credential in place of any key, as Claude Code
// sends a gateway's token. Without it the SDK's credential chain finds
// the key ($ANTHROPIC_API_KEY first).
func anthropicOptions(name string, timeouts provider.Timeouts) anthropic.Options {
	return anthropic.Options{
		Model:     cmp.Or(name, os.Getenv("ANTHROPIC_MODEL")),
		AuthToken: os.Getenv("ANTHROPIC_AUTH_TOKEN"),
		UserAgent: userAgent(),
		Timeouts:  timeouts,
	}
}

// openaiOptions are the Chat Completions API's options for --model
// openai:name: the key from $OPENAI_API_KEY, the server from
// $OPENAI_BASE_URL (a local one needs no key).
func openaiOptions(name string, timeouts provider.Timeouts) openai.Options {
	return openai.Options{
		Model:     name,
		APIKey:    os.Getenv("OPENAI_API_KEY"),
		BaseURL:   os.Getenv("OPENAI_BASE_URL"),
		UserAgent: userAgent(),
		Timeouts:  timeouts,
	}
}

// toolOptions are the tools' switches Claude Code takes from its
// environment: BASH_DEFAULT_TIMEOUT_MS, AGENTCORE_GLOB_NO_IGNORE,
// AGENTCORE_GLOB_HIDDEN, AGENTCORE_CONFIG_DIR, AGENTCORE_WEB_SEARCH_URL
// and git's XDG_CONFIG_HOME. A value that does not parse is the default,
// as before.
func toolOptions() runtime.ToolOptions {
	o := runtime.ToolOptions{
		ConfigDir:      os.Getenv("AGENTCORE_CONFIG_DIR"),
		SearchEndpoint: os.Getenv("AGENTCORE_WEB_SEARCH_URL"),
		GitConfigHome:  os.Getenv("XDG_CONFIG_HOME"),
	}
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv("BASH_DEFAULT_TIMEOUT_MS"))); err == nil && ms > 0 {
		o.CommandTimeout = time.Duration(ms) * time.Millisecond
	}
	if v, _ := strconv.ParseBool(os.Getenv("AGENTCORE_GLOB_NO_IGNORE")); v {
		o.ListIgnored = true
	}
	if v, err := strconv.ParseBool(os.Getenv("AGENTCORE_GLOB_HIDDEN")); err == nil && !v {
		o.SkipHidden = true
	}
	return o
}
