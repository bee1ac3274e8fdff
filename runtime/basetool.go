package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Definition is one tool: [Define] turns it into a complete [Tool]. It is
// the runtime's buildTool, and the one shape every tool has: toolgen
// writes one Definition literal per tooldef, and hand-written tools and
// those made at run time (an MCP server's tool, a test fake, a user's
// dynamic tool) write their own. Name, Description, Schema, Decode and
// Call are the tool; every other field is optional, and a field left
// zero gets its default from the one table, [ToolDefaults].
//
// The static fields (ReadOnly, Interrupt…) mirror the tooldef markers and
// answer for every input. The per-input funcs (IsReadOnly,
// InterruptBehavior, RenderUse…) mirror tooldef methods and win over them,
// but only for In values: the value Decode returned, or In's zero value
// for a nil input (the runtime renders a call whose input never decoded
// with nil) unless In is a pointer type, whose zero value a func could not
// read. Any other input gets the fail-closed default of [ToolDefaults],
// never a static answer meant for the tool's own inputs. Where the input
// itself is needed, only a value Decode can return will do: for anything
// else ValidateInput and Call fail and CheckPermissions denies.
type Definition[In any] struct {
	// Name is the unique name the model calls the tool by. Required.
	Name string
	// Aliases are older names that still resolve to the tool.
	Aliases []string
	// Description is the prompt text telling the model what the tool does.
	Description string
	// SearchHint is a short phrase ToolSearch scores besides the name.
	SearchHint string
	// Schema is the JSON Schema of the input object, as sent to the API;
	// {"type":"object"} when nil. Decode must accept what it describes.
	Schema json.RawMessage
	// Decode parses and validates the model's JSON into the tool's input;
	// its error names the offending parameter. Required.
	Decode func(raw json.RawMessage) (In, error)
	// Call runs the tool. Required.
	Call func(ctx context.Context, in In, call *Call) (Result, error)

	// ReadOnly, ConcurrencySafe and Destructive are the scheduling answers
	// for every input (+tool:readOnly, +tool:concurrencySafe,
	// +tool:destructive).
	ReadOnly, ConcurrencySafe, Destructive bool
	// Disabled switches the tool off (+tool:disabled).
	Disabled bool
	// ShouldDefer withholds the definition until ToolSearch loads it.
	ShouldDefer bool
	// AlwaysLoad sends the definition even when it is deferrable.
	AlwaysLoad bool
	// Interrupt is what a user interrupt does to every call (+tool:interrupt).
	Interrupt InterruptBehavior
	// CancelsSiblingsOnError makes an error result cancel the call's
	// siblings in the streaming executor, as Bash's does.
	CancelsSiblingsOnError bool
	// PermissionFamily is the family of calls the tool's rules govern.
	PermissionFamily PermissionFamily
	// LocalOnly says every call stays on this machine (Traits.LocalOnly).
	LocalOnly bool
	// AgentOnly says the tool needs an agent loop (Traits.AgentOnly).
	AgentOnly bool
	// MaxResultSizeChars is the result size cap (Traits.MaxResultSizeChars).
	MaxResultSizeChars int
	// DisplayName is the user-facing name of every call
	// (+tool:userFacingName); Name when empty.
	DisplayName string

	// IsEnabled, when set, decides at run time whether the tool is on;
	// it wins over Disabled.
	IsEnabled func() bool
	// ValidateInput checks that a decoded input is meaningful.
	ValidateInput func(ctx context.Context, in In, tc *ToolContext) error
	// CheckPermissions is the tool's own permission check.
	CheckPermissions func(ctx context.Context, in In, tc *ToolContext) PermissionDecision
	// PermissionTarget is what permission rules for the call match against.
	PermissionTarget func(in In) Target
	// IsConcurrencySafe, IsReadOnly and IsDestructive decide per input;
	// each wins over its static field and makes its trait input-dependent.
	IsConcurrencySafe, IsReadOnly, IsDestructive func(in In) bool
	// InterruptBehavior decides per input; it wins over Interrupt.
	InterruptBehavior func(in In) InterruptBehavior
	// UserFacingName names the call for the user; it wins over DisplayName.
	UserFacingName func(in In) string

	// RenderUse is shown when the call starts.
	RenderUse func(in In) string
	// RenderProgress renders one progress value.
	RenderProgress func(in In, progress any) string
	// RenderResult summarises a finished call.
	RenderResult func(in In, result Result) string
	// RenderRejected is shown when permission was denied.
	RenderRejected func(in In) string
	// RenderError is shown when the call failed.
	RenderError func(in In, err error) string
	// RenderGrouped renders several parallel calls as one line; it gets the
	// inputs that are In values.
	RenderGrouped func(ins []In) string
	// RenderPreview shows what the call will do, for its permission
	// prompt (runtime.Previewer): an edit's diff, a command in full.
	RenderPreview func(in In, tc *ToolContext) string
}

