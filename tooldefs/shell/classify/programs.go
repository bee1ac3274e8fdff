package classify

import (
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime/shellprog"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// argCheck inspects the arguments of an allowlisted program (Args[1:]) and
// returns why this use is not read-only, or "".
type argCheck func(args []shellsyntax.Word) string

// allowlist maps the read-only programs to the check of their arguments.
// It is built at the first check, not before main: a -p run that never
// classifies a command does not pay for it.
var allowlist = sync.OnceValue(buildAllowlist)

func buildAllowlist() map[string]argCheck {
	m := map[string]argCheck{}
	// Programs with no option that writes a file or runs a program: any
	// argument, even one only known at run time, is fine.
	for _, name := range []string{
		"cat", "head", "tail", "wc", "ls", "grep", "egrep", "fgrep", "echo", "pwd",
		"stat", "which", "whereis", "type", "cut", "tr", "du", "df", "sleep", "true",
		"false", ":", "basename", "dirname", "realpath", "readlink", "nl", "rev",
		"tac", "strings", "cmp", "comm", "diff", "whoami", "id", "uname",
		"printenv", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "seq",
		"fold", "column", "expand", "unexpand", "paste", "join", "od", "hexdump",
		"jq", "numfmt", "groups", "nproc", "arch", "tty", "locale",
	} {
		m[name] = anyArgs
	}
	// printf -v and test -v evaluate array subscripts, which can run command
	// substitutions; a $x argument could become -v at run time, so all
	// arguments must be static.
	// Programs with options that write or run something: the programs
	// table (runtime/shellprog) says which, for the permission engine too.
	// printf -v and test -v evaluate array subscripts, which can run
	// command substitutions. All arguments must be static: a $x argument
	// could become such an option at run time.
	for _, name := range []string{"printf", "test", "[", "file", "sort", "tree", "rg", "uniq", "find", "shuf", "xxd"} {
		m[name] = fromTable(name)
	}
	m["date"] = checkDate
	m["hostname"] = checkHostname
	m["env"] = noArgs
	m["git"] = checkGit
	m["cd"] = checkCd
	m["pushd"] = checkPushd
	m["popd"] = noArgs
	return m
}

// checkPushd takes pushd to one static directory, as checkCd does cd
// (pushd also prints the stack); its +N and -N rotations, and pushd with
// no directory (a swap), go where the line does not say.
func checkPushd(args []shellsyntax.Word) string {
	for _, a := range args {
		if a.Value != "--" && a.Value != "-" && (strings.HasPrefix(a.Value, "+") || strings.HasPrefix(a.Value, "-")) {
			return "pushd with " + a.Value + " rotates the directory stack"
		}
	}
	return checkCd(args)
}

// checkCd takes cd to one static directory: it changes only the working
// directory of this shell (and of the Bash calls after it). Whether the
// directory is inside the working directories is the permission engine's
// call; cd with no argument (home) or - (the previous one) goes somewhere
// the line does not say.
func checkCd(args []shellsyntax.Word) string {
	if why := requireStatic(args); why != "" {
		return why
	}
	dirs := 0
	for _, a := range args {
		switch {
		case a.Value == "-L" || a.Value == "-P" || a.Value == "--":
		case a.Value == "-":
			return "cd - goes to a directory the line does not name"
		case strings.HasPrefix(a.Value, "-"):
			return "cd with the option " + a.Value
		default:
			dirs++
		}
	}
	if dirs != 1 {
		return "cd goes to a directory the line does not name"
	}
	return ""
}

func anyArgs([]shellsyntax.Word) string { return "" }

func noArgs(args []shellsyntax.Word) string {
	if len(args) > 0 {
		return "runs a program through env"
	}
	return ""
}

// requireStatic fails when an argument is only known at run time: for
// programs that have writing options, $x or a glob could expand to one.
func requireStatic(args []shellsyntax.Word) string {
	for _, a := range args {
		if !a.Static {
			return "passes an argument only known at run time (" + a.Value + ")"
		}
	}
	return ""
}

// bannedOptions returns a check that refuses the named options: single
// letters are short options (also inside a cluster such as -ro), longer
// names are long options (also abbreviated, as getopt_long accepts).
// static requires every argument to be static.
func bannedOptions(static bool, banned ...string) argCheck {
	return func(args []shellsyntax.Word) string {
		if static {
			if why := requireStatic(args); why != "" {
				return why
			}
		}
		for _, a := range args {
			if a.Value == "--" {
				break
			}
			if opt := matchOption(a.Value, banned); opt != "" {
				return "uses the writing or executing option " + opt
			}
		}
		return ""
	}
}

// matchOption returns the banned option arg uses, or "".
func matchOption(arg string, banned []string) string {
	switch {
	case strings.HasPrefix(arg, "--") && len(arg) > 2:
		name, _, _ := strings.Cut(arg[2:], "=")
		for _, b := range banned {
			if len(b) > 1 && strings.HasPrefix(b, name) {
				return "--" + b
			}
		}
	case strings.HasPrefix(arg, "-") && len(arg) > 1:
		for _, b := range banned {
			if len(b) == 1 && strings.Contains(arg[1:], b) {
				return "-" + b
			}
		}
	}
	return ""
}

// fromTable checks a program against the programs table: every argument
// static, no option or operand that writes, runs a program or reaches the
// network, and no option the table does not know of a program whose
// options it lists whole.
func fromTable(name string) argCheck {
	return func(args []shellsyntax.Word) string {
		if why := requireStatic(args); why != "" {
			return why
		}
		words := make([]string, 0, len(args)+1)
		words = append(words, name)
		for _, a := range args {
			words = append(words, a.Value)
		}
		return shellprog.Judge(words, nil, shellprog.Everything)
	}
}

// checkDate refuses setting the clock: -s/--set, or an operand that is not
// a +FORMAT (GNU date MMDDhhmm sets the date).
func checkDate(args []shellsyntax.Word) string {
	if why := requireStatic(args); why != "" {
		return why
	}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-d" || v == "--date" || v == "-r" || v == "--reference" || v == "-f" || v == "--file":
			i++
		case strings.HasPrefix(v, "-"):
			if opt := matchOption(v, []string{"s", "set"}); opt != "" {
				return "sets the clock (" + opt + ")"
			}
		case !strings.HasPrefix(v, "+"):
			return "sets the clock (operand " + v + ")"
		}
	}
	return ""
}

