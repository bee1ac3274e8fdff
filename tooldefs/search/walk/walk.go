// Package walk is a parallel directory walk with ripgrep's filtering rules:
// .gitignore files (nested ones, negations, .git/info/exclude, and those of
// parent directories up to the repository root) applied only inside a git
// repository, .ignore and .rgignore files everywhere, hidden files and
// directories skipped unless asked for, symbolic links not followed, and
// ripgrep's --glob overrides and --type filters. It is the engine under
// the Glob and Grep tools.
package walk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// VCSDirs are the version-control directories Claude Code's search tools
// never enter, even when hidden files are searched.
var VCSDirs = []string{".git", ".svn", ".hg", ".bzr", ".jj", ".sl"}

// Options configure a walk. The zero value walks like `rg --files`.
type Options struct {
	// Hidden includes files and directories whose name starts with '.'.
	Hidden bool
	// GlobalIgnore also applies the user's global gitignore (git's
	// core.excludesFile, by default ~/.config/git/ignore) inside git
	// repositories, as rg does by default.
	GlobalIgnore bool
	// ConfigHome is where git's user configuration lives, for
	// GlobalIgnore ($XDG_CONFIG_HOME to git); empty is ~/.config.
	ConfigHome string
	// NoIgnore disables .gitignore, .ignore, .rgignore and
	// .git/info/exclude.
	NoIgnore bool
	// SkipNames are file or directory names never visited (e.g. VCSDirs).
	SkipNames []string
	// Globs are ripgrep --glob overrides, matched against the path
	// relative to the root: `*.go` includes, `!vendor/` excludes.
	Globs []string
	// Types are ripgrep --type names (`!name` excludes, like --type-not).
	Types []string
	// Threads is the number of walking goroutines; when 0, twice
	// GOMAXPROCS (at least 4, at most 24), so that a goroutine waiting in
	// a system call leaves work for the others.
	Threads int
	// MaxDepth limits how deep files are found: 1 is the root's own files;
	// 0 is no limit.
	MaxDepth int
	// Stat fills Entry.ModTime (with one fstatat per file, relative to the
	// open directory, where the platform has it).
	Stat bool
	// Exclude, when set, is asked about every file and directory before
	// the ignore rules (with its path: the root joined with its relative
	// path); true leaves it out, a directory with everything beneath it.
	// The permission rules use it: a Read deny rule keeps Grep and Glob
	// out of what it covers. It may be called from several goroutines.
	Exclude func(path string, isDir bool) bool
}

// Entry is one file found by the walk.
type Entry struct {
	// Path is the root joined with Rel (with the OS separator).
	Path string
	// Rel is the slash-separated path relative to the root; for a root that
	// is itself a file, its base name.
	Rel string
	// Worker identifies the goroutine calling the visit function, in
	// [0, Threads): per-worker state (buffers) can be indexed by it.
	Worker int
	// ModTime is the file's modification time when Options.Stat is set
	// (zero if the file vanished meanwhile).
	ModTime time.Time
}

// Filter is the compiled form of Options, reusable across walks.
type Filter struct {
	opts   Options
	global *IgnoreFile
	over   *overrides
	types  *typeFilter
	skip   map[string]bool
}

// NewFilter compiles the globs and types of opts. Its error names the bad
// glob or type.
func NewFilter(opts Options) (*Filter, error) {
	over, err := compileOverrides(opts.Globs)
	if err != nil {
		return nil, err
	}
	types, err := compileTypes(opts.Types)
	if err != nil {
		return nil, err
	}
	f := &Filter{opts: opts, over: over, types: types, skip: map[string]bool{}}
	if opts.GlobalIgnore && !opts.NoIgnore {
		f.global = globalGitignore(opts.ConfigHome)
	}
	for _, n := range opts.SkipNames {
		f.skip[n] = true
	}
	return f, nil
}

// Threads returns the number of goroutines a walk with this filter uses.
func (f *Filter) Threads() int {
	if f.opts.Threads > 0 {
		return f.opts.Threads
	}
	return min(max(4, 2*runtime.GOMAXPROCS(0)), 24)
}

// ErrStop may be returned by a visit function to end the walk early
// without an error.
var ErrStop = errors.New("walk: stop")

// Walk visits every file under root that passes opts, calling visit from
// several goroutines at once (see Entry.Worker). A root that is a file is
// visited as is, filters aside, as ripgrep does with explicit paths. The
// first error returned by visit (other than ErrStop) ends the walk and is
// returned; unreadable directories are skipped.
func Walk(ctx context.Context, root string, opts Options, visit func(*Entry) error) error {
	f, err := NewFilter(opts)
	if err != nil {
		return err
	}
	return f.Walk(ctx, root, visit)
}