// Define returns the tool d describes, with the default of
// [ToolDefaults] for every field d leaves zero. It panics when Name,
// Decode or Call is missing: those are the tool. The tool is a
// [Previewer] whose RenderPreview is "" without d.RenderPreview.
func Define[In any](d Definition[In]) Tool {
	var missing []string
	if d.Name == "" {
		missing = append(missing, "Name")
	}
	if d.Decode == nil {
		missing = append(missing, "Decode")
	}
	if d.Call == nil {
		missing = append(missing, "Call")
	}
	if len(missing) > 0 {
		panic(fmt.Sprintf("runtime.Define(%q): set %s in the Definition", d.Name, strings.Join(missing, ", ")))
	}
	if d.Schema == nil {
		d.Schema = json.RawMessage(`{"type":"object"}`)
	}
	flag := func(static bool, perInput bool) Flag {
		if perInput {
			return Flag{InputDependent: true}
		}
		return Flag{Value: static}
	}
	typ := reflect.TypeFor[In]()
	return &defined[In]{
		d: d,
		traits: Traits{
			ReadOnly:               flag(d.ReadOnly, d.IsReadOnly != nil),
			ConcurrencySafe:        flag(d.ConcurrencySafe, d.IsConcurrencySafe != nil),
			Destructive:            flag(d.Destructive, d.IsDestructive != nil),
			Interrupt:              d.Interrupt,
			InterruptDependent:     d.InterruptBehavior != nil,
			CancelsSiblingsOnError: d.CancelsSiblingsOnError,
			PermissionFamily:       d.PermissionFamily,
			LocalOnly:              d.LocalOnly,
			AgentOnly:              d.AgentOnly,
			MaxResultSizeChars:     d.MaxResultSizeChars,
		},
		zeroForNil: typ.Kind() != reflect.Pointer,
		nilIsIn:    typ.Kind() == reflect.Interface,
		inType:     typ.String(),
	}
}

// defined is the Tool a Definition describes.
type defined[In any] struct {
	d      Definition[In]
	traits Traits
	// zeroForNil is true when a nil input reaches the answering and
	// rendering funcs as In's zero value: In is not a pointer type.
	zeroForNil bool
	// nilIsIn is true when nil is a value Decode can return: In is an
	// interface type.
	nilIsIn bool
	inType  string
	// own is the description before Refit fitted it; fitted says it did.
	own    string
	fitted bool
}

// in returns input as the funcs see it: an In, or false when it is none.
func (t *defined[In]) in(input any) (In, bool) {
	in, ok := input.(In)
	if !ok && input == nil && t.zeroForNil {
		ok = true
	}
	return in, ok
}

// decoded returns input as an In when it is a value Decode can return.
func (t *defined[In]) decoded(input any) (In, bool) {
	in, ok := input.(In)
	if !ok && input == nil && t.nilIsIn {
		ok = true
	}
	return in, ok
}

// wrongInput is the error of an input Decode did not return.
func (t *defined[In]) wrongInput(input any) error {
	return fmt.Errorf("%s: input is %T, not %s; pass the value Decode returned", t.d.Name, input, t.inType)
}

func (t *defined[In]) Name() string                 { return t.d.Name }
func (t *defined[In]) Aliases() []string            { return t.d.Aliases }
func (t *defined[In]) Description() string          { return t.d.Description }
func (t *defined[In]) SearchHint() string           { return t.d.SearchHint }
func (t *defined[In]) InputSchema() json.RawMessage { return t.d.Schema }
func (t *defined[In]) ShouldDefer() bool            { return t.d.ShouldDefer }
func (t *defined[In]) AlwaysLoad() bool             { return t.d.AlwaysLoad }
func (t *defined[In]) Traits() Traits               { return t.traits }

