package gnu

import (
	"io"
	"os"
	"strconv"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// Binary file handling (--binary-files).
const (
	binaryBinary = iota
	binaryText
	binaryWithoutMatch
)

// Directory and device handling (-d, -D).
const (
	dirRead = iota
	dirSkip
	dirRecurse

	devReadCommandLine = iota
	devRead
	devSkip
)

// List modes (-l, -L).
const (
	listNone = iota
	listMatching
	listNonMatching
)

// grepConfig is a parsed grep command line.
type grepConfig struct {
	kind                     Syntax
	patterns                 []string
	ignoreCase               bool
	wordRegexp, lineRegexp   bool
	invert                   bool
	count, quiet             bool
	onlyMatching, lineNum    bool
	listFiles                int
	filenameOption           int // -1 -h, 0 unset, 1 -H
	before, after            int64
	maxCount                 int64
	binaryFiles              int
	directories, devices     int
	deref                    bool
	include                  [2]excludeSet // [0] recursion (base names), [1] command line
	excludeDir               [2]excludeSet
	suppressErrors           bool
	nullName                 bool
	label                    string
	groupSep                 *string
	lineBuffered             bool
	utf8                     bool
	operands                 []string
	noOperands               bool // search "." (with -r) or stdin
	posixly                  bool
	warnings                 []string
	doneOnMatch, outQuiet    bool
	exitOnMatch              bool
	matcherName              string // for "conflicting matchers specified"
	zeroPatternsMatchNothing bool
}

// grepOptions are GNU grep 3.8's options; the ones agentcore's grep does
// not implement are in grepUnsupported.
var grepOptions = []option{
	{"extended-regexp", 'E', noArg, "E"},
	{"fixed-strings", 'F', noArg, "F"},
	{"fixed-regexp", 0, noArg, "F"},
	{"basic-regexp", 'G', noArg, "G"},
	{"perl-regexp", 'P', noArg, "P"},
	{"regexp", 'e', requiredArg, "e"},
	{"file", 'f', requiredArg, "f"},
	{"ignore-case", 'i', noArg, "i"},
	{"", 'y', noArg, "i"},
	{"no-ignore-case", 0, noArg, "no-ignore-case"},
	{"word-regexp", 'w', noArg, "w"},
	{"line-regexp", 'x', noArg, "x"},
	{"null-data", 'z', noArg, "z"},
	{"no-messages", 's', noArg, "s"},
	{"invert-match", 'v', noArg, "v"},
	{"version", 'V', noArg, "V"},
	{"help", 0, noArg, "help"},
	{"max-count", 'm', requiredArg, "m"},
	{"byte-offset", 'b', noArg, "b"},
	{"line-number", 'n', noArg, "n"},
	{"line-buffered", 0, noArg, "line-buffered"},
	{"with-filename", 'H', noArg, "H"},
	{"no-filename", 'h', noArg, "h"},
	{"label", 0, requiredArg, "label"},
	{"only-matching", 'o', noArg, "o"},
	{"quiet", 'q', noArg, "q"},
	{"silent", 0, noArg, "q"},
	{"binary-files", 0, requiredArg, "binary-files"},
	{"text", 'a', noArg, "a"},
	{"", 'I', noArg, "I"},
	{"directories", 'd', requiredArg, "d"},
	{"devices", 'D', requiredArg, "D"},
	{"recursive", 'r', noArg, "r"},
	{"dereference-recursive", 'R', noArg, "R"},
	{"include", 0, requiredArg, "include"},
	{"exclude", 0, requiredArg, "exclude"},
	{"exclude-from", 0, requiredArg, "exclude-from"},
	{"exclude-dir", 0, requiredArg, "exclude-dir"},
	{"files-without-match", 'L', noArg, "L"},
	{"files-with-matches", 'l', noArg, "l"},
	{"count", 'c', noArg, "c"},
	{"initial-tab", 'T', noArg, "T"},
	{"null", 'Z', noArg, "Z"},
	{"before-context", 'B', requiredArg, "B"},
	{"after-context", 'A', requiredArg, "A"},
	{"context", 'C', requiredArg, "C"},
	{"group-separator", 0, requiredArg, "group-separator"},
	{"no-group-separator", 0, noArg, "no-group-separator"},
	{"color", 0, optionalArg, "color"},
	{"colour", 0, optionalArg, "color"},
	{"binary", 'U', noArg, "U"},
	{"unix-byte-offsets", 'u', noArg, "u"},
	{"", 'X', requiredArg, "X"},
}

// grepUnsupported names the GNU options agentcore's grep refuses, long
// name first.
var grepUnsupported = map[string]string{
	"P": "--perl-regexp (-P)",
	"z": "--null-data (-z)",
	"b": "--byte-offset (-b)",
	"T": "--initial-tab (-T)",
	"u": "--unix-byte-offsets (-u)",
	"X": "-X MATCHER",
}

const grepUsage = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n"

// exitError ends a program with a status and a message for stderr.
type exitError struct {
	code int
	msg  string // without the "grep: " prefix; "" for none
	// usage adds the short usage text after the message.
	usage bool
}

func (e *exitError) Error() string { return e.msg }

// trouble is an error message with grep's status 2.
func trouble(msg string) *exitError {
	return &exitError{code: 2, msg: msg}
}

// parseGrep reads a grep command line (without the program name);
// noStdinPatterns stops it, with errLater, before it reads a -f - or an
// --exclude-from=- from standard input.
func parseGrep(args []string, env func(string) string, noStdinPatterns bool) (*grepConfig, error) {
	c := &grepConfig{before: -1, after: -1, maxCount: -1, label: "(standard input)", utf8: find.UTF8Locale(env)}
	sep := "--"
	c.groupSep = &sep
	c.posixly = env("POSIXLY_CORRECT") != ""
	opts, operands, err := getopt("grep", args, grepOptions, true, c.posixly)
	if err != nil {
		return nil, &exitError{code: 2, msg: lite.TrimPrefix(err.Error(), "grep: "), usage: true}
	}
	var keys []string
	keysGiven := false
	defaultContext := int64(-1)
	for _, g := range opts {
		id := g.opt.id
		if what, ok := grepUnsupported[id]; ok {
			return nil, trouble("agentcore's embedded grep does not support " + what + "; " + unsupportedHint(id))
		}
		switch id {
		case "digits":
			n, err := contextArg(g.arg)
			if err != nil {
				return nil, err
			}
			defaultContext = n
		case "A", "B", "C":
			n, err := contextArg(g.arg)
			if err != nil {
				return nil, err
			}
			switch id {
			case "A":
				c.after = n
			case "B":
				c.before = n
			default:
				defaultContext = n
			}
		case "E", "F", "G":
			name := map[string]string{"E": "egrep", "F": "fgrep", "G": "grep"}[id]
			if c.matcherName != "" && c.matcherName != name {
				return nil, trouble("conflicting matchers specified")
			}
			c.matcherName = name
			c.kind = map[string]Syntax{"E": Extended, "F": Fixed, "G": Basic}[id]
		case "e":
			keys = append(keys, g.arg)
			keysGiven = true
		case "f":
			if g.arg == "-" && noStdinPatterns {
				return nil, errLater
			}
			data, err := readPatternFile(g.arg)
			if err != nil {
				return nil, trouble(g.arg + ": " + find.ErrnoText(err))
			}
			if data != "" {
				keys = append(keys, lite.TrimSuffix(data, "\n"))
			}
			keysGiven = true
		case "i":
			c.ignoreCase = true
		case "no-ignore-case":
			c.ignoreCase = false
		case "w":
			c.wordRegexp = true
		case "x":
			c.lineRegexp = true
		case "s":
			c.suppressErrors = true
		case "v":
			c.invert = true
		case "V":
			return nil, &exitError{code: -1, msg: "version"}
		case "help":
			return nil, &exitError{code: -1, msg: "help"}
		case "m":
			n, err := strconv.ParseInt(g.arg, 10, 64)
			if err != nil {
				if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
					n = 1<<63 - 1
				} else {
					return nil, trouble("invalid max count")
				}
			}
			c.maxCount = n
		case "n":
			c.lineNum = true
		case "line-buffered":
			c.lineBuffered = true
		case "H":
			c.filenameOption = 1
		case "h":
			c.filenameOption = -1
		case "label":
			c.label = g.arg
		case "o":
			c.onlyMatching = true
		case "q":
			c.exitOnMatch = true
		case "binary-files":
			switch g.arg {
			case "binary":
				c.binaryFiles = binaryBinary
			case "text":
				c.binaryFiles = binaryText
			case "without-match":
				c.binaryFiles = binaryWithoutMatch
			default:
				return nil, trouble("unknown binary-files type")
			}
		case "a":
			c.binaryFiles = binaryText
		case "I":
			c.binaryFiles = binaryWithoutMatch
		case "d":
			switch g.arg {
			case "read":
				c.directories = dirRead
			case "skip":
				c.directories = dirSkip
			case "recurse":
				c.directories = dirRecurse
			default:
				q := find.Quoter(c.utf8).Quote
				return nil, &exitError{code: 2, usage: true, msg: "invalid argument " + q(g.arg) + " for " + q("--directories") +
					"\nValid arguments are:\n  - " + q("read") + "\n  - " + q("recurse") + "\n  - " + q("skip")}
			}
		case "D":
			switch g.arg {
			case "read":
				c.devices = devRead
			case "skip":
				c.devices = devSkip
			default:
				return nil, trouble("unknown devices method")
			}
		case "r":
			c.directories = dirRecurse
			c.deref = false
		case "R":
			c.directories = dirRecurse
			c.deref = true
		case "include", "exclude":
			for cmd := 0; cmd < 2; cmd++ {
				c.include[cmd].add(g.arg, id == "include", c.utf8)
			}
		case "exclude-from":
			if g.arg == "-" && noStdinPatterns {
				return nil, errLater
			}
			data, err := readPatternFile(g.arg)
			if err != nil {
				return nil, trouble(g.arg + ": " + find.ErrnoText(err))
			}
			for _, p := range lite.Split(lite.TrimSuffix(data, "\n"), "\n") {
				if p == "" && data == "" {
					break
				}
				for cmd := 0; cmd < 2; cmd++ {
					c.include[cmd].add(p, false, c.utf8)
				}
			}
		case "exclude-dir":
			p := lite.TrimSlashes(g.arg)
			if p == "" {
				p = g.arg
			}
			for cmd := 0; cmd < 2; cmd++ {
				c.excludeDir[cmd].add(p, false, c.utf8)
			}
		case "L":
			c.listFiles = listNonMatching
		case "l":
			c.listFiles = listMatching
		case "c":
			c.count = true
		case "Z":
			c.nullName = true
		case "group-separator":
			s := g.arg
			c.groupSep = &s
		case "no-group-separator":
			c.groupSep = nil
		case "color":
			switch g.arg {
			case "", "never", "no", "none", "auto", "tty", "if-tty":
				// No color: agentcore's grep writes plain text (auto means
				// never unless stdout is a terminal, and it never colors).
				if g.hasArg && g.arg == "" {
					q := find.Quoter(c.utf8).Quote
					return nil, trouble("invalid argument " + q("") + " for " + q("--color"))
				}
			case "always", "yes", "force":
				return nil, trouble("agentcore's embedded grep does not support --color=" + g.arg + "; it writes plain text, use --color=never")
			default:
				q := find.Quoter(c.utf8).Quote
				return nil, &exitError{code: 2, usage: true, msg: "invalid argument " + q(g.arg) + " for " + q("--color") +
					"\nValid arguments are:\n  - " + q("always") + ", " + q("yes") + ", " + q("force") +
					"\n  - " + q("never") + ", " + q("no") + ", " + q("none") +
					"\n  - " + q("auto") + ", " + q("tty") + ", " + q("if-tty")}
			}
		case "U":
			// --binary: no effect on POSIX systems.
		}
	}
	if defaultContext >= 0 {
		if c.after < 0 {
			c.after = defaultContext
		}
		if c.before < 0 {
			c.before = defaultContext
		}
	}
	if !keysGiven {
		if len(operands) == 0 {
			return nil, &exitError{code: 2, usage: true}
		}
		keys = append(keys, operands[0])
		operands = operands[1:]
	}
	if len(keys) == 0 {
		// No patterns at all (-f /dev/null): match nothing, which GNU
		// grep does by inverting an empty pattern.
		c.invert = !c.invert
		c.wordRegexp, c.lineRegexp = false, false
		c.patterns = []string{""}
	} else {
		c.patterns = lite.Split(lite.Join(keys, "\n"), "\n")
	}
	c.operands = operands
	// -q overrides -l and -L, which override -c.
	if c.exitOnMatch {
		c.listFiles = listNone
	}
	if c.exitOnMatch || c.listFiles != listNone {
		c.count = false
		c.doneOnMatch = true
	}
	c.outQuiet = c.count || c.doneOnMatch
	if c.quiet = c.exitOnMatch; c.quiet {
		c.suppressErrors = c.suppressErrors || false
	}
	return c, nil
}

