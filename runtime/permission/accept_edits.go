package permission

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// acceptEditsCommands are the programs a shell line may run and still be
// allowed by acceptEdits mode when its only effects are writes inside the
// working directories, as Claude Code allows them: making directories and
// files, copying, moving and removing them, editing with sed -i, and
// printing into a redirection or tee.
// Built at first use, not before main.
var acceptEditsCommands = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"mkdir": true, "touch": true, "cp": true, "mv": true, "rm": true, "rmdir": true, "tee": true,
		"sed": true, "echo": true, "printf": true, "cat": true, "true": true, ":": true, "cd": true,
		"pwd": true, "head": true, "tail": true, "sort": true, "uniq": true, "wc": true, "tr": true,
		"cut": true, "ls": true, "ln": true, "pushd": true, "popd": true,
	}
})

// editsOnly reports whether acceptEdits mode allows a shell line: every
// command is one of acceptEditsCommands, run without a wrapper, nothing
// taints the line, every write is known and lies inside the working
// directories once resolved, and every path it names stays inside them
// (argsStayInside). Protected paths were judged before (safety).
func (e *Engine) editsOnly(c *call, rules []Rule) bool {
	a := c.shell
	if a == nil || a.parseErr != nil || len(a.taints) > 0 || len(a.protected) > 0 || len(a.writes) == 0 || len(a.cmds) == 0 {
		return false
	}
	for _, cmd := range a.cmds {
		if cmd.nested || len(cmd.words) == 0 || !cmd.literal[0] || len(cmd.assigns) > 0 || cmd.argsFrom != "" {
			return false
		}
		name := cmd.words[0]
		if strings.Contains(name, "/") || !acceptEditsCommands()[name] {
			return false
		}
		if name == "sed" && !sedInPlaceOnly(cmd) {
			return false
		}
	}
	for _, w := range a.writes {
		if w.unknown != "" || len(w.paths) == 0 {
			return false
		}
		for _, p := range w.paths {
			if !c.writeCall(p).inside() {
				return false
			}
		}
	}
	return e.argsStayInside(c, rules)
}

// sedInPlaceOnly reports whether a sed command edits its files in place
// and nothing else: -i given, and its scripts write no other file and run
// no command (sedWrites finds none besides the -i files).
func sedInPlaceOnly(c shellCmd) bool {
	pa := parseArgs(c, "|-e|-f|-l|--expression|--file|--line-length|", "|-i|")
	if !pa.has("i", "in-place") {
		return false
	}
	for _, w := range sedWrites(c, pa) {
		if w.unknown != "" || w.by != "sed -i" {
			return false
		}
	}
	return filepath.Base(c.words[0]) == "sed"
}

// allowedWithFree reports whether allow rules cover a shell line together
// with the commands that need no rule there: in acceptEdits mode the
// file-editing commands editsOnly allows (so "touch n.txt && git add
// n.txt" passes under Bash(git add:*)), and in every mode cd, pushd and
// popd (so "cd sub && make" passes under Bash(make:*)). At least one
// command must be covered by a rule (a line of free commands alone is
// editsOnly's or the read-only auto-allow's to judge), nothing may taint
// the line, and every path it names must stay inside the working
// directories (argsStayInside). The line's writes are judged afterwards
// as ever (pendingWrites).
func (e *Engine) allowedWithFree(rules []Rule, c *call, mode Mode) bool {
	a := c.shell
	if c.target.Kind != runtime.TargetCommand || a == nil || a.parseErr != nil || len(a.taints) > 0 || len(a.cmds) == 0 {
		return false
	}
	// The cheap test first: most lines have no free command.
	if !slices.ContainsFunc(a.cmds, func(cmd shellCmd) bool { return freeCommand(cmd, mode) }) {
		return false
	}
	var allows []Rule
	for _, r := range rules {
		if r.Behavior == runtime.Allow && c.applies(r) && !r.Whole() {
			allows = append(allows, r)
		}
	}
	if len(allows) == 0 {
		return false
	}
	free, ruled := 0, 0
	for i, cmd := range a.cmds {
		if anyAllowForm(allows, a.allowFormsOf(i)) {
			ruled++
			continue
		}
		if !freeCommand(cmd, mode) {
			return false
		}
		free++
	}
	return free > 0 && ruled > 0 && e.argsStayInside(c, rules)
}

// freeCommand reports whether a command of a shell line needs no allow
// rule in mode: a directory change, or in acceptEdits one of
// acceptEditsCommands (sed only editing in place), run by the line itself
// under its literal name, without a wrapper or assignments.
func freeCommand(cmd shellCmd, mode Mode) bool {
	if cmd.nested || len(cmd.words) == 0 || !cmd.literal[0] || len(cmd.assigns) > 0 || cmd.argsFrom != "" {
		return false
	}
	name := cmd.words[0]
	switch {
	case strings.Contains(name, "/"):
		return false
	case isCdWord(name):
		return true
	case mode != ModeAcceptEdits || !acceptEditsCommands()[name]:
		return false
	case name == "sed":
		return sedInPlaceOnly(cmd)
	}
	return true
}
