package shellsyntax

import (
	"path/filepath"
	"strings"
)

// WrappedCommand returns the index in words of the command the wrapper
// words[0] runs unchanged — timeout, nice, nohup, time, ionice, watch,
// stdbuf, command, exec, sudo, doas, xargs, builtin, busybox, setsid,
// chrt, taskset, flock, prlimit, setpriv, unshare, nsenter, strace,
// ltrace, runuser -u, chroot, numactl, cgexec, pkexec, setarch and the
// option-less ones (eatmydata, unbuffer, torsocks…) — past the wrapper's
// options and their values ("timeout -s KILL 60 go test" → 3). ok is false when words[0] is no such wrapper or runs nothing
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
	case "nohup", "builtin", "busybox", "eatmydata", "unbuffer", "torsocks", "proxychains", "proxychains4",
		"dbus-run-session", "catchsegv", "linux32", "linux64", "i386", "x86_64":
		if i < len(w) && w[i] == "--" {
			i++
		}
	case "setsid", "fakeroot", "rlwrap":
		skipOpts("|-s|-i|-l|--faked|--lib|-a|-f|-H|-P|-S|")
	case "chrt":
		if hasOpt(w, "-p", "--pid") {
			return 0, false
		}
		skipOpts("|-T|-P|-D|--sched-runtime|--sched-period|--sched-deadline|")
		i++ // the priority
	case "taskset":
		if hasOpt(w, "-p", "--pid") {
			return 0, false
		}
		skipOpts("|")
		i++ // the mask or CPU list
	case "flock":
		skipOpts("|-w|-E|--timeout|--wait|--conflict-exit-code|")
		i++ // the lock file (a -c string is run as code: see the engine)
	case "prlimit":
		if hasOpt(w, "-p", "--pid") {
			return 0, false
		}
		skipOpts("|-o|--output|")
	case "setpriv":
		skipOpts("|--reuid|--regid|--ruid|--rgid|--euid|--egid|--groups|--inh-caps|--ambient-caps|--bounding-set|" +
			"--securebits|--pdeathsig|--selinux-label|--apparmor-profile|--landlock-access|--landlock-rule|--seccomp-filter|")
	case "unshare":
		skipOpts("|-S|-G|-R|-w|--setuid|--setgid|--root|--wd|--map-user|--map-group|--map-users|--map-groups|--propagation|--setgroups|--monotonic|--boottime|")
	case "nsenter":
		skipOpts("|-t|-S|-G|-r|-w|--target|--setuid|--setgid|--root|--wd|--env|")
	case "strace", "ltrace":
		if hasOpt(w, "-p", "--attach") {
			return 0, false
		}
		skipOpts("|-o|-e|-s|-a|-b|-E|-I|-O|-P|-S|-u|-U|-X|-n|-A|--output|--expr|--string-limit|--columns|--env|--user|--trace-path|")
	case "runuser":
		if !hasOpt(w, "-u", "--user") {
			return 0, false // runuser USER [-c CMD]: a login shell or a string (see the engine)
		}
		skipOpts("|-u|-g|-G|-w|--user|--group|--supp-group|--whitelist-environment|")
	case "chroot":
		skipOpts("|--userspec|--groups|")
		i++ // the new root
	case "numactl":
		skipOpts("|-C|-N|-m|-i|-p|-P|-l|--cpunodebind|--physcpubind|--membind|--interleave|--preferred|")
	case "cgexec":
		skipOpts("|-g|")
	case "pkexec":
		skipOpts("|--user|")
	case "setarch":
		i++ // the architecture
		skipOpts("|")
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

// hasOpt reports whether the leading options of words (up to the first
// word that is not one, or "--") hold one of the spellings.
func hasOpt(words []string, names ...string) bool {
	for _, w := range words[1:] {
		if w == "--" || !strings.HasPrefix(w, "-") {
			return false
		}
		for _, n := range names {
			if w == n || strings.HasPrefix(w, n+"=") {
				return true
			}
		}
	}
	return false
}
