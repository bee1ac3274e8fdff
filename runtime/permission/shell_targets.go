package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// This file collects every file a shell line writes — the targets of its
// output redirections and the paths its writing commands (writeArgs)
// change — so that the engine can judge each as a Write of that path
// (engine.go, shellWrites). The package doc ("Writes in shell commands")
// lists the commands and the rule.

// maxCwds bounds the directories a line's commands may run in; a line
// that could reach more counts as one the analysis cannot follow.
const maxCwds = 32

// shellWrite is one file (or directory of files) a command line writes.
type shellWrite struct {
	// by is what writes: "Output redirection", "tee", "sed -i"…
	by string
	// text is the target as written.
	text string
	// paths are the absolute, cleaned paths the target may be: one,
	// or several when a cd before it may have moved the shell.
	paths []string
	// inDir is set when paths are directories the command writes files
	// into whose names are known only at run time (wget, tar -x, cp of a
	// glob into a directory).
	inDir bool
	// unknown, when set, says why the target is known only at run time;
	// such a write is never allowed by a rule or a mode.
	unknown string
}

// describe names the write for messages: "Output redirection to
// 'notes.txt'".
func (w shellWrite) describe() string {
	if w.text == "" {
		return w.by
	}
	return fmt.Sprintf("%s to '%s'", w.by, w.text)
}

// addWrite records a write once.
func (a *shellAnalysis) addWrite(w shellWrite) {
	for _, o := range a.writes {
		if o.by == w.by && o.text == w.text && o.inDir == w.inDir && o.unknown == w.unknown && slices.Equal(o.paths, w.paths) {
			return
		}
	}
	a.writes = append(a.writes, w)
}

// freeTarget reports the redirection targets that write no file.
func freeTarget(t string) bool {
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty":
		return true
	}
	return strings.HasPrefix(t, "/dev/fd/") && shellsyntax.IsFD(strings.TrimPrefix(t, "/dev/fd/"))
}

// place makes a literal path absolute: against every directory the
// command may run in when it is relative. It returns why it cannot when
// it cannot.
func (env shellEnv) place(text string) ([]string, string) {
	switch {
	case text == "~" || strings.HasPrefix(text, "~/"):
		return []string{filepath.Clean(filepath.Join(env.home, strings.TrimPrefix(text, "~")))}, ""
	case strings.HasPrefix(text, "~"):
		return nil, "a ~user path the analysis cannot place"
	case filepath.IsAbs(text):
		return []string{text}, ""
	}
	if env.cwds == nil {
		return nil, "a relative path after a directory change the analysis cannot follow"
	}
	// Not cleaned: "link/../f" is resolved as the kernel will.
	out := make([]string, 0, len(env.cwds))
	for _, d := range env.cwds {
		out = append(out, joinRaw(d, text))
	}
	return out, ""
}

// isCdWord reports whether w names a builtin that changes directory.
func isCdWord(w string) bool { return w == "cd" || w == "pushd" || w == "popd" }

