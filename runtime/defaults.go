package runtime

import (
	"context"
	"fmt"
	"strings"
)

// ToolDefaults is the one table of a tool's defaults: the answer of every
// method a tool does not give itself. Generated tools (toolgen writes a
// [Definition]), hand-written and MCP tools ([Define]) and tool types that
// embed ToolDefaults all get their defaults from these methods and from
// nowhere else. Each default is fail-closed (DESIGN §2): a tool that says
// nothing runs alone, is treated as writing, and is asked about.
//
//	method                  default                               why
//	InputSchema             {"type":"object"}                     (Define; an embedder writes it)
//	Aliases                 none
//	SearchHint              ""                                    ToolSearch scores the name alone
//	IsEnabled               true
//	ShouldDefer, AlwaysLoad false                                 sent up front
//	Traits                  zero: every flag false, block         a static listing claims nothing
//	IsConcurrencySafe       false                                 the call runs alone
//	IsReadOnly              false                                 the call may change something
//	IsDestructive           false                                 (only a claim; nothing relies on false)
//	InterruptBehavior       block                                 an interrupt lets the call finish
//	ValidateInput           accepts
//	CheckPermissions        passthrough                           the rules and the mode decide
//	PermissionTarget        none                                  rules match the tool by name only
//	UserFacingName          the tool's Name                       (Define; an embedder writes it)
//	RenderUse               ""                                    see below
//	RenderProgress          fmt.Sprint(progress)
//	RenderResult            "Done"
//	RenderRejected          "Rejected"
//	RenderError             err.Error(), "" for nil
//	RenderGrouped           RenderUse of each input, one a line   ([RenderUses])
//	RenderPreview           ""                                    the prompt shows RenderUse instead
//
// RenderUse's default is the last resort, not what a call should show.
// Claude Code shows every call with its main argument — Read(src/main.go),
// Bash(npm test), an MCP tool's `key: value` pairs — so the tool-use line
// says what runs. The runtime cannot read an input it only knows as a
// type parameter (no reflection at call time), so a tool that writes no
// RenderUse shows its name alone; toolgen therefore always writes one for
// a generated tool whose input has a required string parameter (the first
// one), and the MCP client writes the pairs.
//
// The per-input answers (IsConcurrencySafe … RenderPreview) are also what
// a [Define]d tool gives for an input its Decode did not return: a
// foreign input gets the fail-closed default, never a static answer
// meant for the tool's own inputs.
//
// For a tool type that keeps its own state and methods (a test fake
// configured by struct literal, a simulated tool), embed ToolDefaults and
// write Name, Description, InputSchema, Decode, Call, UserFacingName and
// RenderGrouped, plus whatever differs. Prefer [Define] for a new tool; it
// needs no type. ToolDefaults leaves out UserFacingName and RenderGrouped
// on purpose: an embedded value cannot see the outer tool's Name or
// RenderUse, so the compiler asks for them (return the name; [RenderUses]
// is the default grouped rendering). No method of ToolDefaults calls
// another, so overriding one never leaves a default reading a stale
// answer; but Traits is static, so override it too when you override a
// scheduling answer (IsReadOnly, IsConcurrencySafe, IsDestructive,
// InterruptBehavior).
type ToolDefaults struct{}

// Aliases is none.
func (ToolDefaults) Aliases() []string { return nil }

// SearchHint is empty.
func (ToolDefaults) SearchHint() string { return "" }

// IsEnabled is true.
func (ToolDefaults) IsEnabled() bool { return true }

// ShouldDefer is false: the definition is sent up front.
func (ToolDefaults) ShouldDefer() bool { return false }

// AlwaysLoad is false.
func (ToolDefaults) AlwaysLoad() bool { return false }

// InterruptBehavior is block: an interrupt lets the call finish.
func (ToolDefaults) InterruptBehavior(any) InterruptBehavior { return InterruptBlock }

// Traits is the zero Traits: not read-only, not concurrency-safe, not
// destructive, interrupt block, no sibling cancellation, no family.
func (ToolDefaults) Traits() Traits { return Traits{} }

// ValidateInput accepts every input.
func (ToolDefaults) ValidateInput(context.Context, any, *ToolContext) error { return nil }

// CheckPermissions is passthrough: the rules and the mode decide.
func (ToolDefaults) CheckPermissions(context.Context, any, *ToolContext) PermissionDecision {
	return PermissionDecision{Behavior: Passthrough}
}

// PermissionTarget is none: rules match the tool by name only.
func (ToolDefaults) PermissionTarget(any) Target { return Target{} }

// IsConcurrencySafe is false: the call runs alone.
func (ToolDefaults) IsConcurrencySafe(any) bool { return false }

// IsReadOnly is false: the call may change something.
func (ToolDefaults) IsReadOnly(any) bool { return false }

// IsDestructive is false.
func (ToolDefaults) IsDestructive(any) bool { return false }

// RenderUse is empty: the user sees the tool's name alone. See the table
// above for why generated and MCP tools write their own.
func (ToolDefaults) RenderUse(any) string { return "" }

// RenderProgress prints the progress value.
func (ToolDefaults) RenderProgress(_ any, progress any) string { return fmt.Sprint(progress) }

// RenderResult is "Done".
func (ToolDefaults) RenderResult(any, Result) string { return "Done" }

// RenderRejected is "Rejected".
func (ToolDefaults) RenderRejected(any) string { return "Rejected" }

// RenderError is the error's text; empty for a nil error.
func (ToolDefaults) RenderError(_ any, err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// RenderPreview is empty: the call has no preview, and its permission
// prompt shows its RenderUse.
func (ToolDefaults) RenderPreview(any, *ToolContext) string { return "" }

// RenderUses renders each input with r.RenderUse, one per line: the
// default RenderGrouped.
func RenderUses(r Renderer, inputs []any) string {
	lines := make([]string, 0, len(inputs))
	for _, input := range inputs {
		lines = append(lines, r.RenderUse(input))
	}
	return strings.Join(lines, "\n")
}
