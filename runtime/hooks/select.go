package hooks

import (
	"encoding/json"
	"fmt"
)

// IfFunc decides a hook's "if" rule, one permission rule such as
// "Bash(git *)", for the call of toolName with toolInput: match reports
// whether the hook runs; an error (a rule it cannot read) runs it.
type IfFunc func(rule, toolName string, toolInput json.RawMessage) (match bool, err error)

// toolEvent reports whether ev is about one tool call: the events whose
// hooks may have an "if" rule.
func toolEvent(ev Event) bool {
	switch ev {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, PermissionDenied:
		return true
	}
	return false
}

// modelEvent reports whether prompt and agent hooks run on ev, as in
// Claude Code; on the other events they are skipped.
func modelEvent(ev Event) bool {
	switch ev {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, UserPromptSubmit, Stop, SubagentStop:
		return true
	}
	return false
}

// selectHooks returns the hooks of ev whose matcher selects match and
// whose "if" rule (if any) selects the call in in, identical ones once:
// those to run and wait for, the async command hooks to start, and
// messages about hooks skipped.
func (r *Runner) selectHooks(ev Event, match string, in Input) (run, async []Hook, skipped []string) {
	if r == nil {
		return nil, nil, nil
	}
	seen := map[string]bool{}
	for _, m := range r.Config[ev] {
		if !m.matches(match) {
			continue
		}
		for _, h := range m.Hooks {
			key, ok := r.runnable(h)
			if !ok || seen[key] {
				continue
			}
			if (h.Type == TypePrompt || h.Type == TypeAgent) && !modelEvent(ev) {
				skipped = append(skipped, fmt.Sprintf("%s %s hook skipped: %s hooks run only on PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, UserPromptSubmit, Stop and SubagentStop, as in Claude Code.", ev, h.Type, h.Type))
				continue
			}
			if h.Type == TypeHTTP && ev == SessionStart {
				skipped = append(skipped, fmt.Sprintf("SessionStart http hook %s skipped: http hooks do not run on SessionStart, as in Claude Code.", h.URL))
				continue
			}
			if h.If != "" && !r.ifMatches(ev, h.If, in) {
				continue
			}
			seen[key] = true
			if (h.Async || h.AsyncRewake) && (h.Type == TypeCommand || h.Type == "") {
				async = append(async, h)
				continue
			}
			run = append(run, h)
		}
	}
	return run, async, skipped
}

// runnable reports whether h can run here, and the key identical hooks
// share (identical commands run once, as in Claude Code: the same hook
// in two settings files, or home = project).
func (r *Runner) runnable(h Hook) (string, bool) {
	switch h.Type {
	case TypeCommand, "":
		return "\x00command\x00" + h.Command, h.Command != ""
	case TypeHTTP:
		return "\x00http\x00" + h.URL, h.URL != ""
	case TypeCallback:
		return "\x00callback\x00" + h.Callback, h.Callback != "" && r.Callback != nil
	case TypePrompt, TypeAgent:
		return "\x00" + h.Type + "\x00" + h.Model + "\x00" + h.Prompt, h.Prompt != ""
	case TypeMCPTool:
		in, _ := json.Marshal(h.Input)
		return "\x00mcp\x00" + h.Server + "\x00" + h.Tool + "\x00" + string(in), h.Server != "" && h.Tool != ""
	}
	return "", false
}

// ifMatches decides a hook's "if" rule: never on an event that is not
// about a tool call (Claude Code's rule), and on a tool event whenever
// r.If cannot tell (no If, an unreadable rule, a panic).
func (r *Runner) ifMatches(ev Event, rule string, in Input) bool {
	if !toolEvent(ev) {
		return false
	}
	if r.If == nil {
		return true
	}
	name, _ := in["tool_name"].(string)
	raw, err := json.Marshal(in["tool_input"])
	if err != nil {
		return true
	}
	match := true
	func() {
		defer func() {
			if recover() != nil {
				match = true
			}
		}()
		if m, err := r.If(rule, name, raw); err == nil {
			match = m
		}
	}()
	return match
}
