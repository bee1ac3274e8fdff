package gnu

import (
	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// Argument kinds of an option, as getopt_long has them.
const (
	noArg = iota
	requiredArg
	optionalArg
)

// option is one option a program accepts.
type option struct {
	long  string // without the leading --; "" for a short-only option
	short byte   // 0 for a long-only option
	arg   int
	id    string // what the program switches on (the long name, or the short letter)
}

// given is one option as found on the command line.
type given struct {
	opt    *option
	arg    string
	hasArg bool
	// as is how it was written, for messages: "-e" or "--regexp".
	as string
}

// getoptError is a usage error in glibc getopt's words.
type getoptError struct{ msg string }

func (e *getoptError) Error() string { return e.msg }

// getopt parses args the way glibc's getopt_long does for GNU programs:
// short options cluster (-rni), a short option's argument may be attached
// (-A2, -efoo) or the next word, long options take --name=value or
// --name value and may be abbreviated to any unambiguous prefix, options
// and operands may be mixed (unless POSIXLY_CORRECT is set) and -- ends
// the options. Digits are returned as one "digits" option per run of
// digits, for grep's -NUM.
func getopt(prog string, args []string, opts []option, digits bool, posixlyCorrect bool) ([]given, []string, error) {
	shorts := map[byte]*option{}
	for i := range opts {
		if opts[i].short != 0 {
			shorts[opts[i].short] = &opts[i]
		}
	}
	digitOpt := &option{id: "digits", arg: requiredArg}
	var out []given
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if posixlyCorrect {
				operands = append(operands, args[i:]...)
				break
			}
			operands = append(operands, a)
			continue
		}
		if lite.HasPrefix(a, "--") {
			g, used, err := longOption(prog, a, args[i+1:], opts)
			if err != nil {
				return nil, nil, err
			}
			i += used
			out = append(out, g)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if digits && c >= '0' && c <= '9' {
				k := j
				for k < len(a) && a[k] >= '0' && a[k] <= '9' {
					k++
				}
				out = append(out, given{opt: digitOpt, arg: a[j:k], hasArg: true, as: "-" + a[j:k]})
				j = k - 1
				continue
			}
			o := shorts[c]
			if o == nil {
				return nil, nil, &getoptError{prog + ": invalid option -- '" + string(rune(c)) + "'"}
			}
			g := given{opt: o, as: "-" + string(c)}
			if o.arg == noArg {
				out = append(out, g)
				continue
			}
			if j+1 < len(a) {
				g.arg, g.hasArg = a[j+1:], true
			} else if o.arg == requiredArg {
				if i+1 >= len(args) {
					return nil, nil, &getoptError{prog + ": option requires an argument -- '" + string(rune(c)) + "'"}
				}
				i++
				g.arg, g.hasArg = args[i], true
			}
			out = append(out, g)
			break
		}
	}
	return out, operands, nil
}

// longOption parses one --name[=value] word; used is how many of the
// following words it took.
func longOption(prog, a string, rest []string, opts []option) (given, int, error) {
	body := a[2:]
	name, value, hasValue := lite.Cut(body, "=")
	var exact *option
	var cands []*option
	for i := range opts {
		o := &opts[i]
		if o.long == "" {
			continue
		}
		if o.long == name {
			exact = o
			break
		}
		if lite.HasPrefix(o.long, name) {
			cands = append(cands, o)
		}
	}
	o := exact
	if o == nil {
		switch {
		case len(cands) == 0:
			return given{}, 0, &getoptError{prog + ": unrecognized option '" + a + "'"}
		case len(cands) > 1 && !sameOption(cands):
			msg := prog + ": option '--" + body + "' is ambiguous; possibilities:"
			for _, c := range cands {
				msg += " '--" + c.long + "'"
			}
			return given{}, 0, &getoptError{msg}
		}
		o = cands[0]
	}
	g := given{opt: o, as: "--" + o.long}
	switch o.arg {
	case noArg:
		if hasValue {
			return given{}, 0, &getoptError{prog + ": option '--" + o.long + "' doesn't allow an argument"}
		}
	case optionalArg:
		g.arg, g.hasArg = value, hasValue
	case requiredArg:
		if hasValue {
			g.arg, g.hasArg = value, true
		} else {
			if len(rest) == 0 {
				return given{}, 0, &getoptError{prog + ": option '--" + o.long + "' requires an argument"}
			}
			g.arg, g.hasArg = rest[0], true
			return g, 1, nil
		}
	}
	return g, 0, nil
}

// sameOption reports whether all candidates of an abbreviation mean the
// same thing (getopt_long then takes the first: --fixed is -F either way).
func sameOption(cands []*option) bool {
	for _, c := range cands[1:] {
		if c.id != cands[0].id || c.arg != cands[0].arg {
			return false
		}
	}
	return true
}