// checkHostname allows printing only: an operand or -F/-b sets the name.
func checkHostname(args []shellsyntax.Word) string {
	if why := requireStatic(args); why != "" {
		return why
	}
	for _, a := range args {
		if !strings.HasPrefix(a.Value, "-") {
			return "sets the host name"
		}
		if opt := matchOption(a.Value, []string{"F", "b", "file", "boot"}); opt != "" {
			return "sets the host name (" + opt + ")"
		}
	}
	return ""
}

// gitReaders maps the read-only git subcommands to the check of their
// arguments (after the subcommand). --ext-diff and --textconv run
// programs from git's configuration, so they are not reading. Built at
// the first git check, like allowlist.
var gitReaders = sync.OnceValue(func() map[string]argCheck {
	return map[string]argCheck{
		"status":    anyArgs,
		"log":       gitFromTable("log"),
		"show":      gitFromTable("show"),
		"diff":      gitFromTable("diff"),
		"rev-parse": anyArgs,
		"ls-files":  anyArgs,
		"ls-tree":   anyArgs,
		"blame":     anyArgs,
		"describe":  anyArgs,
		"shortlog":  anyArgs,
		"cat-file":  anyArgs,
		"version":   anyArgs,
		"grep":      gitFromTable("grep"),
		"branch":    checkGitBranchOrTag("d", "D", "m", "M", "c", "C", "f", "u", "delete", "move", "copy", "force", "set-upstream-to", "unset-upstream", "edit-description", "track", "no-track"),
		"tag":       checkGitBranchOrTag("d", "a", "s", "u", "f", "m", "F", "e", "delete", "annotate", "sign", "local-user", "force", "message", "file", "edit"),
		"remote":    checkGitRemote,
		"stash":     checkGitSubcommand("list", "show"),
		"worktree":  checkGitSubcommand("list"),
		"config":    checkGitConfig,
	}
})

