package permission

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/shellprog"
)

// This file holds a shell line's reads to the deny rules of the
// read-path family (Read(./secrets/**)): an allow rule for cat lets cat
// run, not read what a deny rule covers. The reads are the targets of
// input redirections and every literal operand of every command (an
// option's value after "=", and the path of git's REV:path), globs
// expanded against the file system as bash will, and, for programs that
// read whole trees (grep -r, rg, tar, cp -r, git), every path under a
// directory operand.

// maxReadGlob bounds the matches of one glob word checked against deny
// rules, and maxTreeWalk the entries of a directory walked for rules
// that may match anywhere beneath it; past either the line asks.
const (
	maxReadGlob = 512
	maxTreeWalk = 4000
)

// shellRead is one path a command line may read.
type shellRead struct {
	// by names the reader for messages ("cat", "Input redirection").
	by string
	// text is the word as written.
	text string
	// paths are where it may be: absolute, not cleaned.
	paths []string
	// glob is set when paths are patterns bash expands.
	glob bool
	// tree is set when the reader reads everything beneath a directory.
	tree bool
	// dynamic is set for a word whose value is known only at run time
	// ($X/key, "$(…)"): it may name any path.
	dynamic bool
}

// notReaders are programs whose operands are never files they read
// (builtins that take names, numbers or text): a word of theirs known
// only at run time is not a read.
// Built at first use, not before main.
var notReaders = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true, ":": true,
		"export": true, "unset": true, "declare": true, "typeset": true, "local": true, "readonly": true,
		"set": true, "shift": true, "exit": true, "return": true, "break": true, "continue": true,
		"cd": true, "pushd": true, "popd": true, "sleep": true, "kill": true, "wait": true, "seq": true,
		"expr": true, "basename": true, "dirname": true, "pwd": true, "type": true, "read": true, "let": true,
		"mkdir": true, "touch": true, "rm": true, "rmdir": true,
	}
})

// addRead records a read.
func (a *shellAnalysis) addRead(r shellRead) {
	a.reads = append(a.reads, r)
}

// treeReader reports whether the command reads whole directory trees
// given as operands, and the operand it reads when given none.
func treeReader(c shellCmd) (tree bool, dflt string) {
	name := filepath.Base(c.name())
	has := func(short, long string) bool {
		for i := 1; i < len(c.words); i++ {
			w := c.words[i]
			if w == "--" {
				break
			}
			if strings.HasPrefix(w, "--") {
				if long != "" && strings.Contains(long, "|"+strings.SplitN(w[2:], "=", 2)[0]+"|") {
					return true
				}
				continue
			}
			if strings.HasPrefix(w, "-") && strings.ContainsAny(w[1:], short) {
				return true
			}
		}
		return false
	}
	switch name {
	case "grep", "egrep", "fgrep", "zgrep":
		if has("rR", "|recursive|dereference-recursive|") {
			return true, "."
		}
	case "rg", "ag", "ack", "ugrep", "git", "tar", "zip", "7z", "du":
		if name == "du" {
			return false, ""
		}
		return true, treeDefault[name]
	case "cp", "scp", "rsync", "diff":
		return has("rRa", "|recursive|archive|"), ""
	case "find":
		for _, w := range c.words {
			if w == "-exec" || w == "-execdir" || w == "-ok" || w == "-okdir" {
				return true, "."
			}
		}
	}
	return false, ""
}

// treeDefault is the directory a tree reader searches with no operand.
var treeDefault = map[string]string{"rg": ".", "ag": ".", "ack": ".", "ugrep": "."}

