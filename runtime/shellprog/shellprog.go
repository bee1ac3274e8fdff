// Package shellprog is agentcore's one table of what shell programs do
// with their words: for each program it knows, which options take a
// value, and which options and operands read a path, write a path, run a
// program (or code) or reach the network.
//
// The read-only classifier (tooldefs/shell/classify) and the permission
// engine (runtime/permission) both read it, so they cannot disagree about
// the same command: an option the table marks as writing or running makes
// the command not read-only for the one and keeps a prefix allow rule
// from covering it for the other.
//
// A program marked Closed lists every option it has; an option of such a
// program that the table does not list is Unknown, and a caller treats it
// as it would a risky one (the call asks, naming the option). Programs
// not marked Closed list only the options with an effect; their other
// options are taken as harmless, as before.
package shellprog

import (
	"strings"
)

// Effect is what an option or operand does with its value.
type Effect uint8

// The effects. An option may have several.
const (
	// ReadsPath: the value (or operand) is a path the program reads.
	ReadsPath Effect = 1 << iota
	// WritesPath: the value (or operand) is a path the program writes.
	WritesPath
	// Runs: the value is a program, a command line or code the program
	// runs (sort --compress-program, rg --pre, git -c alias.x=!cmd).
	Runs
	// Network: the program reaches the network with this option.
	Network
	// Writes: the program writes files the value does not name (curl -O
	// into the current directory, find -delete).
	Writes
	// RunsCommand: the words after the option are a command the program
	// runs (find -exec); the permission engine judges that command as a
	// command of the line in its own right.
	RunsCommand
)

// Everything is every effect that makes a command not read-only.
const Everything = WritesPath | Runs | Network | Writes | RunsCommand

// Risky reports whether e writes, runs or reaches the network.
func (e Effect) Risky() bool { return e&Everything != 0 }

// String names the effects for messages: "writes a file", "runs a
// program".
func (e Effect) String() string {
	var parts []string
	if e&WritesPath != 0 || e&Writes != 0 {
		parts = append(parts, "writes files")
	}
	if e&(Runs|RunsCommand) != 0 {
		parts = append(parts, "runs a program")
	}
	if e&Network != 0 {
		parts = append(parts, "reaches the network")
	}
	if e&ReadsPath != 0 && len(parts) == 0 {
		parts = append(parts, "reads a file")
	}
	return strings.Join(parts, " and ")
}

// Option is one option of a program: its spellings ("-o", "--output";
// find's primaries are spelled "-exec"), whether it takes a value, and
// what it does.
type Option struct {
	Names []string
	// Value: the option takes a value (attached or the next word).
	Value bool
	// Attached: the option takes a value only when attached (sed
	// -i.bak, --in-place=.bak).
	Attached bool
	Effect   Effect
	// Only, when set, limits Effect to values that start with one of
	// these (case-insensitive): ssh -o ProxyCommand=….
	Only []string
	// Except, when set, lifts Effect from values that start with one of
	// these (case-insensitive): git -c color.ui=never.
	Except []string
}

// EffectOf is the effect of the option with this value.
func (o *Option) EffectOf(value string) Effect {
	v := strings.ToLower(value)
	if len(o.Only) > 0 && !hasAnyPrefix(v, o.Only) {
		return 0
	}
	if hasAnyPrefix(v, o.Except) {
		return 0
	}
	return o.Effect
}