func unsupportedHint(id string) string {
	switch id {
	case "P":
		return "use -E: its extended regular expressions are translated to Go's RE2, which has \\d, \\w, \\s and non-greedy *? but no look-around or back-references"
	case "z":
		return "it searches newline-terminated lines only"
	case "b":
		return "use -n for line numbers"
	case "T":
		return "leave it out: the output is the same without the alignment"
	}
	return "leave it out"
}

// contextArg parses a context length (-A, -B, -C, -NUM).
func contextArg(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !lite.HasPrefix(s, "-") {
			return 1<<63 - 1, nil
		}
		return 0, trouble(s + ": invalid context length argument")
	}
	if n < 0 {
		return 0, trouble(s + ": invalid context length argument")
	}
	return n, nil
}

func readPatternFile(name string) (string, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	return string(data), err
}

// excludeSet is a list of --include/--exclude patterns with gnulib
// exclude's semantics: the last pattern that matches decides; when none
// matches, a name is excluded exactly when the first option was an
// --include.
type excludeSet struct {
	pats []excludePat
}

type excludePat struct {
	g       *find.Glob
	include bool
}

func (x *excludeSet) add(p string, include, utf8Mode bool) {
	x.pats = append(x.pats, excludePat{g: find.CompileGlob(p, false, utf8Mode), include: include})
}

func (x *excludeSet) empty() bool { return len(x.pats) == 0 }

// excluded applies the set to name: the whole name when anchored (a base
// name met while recursing), else also every suffix that follows a /
// (a command-line operand).
func (x *excludeSet) excluded(name string, anchored bool) bool {
	if len(x.pats) == 0 {
		return false
	}
	for i := len(x.pats) - 1; i >= 0; i-- {
		if x.pats[i].matches(name, anchored) {
			return !x.pats[i].include
		}
	}
	return x.pats[0].include
}

func (p excludePat) matches(name string, anchored bool) bool {
	if p.g.Match(name) {
		return true
	}
	if anchored {
		return false
	}
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '/' && name[i+1] != '/' && p.g.Match(name[i+1:]) {
			return true
		}
	}
	return false
}
