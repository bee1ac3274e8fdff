package permission

import (
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// This file follows the working directory through a line, so that the
// relative paths of each command are judged against the directories it
// can really run in: "mkdir -p a/b && cd a && touch b/x && cd .." writes
// a/b/x, not ../b/x. The flow is followed through lists, && and ||,
// pipelines, subshells and groups; a cd, pushd or popd anywhere else (a
// loop, an if, a function, a substitution, behind a wrapper), a target
// that is not literal, cd - with no known previous directory and pushd's
// stack rotations stop it, and the line falls back to cwdsOf's superset
// (every command may run in every directory any cd leads to).

// cwdState is one way the shell may be when a command runs.
type cwdState struct {
	// cwd is the directory, cleaned as cd -L leaves $PWD (or not, after
	// cd -P: "link/.." is then resolved as the kernel does).
	cwd string
	// old is $OLDPWD, "" when unknown (before the line's first cd).
	old string
	// stack is pushd's stack, its top last.
	stack []string
}

func (s cwdState) key() string {
	return s.cwd + "\x00" + s.old + "\x00" + strings.Join(s.stack, "\x00")
}

// cwdFlow is the result of following a line: the directories each
// statement (and so its command and redirections) may run in.
type cwdFlow struct {
	env shellEnv
	// cds are the line's cd, pushd and popd calls, as read.
	cds map[*syntax.CallExpr]shellCmd
	// at are the directories each statement may start in.
	at map[*syntax.Stmt][]string
	// redirs are the directories each redirection may be opened in.
	redirs map[*syntax.Redirect][]string
	failed bool
}

// followCwds follows the directory through f. It returns nil when the
// line has no directory change (every command runs in env.cwds) or when
// the analysis cannot follow one.
func followCwds(f *syntax.File, cmds []shellsyntax.SimpleCommand, read []shellCmd, env shellEnv) *cwdFlow {
	if env.cwds == nil || f == nil {
		return nil
	}
	fl := &cwdFlow{env: env, cds: map[*syntax.CallExpr]shellCmd{}, at: map[*syntax.Stmt][]string{}, redirs: map[*syntax.Redirect][]string{}}
	any := false
	for i, sc := range cmds {
		if !slices.ContainsFunc(read[i].words, isCdWord) {
			continue
		}
		for k, form := range unwrapSeq(read[i]) {
			if len(form.words) == 0 || !isCdWord(form.words[0]) {
				continue
			}
			// A cd behind a wrapper (command cd, builtin cd…) or a
			// name that is not literal: not followed.
			if k > 0 || !form.literal[0] || sc.Call == nil {
				return nil
			}
			fl.cds[sc.Call] = form
			any = true
		}
	}
	if !any {
		return nil
	}
	in := make([]cwdState, 0, len(env.cwds))
	for _, d := range env.cwds {
		in = append(in, cwdState{cwd: d})
	}
	fl.stmts(f.Stmts, in)
	if fl.failed {
		return nil
	}
	return fl
}

// cwdsFor returns the directories statement s may run in; ok is false
// when the flow did not reach it.
func (fl *cwdFlow) cwdsFor(s *syntax.Stmt) ([]string, bool) {
	if fl == nil || s == nil {
		return nil, false
	}
	d, ok := fl.at[s]
	return d, ok
}

func union(a, b []cwdState) []cwdState {
	out := make([]cwdState, 0, len(a)+len(b))
	seen := map[string]bool{}
	for _, l := range [][]cwdState{a, b} {
		for _, s := range l {
			if k := s.key(); !seen[k] {
				seen[k] = true
				out = append(out, s)
			}
		}
	}
	return out
}

func (fl *cwdFlow) mark(s *syntax.Stmt, in []cwdState) {
	d := fl.at[s]
	for _, st := range in {
		if !slices.Contains(d, st.cwd) {
			d = append(d, st.cwd)
		}
	}
	fl.at[s] = d
	for _, r := range s.Redirs {
		fl.redirs[r] = d
	}
}

// flat marks every statement under n as starting in the states in, which
// holds when none of them changes directory; one that does stops the
// flow.
func (fl *cwdFlow) flat(n syntax.Node, in []cwdState) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			fl.mark(n, in)
		case *syntax.CallExpr:
			if _, ok := fl.cds[n]; ok {
				fl.failed = true
			}
		}
		return !fl.failed
	})
}