// ignoreNode holds the ignore files of one directory; nodes form a chain
// from a directory up through its ancestors, including those above the
// search root.
type ignoreNode struct {
	parent *ignoreNode
	// relLen is the length of this directory's root-relative path plus
	// one for the separator (0 for the root); -1 above the root.
	relLen int
	// above is this directory's path down to the root ("sub/dir/"), for
	// nodes above the root.
	above                 string
	rgignore, ignore, git *IgnoreFile
	exclude               *IgnoreFile
	hasGit, anyGit        bool
	// anyRules is true when this node or an ancestor has ignore rules.
	anyRules bool
}

func (n *ignoreNode) empty() bool {
	return n.rgignore == nil && n.ignore == nil && n.git == nil && n.exclude == nil
}

// match applies ripgrep's precedence: per kind the deepest directory with a
// matching rule wins; .rgignore beats .ignore beats .gitignore beats
// .git/info/exclude; git rules apply only inside a repository and not
// across the repository's root.
func (n *ignoreNode) match(rel string, isDir bool) Match {
	if !n.anyRules {
		return None
	}
	var mc, mi, mg, mx Match
	sawGit := false
	anyGit := n.anyGit
	for nd := n; nd != nil; nd = nd.parent {
		if nd.empty() {
			sawGit = sawGit || nd.hasGit
			continue
		}
		var sub string
		if nd.relLen >= 0 {
			sub = rel[nd.relLen:]
		} else {
			sub = nd.above + rel
		}
		if mc == None {
			mc = nd.rgignore.Match(sub, isDir)
		}
		if mi == None {
			mi = nd.ignore.Match(sub, isDir)
		}
		if anyGit && !sawGit {
			if mg == None {
				mg = nd.git.Match(sub, isDir)
			}
			if mx == None {
				mx = nd.exclude.Match(sub, isDir)
			}
		}
		sawGit = sawGit || nd.hasGit
	}
	for _, m := range [...]Match{mc, mi, mg, mx} {
		if m != None {
			return m
		}
	}
	return None
}

// loadNode reads the ignore files of dir. has tells which of the names
// exist (from the directory listing, sparing a stat per name).
func loadNode(parent *ignoreNode, dir string, has func(string) bool, noIgnore bool) *ignoreNode {
	n := &ignoreNode{parent: parent}
	n.hasGit = has(".git")
	n.anyGit = n.hasGit || (parent != nil && parent.anyGit)
	if noIgnore {
		return n
	}
	defer func() { n.anyRules = !n.empty() || (parent != nil && parent.anyRules) }()
	read := func(name string) *IgnoreFile {
		if !has(name) {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) == 0 {
			return nil
		}
		f := ParseIgnore(data)
		if len(f.rules) == 0 {
			return nil
		}
		return f
	}
	n.rgignore = read(".rgignore")
	n.ignore = read(".ignore")
	n.git = read(".gitignore")
	if n.hasGit {
		if data, err := os.ReadFile(filepath.Join(dir, ".git", "info", "exclude")); err == nil {
			if f := ParseIgnore(data); len(f.rules) > 0 {
				n.exclude = f
			}
		}
	}
	return n
}

func statHas(dir string) func(string) bool {
	return func(name string) bool {
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
}

// parentNodes builds the chain of ignore nodes for the ancestors of the
// absolute directory root, outermost first.
func parentNodes(root string, noIgnore bool) *ignoreNode {
	var dirs []string
	for d := filepath.Dir(root); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var node *ignoreNode
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		n := loadNode(node, d, statHas(d), noIgnore)
		n.relLen = -1
		rel, err := filepath.Rel(d, root)
		if err != nil {
			return node
		}
		n.above = filepath.ToSlash(rel) + "/"
		node = n
	}
	return node
}

type dirJob struct {
	path string
	rel  string
	node *ignoreNode
}

// Walk is Walk with a compiled filter.
func (f *Filter) Walk(ctx context.Context, root string, visit func(*Entry) error) error {
	info, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return ignoreStop(visit(&Entry{Path: root, Rel: filepath.Base(root), ModTime: info.ModTime()}))
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	w := &walker{f: f, ctx: ctx, visit: visit}
	w.cond = sync.NewCond(&w.mu)
	parents := parentNodes(abs, f.opts.NoIgnore)
	w.stack = []dirJob{{path: root, rel: "", node: parents}}
	w.pending = 1
	threads := f.Threads()
	var wg sync.WaitGroup
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			w.work(id)
		}(i)
	}
	wg.Wait()
	if w.err != nil {
		return ignoreStop(w.err)
	}
	return ctx.Err()
}

func ignoreStop(err error) error {
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

type walker struct {
	f     *Filter
	ctx   context.Context
	visit func(*Entry) error

	mu      sync.Mutex
	cond    *sync.Cond
	stack   []dirJob
	pending int // directories queued or being read
	err     error
}

func (w *walker) work(id int) {
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.pending > 0 && w.err == nil {
			w.cond.Wait()
		}
		if w.pending == 0 || w.err != nil {
			w.mu.Unlock()
			w.cond.Broadcast()
			return
		}
		job := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()

		err := w.readDir(id, job)

		w.mu.Lock()
		if err != nil && w.err == nil {
			w.err = err
		}
		w.pending--
		done := w.pending == 0
		w.mu.Unlock()
		if done || err != nil {
			w.cond.Broadcast()
		}
	}
}

