package permission

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime/shellprog"
)

// This file finds protected paths that a command writes under names it
// learns only at run time, by looking at what it will copy: the trees
// cp -r, mv and rsync copy (so "cp -r payload/. ." planting
// .git/hooks/pre-commit asks), the files a glob hands them, and the
// members of an archive tar or unzip extracts. What cannot be listed (an
// archive from stdin, a compression the analysis cannot read, a tree too
// large) counts as protected.

// maxTreeEntries bounds the entries of a copied tree or an archive the
// analysis lists; past it the command counts as writing a protected path.
const maxTreeEntries = 10000

// checkPlanted records in a.protected every protected path c may create
// from the content of its sources.
func checkPlanted(a *shellAnalysis, c shellCmd, env shellEnv) {
	if len(c.words) == 0 || !c.literal[0] || env.protect == nil {
		return
	}
	switch filepath.Base(c.words[0]) {
	case "cp", "mv", "rsync", "install", "ditto":
		checkTreeCopy(a, c, env)
	case "tar", "bsdtar", "gtar":
		checkTarExtract(a, c, env)
	case "unzip":
		checkUnzip(a, c, env)
	}
}

// checkTreeCopy judges where each source of a copy lands, walking source
// directories: the destination holds each entry under its path relative
// to the source (cp -r src/. dest, rsync src/ dest) or under the source's
// name (cp -r src dest, dest existing).
func checkTreeCopy(a *shellAnalysis, c shellCmd, env shellEnv) {
	name := filepath.Base(c.words[0])
	pa := parseArgs(c, "|-t|-S|-e|-f|-B|-T|--target-directory|--suffix|--rsh|--filter|--exclude|--include|--temp-dir|--backup-dir|--rsync-path|--chmod|--log-file|", "")
	var dest string
	srcs := pa.pos
	switch {
	case pa.opts["t"] != "":
		dest = pa.opts["t"]
	case pa.opts["target-directory"] != "":
		dest = pa.opts["target-directory"]
	case len(pa.pos) >= 2:
		last := pa.pos[len(pa.pos)-1]
		if !c.literal[last] {
			return // judged as a write that is not literal elsewhere
		}
		dest, srcs = c.words[last], pa.pos[:len(pa.pos)-1]
	default:
		return
	}
	dests, why := env.place(dest)
	if why != "" {
		return
	}
	recursive := name == "mv" || name == "ditto" || pa.has("r", "R", "a", "recursive", "archive")
	for _, s := range srcs {
		if !c.literal[s] {
			continue // the write check asks for a source that is not literal
		}
		var shape wordShape
		if s < len(c.shapes) {
			shape = c.shapes[s]
		}
		word := c.words[s]
		matches := []string{word}
		if shape.glob && hasGlobMeta(word) {
			places, why := env.place(word)
			if why != "" {
				continue
			}
			matches = nil
			for _, pl := range places {
				m, err := filepath.Glob(filepath.Clean(pl))
				if err != nil || len(m) > maxReadGlob {
					a.protect(fmt.Sprintf("%s (a pattern too wide to check for protected paths)", word))
					return
				}
				for _, x := range m {
					if !hiddenFromGlob(filepath.Clean(pl), x) {
						matches = append(matches, x)
					}
				}
			}
		}
		for _, src := range matches {
			places, why := env.place(src)
			if why != "" {
				continue
			}
			for _, sp := range places {
				contents := strings.HasSuffix(src, "/.") || src == "." || (name == "rsync" && strings.HasSuffix(src, "/"))
				base := filepath.Base(filepath.Clean(sp))
				for _, d := range dests {
					// cp -r src dest makes dest the copy when dest does not
					// exist, and puts it in dest/src when it is a
					// directory; rsync always does the latter.
					roots := []string{d}
					if !contents && (name == "rsync" || strings.HasSuffix(dest, "/") || isDirTarget(dest, d, env.res) || len(srcs) > 1) {
						roots = []string{joinRaw(d, base)}
					}
					if desc, bad := plantedUnder(sp, roots, recursive, env); bad {
						a.protect(fmt.Sprintf("%s (%s copies %s)", desc, name, src))
						return
					}
				}
			}
		}
	}
}