// cwdsOf returns the directories the commands of a line may run in: the
// ones env has, and everywhere each cd or pushd may lead from them (a
// superset: without following the control flow, every cd may or may not
// have run). nil when the analysis cannot follow: a cd to a place that is
// not literal, cd -, or a cd inside a loop, which may run any number of
// times.
func cwdsOf(f *syntax.File, cmds []shellsyntax.SimpleCommand, read []shellCmd, env shellEnv) []string {
	if env.cwds == nil {
		return nil
	}
	// Only a line with a cd, pushd or popd word (behind a wrapper or
	// not) changes directory.
	if !slices.ContainsFunc(read, func(c shellCmd) bool { return slices.ContainsFunc(c.words, isCdWord) }) {
		return slices.Clone(env.cwds)
	}
	var loops [][2]uint
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ForClause, *syntax.WhileClause:
			loops = append(loops, [2]uint{n.Pos().Offset(), n.End().Offset()})
		}
		return true
	})
	cwds := slices.Clone(env.cwds)
	for i, sc := range cmds {
		if len(sc.Args) == 0 || !slices.ContainsFunc(read[i].words, isCdWord) {
			continue
		}
		for _, form := range unwrapSeq(read[i]) {
			if len(form.words) == 0 || !form.literal[0] {
				continue
			}
			name := form.words[0]
			if name != "cd" && name != "pushd" && name != "popd" {
				continue
			}
			if sc.Call != nil {
				off := sc.Call.Pos().Offset()
				for _, l := range loops {
					if off >= l[0] && off < l[1] {
						return nil
					}
				}
			}
			if name == "popd" {
				continue // back to a directory already listed
			}
			pa := parseArgs(form, "", "")
			var target string
			switch {
			case len(pa.pos) == 0:
				target = "~"
			case !form.literal[pa.pos[0]]:
				return nil
			default:
				target = form.words[pa.pos[0]]
			}
			if target == "-" {
				return nil
			}
			if name == "pushd" && (strings.HasPrefix(target, "+") || strings.HasPrefix(target, "-")) {
				continue // rotates the stack of directories already listed
			}
			from := shellEnv{home: env.home, cwds: cwds, res: env.res}
			next, why := from.place(target)
			if why != "" {
				return nil
			}
			if !pa.has("P") {
				// cd -L (the default) drops "dir/.." lexically before it
				// changes directory; cd -P walks it as the kernel does.
				for i := range next {
					next[i] = filepath.Clean(next[i])
				}
			}
			for _, n := range next {
				if !slices.Contains(cwds, n) {
					cwds = append(cwds, n)
				}
			}
			if len(cwds) > maxCwds {
				return nil
			}
		}
	}
	return cwds
}

// recordArg records the write of one writeArg of command c.
func recordArg(a *shellAnalysis, c shellCmd, arg writeArg, env shellEnv) {
	by := arg.by
	if by == "" {
		by = filepath.Base(c.words[0])
	}
	if arg.unknown != "" {
		a.addWrite(shellWrite{by: by, text: arg.text, unknown: arg.unknown})
		return
	}
	text := arg.text
	var shape wordShape
	if arg.idx >= 0 {
		text = c.words[arg.idx]
		if arg.idx < len(c.shapes) {
			shape = c.shapes[arg.idx]
		}
		if !c.literal[arg.idx] || shape.unknown || (env.placeholders && strings.Contains(text, "{}")) {
			a.addWrite(shellWrite{by: by, text: text, unknown: "not a literal path"})
			return
		}
	} else if text == "" {
		text = "."
	}
	alts := shape.alts
	if alts == nil {
		alts = []string{text}
	}
	for _, t := range alts {
		if shape.glob && hasGlobMeta(t) {
			a.addWrite(shellWrite{by: by, text: t, unknown: "a glob pattern"})
			continue
		}
		paths, why := env.place(t)
		if why != "" {
			a.addWrite(shellWrite{by: by, text: t, unknown: why})
			continue
		}
		if arg.inDir {
			a.addWrite(shellWrite{by: by, text: t, paths: paths, inDir: true})
			continue
		}
		if len(arg.intoDir) == 0 {
			a.addWrite(shellWrite{by: by, text: t, paths: paths})
			if arg.role == roleRemove {
				// A recursive removal also deletes what the directory holds.
				for _, p := range paths {
					if r, err := resolveWith(env.res, p, "/"); err == nil {
						if fi, err := os.Stat(r); err == nil && fi.IsDir() {
							a.addWrite(shellWrite{by: by, text: t, paths: []string{p}, inDir: true})
						}
					}
				}
			}
			continue
		}
		// A destination: when it is a directory, each source lands in it
		// under its base name.
		for _, p := range paths {
			if !isDirTarget(t, p, env.res) {
				a.addWrite(shellWrite{by: by, text: t, paths: []string{p}})
				continue
			}
			for _, s := range arg.intoDir {
				var ss wordShape
				if s < len(c.shapes) {
					ss = c.shapes[s]
				}
				if !c.literal[s] || ss.unknown || ss.glob || (env.placeholders && strings.Contains(c.words[s], "{}")) {
					a.addWrite(shellWrite{by: by, text: t, paths: []string{p}, inDir: true})
					continue
				}
				srcs := ss.alts
				if srcs == nil {
					srcs = []string{c.words[s]}
				}
				for _, src := range srcs {
					dest := filepath.Join(p, filepath.Base(strings.TrimRight(src, "/")))
					a.addWrite(shellWrite{by: by, text: filepath.Join(t, filepath.Base(strings.TrimRight(src, "/"))), paths: []string{dest}})
				}
			}
		}
	}
}