// stmts follows a list; it returns the states after its last statement
// succeeded and failed.
func (fl *cwdFlow) stmts(list []*syntax.Stmt, in []cwdState) (ok, ko []cwdState) {
	ok, ko = in, nil
	cur := in
	for _, s := range list {
		ok, ko = fl.stmt(s, cur)
		cur = union(ok, ko)
	}
	return ok, ko
}

func (fl *cwdFlow) stmt(s *syntax.Stmt, in []cwdState) (ok, ko []cwdState) {
	if fl.failed {
		return in, in
	}
	if len(in) > maxCwds {
		fl.failed = true
		return in, in
	}
	fl.mark(s, in)
	for _, r := range s.Redirs {
		fl.flat(r, in)
	}
	if s.Background || s.Coprocess {
		// Runs in a subshell: the line's directory does not change.
		fl.flat(s.Cmd, in)
		return in, in
	}
	ok, ko = fl.command(s.Cmd, in)
	if s.Negated {
		ok, ko = ko, ok
	}
	return ok, ko
}

func (fl *cwdFlow) command(c syntax.Command, in []cwdState) (ok, ko []cwdState) {
	switch c := c.(type) {
	case nil:
		return in, in
	case *syntax.CallExpr:
		if form, isCd := fl.cds[c]; isCd {
			return fl.cd(form, in)
		}
		fl.flat(c, in)
		return in, in
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			lo, lk := fl.stmt(c.X, in)
			ro, rk := fl.stmt(c.Y, lo)
			return ro, union(lk, rk)
		case syntax.OrStmt:
			lo, lk := fl.stmt(c.X, in)
			ro, rk := fl.stmt(c.Y, lk)
			return union(lo, ro), rk
		default:
			// A pipeline: each part runs in a subshell, the last one
			// perhaps in the shell itself (shopt -s lastpipe).
			fl.stmt(c.X, in)
			yo, yk := fl.stmt(c.Y, in)
			return union(in, yo), union(in, yk)
		}
	case *syntax.Subshell:
		fl.stmts(c.Stmts, in)
		return in, in
	case *syntax.Block:
		return fl.stmts(c.Stmts, in)
	default:
		// if, case, loops, functions, declarations, tests: followed only
		// when they change no directory.
		fl.flat(c, in)
		return in, in
	}
}

// cd applies a cd, pushd or popd to each state: where it leads when it
// succeeds, the state unchanged when it fails.
func (fl *cwdFlow) cd(form shellCmd, in []cwdState) (ok, ko []cwdState) {
	name := form.words[0]
	pa := parseArgs(form, "", "")
	for _, w := range form.words[1:] {
		if strings.HasPrefix(w, "-") && len(w) > 1 && w != "-P" && w != "-L" && w != "--" {
			fl.failed = true // -e, -@, pushd -n, popd +N…: not followed
			return in, in
		}
	}
	if name == "popd" {
		if len(pa.pos) > 0 {
			fl.failed = true
			return in, in
		}
		for _, s := range in {
			ko = append(ko, s)
			if n := len(s.stack); n > 0 {
				ok = append(ok, cwdState{cwd: s.stack[n-1], old: s.cwd, stack: slices.Clone(s.stack[:n-1])})
			}
		}
		return ok, ko
	}
	var target string
	switch {
	case len(pa.pos) == 0 && name == "cd":
		target = "~"
	case len(pa.pos) != 1 || !form.literal[pa.pos[0]]:
		fl.failed = true // pushd's swap, too many operands, a word known at run time
		return in, in
	default:
		target = form.words[pa.pos[0]]
	}
	if name == "pushd" && (strings.HasPrefix(target, "+") || strings.HasPrefix(target, "-")) {
		fl.failed = true
		return in, in
	}
	for _, s := range in {
		ko = append(ko, s)
		t := target
		if t == "-" {
			if s.old == "" {
				fl.failed = true
				return in, in
			}
			t = s.old
		}
		from := shellEnv{home: fl.env.home, cwds: []string{s.cwd}, res: fl.env.res}
		next, why := from.place(t)
		if why != "" || len(next) != 1 {
			fl.failed = true
			return in, in
		}
		dir := next[0]
		if !pa.has("P") {
			// cd -L (the default) drops "dir/.." lexically before it
			// changes directory; cd -P walks it as the kernel does.
			dir = filepath.Clean(dir)
		}
		n := cwdState{cwd: dir, old: s.cwd, stack: s.stack}
		if name == "pushd" {
			n.stack = append(slices.Clone(s.stack), s.cwd)
		}
		ok = append(ok, n)
	}
	return ok, ko
}
