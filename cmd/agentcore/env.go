package main

import (
	"os"
	"path/filepath"

	"github.com/agentcore/agentcore/runtime/orchestrate"
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

// envOptions sets in o what the environment sets: the cap on parallel
// calls (AGENTCORE_MAX_TOOL_USE_CONCURRENCY) and the MCP manager's
// timeouts, output cap and ${VAR} expansion (MCP_TIMEOUT,
// MCP_TOOL_TIMEOUT, MAX_MCP_OUTPUT_TOKENS).
func envOptions(o *session.Options) {
	if o.MaxConcurrency == 0 {
		o.MaxConcurrency = orchestrate.MaxConcurrencyFromEnv(os.Getenv)
	}
	o.MCPOptions = o.MCPOptions.FromEnv(os.LookupEnv)
}
