package permission

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/shellprog"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// This file reads a shell line the way the rules see it: every simple
// command (runtime/shellsyntax finds them and reads their words), the
// commands those run (wrappers, eval and sh -c strings, find -exec), and
// everything that keeps a prefix rule from allowing the line. The
// renderings rules match are in shell_forms.go, the writes to protected
// paths in shellwrite.go.

// maxShellDepth bounds recursion into eval and "bash -c" strings.
const maxShellDepth = 4

// shellCmd is one simple command found in a command line.
type shellCmd struct {
	// assigns are the leading VAR=value words, rendered.
	assigns []string
	// assignNames are the variable names of assigns.
	assignNames []string
	// assignsLiteral is false when an assigned value is not literal.
	assignsLiteral bool
	// words are the command's words after quote removal; a word that is
	// not literal keeps its source text (e.g. "$HOME").
	words []string
	// literal[i] is true when words[i] is fully literal.
	literal []bool
	// shapes[i] tells globs and brace expansions in words[i]; it may be
	// shorter than words (missing entries are plain words).
	shapes []wordShape
	// argsFrom names what supplies more arguments at run time ("xargs",
	// "find -exec"), empty when the words are all there is.
	argsFrom string
	// nested is set for a command another command runs (find -exec, eval
	// and sh -c code) rather than the line itself.
	nested bool
	// cwds are the directories the command may run in (shellEnv.cwds);
	// nil when the analysis cannot follow a directory change.
	cwds []string
}

func (c shellCmd) name() string {
	if len(c.words) == 0 {
		return ""
	}
	return c.words[0]
}

// commandOf is a simple command as the analysis holds it.
func commandOf(sc shellsyntax.SimpleCommand) shellCmd {
	c := shellCmd{assignsLiteral: true, words: make([]string, 0, len(sc.Args)), literal: make([]bool, 0, len(sc.Args))}
	for _, as := range sc.Assigns {
		text, lit := assignText(as)
		c.assigns = append(c.assigns, text)
		if as.Name != "" {
			c.assignNames = append(c.assignNames, as.Name)
		}
		if !lit {
			c.assignsLiteral = false
		}
	}
	if sc.Call != nil {
		c.shapes = make([]wordShape, 0, len(sc.Args))
	}
	for i, w := range sc.Args {
		if sc.Call != nil {
			shape := shapeOf(sc.Call.Args[i])
			if len(shape.alts) > 0 && !shape.unknown {
				// Brace expansion makes words before anything else:
				// "{rm,-rf,x}" is rm -rf x and "sort {-o,f}" is sort -o f,
				// so rules and the analysis see the words bash runs.
				for _, alt := range shape.alts {
					c.words = append(c.words, alt)
					c.literal = append(c.literal, true)
					c.shapes = append(c.shapes, wordShape{glob: shape.glob && hasGlobMeta(alt)})
				}
				continue
			}
			c.shapes = append(c.shapes, shape)
		}
		c.words = append(c.words, shown(w))
		c.literal = append(c.literal, w.Literal)
	}
	return c
}

// shown is a word as the analysis and the rules see it: its value when
// literal, else its source, so "$X" and $X stay apart.
func shown(w shellsyntax.Word) string {
	if w.Literal {
		return w.Value
	}
	return w.Source
}

// shellAnalysis is what the permission engine knows about a command line.
type shellAnalysis struct {
	// raw is the command line as given.
	raw string
	// parseErr is set when the line is not valid bash.
	parseErr error
	// cmds are every simple command, nested ones included.
	cmds []shellCmd
	// taints are reasons no prefix rule may allow the line.
	taints []string
	// protected describes the protected paths the line writes or
	// deletes (redirections and file-changing commands), and arguments
	// that could name one.
	protected []string
	// writes are the files the line writes: output redirections and the
	// targets of writing commands (shell_targets.go).
	writes []shellWrite
	// reads are the paths the line may read (shell_reads.go).
	reads []shellRead
	// forms[i] are the renderings rules match cmds[i] against, made on
	// first use (formsOf): every rule of a check reads the same ones.
	forms []cmdForms
	// followed is set when the line changes no directory or its changes
	// were followed (followCwds): each command's cwds are then where it
	// runs, not a superset.
	followed bool
}

// cmdForms are the renderings of one command rules are matched against.
type cmdForms struct {
	deny      []string
	allow     []allowForm
	denyDone  bool
	allowDone bool
}