// push makes subdirectories available to idle workers at once, before the
// files of their parent are visited.
func (w *walker) push(subdirs []dirJob) {
	if len(subdirs) == 0 {
		return
	}
	w.mu.Lock()
	w.stack = append(w.stack, subdirs...)
	w.pending += len(subdirs)
	w.mu.Unlock()
	if len(subdirs) > 1 {
		w.cond.Broadcast()
	} else {
		w.cond.Signal()
	}
}

// readDir lists one directory, queues its subdirectories and visits its
// files.
func (w *walker) readDir(id int, job dirJob) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	dir, err := openDir(job.path)
	if err != nil {
		return nil
	}
	defer dir.close()
	ents := dir.list()
	has := func(name string) bool {
		for i := range ents {
			if ents[i].name == name {
				return true
			}
		}
		return false
	}
	node := loadNode(job.node, job.path, has, w.f.opts.NoIgnore)
	if job.rel == "" {
		node.relLen = 0
	} else {
		node.relLen = len(job.rel) + 1
	}
	var subdirs []dirJob
	type file struct{ path, rel, name string }
	var files []file
	sep := string(filepath.Separator)
	for i := range ents {
		name := ents[i].name
		typ := ents[i].typ
		if typ == typeUnknown {
			typ = lstatType(job.path + sep + name)
		}
		isDir := typ == typeDir
		if !isDir && typ != typeFile {
			continue // symlinks, devices, sockets: not followed, like rg
		}
		if w.f.skip[name] {
			continue
		}
		var rel string
		if job.rel == "" {
			rel = name
		} else {
			rel = job.rel + "/" + name
		}
		path := job.path + sep + name
		if strings.HasSuffix(job.path, sep) {
			path = job.path + name
		}
		if w.f.opts.Exclude != nil && w.f.opts.Exclude(path, isDir) {
			continue
		}
		if !w.f.keep(node, rel, name, isDir) {
			continue
		}
		if isDir {
			if max := w.f.opts.MaxDepth; max > 0 && strings.Count(rel, "/")+1 >= max {
				continue
			}
			subdirs = append(subdirs, dirJob{path: path, rel: rel, node: node})
			continue
		}
		files = append(files, file{path, rel, name})
	}
	w.push(subdirs)
	for _, f := range files {
		e := &Entry{Path: f.path, Rel: f.rel, Worker: id}
		if w.f.opts.Stat {
			e.ModTime = dir.modTime(f.path, f.name)
		}
		if err := w.visit(e); err != nil {
			return err
		}
	}
	return nil
}

// keep applies ripgrep's order: overrides, ignore files, types, hidden.
func (f *Filter) keep(node *ignoreNode, rel, name string, isDir bool) bool {
	if f.over != nil {
		switch f.over.match(rel, isDir) {
		case Ignore:
			return false
		case Whitelist:
			return true
		}
	}
	whitelisted := false
	if !f.opts.NoIgnore {
		m := node.match(rel, isDir)
		if m == None && f.global != nil && node.anyGit {
			m = f.global.Match(rel, isDir)
		}
		switch m {
		case Ignore:
			return false
		case Whitelist:
			whitelisted = true
		}
	}
	if !isDir && f.types != nil {
		switch f.types.match(name) {
		case Ignore:
			return false
		case Whitelist:
			whitelisted = true
		}
	}
	if !whitelisted && !f.opts.Hidden && strings.HasPrefix(name, ".") {
		return false
	}
	return true
}

// Directory entry types, as far as the walk cares.
const (
	typeUnknown = iota
	typeFile
	typeDir
	typeOther
)

// dirEntry is one name in a directory listing.
type dirEntry struct {
	name string
	typ  int
}

// dirHandle is an open directory: its listing, and stat of its files.
type dirHandle interface {
	list() []dirEntry
	modTime(path, name string) time.Time
	close()
}

// openDir opens a directory; a platform may replace it with a version
// using raw system calls (dir_linux.go).
var openDir = func(path string) (dirHandle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &osDir{f: f}, nil
}

type osDir struct{ f *os.File }

func (d *osDir) list() []dirEntry {
	ents, _ := d.f.ReadDir(-1)
	out := make([]dirEntry, len(ents))
	for i, e := range ents {
		out[i] = dirEntry{name: e.Name(), typ: modeType(e.Type())}
	}
	return out
}

func (d *osDir) modTime(path, _ string) time.Time {
	fi, err := os.Lstat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

func (d *osDir) close() { d.f.Close() }

func modeType(m os.FileMode) int {
	switch {
	case m.IsDir():
		return typeDir
	case m.IsRegular():
		return typeFile
	}
	return typeOther
}

func lstatType(path string) int {
	fi, err := os.Lstat(path)
	if err != nil {
		return typeOther
	}
	return modeType(fi.Mode())
}