// collectReads records the literal operands of c as paths it may read.
func collectReads(a *shellAnalysis, c shellCmd, env shellEnv) {
	if len(c.words) == 0 || !c.literal[0] {
		return
	}
	tree, dflt := treeReader(c)
	by := filepath.Base(c.words[0])
	operands := 0
	for i := 1; i < len(c.words); i++ {
		if !c.literal[i] {
			// Known only at run time: it may name any path (cat $X/key).
			if !notReaders()[by] {
				a.addRead(shellRead{by: by, text: c.words[i], dynamic: true})
			}
			continue
		}
		w := c.words[i]
		var buf [2]string
		texts := buf[:0]
		switch {
		case w == "" || w == "-" || w == "--":
			continue
		case strings.HasPrefix(w, "-"):
			if _, v, ok := strings.Cut(w, "="); ok && v != "" {
				texts = append(texts, v)
			}
		default:
			operands++
			texts = append(texts, w)
			if j := strings.LastIndexByte(w, ':'); j >= 0 && j+1 < len(w) {
				// git show REV:path, scp host:path: the path part.
				texts = append(texts, w[j+1:])
				if env.root != "" && !strings.HasPrefix(w[j+1:], "./") && !strings.HasPrefix(w[j+1:], "../") {
					a.addRead(shellRead{by: by, text: w, paths: []string{joinRaw(env.root, w[j+1:])}, tree: tree})
				}
			}
		}
		var shape wordShape
		if i < len(c.shapes) {
			shape = c.shapes[i]
		}
		for _, t := range texts {
			paths, why := env.place(t)
			if why != "" {
				continue
			}
			a.addRead(shellRead{by: by, text: t, paths: paths, glob: shape.glob && hasGlobMeta(t), tree: tree})
		}
	}
	if by == "git" && gitReadsWholeTree(c, env) {
		// git archive REV and git grep PATTERN [REV] with no pathspec
		// read every file of the tree.
		dflt, operands = ".", 0
	}
	if operands == 0 && dflt != "" {
		paths, why := env.place(dflt)
		if why == "" {
			a.addRead(shellRead{by: by, text: dflt, paths: paths, tree: true})
		}
	}
}

// gitReadsWholeTree reports whether c prints the contents of files
// across the whole tree: git archive and git grep, and git show, git diff,
// git format-patch and git log -p (patches print the lines of every file
// a commit touched), with no operand naming a path that exists or a
// REV:path. Options that print no file contents (--stat, --name-only…)
// leave show and diff out.
func gitReadsWholeTree(c shellCmd, env shellEnv) bool {
	sub := shellprog.GitSubcommand(c.words, c.literal)
	if sub < 1 || sub >= len(c.words) {
		return false
	}
	words := c.words[sub+1:]
	switch c.words[sub] {
	case "archive", "grep", "format-patch":
	case "show", "diff":
		if slices.ContainsFunc(words, func(w string) bool { return gitNoContent[strings.SplitN(w, "=", 2)[0]] }) {
			return false
		}
	case "log", "whatchanged":
		if !slices.ContainsFunc(words, func(w string) bool {
			return w == "-p" || w == "-u" || w == "--patch" || strings.HasPrefix(w, "--patch-with") ||
				strings.HasPrefix(w, "-U") || strings.HasPrefix(w, "--unified")
		}) {
			return false
		}
	default:
		return false
	}
	for i := sub + 1; i < len(c.words); i++ {
		w := c.words[i]
		if !c.literal[i] {
			return false // judged as a dynamic read
		}
		if w == "--" {
			return i+1 >= len(c.words)
		}
		if strings.HasPrefix(w, "-") {
			continue
		}
		if strings.Contains(w, ":") {
			return false // REV:path, judged as that path
		}
		paths, why := env.place(w)
		if why != "" {
			continue
		}
		for _, p := range paths {
			if r, err := resolveWith(env.res, p, "/"); err == nil {
				if _, err := os.Lstat(r); err == nil {
					return false
				}
			}
		}
	}
	return true
}

// gitNoContent are options of git show and git diff that print no file
// contents.
var gitNoContent = map[string]bool{
	"--stat": true, "--name-only": true, "--name-status": true, "--shortstat": true, "--numstat": true,
	"--no-patch": true, "-s": true, "--quiet": true, "--exit-code": true, "--summary": true, "--dirstat": true,
	"--raw": true, "--compact-summary": true,
}

