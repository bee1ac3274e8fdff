package tooldefs

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/tooldefs/planmode"
)

// EnterPlanMode asks the user to switch the session to plan mode, where
// you explore the code and design an approach before changing anything.
// Use it proactively before a non-trivial implementation task, so that the
// user signs off on the approach before you write code:
// - a new feature, or a change to how existing code behaves;
// - a task with several reasonable approaches (an architectural choice, a
// library to pick);
// - a change that will touch more than two or three files;
// - unclear requirements that you need to explore before you know the scope.
//
// Skip it for small, clear tasks (a typo, an obvious fix of a few lines, a
// change the user specified in detail) and for pure research.
//
// In plan mode only read-only tools run: calls that would change files or
// run commands that write are refused. Explore, settle on an approach, then
// present the plan with ExitPlanMode: it asks the user to approve the plan
// and ends plan mode.
//
// The user has to agree to the switch. In a run without a user to ask it
// is refused, unless the run started in plan mode (then nothing changes).
//
// +tool:name=EnterPlanMode
// +tool:agentOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="switch to plan mode: explore and design an approach before changing anything"
type EnterPlanMode struct{}

// EnterPlanModeInput is the input of EnterPlanMode: none.
type EnterPlanModeInput struct{}

// EnterPlanModeOutput is what EnterPlanMode did.
type EnterPlanModeOutput struct {
	// Previous is the permission mode the session left; empty when it
	// was in plan mode already.
	Previous string `json:"previous_mode,omitempty"`
	// AlreadyOn is true when the session was in plan mode already (it
	// started in it): nothing changed.
	AlreadyOn bool `json:"already_on,omitempty"`
}

// IsReadOnly is true (the +tool:readOnly marker): entering plan mode
// changes no file and only narrows what may run next, as in Claude Code.
// It still needs the user's word (CheckPermissions asks), and it is kept
// from sub-agents, which share the parent's mode (ValidateInput).

// ValidateInput refuses a call outside a session or from a sub-agent,
// whose switch would flip its parent's mode.
func (EnterPlanMode) ValidateInput(_ context.Context, _ *EnterPlanModeInput, tc *runtime.ToolContext) error {
	_, err := planmode.Need(tc, planmode.EnterName)
	return err
}

// CheckPermissions asks the user to agree to the switch; a session in
// plan mode already needs nobody's word, the call changes nothing. A
// tool's own ask beats allow rules, so only a user (or bypass mode) lets
// the switch happen: a non-interactive run is refused, unless it started
// in plan mode.
func (EnterPlanMode) CheckPermissions(_ context.Context, _ *EnterPlanModeInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	pm, err := planmode.Need(tc, planmode.EnterName)
	if err != nil {
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: err.Error()}
	}
	if pm.Mode() == permission.ModePlan {
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	}
	return runtime.PermissionDecision{Behavior: runtime.Ask, Message: "Enter plan mode? The model wants to explore and design an approach first: until you approve its plan, only read-only tools run."}
}

// Call switches the session to plan mode through a context modifier, so
// the calls after this one are checked in plan mode.
func (EnterPlanMode) Call(_ context.Context, _ *EnterPlanModeInput, c *runtime.Call) (EnterPlanModeOutput, error) {
	pm, err := planmode.Need(c.Context, planmode.EnterName)
	if err != nil {
		return EnterPlanModeOutput{}, err
	}
	mode := pm.Mode()
	if mode == permission.ModePlan {
		return EnterPlanModeOutput{AlreadyOn: true}, nil
	}
	c.ModifyContext(planmode.SetMode(permission.ModePlan))
	return EnterPlanModeOutput{Previous: string(mode)}, nil
}

// ResultBlocks tells the model what plan mode means for its next steps.
func (EnterPlanMode) ResultBlocks(out EnterPlanModeOutput) []runtime.Block {
	if out.AlreadyOn {
		return []runtime.Block{runtime.TextBlock("Plan mode is already on: only read-only tools run. Explore the code, design the approach, then present your plan with " +
			planmode.ExitName + ".")}
	}
	return []runtime.Block{runtime.TextBlock(`Entered plan mode. Until the user approves your plan, only read-only tools run; calls that would change files or run commands that write are refused.

Now:
1. Explore the code: read the relevant files, look for similar features and the patterns they follow.
2. Weigh the possible approaches and their trade-offs.
3. Settle on one concrete approach: the steps, the files to change, how to check the result.
4. Call ` + planmode.ExitName + ` with the plan to ask the user to approve it.

Do not write or edit any file yet: this is the time to understand and plan.`)}
}

// RenderUse shows nothing: the call has no input.
func (EnterPlanMode) RenderUse(*EnterPlanModeInput) string { return "" }

// RenderResult says whether the mode changed.
func (EnterPlanMode) RenderResult(_ *EnterPlanModeInput, out EnterPlanModeOutput) string {
	if out.AlreadyOn {
		return "Already in plan mode"
	}
	return "Entered plan mode: read-only tools only until the plan is approved"
}

// RenderRejected says the session stays out of plan mode.
func (EnterPlanMode) RenderRejected(*EnterPlanModeInput) string {
	return "Stayed out of plan mode"
}