// isDirTarget reports whether a destination is a directory: written with
// a trailing slash, "." or "..", or an existing directory.
func isDirTarget(text, abs string, res *fspath.Resolver) bool {
	if strings.HasSuffix(text, "/") || text == "." || text == ".." {
		return true
	}
	if r, err := resolveWith(res, abs, "/"); err == nil {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// recordRedirect records the write of an output redirection.
func recordRedirect(a *shellAnalysis, r *syntax.Redirect, env shellEnv) {
	w := shellsyntax.EvalWord(r.Word)
	target := shown(w)
	const by = "Output redirection"
	shape := shapeOf(r.Word)
	switch {
	case !w.Literal || shape.unknown:
		a.addWrite(shellWrite{by: by, text: target, unknown: "not a literal path"})
		return
	case freeTarget(target):
		return
	case env.placeholders && strings.Contains(target, "{}"):
		a.addWrite(shellWrite{by: by, text: target, unknown: "a path find or xargs supplies at run time"})
		return
	case shape.glob && hasGlobMeta(target):
		a.addWrite(shellWrite{by: by, text: target, unknown: "a glob pattern"})
		return
	case len(shape.alts) > 1:
		a.addWrite(shellWrite{by: by, text: target, unknown: "a brace expansion (bash refuses it as a redirection target)"})
		return
	}
	paths, why := env.place(target)
	if why != "" {
		a.addWrite(shellWrite{by: by, text: target, unknown: why})
		return
	}
	a.addWrite(shellWrite{by: by, text: target, paths: paths})
}

// sedScript reads a sed script for the files it writes (w and W commands,
// the w flag of s) and whether it runs commands (e, the e flag of s). ok
// is false when the script cannot be read, which counts as both.
func sedScript(script string) (files []string, runs, ok bool) {
	s := script
	i := 0
	eol := func() string { // the rest of the line
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		v := s[i : i+j]
		i += j
		return v
	}
	// delimited skips a delimited part (a regex or a replacement) and
	// reports whether it ended.
	delimited := func(d byte) bool {
		for i < len(s) {
			c := s[i]
			i++
			if c == '\\' {
				i++
				continue
			}
			if c == d {
				return true
			}
			if c == '\n' && d != '\n' {
				return false
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && s[i] == '/':
			i++
			if !delimited('/') {
				return false
			}
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case i+1 < len(s) && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !delimited(d) {
				return false
			}
		case i < len(s) && s[i] == '$':
			i++
		default:
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '~' || s[i] == '+') {
				i++
			}
		}
		return true
	}
	for i < len(s) {
		for i < len(s) && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '#' {
			eol()
			continue
		}
		if !address() {
			return nil, true, false
		}
		if i < len(s) && s[i] == ',' {
			i++
			if !address() {
				return nil, true, false
			}
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '!') {
			i++
		}
		if i >= len(s) {
			return nil, true, false
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			for i < len(s) && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case ':', 'b', 't', 'T':
			for i < len(s) && s[i] != ';' && s[i] != '\n' {
				i++
			}
		case 'a', 'i', 'c', 'r', 'R':
			eol()
		case 'w', 'W':
			files = append(files, strings.TrimSpace(eol()))
		case 'e':
			runs = true
			eol()
		case 'y':
			if i >= len(s) {
				return nil, true, false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return nil, true, false
			}
		case 's':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return nil, true, false
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return nil, true, false
			}
			for i < len(s) && strings.IndexByte("gpiImM0123456789e", s[i]) >= 0 {
				if s[i] == 'e' {
					runs = true
				}
				i++
			}
			if i < len(s) && s[i] == 'w' {
				i++
				files = append(files, strings.TrimSpace(eol()))
			}
		default:
			return nil, true, false
		}
	}
	return files, runs, true
}

// sedWrites returns the writes of a sed command besides -i: the files of
// its script's w commands; a script in a file, one that is not literal or
// one that runs commands is unknown.
func sedWrites(c shellCmd, pa parsedArgs) []writeArg {
	if pa.has("f", "file") {
		return []writeArg{{idx: -1, by: "sed -f", unknown: "a sed script read from a file may write files (w) or run commands (e)"}}
	}
	var scripts []string
	if v, ok := pa.opts["e"]; ok {
		scripts = append(scripts, v)
	}
	if v, ok := pa.opts["expression"]; ok {
		scripts = append(scripts, v)
	}
	if len(scripts) == 0 {
		if len(pa.pos) == 0 {
			return nil
		}
		if !c.literal[pa.pos[0]] {
			return []writeArg{{idx: -1, by: "sed", text: c.words[pa.pos[0]], unknown: "a sed script that is not literal may write files (w) or run commands (e)"}}
		}
		scripts = append(scripts, c.words[pa.pos[0]])
	}
	// parseArgs keeps the last -e only; look at every word for more.
	for i := 1; i+1 < len(c.words); i++ {
		if c.words[i] == "-e" || c.words[i] == "--expression" {
			if !c.literal[i+1] {
				return []writeArg{{idx: -1, by: "sed", text: c.words[i+1], unknown: "a sed script that is not literal may write files (w) or run commands (e)"}}
			}
			scripts = append(scripts, c.words[i+1])
		}
	}
	for i := 1; i < len(c.words); i++ {
		// -eSCRIPT and --expression=SCRIPT, attached (brace expansion
		// can make several).
		w := c.words[i]
		if c.literal[i] && ((strings.HasPrefix(w, "-e") && len(w) > 2) || strings.HasPrefix(w, "--expression=")) {
			scripts = append(scripts, strings.TrimPrefix(strings.TrimPrefix(w, "--expression="), "-e"))
		}
	}
	var out []writeArg
	for _, sc := range scripts {
		files, runs, ok := sedScript(sc)
		switch {
		case !ok:
			out = append(out, writeArg{idx: -1, by: "sed", text: sc, unknown: "a sed script the analysis cannot read may write files (w) or run commands (e)"})
		case runs:
			out = append(out, writeArg{idx: -1, by: "sed", text: sc, unknown: "the sed script runs commands (e)"})
		}
		for _, f := range files {
			if f != "/dev/stdout" && f != "/dev/stderr" {
				out = append(out, writeArg{idx: -1, by: "sed w", text: f, role: roleWrite})
			}
		}
	}
	return out
}

// awkWrites returns the writes of an awk program: an in-place edit
// (gawk -i inplace) writes its files; a program that redirects (>, >>),
// pipes (|) or calls system() may write anything, as may one that is not
// literal or comes from a file.
func awkWrites(c shellCmd) []writeArg {
	unknown := func(text, why string) []writeArg {
		return []writeArg{{idx: -1, by: filepath.Base(c.words[0]), text: text, unknown: why}}
	}
	var progs []string
	var files []int
	inplace := false
	progGiven := false
	for i := 1; i < len(c.words); i++ {
		w := c.words[i]
		if !c.literal[i] && !progGiven && !strings.HasPrefix(w, "-") {
			return unknown(w, "an awk program that is not literal may write files")
		}
		switch {
		case w == "--":
			for j := i + 1; j < len(c.words); j++ {
				if !progGiven {
					progGiven = true
					if !c.literal[j] {
						return unknown(c.words[j], "an awk program that is not literal may write files")
					}
					progs = append(progs, c.words[j])
					continue
				}
				files = append(files, j)
			}
			i = len(c.words)
		case w == "-f" || w == "--file" || strings.HasPrefix(w, "--file=") || (strings.HasPrefix(w, "-f") && len(w) > 2 && !strings.HasPrefix(w, "--")):
			return unknown(w, "an awk program read from a file may write files")
		case w == "-e" || w == "--source":
			if i+1 < len(c.words) {
				i++
				if !c.literal[i] {
					return unknown(c.words[i], "an awk program that is not literal may write files")
				}
				progs = append(progs, c.words[i])
				progGiven = true
			}
		case w == "-i" || w == "--include":
			if i+1 < len(c.words) {
				i++
				if c.words[i] == "inplace" || c.words[i] == "inplace.awk" {
					inplace = true
				} else {
					return unknown(c.words[i], "an awk library read from a file may write files")
				}
			}
		case strings.HasPrefix(w, "-i") && !strings.HasPrefix(w, "--"):
			if w[2:] == "inplace" || w[2:] == "inplace.awk" {
				inplace = true
			} else {
				return unknown(w, "an awk library read from a file may write files")
			}
		case w == "-v" || w == "-F" || w == "--assign" || w == "--field-separator":
			i++
		case strings.HasPrefix(w, "-") && w != "-":
		case !progGiven:
			progGiven = true
			progs = append(progs, w)
		default:
			files = append(files, i)
		}
	}
	var out []writeArg
	for _, p := range progs {
		if strings.ContainsAny(p, ">|") || strings.Contains(p, "system") {
			out = append(out, writeArg{idx: -1, by: filepath.Base(c.words[0]), text: p,
				unknown: "the awk program may write files or run commands (it holds >, | or system)"})
		}
	}
	if inplace {
		for _, f := range files {
			if !strings.Contains(c.words[f], "=") {
				out = append(out, writeArg{idx: f, by: "awk -i inplace", role: roleWrite})
			}
		}
	}
	return out
}

// gitWrites returns the files git writes for options that take an output
// file or directory (--output, format-patch -o/--output-directory,
// archive -o, bundle create), relative to the directory -C gives. Long
// options may be abbreviated, as git accepts.
func gitWrites(c shellCmd) []writeArg {
	w := c.words
	i := 1
	var chdirs []string
	chdirKnown := true
	for ; i < len(w); i++ {
		s := w[i]
		if s == "-C" && i+1 < len(w) {
			i++
			chdirKnown = chdirKnown && c.literal[i]
			chdirs = append(chdirs, w[i])
			continue
		}
		if s == "-c" || s == "--namespace" || s == "--git-dir" || s == "--work-tree" || s == "--exec-path" || s == "--config-env" {
			i++
			continue
		}
		if !strings.HasPrefix(s, "-") {
			break
		}
	}
	if i >= len(w) {
		return nil
	}
	sub := w[i]
	var out []writeArg
	// add records the value of an option: the word j, or text when j < 0.
	add := func(by string, j int, text string, inDir bool) {
		if j >= 0 {
			if !c.literal[j] || (j < len(c.shapes) && (c.shapes[j].glob || c.shapes[j].alts != nil || c.shapes[j].unknown)) {
				out = append(out, writeArg{idx: -1, by: by, text: w[j], unknown: "not a literal path"})
				return
			}
			text = w[j]
		}
		if text == "" || text == "-" {
			return
		}
		if !filepath.IsAbs(text) && !strings.HasPrefix(text, "~") && len(chdirs) > 0 {
			if !chdirKnown {
				out = append(out, writeArg{idx: -1, by: by, text: text, unknown: "relative to a git -C directory that is not literal"})
				return
			}
			base := ""
			for _, d := range chdirs {
				if filepath.IsAbs(d) {
					base = d
				} else {
					base = filepath.Join(base, d)
				}
			}
			text = filepath.Join(base, text)
		}
		out = append(out, writeArg{idx: -1, by: by, text: text, role: roleWrite, inDir: inDir})
	}
	for j := i + 1; j < len(w); j++ {
		s := w[j]
		if s == "--" {
			break
		}
		if !c.literal[j] {
			out = append(out, writeArg{idx: -1, by: "git " + sub, text: s, unknown: "a git argument that is not literal may be an output option"})
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(s, "--"), "=")
		long := strings.HasPrefix(s, "--") && name != ""
		switch {
		case sub == "format-patch" && s == "-o" && j+1 < len(w):
			j++
			add("git format-patch -o", j, "", true)
		case sub == "format-patch" && strings.HasPrefix(s, "-o") && !long:
			add("git format-patch -o", -1, s[2:], true)
		case long && sub == "format-patch" && len(name) > len("output") && strings.HasPrefix("output-directory", name):
			if hasVal {
				add("git format-patch --output-directory", -1, val, true)
			} else if j+1 < len(w) {
				j++
				add("git format-patch --output-directory", j, "", true)
			}
		case sub == "archive" && s == "-o" && j+1 < len(w):
			j++
			add("git archive -o", j, "", false)
		case sub == "archive" && strings.HasPrefix(s, "-o") && !long:
			add("git archive -o", -1, s[2:], false)
		case long && strings.HasPrefix("output", name):
			if hasVal {
				add("git "+sub+" --output", -1, val, false)
			} else if j+1 < len(w) {
				j++
				add("git "+sub+" --output", j, "", false)
			}
		}
	}
	if sub == "bundle" && i+2 < len(w) && w[i+1] == "create" {
		add("git bundle create", i+2, "", false)
	}
	return out
}

// writeCall is the call a shell line's write of the absolute path p
// stands for: a Write of p. Only path rules of the edit-path family
// (Edit(...), Write(...)) govern it, never the shell tool's own rules.
func (c *call) writeCall(p string) *call {
	w := &call{
		tool: c.tool, target: runtime.Target{Kind: runtime.TargetPath, Value: p, Writes: true},
		dirs: c.dirs, cwd: c.cwd, families: c.families, familyOnly: true, lexical: filepath.Clean(p), res: c.res,
	}
	w.resolved, w.resolveErr = resolveWith(c.res, p, c.cwd)
	if w.resolveErr != nil {
		w.resolved = w.lexical
	}
	return w
}

// where names a write's path for messages: the target as written, and
// the absolute path when they differ.
func (w shellWrite) where(p string) string {
	if p == "" || p == w.text {
		return w.describe()
	}
	return fmt.Sprintf("%s (%s)", w.describe(), p)
}

// writeRules finds the first deny (b = Deny) or ask rule that a write of
// the shell line meets as a Write of the same path would. A directory
// that files of run-time names are written into cannot be matched file
// by file: a rule that could concern it makes the call ask.
func (e *Engine) writeRules(c *call, rules []Rule, b runtime.Behavior) (runtime.PermissionDecision, bool) {
	if c.shell == nil {
		return runtime.PermissionDecision{}, false
	}
	for _, w := range c.shell.writes {
		for _, p := range w.paths {
			sub := c.writeCall(p)
			for _, r := range rules {
				if r.Behavior != b || !sub.applies(r) {
					continue
				}
				switch {
				case e.matches(r, sub) && b == runtime.Deny:
					return deny(fmt.Sprintf("Permission to use %s%s has been denied: %s writes %s, which the rule %s denies.",
						c.tool.Name(), c.describeTarget(), w.where(""), sub.lexical, r.describe())), true
				case e.matches(r, sub):
					return ask(fmt.Sprintf("%s needs approval: it writes %s, and the rule %s asks for that.",
						w.where(""), sub.lexical, r.describe())), true
				case w.inDir:
					return ask(fmt.Sprintf("%s needs approval: it writes files of names known only at run time in %s, which the rule %s could concern.",
						w.where(""), sub.lexical, r.describe())), true
				}
			}
		}
	}
	return runtime.PermissionDecision{}, false
}

// pendingWrites returns, described, the writes of a shell line that
// neither the mode nor an allow rule allows, each judged as a Write of
// its path: acceptEdits allows one inside the working directories, an
// Edit(...) or Write(...) allow rule one it covers. A target known only
// at run time is never allowed; nor is a directory of files with
// run-time names outside acceptEdits.
func (e *Engine) pendingWrites(c *call, rules []Rule, mode Mode) []string {
	var out []string
	for _, w := range c.shell.writes {
		if w.unknown != "" {
			out = append(out, fmt.Sprintf("%s (%s)", w.describe(), w.unknown))
			continue
		}
		for _, p := range w.paths {
			sub := c.writeCall(p)
			ok := mode == ModeAcceptEdits && sub.inside()
			if !ok && !w.inDir {
				ok = e.allowed(rules, sub)
			}
			if !ok {
				out = append(out, w.where(p))
				break
			}
		}
	}
	return out
}

// wholeAllowed reports whether a blanket allow rule (Bash) covers the
// call's tool.
func (e *Engine) wholeAllowed(rules []Rule, c *call) bool {
	for _, r := range rules {
		if r.Behavior == runtime.Allow && r.Whole() && c.applies(r) {
			return true
		}
	}
	return false
}

// writesMessage says which writes need approval and what would allow
// them.
func writesMessage(pending []string) string {
	verb := "needs"
	if len(pending) > 1 {
		verb = "need"
	}
	return fmt.Sprintf("%s %s approval: a shell command's writes are judged as Write calls, allowed only in acceptEdits mode inside the working directories or by an Edit(...) or Write(...) allow rule that covers the path.",
		strings.Join(pending, ", "), verb)
}