func (t *defined[In]) IsEnabled() bool {
	if t.d.IsEnabled != nil {
		return t.d.IsEnabled()
	}
	if t.d.Disabled {
		return false
	}
	return ToolDefaults{}.IsEnabled()
}

func (t *defined[In]) Decode(raw json.RawMessage) (any, error) {
	in, err := t.d.Decode(raw)
	if err != nil {
		return nil, err
	}
	return in, nil
}

func (t *defined[In]) ValidateInput(ctx context.Context, input any, tc *ToolContext) error {
	in, ok := t.decoded(input)
	switch {
	case !ok:
		return t.wrongInput(input)
	case t.d.ValidateInput != nil:
		return t.d.ValidateInput(ctx, in, tc)
	}
	return ToolDefaults{}.ValidateInput(ctx, input, tc)
}

func (t *defined[In]) CheckPermissions(ctx context.Context, input any, tc *ToolContext) PermissionDecision {
	in, ok := t.decoded(input)
	switch {
	case !ok:
		return PermissionDecision{Behavior: Deny, Message: t.wrongInput(input).Error()}
	case t.d.CheckPermissions != nil:
		return t.d.CheckPermissions(ctx, in, tc)
	}
	return ToolDefaults{}.CheckPermissions(ctx, input, tc)
}

func (t *defined[In]) PermissionTarget(input any) Target {
	if in, ok := t.in(input); ok && t.d.PermissionTarget != nil {
		return t.d.PermissionTarget(in)
	}
	return ToolDefaults{}.PermissionTarget(input)
}

// answer is a scheduling flag: for an In, the per-input func, else the
// static value; for any other input, dflt (the table's fail-closed one).
func (t *defined[In]) answer(input any, perInput func(In) bool, static, dflt bool) bool {
	in, ok := t.in(input)
	switch {
	case !ok:
		return dflt
	case perInput != nil:
		return perInput(in)
	}
	return static
}

func (t *defined[In]) IsConcurrencySafe(input any) bool {
	return t.answer(input, t.d.IsConcurrencySafe, t.d.ConcurrencySafe, ToolDefaults{}.IsConcurrencySafe(input))
}

func (t *defined[In]) IsReadOnly(input any) bool {
	return t.answer(input, t.d.IsReadOnly, t.d.ReadOnly, ToolDefaults{}.IsReadOnly(input))
}

func (t *defined[In]) IsDestructive(input any) bool {
	return t.answer(input, t.d.IsDestructive, t.d.Destructive, ToolDefaults{}.IsDestructive(input))
}

func (t *defined[In]) InterruptBehavior(input any) InterruptBehavior {
	in, ok := t.in(input)
	switch {
	case !ok:
		return ToolDefaults{}.InterruptBehavior(input)
	case t.d.InterruptBehavior != nil:
		return t.d.InterruptBehavior(in)
	}
	return t.d.Interrupt
}

func (t *defined[In]) UserFacingName(input any) string {
	if in, ok := t.in(input); ok && t.d.UserFacingName != nil {
		return t.d.UserFacingName(in)
	}
	if t.d.DisplayName != "" {
		return t.d.DisplayName
	}
	return t.d.Name
}

func (t *defined[In]) Call(ctx context.Context, input any, call *Call) (Result, error) {
	in, ok := t.decoded(input)
	if !ok {
		return Result{}, t.wrongInput(input)
	}
	return t.d.Call(ctx, in, call)
}

func (t *defined[In]) RenderUse(input any) string {
	if in, ok := t.in(input); ok && t.d.RenderUse != nil {
		return t.d.RenderUse(in)
	}
	return ToolDefaults{}.RenderUse(input)
}

func (t *defined[In]) RenderProgress(input any, progress any) string {
	if in, ok := t.in(input); ok && t.d.RenderProgress != nil {
		return t.d.RenderProgress(in, progress)
	}
	return ToolDefaults{}.RenderProgress(input, progress)
}

func (t *defined[In]) RenderResult(input any, result Result) string {
	if in, ok := t.in(input); ok && t.d.RenderResult != nil {
		return t.d.RenderResult(in, result)
	}
	return ToolDefaults{}.RenderResult(input, result)
}

