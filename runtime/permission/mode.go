package permission

import (
	"fmt"
	"strings"
)

// Mode is a permission mode, set by --permission-mode or
// permissions.defaultMode.
type Mode string

// The permission modes.
const (
	// ModeDefault asks before anything that is not read-only.
	ModeDefault Mode = "default"
	// ModeAcceptEdits also allows file edits inside the working directories.
	ModeAcceptEdits Mode = "acceptEdits"
	// ModePlan denies every call that is not read-only.
	ModePlan Mode = "plan"
	// ModeBypass allows everything that deny rules, ask rules and the
	// safety checks do not stop.
	ModeBypass Mode = "bypassPermissions"
	// ModeDontAsk denies whatever would be asked.
	ModeDontAsk Mode = "dontAsk"
)

// Modes lists every mode, for help texts.
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk}

// ParseMode parses a mode name (case-insensitive); "" is the default mode.
func ParseMode(s string) (Mode, error) {
	if strings.TrimSpace(s) == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if strings.EqualFold(strings.TrimSpace(s), string(m)) {
			return m, nil
		}
	}
	names := make([]string, len(Modes))
	for i, m := range Modes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %s", s, strings.Join(names, ", "))
}
