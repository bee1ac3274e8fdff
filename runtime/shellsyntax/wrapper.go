package shellsyntax

import (
	"path/filepath"
	"strings"
)

// WrappedCommand returns the index in words of the command the wrapper
// words[0] runs unchanged — timeout, nice, nohup, time, ionice, watch,
// stdbuf, command, exec, sudo, doas, xargs, builtin, busybox, setsid —
// past the wrapper's options and their values ("timeout -s KILL 60 go
// test" → 3). ok is false when words[0] is no such wrapper or runs nothing
// ("command -v git", a bare "timeout 5"). env is left to the caller: what
// its assignments and -S mean depends on the analysis.
func WrappedCommand(words []string) (int, bool) {
	if len(words) < 2 {
		return 0, false
	}
	w := words
	i := 1
	// skipOpts skips options; withArg lists options taking a value.
	skipOpts := func(withArg string) {
		for i < len(w) && strings.HasPrefix(w[i], "-") && w[i] != "-" {
			if w[i] == "--" {
				i++
				return
			}
			opt := w[i]
			i++
			if strings.HasPrefix(opt, "--") {
				if !strings.Contains(opt, "=") && strings.Contains(withArg, "|"+opt+"|") {
					i++
				}
				continue
			}
			if len(opt) == 2 && strings.Contains(withArg, "|"+opt+"|") {
				i++
			}
		}
	}
	switch filepath.Base(w[0]) {
	case "timeout":
		skipOpts("|-s|-k|--signal|--kill-after|")
		i++ // the duration
	case "nice":
		for i < len(w) && strings.HasPrefix(w[i], "-") {
			if w[i] == "-n" || w[i] == "--adjustment" {
				i++
			}
			i++
		}
	case "nohup", "builtin", "busybox", "setsid":
		if i < len(w) && w[i] == "--" {
			i++
		}
	case "time":
		skipOpts("|-f|-o|--format|--output|")
	case "ionice":
		skipOpts("|-c|-n|-p|-P|-u|--class|--classdata|")
	case "watch":
		skipOpts("|-n|-d|--interval|--differences|")
	case "stdbuf":
		skipOpts("|-i|-o|-e|--input|--output|--error|")
	case "command":
		for i < len(w) && strings.HasPrefix(w[i], "-") {
			if w[i] == "-v" || w[i] == "-V" {
				return 0, false
			}
			i++
		}
	case "exec":
		skipOpts("|-a|")
	case "sudo", "doas":
		skipOpts("|-u|-g|-h|-p|-C|-D|-r|-t|-U|-T|--user|--group|--host|--prompt|--chdir|")
	case "xargs":
		skipOpts("|-I|-L|-n|-P|-s|-d|-E|-a|--max-args|--max-procs|--delimiter|--arg-file|--max-lines|--replace|")
		if i >= len(w) {
			return 0, false
		}
	default:
		return 0, false
	}
	if i >= len(w) {
		return 0, false
	}
	return i, true
}