func (t *defined[In]) RenderRejected(input any) string {
	if in, ok := t.in(input); ok && t.d.RenderRejected != nil {
		return t.d.RenderRejected(in)
	}
	return ToolDefaults{}.RenderRejected(input)
}

func (t *defined[In]) RenderError(input any, err error) string {
	if in, ok := t.in(input); ok && t.d.RenderError != nil {
		return t.d.RenderError(in, err)
	}
	return ToolDefaults{}.RenderError(input, err)
}

func (t *defined[In]) RenderGrouped(inputs []any) string {
	if t.d.RenderGrouped == nil {
		return RenderUses(t, inputs)
	}
	ins := make([]In, 0, len(inputs))
	for _, input := range inputs {
		if in, ok := t.in(input); ok {
			ins = append(ins, in)
		}
	}
	return t.d.RenderGrouped(ins)
}

// RenderPreview is the call's preview: d.RenderPreview for a value Decode
// returned, else "" (none).
func (t *defined[In]) RenderPreview(input any, tc *ToolContext) string {
	if in, ok := t.decoded(input); ok && t.d.RenderPreview != nil {
		return t.d.RenderPreview(in, tc)
	}
	return ToolDefaults{}.RenderPreview(input, tc)
}

// redescribe is t with another description: a copy, not a wrapper.
// fitted says the description was fitted from own ([Refit]).
func (t *defined[In]) redescribe(description, own string, fitted bool) Tool {
	c := *t
	c.d.Description, c.own, c.fitted = description, own, fitted
	return &c
}

// ownDescription is the description before any [Refit].
func (t *defined[In]) ownDescription() string {
	if t.fitted {
		return t.own
	}
	return t.d.Description
}

// redescribable is a tool whose description [WithDescription] and
// [Refit] change without wrapping it: a tool [Define] made, or the one
// wrapper they put around any other tool.
type redescribable interface {
	Tool
	redescribe(description, own string, fitted bool) Tool
	ownDescription() string
}

// described is a tool [Define] did not make, with another description.
type described struct {
	Tool
	description string
	// own is the description before Refit fitted it; fitted says it did.
	own    string
	fitted bool
}

// Description is the replaced description.
func (d *described) Description() string { return d.description }

// Unwrap returns the tool itself.
func (d *described) Unwrap() Tool { return d.Tool }

// RenderPreview is the tool's, "" when it has none.
func (d *described) RenderPreview(input any, tc *ToolContext) string {
	if p, ok := d.Tool.(Previewer); ok {
		return p.RenderPreview(input, tc)
	}
	return ""
}

func (d *described) redescribe(description, own string, fitted bool) Tool {
	return &described{Tool: d.Tool, description: description, own: own, fitted: fitted}
}

func (d *described) ownDescription() string {
	if d.fitted {
		return d.own
	}
	return d.description
}

// redescribable returns t as a redescribable: itself, or t wrapped once.
func asRedescribable(t Tool) redescribable {
	if r, ok := t.(redescribable); ok {
		return r
	}
	return &described{Tool: t, description: t.Description()}
}

// WithDescription returns t with description in place of its own; every
// other method is t's. Front ends use it to end a tool's description with
// what only the session knows (the Agent tool's agent types, the Skill
// tool's skills). A tool [Define] made is copied with the new
// description; any other tool is wrapped once: a tool WithDescription or
// Refit returned is re-described, never wrapped again.
func WithDescription(t Tool, description string) Tool {
	return asRedescribable(t).redescribe(description, "", false)
}

// Refit returns t with its description passed through fit, e.g. with the
// sentences about absent tools taken out (the pool does this). Refit
// starts from the tool's own description, the one it had before any
// earlier Refit, so a tool fitted to one pool is fitted to another from
// its own text. It returns t itself when the description stays as it is.
// Like [WithDescription], it copies or wraps once.
func Refit(t Tool, fit func(own string) string) Tool {
	r := asRedescribable(t)
	own := r.ownDescription()
	d := fit(own)
	switch {
	case d == t.Description():
		return t
	case d == own:
		return r.redescribe(own, "", false)
	}
	return r.redescribe(d, own, true)
}
