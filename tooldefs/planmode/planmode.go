// Package planmode holds what the EnterPlanMode and ExitPlanMode tools
// share: their names, the session whose permission mode they switch, the
// context modifier that switches it, and the short rendering of a plan.
//
// The permission mode lives in the session's permission engine
// (permission.Engine.Mode); the tools change it only through a context
// modifier (SetMode), which the orchestrator applies after the call and
// before the next one reads the context, so the next call is checked in
// the new mode.
package planmode

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
)

const (
	// EnterName is the EnterPlanMode tool's name.
	EnterName = "EnterPlanMode"
	// ExitName is the ExitPlanMode tool's name.
	ExitName = "ExitPlanMode"
)

// ErrNoSession is the error of a plan-mode call made outside a session:
// there is no permission mode to switch.
var ErrNoSession = errors.New("plan mode needs a session (runtime/session) whose permission mode it switches; run the tool in one")

// Session returns the session a call of tool runs in, refusing a
// sub-agent's call: a sub-agent shares its parent's permission engine, so
// its plan-mode switch would flip the parent's mode.
func Session(tc *runtime.ToolContext, tool string) (*session.Session, error) {
	s, ok := session.Of(tc)
	if !ok {
		return nil, ErrNoSession
	}
	if s.Parent() != nil {
		return nil, fmt.Errorf("%s is for the main agent only: a sub-agent shares its parent's permission mode and cannot switch it; report your findings or plan in your final message instead", tool)
	}
	return s, nil
}

// SetMode is the context modifier that puts the session of the context
// it is applied to in mode m.
func SetMode(m permission.Mode) runtime.ContextModifier {
	return func(tc *runtime.ToolContext) {
		if s, ok := session.Of(tc); ok {
			s.Engine().SetMode(m)
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
