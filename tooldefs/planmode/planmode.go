// Package planmode holds what the EnterPlanMode and ExitPlanMode tools
// share: their names, the permission mode they switch (the session's
// permission.PlanMode capability), the context modifier that switches it,
// and the short rendering of a plan.
//
// The permission mode lives in the session's permission engine
// (permission.Engine.Mode); the tools change it only through a context
// modifier (SetMode), which the orchestrator applies after the call and
// before the next one reads the context, so the next call is checked in
// the new mode.
package planmode

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

const (
	// EnterName is the EnterPlanMode tool's name.
	EnterName = "EnterPlanMode"
	// ExitName is the ExitPlanMode tool's name.
	ExitName = "ExitPlanMode"
)

// Need returns the permission mode a call of tool switches, refusing a
// call outside a session (an error wrapping runtime.ErrNoSession) and a
// sub-agent's call: a sub-agent shares its parent's permission engine, so
// its plan-mode switch would flip the parent's mode.
func Need(tc *runtime.ToolContext, tool string) (permission.PlanMode, error) {
	pm, err := runtime.Need[permission.PlanMode](tc, "plan mode")
	if err != nil {
		return nil, err
	}
	if info, err := runtime.Need[runtime.SessionInfo](tc, "plan mode"); err != nil {
		return nil, err
	} else if info.IsSubagent() {
		return nil, fmt.Errorf("%s is for the main agent only: a sub-agent shares its parent's permission mode and cannot switch it; report your findings or plan in your final message instead", tool)
	}
	return pm, nil
}

// SetMode is the context modifier that puts the session of the context
// it is applied to in mode m.
func SetMode(m permission.Mode) runtime.ContextModifier {
	return func(tc *runtime.ToolContext) {
		if pm, ok := runtime.Service[permission.PlanMode](tc); ok {
			pm.SetMode(m)
		}
	}
}

// Title is a plan's first non-empty line without its markdown heading
// marks, cut at 60 characters: how a plan is named on one line.
func Title(plan string) string {
	for _, line := range strings.Split(plan, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > 60 {
			line = string([]rune(line)[:59]) + "…"
		}
		return line
	}
	return ""
}

// Head is a plan's first n non-empty lines, and a count of the lines left
// out: a plan shown in a transcript, which would be long in full.
func Head(plan string, n int) string {
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(plan), "\n") {
		if strings.TrimSpace(line) != "" {
			lines = append(lines, strings.TrimRight(line, " \t\r"))
		}
	}
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:n], "\n") + fmt.Sprintf("\n… %d more lines of the plan", len(lines)-n)
}
