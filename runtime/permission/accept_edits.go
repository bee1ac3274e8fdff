package permission

import (
	"path/filepath"
	"strings"
)

// acceptEditsCommands are the programs a shell line may run and still be
// allowed by acceptEdits mode when its only effects are writes inside the
// working directories, as Claude Code allows them: making directories and
// files, copying, moving and removing them, editing with sed -i, and
// printing into a redirection or tee.
var acceptEditsCommands = map[string]bool{
	"mkdir": true, "touch": true, "cp": true, "mv": true, "rm": true, "rmdir": true, "tee": true,
	"sed": true, "echo": true, "printf": true, "cat": true, "true": true, ":": true, "cd": true,
	"pwd": true, "head": true, "tail": true, "sort": true, "uniq": true, "wc": true, "tr": true,
	"cut": true, "ls": true, "ln": true,
}

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
		if strings.Contains(name, "/") || !acceptEditsCommands[name] {
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
