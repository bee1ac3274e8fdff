package runtime

import (
	"context"
	"encoding/json"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// Tool is the contract every tool satisfies, generated or dynamic.
//
// Input values passed to the methods below are the values returned by
// Decode; a tool may assume it only ever sees its own decoded inputs.
type Tool interface {
	// Name is the unique name the model calls the tool by.
	Name() string
	// Aliases are older names that still resolve to this tool.
	Aliases() []string
	// Description is the prompt text that tells the model what the tool does.
	Description() string
	// SearchHint is a short phrase ToolSearch scores in addition to the name.
	SearchHint() string
	// InputSchema is the JSON Schema of the input object, as sent to the API.
	InputSchema() json.RawMessage

	// IsEnabled reports whether the tool is switched on at run time.
	IsEnabled() bool
	// ShouldDefer reports whether the tool's definition is withheld until
	// ToolSearch loads it.
	ShouldDefer() bool
	// AlwaysLoad reports whether the tool is sent even when deferrable.
	AlwaysLoad() bool
	// InterruptBehavior says what a user interrupt does to this call while
	// it runs: cancel an install at once, let a test suite finish.
	InterruptBehavior(input any) InterruptBehavior
	// Traits describes the scheduling flags statically, for listings.
	Traits() Traits

	// Decode parses and validates raw JSON from the model into the tool's
	// input. Its error names the offending parameter.
	Decode(raw json.RawMessage) (any, error)
	// ValidateInput checks that a decoded input is meaningful (file exists…).
	ValidateInput(ctx context.Context, input any, tc *ToolContext) error
	// CheckPermissions is the tool's own permission check.
	CheckPermissions(ctx context.Context, input any, tc *ToolContext) PermissionDecision
	// PermissionTarget is what permission rules for this tool match against.
	PermissionTarget(input any) Target
	// IsConcurrencySafe reports whether the call may run beside others.
	IsConcurrencySafe(input any) bool
	// IsReadOnly reports whether the call changes nothing.
	IsReadOnly(input any) bool
	// IsDestructive reports whether the call irreversibly removes or
	// overwrites something.
	IsDestructive(input any) bool
	// UserFacingName is the name shown to the user for this call.
	UserFacingName(input any) string

	// Call runs the tool. ctx is the abort signal; progress and context
	// modifications go through call.
	Call(ctx context.Context, input any, call *Call) (Result, error)

	Renderer
}

// Renderer is the fifth element of the protocol: plain-text renderings of a
// call's life. The runtime styles them (lipgloss on a terminal).
type Renderer interface {
	// RenderUse is shown when the call starts, e.g. "src/main.go" for
	// Read(src/main.go); the runtime prefixes the user-facing name.
	RenderUse(input any) string
	// RenderProgress renders one progress value while the call runs.
	RenderProgress(input any, progress any) string
	// RenderResult summarises a finished call, e.g. "Read 120 lines".
	RenderResult(input any, result Result) string
	// RenderRejected is shown when permission was denied.
	RenderRejected(input any) string
	// RenderError is shown when the call failed.
	RenderError(input any, err error) string
	// RenderGrouped renders several parallel calls of this tool as one line.
	RenderGrouped(inputs []any) string
}

// Previewer is a tool that can show what a call will do before it runs,
// for the call's permission prompt: the diff an edit will make, a command
// in full with its description. Plain text; a preview that is a unified
// diff's hunks (starting "@@ ") is coloured as one on a terminal. A tool
// that is not a Previewer, or whose RenderPreview is "" for the call, is
// asked about with its RenderUse. The permission engine asks a tool for
// this interface and nothing else: a tool that wraps another (the durable
// journal) forwards RenderPreview to it.
type Previewer interface {
	RenderPreview(input any, tc *ToolContext) string
}

// InterruptBehavior says what a user interrupt does to a running call.
type InterruptBehavior int

const (
	// InterruptBlock lets the call finish; it is the fail-closed default.
	InterruptBlock InterruptBehavior = iota
	// InterruptCancel cancels the call's context.
	InterruptCancel
)

// String returns "block" or "cancel".
func (b InterruptBehavior) String() string {
	if b == InterruptCancel {
		return "cancel"
	}
	return "block"
}

// Flag is the static knowledge of one scheduling attribute.
type Flag struct {
	// Value is the answer when the attribute does not depend on the input;
	// the fail-closed answer (false) otherwise.
	Value bool
	// InputDependent is true when the tool decides per input.
	InputDependent bool
}

// Traits is the static knowledge of a tool: its scheduling attributes and
// what the runtime treats differently about it. The runtime reads these
// instead of matching on tool names.
type Traits struct {
	ReadOnly        Flag
	ConcurrencySafe Flag
	Destructive     Flag
	// Interrupt is the static interrupt behaviour; InterruptDependent is
	// true when the tool decides per input.
	Interrupt          InterruptBehavior
	InterruptDependent bool
	// CancelsSiblingsOnError is true when an error result of this tool
	// cancels its running and queued siblings in the streaming executor
	// (Claude Code does this for Bash: a failed command usually means the
	// commands beside it are moot). Other tools' errors stay local.
	CancelsSiblingsOnError bool
	// PermissionFamily is the family of calls that permission rules
	// written with this tool's name govern, beyond the tool's own calls.
	PermissionFamily PermissionFamily
	// LocalOnly is true when every call stays on this machine (files,
	// local state): no network, no outside system. False, the default,
	// claims nothing (MCP's openWorldHint is true unless this is set).
	LocalOnly bool
	// AgentOnly is true when the tool works only inside an agent loop:
	// it acts on the model's conversation (adds to it, loads tools into
	// it, starts model turns), on its user, or on the session's
	// permission mode. A server that offers tools to other agents
	// (agentcore mcp serve) leaves it out.
	AgentOnly bool
	// MaxResultSizeChars is the size, in characters, above which a
	// result is written to a file and the model gets a preview and the
	// path (Claude Code's maxResultSizeChars): 0 is the loop's default,
	// negative never (a tool that reads files, so that reading a spilled
	// result does not spill it again). An MCP tool's comes from its
	// _meta "anthropic/maxResultSizeChars".
	MaxResultSizeChars int
}

// TargetKind says what a permission rule's content is matched against.
type TargetKind int

const (
	// TargetNone: rules for this tool have no content to match.
	TargetNone TargetKind = iota
	// TargetCommand: a shell command (Bash(npm run test:*)).
	TargetCommand
	// TargetPath: a file path read or written (Read(./secrets/**)).
	TargetPath
	// TargetURL: a URL fetched (WebFetch(domain:example.com)).
	TargetURL
)

// Target is what permission rules for one call match against.
type Target struct {
	Kind  TargetKind
	Value string
	// Writes is true when a TargetPath is written, not only read.
	Writes bool
	// Shell, for a TargetCommand, is Value parsed, when the tool parsed
	// it already: the permission engine reads it rather than parsing the
	// line again. nil makes the engine parse Value.
	Shell *shellsyntax.Command
}

// Lookup finds a tool by name or alias; nil when none matches.
func Lookup(tools []Tool, name string) Tool {
	for _, t := range tools {
		if t.Name() == name {
			return t
		}
	}
	for _, t := range tools {
		for _, a := range t.Aliases() {
			if a == name {
				return t
			}
		}
	}
	return nil
}