// denyFormsOf is denyForms(a.cmds[i]), made once per analysis.
func (a *shellAnalysis) denyFormsOf(i int) []string {
	f := a.formsAt(i)
	if !f.denyDone {
		f.deny, f.denyDone = denyForms(a.cmds[i]), true
	}
	return f.deny
}

// allowFormsOf is allowForms(a.cmds[i]), made once per analysis.
func (a *shellAnalysis) allowFormsOf(i int) []allowForm {
	f := a.formsAt(i)
	if !f.allowDone {
		f.allow, f.allowDone = allowForms(a.cmds[i]), true
	}
	return f.allow
}

func (a *shellAnalysis) formsAt(i int) *cmdForms {
	if len(a.forms) != len(a.cmds) {
		a.forms = make([]cmdForms, len(a.cmds))
	}
	return &a.forms[i]
}

// protect records a protected write once.
func (a *shellAnalysis) protect(desc string) {
	for _, p := range a.protected {
		if p == desc {
			return
		}
	}
	a.protected = append(a.protected, desc)
}

func (a *shellAnalysis) taint(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, t := range a.taints {
		if t == msg {
			return
		}
	}
	a.taints = append(a.taints, msg)
}

// shellEnv is what the analysis needs to judge redirection targets and
// the paths commands write.
type shellEnv struct {
	cwd  string
	home string
	// dirs are the resolved working directories.
	dirs    []string
	inside  func(resolved string) bool
	protect func(path string) bool
	// cdRisk is set while analysing a line with a cd or pushd that may
	// enter a protected directory.
	cdRisk bool
	// placeholders is set while analysing code that xargs or find -exec
	// runs, where {} stands for paths known only at run time.
	placeholders bool
	// cwds are the directories the command being analysed may run in
	// (cwdsOf); nil when the analysis cannot follow a directory change.
	cwds []string
	// root is the project root, where git's REV:path paths start.
	root string
	// res resolves the paths of this check, each directory examined once.
	res *fspath.Resolver
}

// ShellCommand is one simple command of a shell line as the engine reads
// it: rules are matched against renderings of it (see the package doc).
type ShellCommand struct {
	// Assigns are the leading NAME=value words, rendered.
	Assigns []string
	// Words are the program and its arguments: a literal word after quote
	// removal, any other as written.
	Words []string
	// Literal[i] reports whether Words[i] is literal.
	Literal []bool
}

// ShellCommands returns the simple commands the engine reads in a shell
// line, in source order: those nested in substitutions, subshells and
// function bodies included, not the commands they run (eval and sh -c
// code, find -exec) and not bare assignments (which taint the line). It
// is the analysis Check runs, for diagnostics and for specs that compare
// it with other readers of the line.
func ShellCommands(command string) []ShellCommand {
	var out []ShellCommand
	for _, c := range analyzeShell(shellsyntax.ParseCommand(command), shellEnv{}).cmds {
		if !c.nested {
			out = append(out, ShellCommand{Assigns: c.assigns, Words: c.words, Literal: c.literal})
		}
	}
	return out
}

// analyzeShell collects the simple commands of a parsed command line and
// everything that keeps a prefix rule from allowing it.
func analyzeShell(cmd *shellsyntax.Command, env shellEnv) *shellAnalysis {
	a := &shellAnalysis{raw: cmd.Source, cmds: make([]shellCmd, 0, len(cmd.Cmds)+2), reads: make([]shellRead, 0, 2*len(cmd.Cmds))}
	if env.cwd != "" {
		env.cwds = []string{filepath.Clean(env.cwd)}
	}
	analyzeInto(a, cmd, env, 0)
	return a
}

