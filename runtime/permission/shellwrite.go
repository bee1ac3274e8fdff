package permission

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/shellprog"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// This file finds the simple commands of a shell line that write to or
// delete protected paths (see ProtectedPaths), so that they
// need the user's word in every mode, like the file tools' writes do. The
// package doc ("Protected paths in shell commands") lists the commands it
// knows and where it is conservative.

// maxWordAlternatives bounds brace expansion of one word; a word with more
// alternatives counts as not literal.
const maxWordAlternatives = 256

// wordShape is what the write check needs to know about a word beyond its
// text: whether it is a glob pattern and what brace expansion makes of it.
type wordShape struct {
	// glob is true when an unquoted part holds *, ? or [.
	glob bool
	// alts are the words brace expansion yields (nil without braces).
	alts []string
	// unknown is true when the word's value is decided at run time in a
	// way the analysis cannot see (find's {} and brace expansions too
	// large to list).
	unknown bool
}

// shapeOf inspects a word of the parse tree.
func shapeOf(w *syntax.Word) wordShape {
	var s wordShape
	if w == nil {
		return s
	}
	braces := false
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			s.glob = s.glob || hasGlobMeta(l.Value)
			braces = braces || strings.Contains(l.Value, "{")
		}
	}
	if !braces {
		return s
	}
	return braceShape(w, s.glob)
}

// braceShape is shapeOf for a word with a brace in a literal part.
func braceShape(w *syntax.Word, glob bool) wordShape {
	s := wordShape{glob: glob}
	cp := *w
	cp.Parts = append([]syntax.WordPart(nil), w.Parts...)
	if !syntax.SplitBraces(&cp) {
		return s
	}
	for x, err := range expand.BracesSeq(nil, &cp) {
		if err != nil || len(s.alts) >= maxWordAlternatives {
			return wordShape{unknown: true}
		}
		v := shellsyntax.EvalWord(x)
		if !v.Literal {
			return wordShape{unknown: true}
		}
		s.alts = append(s.alts, v.Value)
	}
	return s
}