// plantedUnder walks the source sp and reports the first protected path
// one of its entries lands on under any of roots.
func plantedUnder(sp string, roots []string, recursive bool, env shellEnv) (string, bool) {
	real, err := resolveWith(env.res, sp, env.cwd)
	if err != nil {
		return fmt.Sprintf("%s (whose symlinks cannot be resolved)", sp), true
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() || !recursive {
		for _, r := range roots[:1] {
			if env.protect(r) {
				return r, true
			}
		}
		return "", false
	}
	n := 0
	var found string
	err = filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		n++
		if n > maxTreeEntries {
			found = fmt.Sprintf("%s (a tree too large to check for protected paths)", sp)
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(real, p)
		for _, r := range roots {
			dst := filepath.Join(r, rel)
			if env.protect(dst) {
				found = dst
				return filepath.SkipAll
			}
		}
		return nil
	})
	return found, found != "" || err != nil
}

// tarMembers lists the member names of the archive at p (plain, gzip or
// bzip2 tar).
func tarMembers(p string) ([]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	magic, _ := br.Peek(3)
	var r io.Reader = br
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		defer gz.Close()
		r = gz
	case bytes.HasPrefix(magic, []byte("BZh")):
		r = bzip2.NewReader(br)
	}
	tr := tar.NewReader(r)
	var out []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(out) >= maxTreeEntries {
			return nil, fmt.Errorf("more than %d members", maxTreeEntries)
		}
		out = append(out, h.Name)
		if h.Linkname != "" {
			out = append(out, h.Linkname)
		}
	}
}

// checkTarExtract judges the members tar -x writes, in the -C directory.
func checkTarExtract(a *shellAnalysis, c shellCmd, env shellEnv) {
	cc := c
	if len(c.words) > 1 && c.literal[1] && !strings.HasPrefix(c.words[1], "-") {
		// Old-style options: "tar xzf a.tar".
		cc.words = append([]string{c.words[0], "-" + c.words[1]}, c.words[2:]...)
		cc.literal = append([]bool{true, true}, c.literal[2:]...)
	}
	pa := parseArgs(cc, "|-f|-C|-T|-X|-b|-H|-K|-N|-V|-g|-L|-I|--file|--directory|--files-from|--exclude-from|--format|--label|--newer|--listed-incremental|--use-compress-program|--to-command|--info-script|--new-volume-script|--rsh-command|", "")
	if !pa.has("x", "extract", "get") {
		return
	}
	archive := pa.opts["f"]
	if v, ok := pa.opts["file"]; ok {
		archive = v
	}
	i, hasIdx := pa.optIdx["f"]
	if !hasIdx {
		i, hasIdx = pa.optIdx["file"]
	}
	if hasIdx && !cc.literal[i] {
		a.protect(fmt.Sprintf("%s (an archive that is not a literal path; its members could be protected paths)", cc.words[i]))
		return
	}
	dir := "."
	if v, ok := pa.opts["C"]; ok {
		dir = v
	} else if v, ok := pa.opts["directory"]; ok {
		dir = v
	}
	extractInto(a, "tar -x", archive, dir, env, tarMembers)
}

// checkUnzip judges the members unzip writes, in the -d directory.
func checkUnzip(a *shellAnalysis, c shellCmd, env shellEnv) {
	pa := parseArgs(c, "|-d|-x|-P|", "")
	if pa.has("l", "t", "v", "p", "Z") || len(pa.pos) == 0 {
		return // lists, tests or prints
	}
	if !c.literal[pa.pos[0]] {
		a.protect(fmt.Sprintf("%s (an archive that is not a literal path; its members could be protected paths)", c.words[pa.pos[0]]))
		return
	}
	dir := "."
	if v, ok := pa.opts["d"]; ok && v != "" {
		dir = v
	}
	extractInto(a, "unzip", c.words[pa.pos[0]], dir, env, func(p string) ([]string, error) {
		zr, err := zip.OpenReader(p)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		if len(zr.File) > maxTreeEntries {
			return nil, fmt.Errorf("more than %d members", maxTreeEntries)
		}
		out := make([]string, 0, len(zr.File))
		for _, f := range zr.File {
			out = append(out, f.Name)
		}
		return out, nil
	})
}