// analyzeInto analyses cmd into a; depth counts the nested lines (sh -c
// code) it is part of.
func analyzeInto(a *shellAnalysis, cmd *shellsyntax.Command, env shellEnv, depth int) {
	f, cmds, err := cmd.File, cmd.Cmds, cmd.Err
	if err != nil {
		if depth == 0 {
			a.parseErr = err
		}
		var long *shellsyntax.TooLongError
		if errors.As(err, &long) {
			// Nothing of the line is known: it could write anywhere.
			a.protect("the whole command (too long to analyse; it could write a protected path)")
		}
		a.taint("the command could not be parsed: %v", err)
		return
	}
	continuationTaints(a, cmd.Source, f)
	changesDir := false
	// Each simple command is read once; cwdsOf and visitCall share it.
	read := make([]shellCmd, len(cmds))
	for i, sc := range cmds {
		read[i] = commandOf(sc)
		if len(sc.Args) == 0 || !sc.Args[0].Literal {
			continue
		}
		if w := sc.Args[0].Value; w == "cd" || w == "pushd" || w == "popd" {
			changesDir = true
			if w != "popd" && cdRiskOf(read[i], env) {
				env.cdRisk = true
			}
		}
	}
	flow := followCwds(f, cmds, read, env)
	if depth == 0 {
		a.followed = flow != nil || !changesDir
	}
	env.cwds = cwdsOf(f, cmds, read, env)
	for i := range cmds {
		// Where the flow was followed, each command's relative paths are
		// judged against the directories it really runs in.
		ce := env
		if d, ok := flow.cwdsFor(cmds[i].Stmt); ok {
			ce.cwds = d
		}
		visitCall(a, read[i], ce, depth, changesDir)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		expansionTaint(a, n)
		switch n := n.(type) {
		case *syntax.Stmt:
			if n.Cmd == nil && len(n.Redirs) > 0 {
				a.taint("a redirection without a command")
			}
			if n.Coprocess {
				a.taint("a coprocess")
			}
		case *syntax.CmdSubst:
			if n.Backquotes {
				a.taint("command substitution (backticks)")
			} else {
				a.taint("command substitution $(…)")
			}
		case *syntax.ProcSubst:
			a.taint("process substitution")
		case *syntax.FuncDecl:
			a.taint("a function definition")
		case *syntax.CoprocClause:
			a.taint("a coprocess")
		case *syntax.ArithmCmd, *syntax.LetClause:
			a.taint("an arithmetic command")
		case *syntax.TestClause:
			a.taint("a [[ … ]] test")
		case *syntax.ForClause:
			if wi, ok := n.Loop.(*syntax.WordIter); ok && wi.Name != nil && strings.ToUpper(wi.Name.Value) == wi.Name.Value {
				a.taint("a for loop assigning the variable %s", wi.Name.Value)
			}
		case *syntax.Redirect:
			re := env
			if flow != nil {
				if d, ok := flow.redirs[n]; ok {
					re.cwds = d
				}
			}
			visitRedirect(a, n, re, changesDir)
		}
		return true
	})
}

// visitCall analyses c, one simple command of the line (commandOf).
func visitCall(a *shellAnalysis, c shellCmd, env shellEnv, depth int, afterCd bool) {
	if len(c.words) == 0 {
		a.taint("a variable assignment (%s)", strings.Join(c.assigns, " "))
		return
	}
	c.nested = depth > 0
	c.cwds = env.cwds
	a.cmds = append(a.cmds, c)
	if !c.literal[0] {
		a.taint("the command name %s is not literal", c.words[0])
	}
	// Look through wrappers for eval, nested shells and find -exec; the
	// commands find runs are commands of the line in their own right.
	// Each form is also checked for writes to protected paths; a command
	// behind xargs gets more arguments at run time.
	argsFrom := ""
	builtinTaint(a, c)
	for k, form := range unwrapSeq(c) {
		if k > 0 {
			builtinTaint(a, form)
		}
		if argsFrom != "" {
			form.argsFrom = argsFrom
		}
		inspectRunner(a, form, env, depth)
		// An option that runs a program or reaches the network, or one the
		// programs table cannot judge: no prefix rule for the program
		// covers it (its writes are judged as writes, below).
		if form.literal[0] {
			if why := shellprog.Judge(form.words, form.literal, shellprog.Runs|shellprog.Network); why != "" {
				a.taint("%s", why)
			}
		}
		checkWrites(a, form, env, afterCd)
		checkPlanted(a, form, env)
		if d := gitConfigWrite(form, env); d != "" {
			a.protect(d)
		}
		collectReads(a, form, env)
		// env -C and sudo -D run the command in another directory.
		if dir, ok := chdirOf(form); ok {
			afterCd = true
			if cdRiskOf(dir, env) {
				env.cdRisk = true
			}
			// The command runs in that directory: its relative paths are
			// relative to it.
			if dir.literal[1] {
				env.cwds, _ = env.place(dir.words[1])
			} else {
				env.cwds = nil
			}
		}
		if filepath.Base(form.name()) == "xargs" && form.literal[0] {
			argsFrom = "xargs"
		}
		if filepath.Base(form.name()) == "find" {
			for _, e := range findExecs(form) {
				e.nested = true
				e.cwds = env.cwds
				a.cmds = append(a.cmds, e)
				if !e.literal[0] {
					a.taint("the command name %s is not literal", e.words[0])
				}
				inspectRunner(a, e, env, depth)
				checkWrites(a, e, env, afterCd)
				collectReads(a, e, env)
			}
		}
	}
}