// hasGlobMeta reports whether unquoted source text holds an unescaped
// glob character.
func hasGlobMeta(src string) bool {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// argRole says how a command uses a path argument.
type argRole int

const (
	// roleWrite: the path is written, created or changed.
	roleWrite argRole = iota
	// roleRemove: the path is deleted, moved away or changed recursively,
	// so a directory holding a protected path counts too.
	roleRemove
)

// writeArg is one argument a command writes or deletes.
type writeArg struct {
	idx int // index into the command's words; -1 for text
	// text is the literal path when idx is -1 ("" means ".").
	text string
	role argRole
	// noFollow is set when the command acts on a final symlink itself
	// (rm, mv), not on what it points to.
	noFollow bool
	// intoDir lists source word indices when the argument is a
	// destination directory: each source lands in it under its base name.
	intoDir []int
	// by names the writer in messages ("sort -o"); the command name when
	// empty.
	by string
	// inDir is set when the argument is a directory the command writes
	// files into whose names are known only at run time.
	inDir bool
	// unknown, when set, says why what the command writes is known only
	// at run time (an awk program with >); text then holds the code.
	unknown string
}

// parsedArgs is a command line split into options and operands.
type parsedArgs struct {
	pos  []int             // indices of operands
	opts map[string]string // option name (without dashes) → value
	// optIdx maps an option taking a value to the index of its value
	// word, when the value is a word of its own.
	optIdx map[string]int
}

// parseArgs splits words[1:] GNU-style. withArg lists options that take
// a value ("|-t|--target-directory|"), optArg short options whose value,
// if any, is attached ("|-i|"). Short options may be clustered (-rf).
func parseArgs(c shellCmd, withArg, optArg string) parsedArgs {
	pa := parsedArgs{opts: map[string]string{}, optIdx: map[string]int{}}
	w := c.words
	for i := 1; i < len(w); i++ {
		s := w[i]
		switch {
		case s == "--":
			for j := i + 1; j < len(w); j++ {
				pa.pos = append(pa.pos, j)
			}
			return pa
		case !c.literal[i] || !strings.HasPrefix(s, "-") || s == "-":
			pa.pos = append(pa.pos, i)
		case strings.HasPrefix(s, "--"):
			name, val, hasVal := strings.Cut(s[2:], "=")
			if !hasVal && strings.Contains(withArg, "|--"+name+"|") && i+1 < len(w) {
				i++
				val = w[i]
				pa.optIdx[name] = i
			}
			pa.opts[name] = val
		default:
			for k := 1; k < len(s); k++ {
				name := s[k : k+1]
				if strings.Contains(optArg, "|-"+name+"|") {
					pa.opts[name] = s[k+1:]
					break
				}
				if strings.Contains(withArg, "|-"+name+"|") {
					if k+1 < len(s) {
						pa.opts[name] = s[k+1:]
					} else if i+1 < len(w) {
						i++
						pa.opts[name] = w[i]
						pa.optIdx[name] = i
					}
					break
				}
				pa.opts[name] = ""
			}
		}
	}
	return pa
}

func (pa parsedArgs) has(names ...string) bool {
	for _, n := range names {
		if _, ok := pa.opts[n]; ok {
			return true
		}
	}
	return false
}

// copyLike returns the arguments of cp, mv, ln and install: the
// destination (from -t/--target-directory or the last operand), which
// receives every source under its base name when it is a directory, and
// the sources, which mv removes.
func copyLike(pa parsedArgs, removesSources bool, single func(src int) []writeArg) []writeArg {
	var out []writeArg
	dest, srcs := -1, pa.pos
	if i, ok := pa.optIdx["t"]; ok {
		dest = i
	} else if i, ok := pa.optIdx["target-directory"]; ok {
		dest = i
	} else if pa.has("t", "target-directory") {
		dest = -1 // given inline, e.g. --target-directory=dir
	} else if len(pa.pos) >= 2 {
		dest, srcs = pa.pos[len(pa.pos)-1], pa.pos[:len(pa.pos)-1]
	} else if len(pa.pos) == 1 && single != nil {
		return single(pa.pos[0])
	}
	if removesSources {
		for _, s := range srcs {
			out = append(out, writeArg{idx: s, role: roleRemove, noFollow: true})
		}
	}
	switch {
	case dest >= 0:
		out = append(out, writeArg{idx: dest, role: roleWrite, intoDir: srcs})
	case pa.opts["t"] != "":
		out = append(out, writeArg{idx: -1, text: pa.opts["t"], role: roleWrite, intoDir: srcs})
	case pa.opts["target-directory"] != "":
		out = append(out, writeArg{idx: -1, text: pa.opts["target-directory"], role: roleWrite, intoDir: srcs})
	}
	return out
}

// writeArgs returns the arguments of c that it writes or deletes, and
// whether c is a command that changes files at all.
func writeArgs(c shellCmd) ([]writeArg, bool) {
	if len(c.words) == 0 || !c.literal[0] {
		return nil, false
	}
	all := func(pos []int, role argRole) []writeArg {
		out := make([]writeArg, 0, len(pos))
		for _, p := range pos {
			out = append(out, writeArg{idx: p, role: role})
		}
		return out
	}
	removes := func(pos []int, role argRole) []writeArg {
		out := all(pos, role)
		for i := range out {
			out[i].noFollow = true
		}
		return out
	}
	switch filepath.Base(c.words[0]) {
	case "rm", "unlink", "shred":
		pa := parseArgs(c, "|-n|--iterations|-s|--size|--random-source|", "")
		if pa.has("r", "R", "recursive") {
			return removes(pa.pos, roleRemove), true
		}
		return removes(pa.pos, roleWrite), true
	case "rmdir", "mkdir", "mkfifo", "mknod":
		pa := parseArgs(c, "|-m|--mode|--context|", "")
		if filepath.Base(c.words[0]) == "mknod" && len(pa.pos) > 0 {
			return all(pa.pos[:1], roleWrite), true
		}
		return all(pa.pos, roleWrite), true
	case "mv":
		return copyLike(parseArgs(c, "|-t|-S|--target-directory|--suffix|", ""), true, nil), true
	case "cp":
		return copyLike(parseArgs(c, "|-t|-S|--target-directory|--suffix|", ""), false, nil), true
	case "ln", "link":
		pa := parseArgs(c, "|-t|-S|--target-directory|--suffix|", "")
		// "ln -s target" creates ./base(target).
		return copyLike(pa, false, func(src int) []writeArg {
			return []writeArg{{idx: -1, role: roleWrite, intoDir: []int{src}}}
		}), true
	case "install":
		pa := parseArgs(c, "|-m|-o|-g|-t|-S|--mode|--owner|--group|--target-directory|--suffix|--strip-program|", "")
		if pa.has("d", "directory") {
			return all(pa.pos, roleWrite), true
		}
		return copyLike(pa, false, nil), true
	case "tee":
		return all(parseArgs(c, "", "").pos, roleWrite), true
	case "touch":
		return all(parseArgs(c, "|-d|-t|-r|--date|--reference|", "").pos, roleWrite), true
	case "truncate":
		return all(parseArgs(c, "|-s|-r|--size|--reference|", "").pos, roleWrite), true
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		pa := parseArgs(c, "|--reference|", "")
		if pa.has("R", "recursive") {
			return all(pa.pos, roleRemove), true
		}
		return all(pa.pos, roleWrite), true
	case "sed":
		pa := parseArgs(c, withValue("sed"), "|-i|")
		out := sedWrites(c, pa)
		if pa.has("i", "in-place") {
			files := pa.pos
			if !pa.has("e", "f", "expression", "file") && len(files) > 0 {
				files = files[1:] // the script
			}
			for _, f := range all(files, roleWrite) {
				f.by = "sed -i"
				out = append(out, f)
			}
		}
		return out, len(out) > 0
	case "awk", "gawk", "mawk", "nawk", "busybox-awk":
		out := awkWrites(c)
		return out, len(out) > 0
	case "git":
		out := gitWrites(c)
		return out, len(out) > 0
	case "sort":
		pa := parseArgs(c, withValue("sort"), "")
		out := optTargets(pa, "o", "output")
		for name := range pa.opts {
			if len(name) > 1 && name != "output" && strings.HasPrefix("output", name) {
				out = append(out, optTargets(pa, name)...)
			}
			if len(name) > 1 && strings.HasPrefix("compress-program", name) {
				out = append(out, writeArg{idx: -1, by: "sort --compress-program", text: pa.opts[name], unknown: "sort runs the compression program, which may write anything"})
			}
		}
		for i := range out {
			out[i].by = "sort -o"
		}
		return out, len(out) > 0
	case "uniq":
		pa := parseArgs(c, withValue("uniq"), "")
		if len(pa.pos) < 2 {
			return nil, false
		}
		return []writeArg{{idx: pa.pos[1], role: roleWrite, by: "uniq (its second operand)"}}, true
	case "tree":
		pa := parseArgs(c, withValue("tree"), "")
		out := optTargets(pa, "o")
		for i := range out {
			out[i].by = "tree -o"
		}
		return out, len(out) > 0
	case "time":
		pa := parseArgs(c, withValue("time"), "")
		out := optTargets(pa, "o", "output")
		for i := range out {
			out[i].by = "time -o"
		}
		return out, len(out) > 0
	case "tar":
		return tarWrites(c)
	case "perl":
		pa := parseArgs(c, "|-e|-E|", "|-i|-l|-0|-M|-m|-I|-C|-x|-d|-D|")
		if !pa.has("i") {
			return nil, false
		}
		files := pa.pos
		if !pa.has("e", "E") && len(files) > 0 {
			files = files[1:] // the script file
		}
		return all(files, roleWrite), true
	case "sponge":
		return all(parseArgs(c, "", "").pos, roleWrite), true
	case "rsync":
		pa := parseArgs(c, withValue("rsync"), "")
		if len(pa.pos) < 2 {
			return nil, true
		}
		// A source with a trailing slash copies its content, not itself.
		var srcs []int
		for _, i := range pa.pos[:len(pa.pos)-1] {
			if !c.literal[i] || !strings.HasSuffix(c.words[i], "/") {
				srcs = append(srcs, i)
			}
		}
		return []writeArg{{idx: pa.pos[len(pa.pos)-1], role: roleWrite, intoDir: srcs}}, true
	case "curl":
		pa := parseArgs(c, withValue("curl"), "")
		out := optTargets(pa, "o", "output", "c", "cookie-jar", "D", "dump-header", "trace", "trace-ascii", "stderr", "libcurl", "etag-save", "hsts", "alt-svc")
		if pa.has("O", "remote-name", "remote-name-all", "J", "remote-header-name") {
			dir := "."
			if v, ok := pa.opts["output-dir"]; ok {
				dir = v
			}
			out = append(out, writeArg{idx: -1, text: dir, role: roleWrite, inDir: true, by: "curl -O"})
		}
		if pa.has("K", "config") {
			out = append(out, writeArg{idx: -1, by: "curl -K", text: pa.opts["K"] + pa.opts["config"], unknown: "a curl config file may name output files"})
		}
		for i := range out {
			if out[i].by == "" {
				out[i].by = "curl"
			}
		}
		return out, true
	case "wget":
		pa := parseArgs(c, withValue("wget"), "")
		out := optTargets(pa, "O", "output-document", "o", "output-file", "a", "append-output")
		if !pa.has("O", "output-document") && !pa.has("spider") {
			// Without -O, wget names the file after the URL.
			dir := "."
			if v, ok := pa.opts["P"]; ok {
				dir = v
			} else if v, ok := pa.opts["directory-prefix"]; ok {
				dir = v
			}
			out = append(out, writeArg{idx: -1, text: dir, role: roleWrite, inDir: true, by: "wget"})
		}
		if pa.has("e", "execute") {
			out = append(out, writeArg{idx: -1, by: "wget -e", text: pa.opts["e"] + pa.opts["execute"], unknown: "a wget -e command may name output files"})
		}
		return out, true
	case "dd":
		var out []writeArg
		for i := 1; i < len(c.words); i++ {
			switch {
			case !c.literal[i]:
				out = append(out, writeArg{idx: i, role: roleWrite})
			case strings.HasPrefix(c.words[i], "of="):
				out = append(out, writeArg{idx: -1, text: strings.TrimPrefix(c.words[i], "of="), role: roleWrite})
			}
		}
		return out, true
	case "find":
		return findWrites(c)
	}
	return tableWrites(c)
}

func mustTableWrites(c shellCmd) []writeArg {
	out, _ := tableWrites(c)
	return out
}

// withValue is the programs table's list of name's options that take a
// value, in parseArgs's form.
func withValue(name string) string { return shellprog.Lookup(name).WithValue() }

// tableWrites returns the writes the programs table knows of a program
// writeArgs has no case for (shuf -o, xxd's and uniq's second operand,
// zip's archive, ssh -E, vim -w): options that write a named path, an
// operand in a writing position, and options that write files they do
// not name (as unknown writes).
func tableWrites(c shellCmd) ([]writeArg, bool) {
	name := filepath.Base(c.words[0])
	p := shellprog.Lookup(name)
	if p == nil {
		return nil, false
	}
	s := p.Read(c.words, c.literal)
	var out []writeArg
	for _, u := range s.Uses {
		if u.Option == nil {
			continue
		}
		e := u.Option.EffectOf(u.Value)
		switch {
		case e&shellprog.WritesPath != 0 && u.ValueIdx >= 0:
			out = append(out, writeArg{idx: u.ValueIdx, role: roleWrite, by: name + " " + u.Name})
		case e&shellprog.WritesPath != 0 && u.Value != "" && u.Value != "-":
			out = append(out, writeArg{idx: -1, text: u.Value, role: roleWrite, by: name + " " + u.Name})
		case e&shellprog.Writes != 0:
			out = append(out, writeArg{idx: -1, by: name + " " + u.Name, text: u.Value, unknown: name + " " + u.Name + " writes files it does not name"})
		}
	}
	for n, i := range s.Operands {
		if p.OperandEffect(n)&shellprog.WritesPath != 0 && c.words[i] != "-" {
			out = append(out, writeArg{idx: i, role: roleWrite, by: name + " (its operand " + c.words[i] + ")"})
		}
	}
	return out, len(out) > 0
}

// tarWrites returns what tar writes: the archive when it creates or
// changes one (-c, -r, -u, -A with -f), and files of run-time names in
// the -C directory (or the current one) when it extracts.
func tarWrites(c shellCmd) ([]writeArg, bool) {
	cc := c
	if len(c.words) > 1 && c.literal[1] && !strings.HasPrefix(c.words[1], "-") {
		// Old-style options: "tar xzf a.tar".
		cc.words = append([]string{c.words[0], "-" + c.words[1]}, c.words[2:]...)
	}
	pa := parseArgs(cc, withValue("tar"), "")
	var out []writeArg
	if pa.has("I", "use-compress-program", "to-command", "info-script", "new-volume-script", "rsh-command", "F", "checkpoint-action") {
		out = append(out, writeArg{idx: -1, by: "tar", text: strings.Join(c.words, " "), unknown: "tar runs a program given in its options, which may write anything"})
	}
	if pa.has("c", "create", "r", "append", "u", "update", "A", "catenate", "concatenate", "delete") {
		targets := optTargets(pa, "f", "file")
		// cc has the words of c at the same indices.
		for _, t := range targets {
			t.by = "tar -f"
			out = append(out, t)
		}
	}
	// Options that name a file tar writes whatever the mode
	// (--index-file, --listed-incremental), from the programs table.
	for _, w := range mustTableWrites(c) {
		if w.unknown == "" {
			out = append(out, w)
		}
	}
	if pa.has("x", "extract", "get") {
		dir := "."
		if v, ok := pa.opts["C"]; ok {
			dir = v
		} else if v, ok := pa.opts["directory"]; ok {
			dir = v
		}
		out = append(out, writeArg{idx: -1, text: dir, role: roleWrite, inDir: true, by: "tar -x"})
	}
	return out, len(out) > 0
}

// optTargets returns the values of the named options (short or long) as
// paths the command writes.
func optTargets(pa parsedArgs, names ...string) []writeArg {
	var out []writeArg
	for _, n := range names {
		v, ok := pa.opts[n]
		if !ok {
			continue
		}
		if i, ok := pa.optIdx[n]; ok {
			out = append(out, writeArg{idx: i, role: roleWrite})
		} else if v != "" && v != "-" {
			out = append(out, writeArg{idx: -1, text: v, role: roleWrite})
		}
	}
	return out
}

// findWrites returns what find changes itself: its start paths with
// -delete, and the files of -fprint, -fprintf and -fls.
func findWrites(c shellCmd) ([]writeArg, bool) {
	var out []writeArg
	var starts []int
	inExpr, deletes := false, false
	for i := 1; i < len(c.words); i++ {
		w := c.words[i]
		if !inExpr && c.literal[i] && (strings.HasPrefix(w, "-") || w == "(" || w == "!") && !(i == 1 && (w == "-H" || w == "-L" || w == "-P")) {
			inExpr = true
		}
		if !inExpr {
			starts = append(starts, i)
			continue
		}
		if !c.literal[i] && i > 0 && !strings.HasPrefix(w, "-") {
			// A word that is not literal could become -fprint at run time.
			if strings.HasPrefix(w, "$") || strings.HasPrefix(w, "\"$") {
				out = append(out, writeArg{idx: -1, by: "find", text: w, unknown: "a find argument that is not literal could be a writing action"})
			}
		}
		switch w {
		case "-delete":
			deletes = true
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if i+1 < len(c.words) {
				out = append(out, writeArg{idx: i + 1, role: roleWrite, by: "find " + w})
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			// The commands run are checked on their own; skip their words.
			for i+1 < len(c.words) && c.words[i+1] != ";" && c.words[i+1] != "+" {
				i++
			}
		}
	}
	if deletes {
		if len(starts) == 0 {
			out = append(out, writeArg{idx: -1, role: roleRemove, by: "find -delete"})
		}
		for _, s := range starts {
			out = append(out, writeArg{idx: s, role: roleRemove, by: "find -delete"})
		}
	}
	return out, len(out) > 0
}

// protectedRoots returns the protected locations of the working
// directories and cwd: their .git and .agentcore, resolved.
func (env shellEnv) protectedRoots() []string {
	var out []string
	for _, d := range append([]string{env.cwd}, env.dirs...) {
		if d == "" {
			continue
		}
		for _, name := range []string{".git", ".agentcore"} {
			if r, err := env.res.Resolve(filepath.Join(d, name)); err == nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// holdsProtected reports whether removing the absolute path p would take a
// protected path with it: p is, or holds, the .git or .agentcore of a
// working directory, or a directory with a .git or .agentcore in it.
func (env shellEnv) holdsProtected(p string) bool {
	r, err := resolveWith(env.res, p, env.cwd)
	if err != nil {
		return true
	}
	for _, root := range env.protectedRoots() {
		if fspath.Within(root, r) {
			return true
		}
	}
	if filepath.Base(r) == ".agentcore" {
		return true
	}
	for _, name := range []string{".git", ".agentcore"} {
		if _, err := os.Lstat(filepath.Join(r, name)); err == nil {
			return true
		}
	}
	return false
}

// absPath makes a literal path argument absolute; ok is false for
// ~user forms the analysis cannot place.
func (env shellEnv) absPath(p string) (string, bool) {
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = filepath.Join(env.home, strings.TrimPrefix(p, "~"))
	case strings.HasPrefix(p, "~"):
		return "", false
	}
	return joinRaw(env.cwd, p), true
}

// pathCheck judges one literal path (no pattern) for a role; it returns a
// description for the message when the path is protected.
func (env shellEnv) pathCheck(text string, role argRole, afterCd, noFollow bool) (string, bool) {
	if afterCd && !filepath.IsAbs(text) && !strings.HasPrefix(text, "~") {
		if IsProtectedPath(text) || env.cdRisk {
			return fmt.Sprintf("%s (a relative path after cd into a protected directory)", text), true
		}
	}
	p, ok := env.absPath(text)
	if !ok {
		return fmt.Sprintf("%s (a path the analysis cannot place)", text), true
	}
	if noFollow {
		// The command acts on a final symlink itself: resolve only the
		// directory it is in.
		if IsProtectedPath(p) {
			return p, true
		}
		dir, err := resolveWith(env.res, filepath.Dir(p), env.cwd)
		if err != nil {
			return fmt.Sprintf("%s (whose symlinks cannot be resolved)", p), true
		}
		real := filepath.Join(dir, filepath.Base(p))
		if IsProtectedPath(real) {
			return fmt.Sprintf("%s (really %s)", p, real), true
		}
		if fi, err := os.Lstat(real); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			return "", false
		}
		if role == roleRemove && env.holdsProtected(real) {
			return fmt.Sprintf("%s (which holds .git/ or .agentcore/)", p), true
		}
		return "", false
	}
	if env.protect != nil && env.protect(p) {
		return p, true
	}
	if role == roleRemove && env.holdsProtected(p) {
		return fmt.Sprintf("%s (which holds .git/ or .agentcore/)", p), true
	}
	return "", false
}

// patternCheck judges a glob pattern: protected when one of its parts
// could match .git or .agentcore, or when the files it matches now are.
func (env shellEnv) patternCheck(text string, role argRole, noFollow bool) (string, bool) {
	for _, part := range strings.Split(filepath.ToSlash(text), "/") {
		for _, name := range []string{".git", ".agentcore"} {
			if globCouldMatch(part, name) {
				return fmt.Sprintf("%s (a pattern that could match %s)", text, name), true
			}
		}
	}
	p, ok := env.absPath(text)
	if !ok {
		return fmt.Sprintf("%s (a path the analysis cannot place)", text), true
	}
	matches, err := filepath.Glob(p)
	if err != nil {
		return fmt.Sprintf("%s (a pattern the analysis cannot read)", text), true
	}
	for _, m := range matches {
		if hiddenFromGlob(p, m) {
			continue
		}
		if d, bad := env.pathCheck(m, role, false, noFollow); bad {
			return fmt.Sprintf("%s (which matches %s)", text, d), true
		}
	}
	return "", false
}

// hiddenFromGlob reports whether bash would not expand pattern to match:
// a name starting with a dot matched by a pattern part that does not.
// filepath.Glob keeps the pattern's number of parts.
func hiddenFromGlob(pattern, match string) bool {
	pp := strings.Split(pattern, string(filepath.Separator))
	mp := strings.Split(match, string(filepath.Separator))
	if len(pp) != len(mp) {
		return false
	}
	for i := range pp {
		if hasGlobMeta(pp[i]) && strings.HasPrefix(mp[i], ".") && !strings.HasPrefix(pp[i], ".") && !strings.HasPrefix(pp[i], "[") {
			return true
		}
	}
	return false
}

// globCouldMatch reports whether the pattern part matches name under
// bash's rules: a leading dot must be matched by a literal dot (or a
// bracket expression, conservatively).
func globCouldMatch(part, name string) bool {
	if !hasGlobMeta(part) {
		return false
	}
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(part, ".") && !strings.HasPrefix(part, "[") {
		return false
	}
	ok, err := path.Match(part, name)
	return ok || err != nil
}

// checkWrites records in a.protected every protected path the command
// writes or deletes. afterCd is true when the line changes directory
// before it, so relative paths are not relative to env.cwd.
func checkWrites(a *shellAnalysis, c shellCmd, env shellEnv, afterCd bool) {
	args, writer := writeArgs(c)
	if !writer {
		if len(c.words) > 0 && !c.literal[0] {
			// An unknown command: judge its literal path arguments.
			for i := 1; i < len(c.words); i++ {
				if c.literal[i] && IsProtectedPath(c.words[i]) {
					a.protect(fmt.Sprintf("%s (an argument of the command %s, which is not literal)", c.words[i], c.words[0]))
				}
			}
		}
		return
	}
	name := filepath.Base(c.words[0])
	if c.argsFrom != "" {
		a.protect(fmt.Sprintf("the arguments %s gives %s (they could name a protected path)", c.argsFrom, name))
		a.addWrite(shellWrite{by: name, text: "the arguments " + c.argsFrom + " gives it", unknown: "paths known only at run time"})
	}
	for _, arg := range args {
		recordArg(a, c, arg, env)
		if arg.unknown != "" {
			// The code or option is known; what it writes is not. Code
			// that names a protected directory may write it.
			if strings.Contains(arg.text, ".git") || strings.Contains(arg.text, ".agentcore") {
				a.protect(fmt.Sprintf("%q (%s, and it names a protected directory)", arg.text, arg.unknown))
			}
			continue
		}
		if arg.inDir {
			text := arg.text
			if arg.idx >= 0 {
				if !c.literal[arg.idx] {
					a.protect(fmt.Sprintf("%s (not a literal path; it could name a protected path)", c.words[arg.idx]))
					continue
				}
				text = c.words[arg.idx]
			}
			if d, bad := env.judge(text, wordShape{}, roleWrite, afterCd, false); bad {
				a.protect(d)
			} else if p, ok := env.absPath(text); !ok || env.anyNameProtected(p) {
				a.protect(fmt.Sprintf("%s/… (files of run-time names there could be protected paths)", text))
			}
			continue
		}
		if arg.idx < 0 {
			// A literal path that is not a word of its own (dd's of=,
			// --target-directory=dir) or, when empty, the current
			// directory ("find -delete" without a start path).
			text := arg.text
			if text == "" {
				text = "."
			}
			if d, bad := env.judge(text, wordShape{}, arg.role, afterCd, false); bad {
				a.protect(d)
				continue
			}
			for _, s := range arg.intoDir {
				env.judgeInto(a, text, c, s, afterCd)
			}
			continue
		}
		if d, bad := env.judgeWord(c, arg.idx, arg.role, afterCd, arg.noFollow); bad {
			a.protect(d)
			continue
		}
		for _, s := range arg.intoDir {
			if c.literal[arg.idx] {
				env.judgeInto(a, c.words[arg.idx], c, s, afterCd)
			}
		}
	}
}

// judgeWord judges the idx-th word of c in a role.
func (env shellEnv) judgeWord(c shellCmd, idx int, role argRole, afterCd, noFollow bool) (string, bool) {
	var shape wordShape
	if idx < len(c.shapes) {
		shape = c.shapes[idx]
	}
	if !c.literal[idx] || shape.unknown || (env.placeholders && strings.Contains(c.words[idx], "{}")) {
		return fmt.Sprintf("%s (not a literal path; it could name a protected path)", c.words[idx]), true
	}
	return env.judge(c.words[idx], shape, role, afterCd, noFollow)
}

// judge judges a literal word with its shape.
func (env shellEnv) judge(text string, shape wordShape, role argRole, afterCd, noFollow bool) (string, bool) {
	alts := shape.alts
	if alts == nil {
		alts = []string{text}
	}
	for _, t := range alts {
		var d string
		var bad bool
		if shape.glob && hasGlobMeta(t) {
			if afterCd && !filepath.IsAbs(t) && env.cdRisk {
				return fmt.Sprintf("%s (a relative pattern after cd into a protected directory)", t), true
			}
			d, bad = env.patternCheck(t, role, noFollow)
		} else {
			d, bad = env.pathCheck(t, role, afterCd, noFollow)
		}
		if bad {
			return d, true
		}
	}
	return "", false
}

// judgeInto judges where source word s of c lands in the destination dir
// dest, when dest is a directory (it exists as one or ends in a slash).
func (env shellEnv) judgeInto(a *shellAnalysis, dest string, c shellCmd, s int, afterCd bool) {
	dp, ok := env.absPath(dest)
	if !ok {
		return
	}
	isDir := strings.HasSuffix(dest, "/") || dest == "." || dest == ".."
	if r, err := resolveWith(env.res, dp, env.cwd); err == nil {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			isDir = true
		}
	}
	if !isDir {
		return
	}
	var shape wordShape
	if s < len(c.shapes) {
		shape = c.shapes[s]
	}
	if !c.literal[s] || shape.unknown || shape.glob {
		// The name it lands under is decided at run time: protected when
		// some name in dest would be.
		if env.anyNameProtected(dp) {
			a.protect(fmt.Sprintf("%s/… (where %s lands; it could be a protected path)", dp, c.words[s]))
		}
		return
	}
	alts := shape.alts
	if alts == nil {
		alts = []string{c.words[s]}
	}
	for _, t := range alts {
		base := filepath.Base(strings.TrimRight(t, "/"))
		if d, bad := env.pathCheck(filepath.Join(dest, base), roleWrite, afterCd, false); bad {
			a.protect(d)
			return
		}
	}
}

// anyNameProtected reports whether some file created in the directory dir
// would be protected: dir is inside a .git or is an .agentcore.
func (env shellEnv) anyNameProtected(dir string) bool {
	real, err := resolveWith(env.res, dir, env.cwd)
	if err != nil {
		return true
	}
	for _, d := range []string{dir, real} {
		if IsProtectedPath(filepath.Join(d, "x")) {
			return true
		}
		switch strings.ToLower(filepath.Base(d)) {
		case ".agentcore", ".claude", ".vscode", ".idea", ".config":
			// Some names there are protected (settings.json, skills/…).
			return true
		}
	}
	if h, err := resolveWith(env.res, env.home, "/"); err == nil && env.home != "" && real == h {
		return true // the home directory holds the shell's start-up files
	}
	return false
}

// cdRiskOf reports whether a cd or pushd command may move into a
// protected directory, so relative paths after it cannot be trusted.
func cdRiskOf(c shellCmd, env shellEnv) bool {
	pa := parseArgs(c, "", "")
	for _, i := range pa.pos {
		if !c.literal[i] {
			return true
		}
		t := c.words[i]
		if t == "-" {
			continue
		}
		p, ok := env.absPath(t)
		if !ok {
			return true
		}
		if IsProtectedPath(p) || filepath.Base(p) == ".agentcore" {
			return true
		}
		if r, err := resolveWith(env.res, p, env.cwd); err != nil || IsProtectedPath(r) || filepath.Base(r) == ".agentcore" {
			return true
		}
	}
	return false
}
