package runtime

import "encoding/json"

// Invocation is one tool call bound once: the tool it names, its decoded
// input, and every answer about that input the pipeline needs, each
// worked out once when the call is bound. The executor schedules by it,
// the permission engine, hooks, events, transcript and renderers read it;
// none of them asks the tool again or decodes the input again. For a Bash
// call the permission target carries the parsed command (Target.Shell),
// so the line is parsed once per call.
//
// An Invocation is made by the orchestrator when a call's input decodes
// (or by NewInvocation for a decoded input) and is not changed afterwards,
// except by the orchestrator when a hook or an approver replaces the
// input, before the call runs. Readers must not change it.
type Invocation struct {
	// ID is the tool_use id; Name the name the model called the tool by
	// (its name or an alias).
	ID, Name string
	// Raw is the input as the model sent it (or as a hook or an approver
	// replaced it); "{}" when the model sent none.
	Raw json.RawMessage
	// Tool is the tool the name resolved to.
	Tool Tool
	// Input is Raw decoded by Tool.Decode.
	Input any

	// ToolName is Tool.Name(): the canonical name, alias resolved.
	ToolName string
	// Traits are the tool's static traits.
	Traits Traits
	// ConcurrencySafe, ReadOnly and Destructive are the tool's answers for
	// Input; a method that panics answers false.
	ConcurrencySafe, ReadOnly, Destructive bool
	// Interrupt is the tool's interrupt behaviour for Input; a panic
	// answers InterruptBlock.
	Interrupt InterruptBehavior
	// Target is what permission rules match for Input; TargetErr (a
	// *Panic) is set, and Target empty, when PermissionTarget panicked:
	// the permission engine then denies the call.
	Target    Target
	TargetErr error
	// UserFacingName is the name shown for this call (ToolName when the
	// tool gives none or panics).
	UserFacingName string
	// Use is the call's render line, Tool.RenderUse(Input) ("" on a panic).
	Use string
}

// NewInvocation binds a decoded input of tool: every answer worked out
// once (Bind). The call's ID, Name and Raw are left for the caller.
func NewInvocation(tool Tool, input any) *Invocation {
	inv := &Invocation{Tool: tool, Input: input}
	inv.Bind()
	return inv
}

// bindSteps are the answers Bind works out, in order.
const (
	stepName = iota
	stepTraits
	stepSafe
	stepReadOnly
	stepDestructive
	stepInterrupt
	stepTarget
	stepUserFacing
	stepUse
	bindSteps
)

var stepMethods = [bindSteps]string{"Name", "Traits", "IsConcurrencySafe", "IsReadOnly",
	"IsDestructive", "InterruptBehavior", "PermissionTarget", "UserFacingName", "RenderUse"}

// Bind works out every answer of inv from inv.Tool and inv.Input, each
// method called once. A method that panics gets its fail-closed answer;
// no panic escapes.
func (inv *Invocation) Bind() {
	for step := 0; step < bindSteps; {
		step = inv.bindFrom(step)
	}
	if inv.UserFacingName == "" {
		inv.UserFacingName = inv.ToolName
	}
	if inv.ToolName == "" {
		inv.ToolName = inv.Name
	}
	if inv.UserFacingName == "" {
		inv.UserFacingName = inv.Name
	}
}

// bindFrom works out the answers from step on, under one recover: it
// returns bindSteps, or the step after the one that panicked, whose
// answer is left fail-closed.
func (inv *Invocation) bindFrom(step int) (next int) {
	defer func() {
		if v := recover(); v != nil {
			switch next {
			case stepInterrupt:
				inv.Interrupt = InterruptBlock
			case stepTarget:
				inv.Target = Target{}
				inv.TargetErr = &Panic{What: stepMethods[next], Value: v}
			}
			next++
		}
	}()
	t, in := inv.Tool, inv.Input
	for next = step; next < bindSteps; next++ {
		switch next {
		case stepName:
			inv.ToolName = t.Name()
		case stepTraits:
			inv.Traits = t.Traits()
		case stepSafe:
			inv.ConcurrencySafe = t.IsConcurrencySafe(in)
		case stepReadOnly:
			inv.ReadOnly = t.IsReadOnly(in)
		case stepDestructive:
			inv.Destructive = t.IsDestructive(in)
		case stepInterrupt:
			inv.Interrupt = t.InterruptBehavior(in)
		case stepTarget:
			inv.Target = t.PermissionTarget(in)
		case stepUserFacing:
			inv.UserFacingName = t.UserFacingName(in)
		case stepUse:
			inv.Use = t.RenderUse(in)
		}
	}
	return next
}