// inspectRunner taints commands that run strings as code and analyses
// those strings when they are literal, so deny rules see inside them.
func inspectRunner(a *shellAnalysis, c shellCmd, env shellEnv, depth int) {
	name := filepath.Base(c.name())
	// Code run for each input of xargs or find -exec gets its paths
	// through {}: inside it, {} is not a literal path.
	if c.argsFrom != "" || slices.ContainsFunc(c.words, func(w string) bool { return strings.Contains(w, "{}") }) {
		env.placeholders = true
	}
	switch name {
	case "eval":
		a.taint("eval")
		nested(a, c.words[1:], c.literal[1:], env, depth)
	case "source", ".":
		a.taint("%s runs a script", name)
	case "trap":
		a.taint("trap runs a string as code")
	case "alias":
		a.taint("alias")
	case "su", "runuser", "flock", "script", "sg", "perl", "python", "python3", "node", "ruby", "php", "deno", "bun":
		// Programs that run a string as code: su/runuser/flock/script -c,
		// sg GROUP CMD, and the interpreters' -e/-c/-r.
		flags := map[string]string{"perl": "eE", "python": "c", "python3": "c", "node": "ep", "ruby": "e", "php": "r", "deno": "", "bun": "e"}
		for i := 1; i < len(c.words); i++ {
			w := c.words[i]
			var code []string
			var lit []bool
			short, isInterp := flags[name]
			if !isInterp {
				short = "c"
			}
			switch {
			case strings.HasPrefix(w, "--command=") || strings.HasPrefix(w, "--eval="):
				_, v, _ := strings.Cut(w, "=")
				code, lit = []string{v}, c.literal[i:i+1]
			case w == "--command" || w == "--eval" || w == "--print" ||
				(short != "" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && len(w) > 1 && strings.ContainsRune(short, rune(w[len(w)-1]))):
				if i+1 < len(c.words) {
					code, lit = c.words[i+1:i+2], c.literal[i+1:i+2]
				} else {
					code, lit = []string{""}, []bool{true}
				}
			case name == "deno" && w == "eval", name == "sg" && i == 2:
				code, lit = c.words[i:i+1], c.literal[i:i+1]
				if name == "deno" && i+1 < len(c.words) {
					code, lit = c.words[i+1:i+2], c.literal[i+1:i+2]
				}
			}
			if code == nil {
				if isInterp && !strings.HasPrefix(w, "-") {
					break // a script or module: the rest are its arguments
				}
				continue
			}
			a.taint("%s runs a string as code", name)
			if !isInterp {
				nested(a, code, lit, env, depth)
			}
			return
		}
	case "bash", "sh", "zsh", "dash", "ksh", "fish", "busybox":
		for i := 1; i < len(c.words); i++ {
			if c.words[i] == "-c" || (strings.HasPrefix(c.words[i], "-") && !strings.HasPrefix(c.words[i], "--") && strings.Contains(c.words[i], "c")) {
				a.taint("%s -c runs a string as code", name)
				if i+1 < len(c.words) {
					nested(a, c.words[i+1:i+2], c.literal[i+1:i+2], env, depth)
				}
				return
			}
		}
	}
}