// gitFromTable refuses the options of a git subcommand that the
// programs table says write a file or run a program.
//
// The table is read at the first check, not when gitReaders is
// initialised: building it before main cost every start, -p included,
// about 0.25 ms.
func gitFromTable(sub string) argCheck {
	check := sync.OnceValue(func() argCheck {
		return bannedOptions(false, shellprog.Lookup("git "+sub).Spellings(shellprog.WritesPath|shellprog.Writes|shellprog.Runs|shellprog.Network)...)
	})
	return func(args []shellsyntax.Word) string { return check()(args) }
}

// checkGit allows git with global options the programs table finds
// harmless and a read-only subcommand. All arguments must be static: git
// has options that write (--output) or run programs (-c core.pager=…).
func checkGit(args []shellsyntax.Word) string {
	if why := requireStatic(args); why != "" {
		return why
	}
	words := make([]string, 0, len(args)+1)
	words = append(words, "git")
	for _, a := range args {
		words = append(words, a.Value)
	}
	if why := shellprog.Judge(words, nil, shellprog.Everything); why != "" {
		return why
	}
	i := shellprog.GitSubcommand(words, nil)
	if i < 0 {
		return "" // git --version, git -C dir
	}
	check, ok := gitReaders()[words[i]]
	if !ok {
		return "git " + words[i] + " is not a read-only git command"
	}
	return check(args[i:])
}

// checkGitBranchOrTag allows listing: no banned option, and operands only
// as patterns after -l/--list or values of listing filters.
func checkGitBranchOrTag(banned ...string) argCheck {
	return func(args []shellsyntax.Word) string {
		list := false
		operands := 0
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			switch {
			case v == "--":
				operands += len(args) - i - 1
				i = len(args)
			case v == "-l" || v == "--list":
				list = true
			case v == "--contains" || v == "--no-contains" || v == "--merged" ||
				v == "--no-merged" || v == "--points-at" || v == "--sort" || v == "--format":
				i++ // the filter's value
			case strings.HasPrefix(v, "-"):
				if opt := matchOption(v, banned); opt != "" {
					return "changes refs (" + opt + ")"
				}
			default:
				operands++
			}
		}
		if operands > 0 && !list {
			return "creates a ref"
		}
		return ""
	}
}

func checkGitRemote(args []shellsyntax.Word) string {
	for _, a := range args {
		if a.Value != "-v" && a.Value != "--verbose" {
			if a.Value == "get-url" || a.Value == "show" {
				return ""
			}
			return "changes remotes"
		}
	}
	return ""
}

// checkGitSubcommand allows the listed sub-subcommands only (git stash
// list).
func checkGitSubcommand(allowed ...string) argCheck {
	return func(args []shellsyntax.Word) string {
		if len(args) == 0 {
			return "the default action changes the repository"
		}
		for _, a := range allowed {
			if args[0].Value == a {
				return ""
			}
		}
		return "changes the repository (" + args[0].Value + ")"
	}
}

// checkGitConfig allows reading options only.
func checkGitConfig(args []shellsyntax.Word) string {
	reading := false
	for _, a := range args {
		switch a.Value {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l":
			reading = true
		case "--add", "--unset", "--unset-all", "--replace-all", "--edit", "-e",
			"--rename-section", "--remove-section":
			return "changes the configuration"
		}
	}
	if !reading {
		return "may change the configuration"
	}
	return ""
}