// extractInto lists an archive and judges where each member lands.
func extractInto(a *shellAnalysis, by, archive, dir string, env shellEnv, list func(string) ([]string, error)) {
	if archive == "" || archive == "-" {
		a.protect(fmt.Sprintf("the members %s extracts from standard input (they could be protected paths)", by))
		return
	}
	aps, why := env.place(archive)
	dirs, why2 := env.place(dir)
	if why != "" || why2 != "" {
		a.protect(fmt.Sprintf("the members %s extracts from %s (a path the analysis cannot place)", by, archive))
		return
	}
	for _, ap := range aps {
		names, err := list(ap)
		if err != nil {
			if _, statErr := os.Stat(ap); errors.Is(statErr, fs.ErrNotExist) {
				continue // tar fails on a missing archive
			}
			a.protect(fmt.Sprintf("the members %s extracts from %s (an archive the analysis cannot list: %v)", by, archive, err))
			return
		}
		for _, n := range names {
			for _, d := range dirs {
				dst := joinRaw(d, n)
				if filepath.IsAbs(n) {
					dst = n
				}
				if env.protect(dst) {
					a.protect(fmt.Sprintf("%s (a member of %s that %s extracts)", filepath.Clean(dst), archive, by))
					return
				}
			}
		}
	}
}

// gitConfigWrite describes the configuration file git config changes
// (the repository's .git/config, or ~/.gitconfig with --global) when it
// sets or removes a key that can make git run a program (core.hooksPath,
// core.fsmonitor, an alias: every key but shellprog.GitConfigKeySafe's),
// or "" when c reads the configuration, changes a harmless key
// (user.name) or is not git config. Such a change is a protected write
// in every mode: it runs programs in later git commands.
func gitConfigWrite(c shellCmd, env shellEnv) string {
	if len(c.words) < 3 || !c.literal[0] || filepath.Base(c.words[0]) != "git" {
		return ""
	}
	sub := shellprog.GitSubcommand(c.words, c.literal)
	if sub < 1 || sub >= len(c.words) || c.words[sub] != "config" {
		return ""
	}
	where := "the repository's .git/config"
	var ops []string
	change := false
	for i := sub + 1; i < len(c.words); i++ {
		switch w := c.words[i]; {
		case w == "--get" || w == "--get-all" || w == "--get-regexp" || w == "--get-urlmatch" || w == "--get-color" ||
			w == "--get-colorbool" || w == "--list" || w == "-l" || w == "get" || w == "list":
			return ""
		case w == "--global":
			where = "~/.gitconfig"
		case w == "--system":
			where = "the system's gitconfig"
		case w == "--file" || w == "-f":
			i++
			if i < len(c.words) {
				where = c.words[i]
			}
		case strings.HasPrefix(w, "--file="):
			where = strings.TrimPrefix(w, "--file=")
		case w == "--unset" || w == "--unset-all" || w == "--add" || w == "--replace-all" || w == "--rename-section" ||
			w == "--remove-section" || w == "-e" || w == "--edit" || w == "set" || w == "unset" || w == "rename-section" ||
			w == "remove-section" || w == "edit":
			change = true
		case strings.HasPrefix(w, "-") && c.literal[i]:
		case !c.literal[i]:
			ops = append(ops, "") // a key known only at run time: any key
		default:
			ops = append(ops, w)
		}
	}
	if (!change && len(ops) < 2) || len(ops) == 0 {
		return ""
	}
	key := ops[0]
	if (key == "set" || key == "unset") && len(ops) > 1 {
		key = ops[1]
	}
	if key != "" && shellprog.GitConfigKeySafe(key) {
		return ""
	}
	return fmt.Sprintf("%s (git config %s sets a key that can make git run a program)", where, key)
}