// chdirOf returns the directory env -C/--chdir or sudo -D/--chdir gives
// the command they run, as a cd command for cdRiskOf.
func chdirOf(c shellCmd) (shellCmd, bool) {
	if len(c.words) == 0 || !c.literal[0] {
		return shellCmd{}, false
	}
	var short string
	switch filepath.Base(c.words[0]) {
	case "env":
		short = "-C"
	case "sudo":
		short = "-D"
	default:
		return shellCmd{}, false
	}
	for i := 1; i < len(c.words); i++ {
		w := c.words[i]
		switch {
		case (w == short || w == "--chdir") && i+1 < len(c.words):
			return shellCmd{words: []string{"cd", c.words[i+1]}, literal: []bool{true, c.literal[i+1]}}, true
		case strings.HasPrefix(w, "--chdir="):
			return shellCmd{words: []string{"cd", strings.TrimPrefix(w, "--chdir=")}, literal: []bool{true, c.literal[i]}}, true
		case strings.HasPrefix(w, short) && len(w) > len(short):
			return shellCmd{words: []string{"cd", w[len(short):]}, literal: []bool{true, c.literal[i]}}, true
		case !strings.HasPrefix(w, "-"):
			return shellCmd{}, false
		}
	}
	return shellCmd{}, false
}

func nested(a *shellAnalysis, words []string, literal []bool, env shellEnv, depth int) {
	for _, l := range literal {
		if !l {
			// The code is decided at run time; it cannot be analysed, but
			// code that names a protected directory may write it.
			code := strings.Join(words, " ")
			if strings.Contains(code, ".git") || strings.Contains(code, ".agentcore") {
				a.protect(fmt.Sprintf("%q (code that is not literal and names a protected directory)", code))
			}
			return
		}
	}
	if depth+1 >= maxShellDepth || len(words) == 0 {
		return
	}
	analyzeInto(a, shellsyntax.ParseCommand(strings.Join(words, " ")), env, depth+1)
}

func visitRedirect(a *shellAnalysis, r *syntax.Redirect, env shellEnv, changesDir bool) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return
	}
	if shellsyntax.DupFD(r) {
		return
	}
	w := shellsyntax.EvalWord(r.Word)
	target, lit := shown(w), w.Literal
	if r.Op != syntax.RdrIn && r.Op != syntax.DplIn {
		// A redirection writes: the engine judges its target as a Write
		// (recordRedirect); one that could reach a protected path needs
		// approval in every mode.
		recordRedirect(a, r, env)
		shape := shapeOf(r.Word)
		if !lit || shape.unknown {
			a.protect(fmt.Sprintf("%s (a redirection to a path that is not literal; it could name a protected path)", target))
			a.taint("a redirection to %s, which is not a literal path", target)
			return
		}
		if freeTarget(target) {
			return
		}
		if d, bad := env.judge(target, shape, roleWrite, changesDir, false); bad {
			a.protect(d)
			a.taint("a redirection to the protected path %s", d)
			return
		}
		paths, _ := env.place(target)
		for _, p := range paths {
			if env.protect != nil && env.protect(p) {
				a.protect(p)
				a.taint("a redirection to the protected path %s", p)
				break
			}
		}
		return
	}
	// An input redirection reads: one from outside the working
	// directories keeps allow rules from covering the line.
	if lit && !freeTarget(target) {
		if paths, why := env.place(target); why == "" {
			a.addRead(shellRead{by: "Input redirection", text: target, paths: paths})
		}
	}
	if !lit {
		a.taint("a redirection from %s, which is not a literal path", target)
		return
	}
	if freeTarget(target) {
		return
	}
	p := target
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(env.home, strings.TrimPrefix(p, "~"))
	case strings.HasPrefix(p, "~"):
		a.taint("a redirection from %s", target)
		return
	case !filepath.IsAbs(p):
		if changesDir {
			a.taint("a redirection from the relative path %s after a directory change", target)
			return
		}
		p = joinRaw(env.cwd, p)
	}
	if env.inside == nil || !env.inside(p) {
		a.taint("a redirection from %s, outside the working directories", p)
	}
}

// findExecs returns the commands of find's -exec, -execdir, -ok and -okdir.
func findExecs(c shellCmd) []shellCmd {
	var out []shellCmd
	w := c.words
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(w) && w[j] != ";" && w[j] != "+" {
				j++
			}
			if j > i+1 {
				// find replaces {} with the paths it finds.
				shapes := make([]wordShape, j-i-1)
				for k := range shapes {
					if i+1+k < len(c.shapes) {
						shapes[k] = c.shapes[i+1+k]
					}
					shapes[k].unknown = shapes[k].unknown || strings.Contains(w[i+1+k], "{}")
				}
				out = append(out, shellCmd{words: w[i+1 : j], literal: c.literal[i+1 : j], shapes: shapes, assignsLiteral: true})
			}
			i = j
		}
	}
	return out
}