func hasAnyPrefix(v string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// Program is what the table knows of one program (or of one git
// subcommand, keyed "git grep").
type Program struct {
	// Options are the options the table knows.
	Options []Option
	// Closed says Options lists every option: any other is Unknown.
	Closed bool
	// Operands is what every operand does (cat: ReadsPath).
	Operands Effect
	// OperandEffects, when set, gives the effect of the operand at each
	// position (0 is the first operand); operands beyond it have
	// Operands (uniq: the second operand is written).
	OperandEffects []Effect
	// PlusRuns: an operand "+cmd" is a command the program runs (vim,
	// less).
	PlusRuns bool
	// Self is what running the program does at all (curl: Network); a
	// rule that allows the program allows it, so Judgement ignores it.
	Self Effect
	// StopAtOperand: options end at the first operand (git's global
	// options before the subcommand, xargs before the command).
	StopAtOperand bool
	// LongSingleDash is set for programs whose long options have one
	// dash (find's -exec): no short-option clusters.
	LongSingleDash bool
	// Note explains an effect the table cannot express as options (sed's
	// w command, awk's system()); callers read the code themselves.
	Note string

	byName map[string]*Option
}

// Use is one option found on a command line.
type Use struct {
	// Option is the table's entry; nil when Unknown.
	Option *Option
	// Name is the option as written, without its value ("--output").
	Name string
	// Value is the option's value, attached or the next word.
	Value string
	// ValueIdx is the index of the value's word, or -1 when attached.
	ValueIdx int
	// Idx is the index of the word the option is in.
	Idx int
	// Unknown: the program is Closed and does not have this option.
	Unknown bool
}

// Scan is a command line read with the table.
type Scan struct {
	// Uses are the options, in order.
	Uses []Use
	// Operands are the indices of the operands.
	Operands []int
}

// Lookup returns the table's entry for a program name (a base name, or
// "git <subcommand>"), or nil.
func Lookup(name string) *Program { return table()[name] }

// Judge reads a command (words[0] is the program, by name or path) with
// the table and returns why it is not harmless: an option or operand that
// runs a program or reaches the network, or an unknown option of a
// Closed program. mask says which effects count (Everything for a
// read-only verdict). For git it judges the global options and then the
// subcommand's. "" when the table finds nothing (or does not know the
// program).
func Judge(words []string, literal []bool, mask Effect) string {
	if len(words) == 0 {
		return ""
	}
	name := words[0]
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	p := table()[name]
	if p == nil {
		return ""
	}
	s := p.Read(words, literal)
	if why := p.judge(name, words, s, mask); why != "" {
		return why
	}
	if name == "git" && len(s.Operands) > 0 {
		sub := s.Operands[0]
		if words[sub] == "config" && mask&Runs != 0 {
			if why := gitConfigSets(words[sub:], literal); why != "" {
				return why
			}
		}
		if sp := table()["git "+words[sub]]; sp != nil {
			var lit []bool
			if sub < len(literal) {
				lit = literal[sub:]
			}
			return sp.judge("git "+words[sub], words[sub:], sp.Read(words[sub:], lit), mask)
		}
	}
	return ""
}

// GitSubcommand returns the index of git's subcommand in words (after
// the global options), or -1.
func GitSubcommand(words []string, literal []bool) int {
	s := table()["git"].Read(words, literal)
	if len(s.Operands) == 0 {
		return -1
	}
	return s.Operands[0]
}

// option finds an option by a spelling as written (without "=value").
// Long options match an unambiguous abbreviation, as getopt_long
// accepts; ambiguous abbreviations match the first risky candidate.
func (p *Program) option(name string) *Option {
	if o, ok := p.byName[name]; ok {
		return o
	}
	long := strings.HasPrefix(name, "--") || (p.LongSingleDash && len(name) > 2)
	if !long {
		return nil
	}
	var found *Option
	for i := range p.Options {
		o := &p.Options[i]
		for _, n := range o.Names {
			if len(n) > len(name) && strings.HasPrefix(n, name) && (strings.HasPrefix(n, "--") || p.LongSingleDash) {
				if found == nil || (o.Effect.Risky() && !found.Effect.Risky()) {
					found = o
				}
			}
		}
	}
	return found
}

// Read scans the words of a command (words[0] is the program) with the
// table: options GNU-style (clusters of short options, --name=value,
// "--" ends them), operands by index. literal[i] false marks a word only
// known at run time: it counts as an operand. A nil p reads every word
// as an operand.
func (p *Program) Read(words []string, literal []bool) Scan {
	var s Scan
	if p == nil {
		for i := 1; i < len(words); i++ {
			s.Operands = append(s.Operands, i)
		}
		return s
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--" && !p.LongSingleDash:
			for j := i + 1; j < len(words); j++ {
				s.Operands = append(s.Operands, j)
			}
			return s
		case p == nil || (i < len(literal) && !literal[i]) || !strings.HasPrefix(w, "-") || w == "-":
			s.Operands = append(s.Operands, i)
			if p != nil && p.StopAtOperand {
				for j := i + 1; j < len(words); j++ {
					s.Operands = append(s.Operands, j)
				}
				return s
			}
		case strings.HasPrefix(w, "--") || p.LongSingleDash:
			name, val, hasVal := strings.Cut(w, "=")
			o := p.option(name)
			u := Use{Option: o, Name: name, Value: val, ValueIdx: -1, Idx: i, Unknown: o == nil && p.Closed}
			if o != nil && o.Value && !hasVal && i+1 < len(words) {
				i++
				u.Value, u.ValueIdx = words[i], i
			}
			if o != nil || p.Closed {
				s.Uses = append(s.Uses, u)
			}
		default:
			if name, val, hasVal := strings.Cut(w, "="); len(name) > 2 && p.byName[name] != nil {
				// A multi-letter option with one dash (zip -TT, xxd -cols).
				o := p.byName[name]
				u := Use{Option: o, Name: name, Value: val, ValueIdx: -1, Idx: i}
				if o.Value && !hasVal && i+1 < len(words) {
					i++
					u.Value, u.ValueIdx = words[i], i
				}
				s.Uses = append(s.Uses, u)
				continue
			}
			for k := 1; k < len(w); k++ {
				name := "-" + w[k:k+1]
				o := p.byName[name]
				u := Use{Option: o, Name: name, ValueIdx: -1, Idx: i, Unknown: o == nil && p.Closed}
				if o != nil && o.Attached {
					u.Value = w[k+1:]
					s.Uses = append(s.Uses, u)
					break
				}
				if o != nil && o.Value {
					if k+1 < len(w) {
						u.Value = w[k+1:]
					} else if i+1 < len(words) {
						i++
						u.Value, u.ValueIdx = words[i], i
					}
					s.Uses = append(s.Uses, u)
					break
				}
				if o != nil || p.Closed {
					s.Uses = append(s.Uses, u)
				}
			}
		}
	}
	return s
}

