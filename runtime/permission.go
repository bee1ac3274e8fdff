package runtime

import (
	"context"
	"encoding/json"
)

// Behavior is the outcome of a permission check.
type Behavior int

const (
	// Passthrough defers to the rules and mode; the fail-closed default of
	// a tool's own check.
	Passthrough Behavior = iota
	// Allow lets the call run.
	Allow
	// Deny refuses the call.
	Deny
	// Ask asks the user (or denies in non-interactive runs).
	Ask
)

// String returns the behaviour's lower-case name.
func (b Behavior) String() string {
	switch b {
	case Allow:
		return "allow"
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	default:
		return "passthrough"
	}
}

// PermissionDecision is the answer of a permission check.
type PermissionDecision struct {
	Behavior Behavior
	// Message tells the model (on deny) or the user (on ask) why.
	Message string
	// UpdatedInput, with Allow, replaces the call's input: whoever
	// approved the call changed it (an Agent SDK host's canUseTool). The
	// pipeline decodes and validates it again before the call runs.
	UpdatedInput json.RawMessage
	// EveryMode, with Ask from a tool's own check, makes the ask hold in
	// every mode, bypassPermissions included, and over allow rules: only
	// the user (the Asker) settles it, and a run that cannot ask denies
	// it (Bash's dangerouslyDisableSandbox). A plain Ask gives way to
	// bypass mode and allow rules.
	EveryMode bool
}

type toolUseIDKey struct{}

// WithToolUseID marks ctx as the context of the call with tool_use id
// id; the orchestrator sets it for the permission check.
func WithToolUseID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, toolUseIDKey{}, id)
}

// ToolUseID is the tool_use id of the call ctx belongs to, or "".
func ToolUseID(ctx context.Context) string {
	id, _ := ctx.Value(toolUseIDKey{}).(string)
	return id
}

// PermissionFamily is a family of calls that permission rules written with
// one tool's name govern beyond that tool's own calls, the way Claude
// Code's Read(./secrets/**) also stops Grep and Glob from reading
// ./secrets. A tool declares the family its rules stand for; the
// permission engine learns it from the session's tools.
type PermissionFamily int

const (
	// FamilyNone: the tool's rules govern only its own calls.
	FamilyNone PermissionFamily = iota
	// FamilyReadPath: the tool's path rules govern every call that reads
	// a path (a TargetPath that does not write).
	FamilyReadPath
	// FamilyEditPath: the tool's path rules govern every call that writes
	// a path; its allow rules also allow reading one.
	FamilyEditPath
	// FamilyCommand: the tool's rules govern every shell command call
	// (TargetCommand).
	FamilyCommand
	// FamilyURL: the tool's rules govern every URL fetch (TargetURL).
	FamilyURL
)

// PermissionFamilies are the families' names as the +tool:permissionFamily
// marker writes them, indexed by PermissionFamily.
var PermissionFamilies = [...]string{"none", "read-path", "edit-path", "command", "url"}

// String returns the family's marker name, e.g. "read-path".
func (f PermissionFamily) String() string {
	if f < 0 || int(f) >= len(PermissionFamilies) {
		return "none"
	}
	return PermissionFamilies[f]
}

// Covers reports whether rules of a tool of family f govern a call with
// target t; allow tells an allow rule from a deny or ask rule.
func (f PermissionFamily) Covers(t Target, allow bool) bool {
	switch f {
	case FamilyReadPath:
		return t.Kind == TargetPath && !t.Writes
	case FamilyEditPath:
		return t.Kind == TargetPath && (t.Writes || allow)
	case FamilyCommand:
		return t.Kind == TargetCommand
	case FamilyURL:
		return t.Kind == TargetURL
	}
	return false
}

// hookDecisionKey is the context key of WithHookDecision.
type hookDecisionKey struct{}

// WithHookDecision returns ctx carrying a PreToolUse hook's decision for
// the permission check of one call. Allow skips the prompt but not deny
// rules, ask rules or the safety checks; Ask asks even where a rule or
// the mode would allow (Message is the prompt's reason). Deny never gets
// this far: the pipeline rejects the call itself.
func WithHookDecision(ctx context.Context, d PermissionDecision) context.Context {
	return context.WithValue(ctx, hookDecisionKey{}, d)
}

// HookDecision returns the decision WithHookDecision put in ctx; ok is
// false when no hook decided.
func HookDecision(ctx context.Context) (d PermissionDecision, ok bool) {
	d, ok = ctx.Value(hookDecisionKey{}).(PermissionDecision)
	return d, ok
}
