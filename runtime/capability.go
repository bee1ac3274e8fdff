package runtime

import (
	"context"
	"fmt"
	"reflect"
)

// Capabilities are what a session gives the tools that run in it, each a
// small interface registered on the ToolContext (WithService) under its
// own type: a tool asks for the one it needs (Need) and sees nothing else
// of the session. The runtime declares the ones in its own words here; the
// ones that speak a sub-package's types are declared there
// (agent.Subagents, agent.History, orchestrate.Runner,
// permission.PlanMode, permission.Questions, permission.TemporaryRules).
// runtime/session provides all of them; a program that runs tools without
// a session may provide any it likes.

// SessionInfo is who and where the session a call runs in is.
type SessionInfo interface {
	// ID names the session: the key of its state on disk (task lists).
	// A sub-agent has its parent's.
	ID() string
	// Home is the user's home directory the session uses.
	Home() string
	// Dir is the directory the session was opened in (a sub-agent's: the
	// one it started in); the ToolContext's Cwd is where the
	// conversation's cd moved since.
	Dir() string
	// IsSubagent reports whether the session is a sub-agent's.
	IsSubagent() bool
}

// Conversation is how a call reaches past its own result.
type Conversation interface {
	// Notify queues text for the model: the next request carries it (a
	// background task finished, a skill's instructions).
	Notify(text string)
	// AfterRun registers f to run when the running turn ends (the next
	// one when none runs), or at the session's end: what holds "for the
	// rest of the turn" is undone this way.
	AfterRun(f func())
}

// Need returns the capability K of tc's session. Without one it returns
// an error wrapping ErrNoSession that says who needed what, for the model
// to read: who is the tool or part of it ("plan mode").
func Need[K any](tc *ToolContext, who string) (K, error) {
	if v, ok := Service[K](tc); ok {
		return v, nil
	}
	var zero K
	return zero, fmt.Errorf("%s needs a session: %w providing %s; run the tool in agentcore, or in a session a program opened with session.Open",
		who, ErrNoSession, reflect.TypeFor[K]())
}

// FileHistory is where the tools that write files (Edit, Write,
// NotebookEdit) report a file just before they write it, so that a
// rewind can put it back as it was (runtime/checkpoint keeps it per user
// turn). Without one, nothing is kept.
type FileHistory interface {
	// BeforeWrite records what path (absolute, symlinks resolved) holds
	// now, or that it does not exist. An error means the file could not
	// be kept; the tool does not write it.
	BeforeWrite(path string) error
}

// FileDiagnostics is where the tools that write files (Edit, Write)
// report a file they just wrote, so that a language server already
// running for its language can say what is now wrong in it (runtime/lsp).
// Without one, nothing is reported.
type FileDiagnostics interface {
	// AfterWrite returns the problems newly found in path (absolute,
	// symlinks resolved), as text for the model, waiting a short bounded
	// time; "" when there are none or no server runs for the file.
	AfterWrite(ctx context.Context, path string) string
}
