package tooldefs

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/tooldefs/planmode"
)

// ExitPlanMode presents your plan to the user for approval and, once it
// is approved, ends plan mode so that you can implement it. Use it when you
// are in plan mode and have finished planning the implementation of a task
// that requires writing code. Pass the plan in markdown and keep it
// concise: the steps, the files to change, how you will check the result.
//
// - Only use it to plan code changes. For research (reading files,
// searching, understanding how something works) do not call it.
// - Settle open questions before you call it; do not ask the user in a
// message whether the plan is fine: this tool is how you ask.
// - Approved: the result gives the permission mode now in force (the one
// before plan mode, or acceptEdits if the user chose it); implement the
// plan.
// - Rejected: you stay in plan mode. Ask the user what to change, revise
// the plan and call ExitPlanMode again.
//
// +tool:name=ExitPlanMode
// +tool:agentOnly
// +tool:searchHint="present the plan for approval and leave plan mode"
type ExitPlanMode struct{}

// ExitPlanModeInput is the input of ExitPlanMode.
type ExitPlanModeInput struct {
	// The plan you came up with, that you want the user to approve. Supports markdown. Keep it concise.
	Plan string `json:"plan" jsonschema:"minLength=1"`
}

// ExitPlanModeOutput is an approved plan.
type ExitPlanModeOutput struct {
	Plan string `json:"plan"`
	// Mode is the permission mode now in force.
	Mode string `json:"mode"`
}

// acceptEditsLabel words the prompt's second yes, which ExitPlanMode maps
// to acceptEdits mode (ask.AnswerAllowSession); the first yes
// (AnswerAllowOnce) goes back to the mode before plan mode.
const acceptEditsLabel = "Yes, and accept edits"

// errPlanNotApproved marks the errors of a plan that was not approved:
// the session stays in plan mode.
var errPlanNotApproved = errors.New("plan not approved")

// ValidateInput refuses a call outside plan mode, outside a session, or
// from a sub-agent, whose switch would flip its parent's mode.
func (ExitPlanMode) ValidateInput(_ context.Context, _ *ExitPlanModeInput, tc *runtime.ToolContext) error {
	pm, err := planmode.Need(tc, planmode.ExitName)
	if err != nil {
		return err
	}
	return inPlanMode(pm)
}

func inPlanMode(e permission.PlanMode) error {
	if m := e.Mode(); m != permission.ModePlan {
		return fmt.Errorf("you are not in plan mode (the permission mode is %s), so there is nothing to exit: if your plan was approved, implement it", m)
	}
	return nil
}

// CheckPermissions lets the call run: plan mode would refuse it otherwise
// (leaving plan mode is not read-only). The plan's approval is the call's
// work: Call asks through permission.Engine.Approve, which follows the
// rules for ExitPlanMode (an allow rule approves without asking, a deny
// rule refuses; deny rules also stop the call before it starts).
func (ExitPlanMode) CheckPermissions(context.Context, *ExitPlanModeInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call shows the plan through the permission engine's asker and, on
// approval, switches the mode through a context modifier: "Yes" goes back
// to the mode before plan mode, "Yes, and accept edits" to acceptEdits.
// A No, or a run where nobody can answer, leaves the session in plan mode
// and is an error result that tells the model what to do.
func (ExitPlanMode) Call(ctx context.Context, in *ExitPlanModeInput, c *runtime.Call) (ExitPlanModeOutput, error) {
	e, err := planmode.Need(c.Context, planmode.ExitName)
	if err != nil {
		return ExitPlanModeOutput{}, err
	}
	if err := inPlanMode(e); err != nil {
		return ExitPlanModeOutput{}, err
	}
	calls, err := runtime.Need[orchestrate.Runner](c.Context, planmode.ExitName)
	if err != nil {
		return ExitPlanModeOutput{}, err
	}
	self := runtime.Lookup(calls.Tools(), planmode.ExitName)
	if self == nil {
		return ExitPlanModeOutput{}, fmt.Errorf("%s is not among the session's tools, so its approval cannot be asked for: call it through the session", planmode.ExitName)
	}
	back := e.ModeBeforePlan()
	req := ask.AskRequest{
		Message: fmt.Sprintf("Approve this plan and leave plan mode? Yes goes back to %s mode; No keeps the model planning.", back),
		Detail:  in.Plan,
	}
	if back != permission.ModeAcceptEdits {
		req.AlwaysLabel = acceptEditsLabel
	}
	ans, err := e.Approve(ctx, self, in, c.Context, req)
	switch {
	case err != nil:
		return ExitPlanModeOutput{}, fmt.Errorf("%w: %w You are still in plan mode: only read-only tools run.", errPlanNotApproved, err)
	case ans == ask.AnswerDeny:
		return ExitPlanModeOutput{}, fmt.Errorf("%w: the user rejected the plan, so you are still in plan mode (only read-only tools run). Ask the user what to change, revise the plan, and call %s again with it.",
			errPlanNotApproved, planmode.ExitName)
	}
	mode := back
	if ans == ask.AnswerAllowSession {
		mode = permission.ModeAcceptEdits
	}
	c.ModifyContext(planmode.SetMode(mode))
	// A compaction shows the approved plan again, as Claude Code shows its
	// plan file (its plan_file_reference attachment).
	runtime.RemindersOf(c.Context).Set("plan", "A plan was approved in plan mode earlier in this session.\n\nPlan contents:\n\n"+
		in.Plan+"\n\nIf this plan is relevant to the current work and not already complete, continue working on it.")
	return ExitPlanModeOutput{Plan: in.Plan, Mode: string(mode)}, nil
}

// ResultBlocks tells the model it may implement the plan, in which mode.
func (ExitPlanMode) ResultBlocks(out ExitPlanModeOutput) []runtime.Block {
	how := ""
	switch permission.Mode(out.Mode) {
	case permission.ModeAcceptEdits:
		how = " (file edits in the working directories no longer ask)"
	case permission.ModeDefault:
		how = " (changes ask the user as usual)"
	}
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("The plan was approved and plan mode is off: the permission mode is now %s%s. Implement the plan now.\n\n## Approved plan:\n%s",
		out.Mode, how, out.Plan))}
}

// RenderUse names the plan by its first line.
func (ExitPlanMode) RenderUse(in *ExitPlanModeInput) string { return planmode.Title(in.Plan) }

// RenderResult shows the new mode and the plan's first lines.
func (ExitPlanMode) RenderResult(_ *ExitPlanModeInput, out ExitPlanModeOutput) string {
	return fmt.Sprintf("Plan approved · now in %s mode\n%s", out.Mode, planmode.Head(out.Plan, 4))
}

// RenderError says a plan that was not approved leaves plan mode on.
func (ExitPlanMode) RenderError(_ *ExitPlanModeInput, err error) string {
	if errors.Is(err, errPlanNotApproved) {
		return "Plan not approved: still in plan mode"
	}
	return err.Error()
}