// readDenials returns a message for the first read of a shell line that a
// deny rule of the read-path family covers, "" when none does. A read
// that cannot be judged (too many matches, a tree too large to walk)
// counts as covered when such deny rules exist.
func (e *Engine) readDenials(c *call, rules []Rule) string {
	if c.shell == nil || len(c.shell.reads) == 0 {
		return ""
	}
	var denies []Rule
	for _, r := range rules {
		if r.Behavior == runtime.Deny && !r.Whole() && c.families[r.Tool] == runtime.FamilyReadPath {
			denies = append(denies, r)
		}
	}
	if len(denies) == 0 {
		return ""
	}
	covered := func(p string) (Rule, bool) {
		lex := filepath.Clean(p)
		res, err := resolveWith(c.res, p, c.cwd)
		if err != nil {
			res = lex
		}
		for _, r := range denies {
			if matchPath(r.Content, lex, e.base) || matchPath(r.Content, res, e.base) {
				return r, true
			}
		}
		return Rule{}, false
	}
	for _, rd := range c.shell.reads {
		if rd.dynamic {
			return fmt.Sprintf("%s reads %s, a path known only when the command runs, which the rule %s may deny.", rd.by, rd.text, denies[0].describe())
		}
		for _, p := range rd.paths {
			cands := []string{p}
			if rd.glob {
				m, err := filepath.Glob(filepath.Clean(p))
				if err != nil || len(m) > maxReadGlob {
					return fmt.Sprintf("%s reads %s, a pattern too wide to check against the deny rule %s.", rd.by, rd.text, denies[0].describe())
				}
				cands = m
			}
			for _, cand := range cands {
				if r, ok := covered(cand); ok {
					return fmt.Sprintf("%s reads %s, which the rule %s denies.", rd.by, rd.text, r.describe())
				}
				if !rd.tree {
					continue
				}
				if r, ok := e.denyUnder(cand, c.cwd, denies, c.res); ok {
					return fmt.Sprintf("%s reads everything under %s, where the rule %s denies reading.", rd.by, rd.text, r.describe())
				}
			}
		}
	}
	return ""
}

// denyUnder reports a deny rule that may cover a path beneath the
// directory dir (nothing when dir is not a directory).
func (e *Engine) denyUnder(dir, cwd string, denies []Rule, res *fspath.Resolver) (Rule, bool) {
	real, err := resolveWith(res, dir, cwd)
	if err != nil {
		return denies[0], true
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return Rule{}, false
	}
	var walkFor []Rule
	for _, r := range denies {
		anchor, ok := e.ruleAnchor(r.Content)
		if !ok {
			walkFor = append(walkFor, r)
			continue
		}
		if ra, err := res.Resolve(anchor); err == nil {
			anchor = ra
		}
		if fspath.Within(anchor, real) || fspath.Within(real, anchor) {
			return r, true
		}
	}
	if len(walkFor) == 0 {
		return Rule{}, false
	}
	var found *Rule
	n := 0
	_ = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		n++
		if n > maxTreeWalk {
			found = &walkFor[0]
			return filepath.SkipAll
		}
		if err != nil {
			return nil
		}
		for i, r := range walkFor {
			if matchPath(r.Content, p, e.base) {
				found = &walkFor[i]
				return filepath.SkipAll
			}
		}
		return nil
	})
	if found != nil {
		return *found, true
	}
	return Rule{}, false
}

// ruleAnchor returns the directory a path pattern is anchored in, up to
// its first wildcard; ok is false for a pattern that may match at any
// depth (no slash: "*.env", "id_rsa").
func (e *Engine) ruleAnchor(pattern string) (string, bool) {
	pattern = strings.TrimSpace(pattern)
	var base string
	switch {
	case strings.HasPrefix(pattern, "//"):
		base, pattern = "/", pattern[2:]
	case pattern == "~" || strings.HasPrefix(pattern, "~/"):
		base, pattern = e.base.home, strings.TrimPrefix(strings.TrimPrefix(pattern, "~"), "/")
	case strings.HasPrefix(pattern, "/"):
		base, pattern = e.base.root, pattern[1:]
	case strings.HasPrefix(pattern, "./"):
		base, pattern = e.base.cwd, pattern[2:]
	default:
		if !strings.Contains(strings.TrimSuffix(pattern, "/"), "/") {
			return "", false
		}
		base = e.base.cwd
	}
	var lit []string
	for _, part := range strings.Split(strings.TrimSuffix(pattern, "/"), "/") {
		if strings.ContainsAny(part, "*?[{") {
			break
		}
		lit = append(lit, part)
	}
	return filepath.Join(append([]string{base}, lit...)...), true
}

// DeniesRead reports whether a deny rule of the read-path family (Read's)
// covers the absolute path, or the directory holding it: the
// runtime.ReadGuard the session gives tools that walk directories. The
// path is matched as given and against the rules' bases resolved, so a
// walk of resolved paths meets rules written against a symlinked
// working directory.
func (e *Engine) DeniesRead(path string) bool {
	rules := e.Rules()
	fams := e.familyMap()
	for _, r := range rules {
		if r.Behavior != runtime.Deny || r.Whole() || fams[r.Tool] != runtime.FamilyReadPath {
			continue
		}
		if matchPath(r.Content, path, e.base) || matchPath(r.Content, path, e.realBase) {
			return true
		}
	}
	return false
}