// OperandEffect is the effect of the n-th operand (0-based).
func (p *Program) OperandEffect(n int) Effect {
	if p == nil {
		return 0
	}
	if n < len(p.OperandEffects) {
		return p.OperandEffects[n]
	}
	return p.Operands
}

// judge is why a command is not harmless by the table: the first risky
// (by mask) or unknown option or operand, or "" when there is none.
func (p *Program) judge(name string, words []string, s Scan, mask Effect) string {
	for _, u := range s.Uses {
		switch {
		case u.Unknown:
			return "the option " + u.Name + " of " + name + ", which agentcore could not judge"
		case u.Option != nil && u.Option.EffectOf(u.Value)&mask != 0:
			return name + " " + u.Option.spelled(u.Name) + " " + u.Option.Effect.String()
		}
	}
	for n, i := range s.Operands {
		if p.PlusRuns && strings.HasPrefix(words[i], "+") {
			return name + " " + words[i] + " runs a command"
		}
		if e := p.OperandEffect(n); e&mask != 0 {
			return name + "'s operand " + ordinal(n) + " " + e.String()
		}
	}
	return ""
}

func ordinal(n int) string {
	switch n {
	case 0:
		return "1"
	case 1:
		return "2"
	case 2:
		return "3"
	}
	return "n"
}

// WithValue renders the spellings of p's options that take a value as
// "|-o|--output|", the form runtime/permission's argument parser takes.
func (p *Program) WithValue() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("|")
	for _, o := range p.Options {
		if o.Value {
			for _, n := range o.Names {
				b.WriteString(n)
				b.WriteString("|")
			}
		}
	}
	return b.String()
}

// Spellings returns the spellings of p's options with any of the effects
// in mask, without dashes ("o", "output"), for checks that take option
// names.
func (p *Program) Spellings(mask Effect) []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, o := range p.Options {
		if o.Effect&mask != 0 {
			for _, n := range o.Names {
				out = append(out, strings.TrimLeft(n, "-"))
			}
		}
	}
	return out
}

// Has reports whether name (a spelling such as "-exec") is one of p's
// options with any of the effects in mask.
func (p *Program) Has(name string, mask Effect) bool {
	if p == nil {
		return false
	}
	o := p.option(name)
	return o != nil && o.Effect&mask != 0
}

// gitConfigSets judges "git config …" (words[0] is "config"): setting a
// key that is not one of gitConfigSafe (alias.x, core.pager,
// core.sshCommand, core.hooksPath, filter.*…) makes git run a program
// later, so it counts as running one now.
func gitConfigSets(words []string, literal []bool) string {
	var ops []string
	for _, w := range words[1:] {
		switch {
		case w == "--get" || w == "--get-all" || w == "--get-regexp" || w == "--list" || w == "-l" ||
			w == "--get-urlmatch" || w == "get" || w == "list" || w == "--unset" || w == "--unset-all" || w == "unset":
			return ""
		case strings.HasPrefix(w, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && ops[0] == "set" {
		ops = ops[1:]
	}
	if len(ops) < 2 {
		return ""
	}
	key := strings.ToLower(ops[0]) + "="
	if hasAnyPrefix(key, gitConfigSafe) {
		return ""
	}
	return "git config " + ops[0] + " sets a key that can make git run a program"
}

// GitConfigKeySafe reports whether setting the git configuration key
// (any case) can neither run a program nor write a file: user.name,
// color.*… (gitConfigSafe). alias.*, core.hooksPath, core.fsmonitor,
// core.pager and every key not listed can.
func GitConfigKeySafe(key string) bool {
	return hasAnyPrefix(strings.ToLower(key)+"=", gitConfigSafe)
}

// spelled names the option as written and, when written abbreviated,
// the option it stands for: "--outp (--output)".
func (o *Option) spelled(written string) string {
	for _, n := range o.Names {
		if n == written {
			return written
		}
	}
	for _, n := range o.Names {
		if strings.HasPrefix(n, written) {
			return written + " (" + n + ")"
		}
	}
	return written
}
