package runtime

import "time"

// ToolOptions are the switches a front end sets for the tools, in the
// runtime's words: agentcore sets them from its environment
// (docs/embedding.md has the table), a program that embeds the runtime
// from wherever it likes. The zero value is every tool's default. A
// session offers them on the tool context (session.Options.ToolOptions);
// tools read them with ToolOptionsOf. The settings files' env block,
// which reaches tools as ToolContext.Env, still wins over them, as it
// does in Claude Code.
type ToolOptions struct {
	// CommandTimeout is a shell command's timeout when the call names
	// none; zero is the tool's own default (agentcore:
	// BASH_DEFAULT_TIMEOUT_MS).
	CommandTimeout time.Duration
	// ListIgnored makes searches by file name list what ignore files
	// (.gitignore, .ignore) leave out (AGENTCORE_GLOB_NO_IGNORE=1).
	ListIgnored bool
	// SkipHidden makes searches by file name leave out hidden files
	// (AGENTCORE_GLOB_HIDDEN=0).
	SkipHidden bool
	// ConfigDir is agentcore's user directory, whose settings.json tools
	// read and write; empty is ~/.agentcore (AGENTCORE_CONFIG_DIR).
	ConfigDir string
	// SearchEndpoint is the web search API; empty leaves it to the
	// settings files' webSearch.endpoint (AGENTCORE_WEB_SEARCH_URL).
	SearchEndpoint string
	// GitConfigHome is where git's user configuration lives, for the
	// global gitignore searches honour; empty is ~/.config
	// (XDG_CONFIG_HOME).
	GitConfigHome string
	// ShellMaxOutputChars is how much of a shell command's output its
	// result carries before the tool keeps only the head and tail (the
	// whole in a file); zero is the tool's own cap (30000). A session
	// that writes large results to files (agent.LargeResults) sets it
	// higher, so that the model gets a preview and a file with all of it.
	ShellMaxOutputChars int
}

// ToolOptionsOf returns the tool options tc's session offers; the zero
// value (every default) when it offers none.
func ToolOptionsOf(tc *ToolContext) ToolOptions {
	o, _ := Service[ToolOptions](tc)
	return o
}
