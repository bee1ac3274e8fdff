package permission

import (
	"context"

	"github.com/agentcore/agentcore/runtime"
	userask "github.com/agentcore/agentcore/runtime/ask"
)

// The capabilities a session's permission engine gives tools (see
// runtime.Need); *Engine has them all, and runtime/session provides its
// engine as each.
var (
	_ PlanMode       = (*Engine)(nil)
	_ Questions      = (*Engine)(nil)
	_ TemporaryRules = (*Engine)(nil)
)

// PlanMode is the capability of reading and switching the permission
// mode, and of asking the user to approve a plan (EnterPlanMode,
// ExitPlanMode). Switch the mode through a context modifier, so the next
// call is checked in the new mode.
type PlanMode interface {
	Mode() Mode
	SetMode(Mode)
	ModeBeforePlan() Mode
	Approve(ctx context.Context, t runtime.Tool, input any, tc *runtime.ToolContext, req userask.AskRequest) (userask.Answer, error)
}

// Questions is the capability of putting questions to the user
// (AskUserQuestion).
type Questions interface {
	AskQuestions(ctx context.Context, qs []userask.Question) ([]userask.QuestionAnswer, error)
}

// TemporaryRules is the capability of allowing tools for a while (a
// skill's allowed-tools, for the rest of the turn).
type TemporaryRules interface {
	AddTemporaryRules(rules []Rule, source Source) (remove func())
}
