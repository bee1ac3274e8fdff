package find

import (
	"errors"
	"io"
	"math"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// Run runs find with args (the words after the program name) and returns
// its exit status: 0, or 1 when something went wrong, as GNU find's.
func Run(args []string, std Stdio) int {
	f := &findRun{
		std:      std,
		out:      lite.NewWriter(std.Stdout, 64<<10),
		q:        Quoter(UTF8Locale(std.Env)),
		utf8:     UTF8Locale(std.Env),
		now:      time.Now().UnixNano(),
		maxDepth: -1,
	}
	defer f.out.Flush()
	if err := f.parse(args); err != nil {
		if ee, ok := err.(*exitError); ok && ee.code == 0 {
			f.out.WriteString(ee.msg)
			return 0
		}
		f.message(err.Error())
		return 1
	}
	for _, root := range f.roots {
		if f.quit {
			break
		}
		f.visitRoot(root)
	}
	f.flushExecs()
	return f.status
}

// Symlink handling (-P, -H, -L).
const (
	followNever = iota
	followRoots
	followAll
)

// findRun is one find invocation.
type findRun struct {
	std  Stdio
	out  *lite.Writer
	q    Quoter
	utf8 bool
	now  int64

	follow   int
	roots    []string
	expr     node
	maxDepth int
	minDepth int
	depth    bool // -depth: directories after their contents
	xdev     bool
	status   int
	quit     bool
	execs    []*execNode // -exec … + batches to flush at the end
	rootDev  uint64
	active   map[[2]uint64]string
	levels   []*level // by depth
}

// level is what the walk reuses at one depth, from one directory to the
// next, where new memory for each would touch fresh pages (about 2 ms of
// a find over GOROOT/src): the storage of a listing, and the one entry
// its children are visited through (nothing keeps an entry once visited).
type level struct {
	ents  []Dirent
	child entry
}

func (f *findRun) message(s string) {
	f.out.Flush()
	io.WriteString(f.std.Stderr, "find: "+s+"\n")
}

// entry is one file the walk visits. Its path is made when something
// asks for it: most entries of a find . -name are only named.
type entry struct {
	dir, name string // the parent directory's path (for a child) and the base name
	full      string // the path, once built
	built     bool   // full is the path
	depth     int
	dtype     uint8 // from readdir (lstat type), DTUnknown if not known
	follow    bool  // stat through a symlink
	info      FileInfo
	statted   bool // info or statErr holds the stat
	statErr   error
	pruned    bool
}

// path is the entry's path, as fts builds it: the parent's, less one
// trailing slash, then / and the name.
func (e *entry) path() string {
	if !e.built {
		e.full, e.built = ChildPath(e.dir, e.name), true
	}
	return e.full
}

// writePath writes the entry's path to w without building it.
func (e *entry) writePath(w *lite.Writer) {
	if e.built {
		w.WriteString(e.full)
		return
	}
	w.WriteString(lite.TrimSuffix(e.dir, "/"))
	w.WriteByte('/')
	w.WriteString(e.name)
}

// stat returns the entry's status: stat(2) when following symlinks (a
// dangling symlink falls back to lstat), else lstat(2).
func (e *entry) stat() (*FileInfo, error) {
	if e.statted {
		if e.statErr != nil {
			return nil, e.statErr
		}
		return &e.info, nil
	}
	e.statted = true
	fi, err := statPath(e.path(), e.follow)
	if err != nil && e.follow {
		fi, err = statPath(e.path(), false)
	}
	if err != nil {
		e.statErr = err
		return nil, err
	}
	e.info = fi
	return &e.info, nil
}

// typ is the entry's file type, without a stat when readdir gave it and
// no symlink is to be followed.
func (e *entry) typ() uint8 {
	if e.dtype != DTUnknown && !(e.follow && e.dtype == DTLnk) {
		return e.dtype
	}
	fi, err := e.stat()
	if err != nil {
		return DTUnknown
	}
	return fi.Type()
}

func (f *findRun) visitRoot(root string) {
	e := &entry{full: root, built: true, name: rootName(root), follow: f.follow != followNever}
	fi, err := e.stat()
	if err != nil {
		f.message(f.q.Quote(root) + ": " + ErrnoText(err))
		f.status = 1
		return
	}
	f.rootDev = fi.dev
	f.active = map[[2]uint64]string{}
	f.visit(e)
}

// rootName is the base name -name sees for a starting point: its last
// component, trailing slashes removed ("/" stays "/").
func rootName(p string) string {
	s := lite.TrimSlashes(p)
	if s == "" {
		if p == "" {
			return ""
		}
		return "/"
	}
	if i := lite.LastIndexByte(s, '/'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// visit evaluates e and walks into it when it is a directory (fts order:
// preorder, children in readdir order; postorder with -depth).
func (f *findRun) visit(e *entry) {
	if f.quit {
		return
	}
	isDir := e.typ() == DTDir
	var id [2]uint64
	if isDir {
		fi, err := e.stat()
		if err == nil {
			id = [2]uint64{fi.dev, fi.ino}
			if first, loop := f.active[id]; loop {
				f.message("File system loop detected; " + f.q.Quote(e.path()) + " is part of the same file system loop as " + f.q.Quote(first) + ".")
				f.status = 1
				return
			}
		}
	}
	if len(f.execs) > 0 {
		f.leaveDirs(e)
	}
	if !f.depth && e.depth >= f.minDepth {
		f.eval(e)
	}
	descend := isDir && !e.pruned && !f.quit && (f.maxDepth < 0 || e.depth < f.maxDepth)
	if descend && f.xdev {
		if fi, err := e.stat(); err == nil && fi.dev != f.rootDev {
			descend = false
		}
	}
	if descend {
		f.active[id] = e.path()
		for len(f.levels) <= e.depth {
			f.levels = append(f.levels, new(level))
		}
		lv := f.levels[e.depth]
		ents, err := listDir(e.path(), e.follow, lv.ents)
		lv.ents = ents
		c := &lv.child
		for _, d := range ents {
			if f.quit {
				break
			}
			*c = entry{dir: e.path(), name: d.name, depth: e.depth + 1, dtype: d.typ, follow: f.follow == followAll}
			f.visit(c)
		}
		if err != nil && !f.quit {
			f.message(f.q.Quote(e.path()) + ": " + ErrnoText(err))
			f.status = 1
		}
		delete(f.active, id)
	}
	if f.depth && e.depth >= f.minDepth && !f.quit {
		f.eval(e)
	}
}

func (f *findRun) eval(e *entry) { f.expr.eval(f, e) }

// node is a node of the expression tree.
type node interface {
	eval(f *findRun, e *entry) bool
}

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type commaNode struct{ l, r node }
type notNode struct{ x node }
type trueNode struct{ v bool }

func (n *andNode) eval(f *findRun, e *entry) bool   { return n.l.eval(f, e) && n.r.eval(f, e) }
func (n *orNode) eval(f *findRun, e *entry) bool    { return n.l.eval(f, e) || n.r.eval(f, e) }
func (n *commaNode) eval(f *findRun, e *entry) bool { n.l.eval(f, e); return n.r.eval(f, e) }
func (n *notNode) eval(f *findRun, e *entry) bool   { return !n.x.eval(f, e) }
func (n *trueNode) eval(*findRun, *entry) bool      { return n.v }

// nameNode is -name, -iname, -path, -ipath, -wholename and -iwholename.
type nameNode struct {
	g    *Glob
	path bool
}

func (n *nameNode) eval(_ *findRun, e *entry) bool {
	if n.path {
		return n.g.Match(e.path())
	}
	return n.g.Match(e.name)
}

// typeNode is -type with one or more letters.
type typeNode struct{ types []uint8 }

func (n *typeNode) eval(_ *findRun, e *entry) bool {
	t := e.typ()
	for _, x := range n.types {
		if x == t {
			return true
		}
	}
	return false
}

// Comparisons of a numeric argument: +N, -N, N.
const (
	cmpEq = iota
	cmpGt
	cmpLt
)

// sizeNode is -size: the size in units, rounded up.
type sizeNode struct {
	kind int
	n    uint64
	unit int64
}

func (n *sizeNode) eval(_ *findRun, e *entry) bool {
	fi, err := e.stat()
	if err != nil {
		return false
	}
	size := fi.size
	if size < 0 {
		size = 0
	}
	v := uint64(size / n.unit)
	if size%n.unit != 0 {
		v++
	}
	switch n.kind {
	case cmpGt:
		return v > n.n
	case cmpLt:
		return v < n.n
	}
	return v == n.n
}

// timeNode is -mtime, -atime, -ctime, -mmin, -amin, -cmin and -newer: a
// comparison with a reference time, as findutils' pred_timewindow.
type timeNode struct {
	which  byte // 'm', 'a', 'c'
	kind   int
	ref    int64 // nanoseconds
	window int64 // for an exact comparison: (ref, ref+window]
}

func (n *timeNode) eval(_ *findRun, e *entry) bool {
	fi, err := e.stat()
	if err != nil {
		return false
	}
	t := fi.mtime
	switch n.which {
	case 'a':
		t = fi.atime
	case 'c':
		t = fi.ctime
	}
	switch n.kind {
	case cmpGt:
		return t > n.ref
	case cmpLt:
		return t < n.ref
	}
	d := t - n.ref
	return d > 0 && d <= n.window
}

// emptyNode is -empty.
type emptyNode struct{}

func (emptyNode) eval(_ *findRun, e *entry) bool {
	switch e.typ() {
	case DTReg:
		fi, err := e.stat()
		return err == nil && fi.size == 0
	case DTDir:
		ents, err := listDir(e.path(), e.follow, nil)
		return err == nil && len(ents) == 0
	}
	return false
}

// accessNode is -readable, -writable and -executable.
type accessNode struct{ mode uint32 }

func (n accessNode) eval(_ *findRun, e *entry) bool {
	return access(e.path(), n.mode) == nil
}

// printNode is -print and -print0.
type printNode struct{ term byte }

func (n printNode) eval(f *findRun, e *entry) bool {
	e.writePath(f.out)
	f.out.WriteByte(n.term)
	return true
}

// pruneNode is -prune.
type pruneNode struct{}

func (pruneNode) eval(f *findRun, e *entry) bool {
	if !f.depth {
		e.pruned = true
	}
	return true
}

// quitNode is -quit.
type quitNode struct{}

func (quitNode) eval(f *findRun, _ *entry) bool {
	f.quit = true
	return true
}

// deleteNode is -delete.
type deleteNode struct{}

func (deleteNode) eval(f *findRun, e *entry) bool {
	if e.path() == "." && e.depth == 0 {
		return true // findutils does not delete the starting point "."
	}
	err := syscall.Unlink(e.path())
	if err == syscall.EISDIR || err == syscall.EPERM {
		err = syscall.Rmdir(e.path())
	}
	if err != nil {
		f.message("cannot delete " + f.q.Quote(e.path()) + ": " + ErrnoText(err))
		f.status = 1
		return false
	}
	return true
}

// execNode is -exec and -execdir, with ; or +.
type execNode struct {
	argv  []string
	multi bool // terminated by +
	dir   bool // -execdir
	batch []string
	size  int
	// batchDir is where the batch of an -execdir … + runs: the directory
	// of its files, flushed when the walk moves to another (as GNU's).
	batchDir string
	f        *findRun
}

const execArgMax = 128 << 10

func (n *execNode) eval(f *findRun, e *entry) bool {
	path := e.path()
	if n.dir {
		path = "./" + e.name
		if e.depth == 0 {
			path = e.path()
		}
	}
	if n.multi {
		if dir := dirOf(n, e); len(n.batch) == 0 || dir != n.batchDir {
			n.flush(f)
			n.batchDir = dir
		}
		n.batch = append(n.batch, path)
		n.size += len(path) + 1
		if n.size >= execArgMax {
			n.flush(f)
		}
		return true
	}
	args := make([]string, len(n.argv))
	for i, a := range n.argv {
		args[i] = lite.ReplaceAll(a, "{}", path)
	}
	return f.run(args, dirOf(n, e)) == nil
}

func dirOf(n *execNode, e *entry) string {
	if !n.dir || e.depth == 0 {
		return ""
	}
	return parentDir(e.path())
}

// flush runs the batch of an -exec … + (in batchDir for -execdir); a
// command that fails makes find's status 1.
func (n *execNode) flush(f *findRun) {
	if len(n.batch) == 0 {
		return
	}
	args := append(append([]string{}, n.argv[:len(n.argv)-1]...), n.batch...)
	n.batch, n.size = nil, 0
	if err := f.run(args, n.batchDir); err != nil {
		f.status = 1
	}
}

func (f *findRun) flushExecs() {
	for _, n := range f.execs {
		n.flush(f)
	}
}

// leaveDirs flushes the -execdir … + batches of other directories than
// e's before e is evaluated, as GNU's find runs them when it changes
// directory.
func (f *findRun) leaveDirs(e *entry) {
	for _, n := range f.execs {
		if n.dir && len(n.batch) > 0 && dirOf(n, e) != n.batchDir {
			n.flush(f)
		}
	}
}

// findParser reads find's expression.
type findParser struct {
	f         *findRun
	args      []string
	i         int
	hasAction bool
	// last is the last primary parsed, for the hint about an unquoted
	// pattern the shell expanded.
	last string
}

// findUnsupported are GNU find's primaries agentcore's find refuses.
// Built at first use, not before main.
var findUnsupported = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"-regex": "use -name or -path with -o (e.g. \\( -name '*.js' -o -name '*.ts' \\))", "-iregex": "use -iname or -ipath",
		"-regextype": "use -name or -path", "-printf": "use -print and a pipe (e.g. | xargs stat)", "-fprintf": "use -print and a redirection",
		"-fprint": "use -print and a redirection", "-fprint0": "use -print0 and a redirection", "-ls": "use -exec ls -ld {} +",
		"-fls": "use -exec ls -ld {} + and a redirection", "-ok": "use -exec", "-okdir": "use -execdir", "-perm": "use -exec test -x {} \\; or -executable",
		"-user": "use -exec stat -c %U {} +", "-group": "use -exec stat -c %G {} +", "-nouser": "leave it out", "-nogroup": "leave it out",
		"-uid": "leave it out", "-gid": "leave it out", "-inum": "leave it out", "-samefile": "leave it out", "-links": "leave it out",
		"-lname": "use -type l", "-ilname": "use -type l", "-xtype": "use -type with -L", "-fstype": "use -xdev", "-used": "use -atime",
		"-anewer": "use -newer", "-cnewer": "use -newer", "-newermt": "use -mmin or -mtime", "-context": "leave it out", "-files0-from": "pass the paths as arguments",
		"-D": "leave it out", "-O": "leave it out",
	}
})

func (f *findRun) parse(args []string) error {
	i := 0
	// Leading options.
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-P":
			f.follow = followNever
		case a == "-H":
			f.follow = followRoots
		case a == "-L":
			f.follow = followAll
		case a == "--":
			i++
			goto paths
		case a == "-D" || lite.HasPrefix(a, "-O"):
			return f.unsupported(a[:2])
		default:
			goto paths
		}
	}
paths:
	for ; i < len(args) && !looksLikeExpression(args[i], true); i++ {
		f.roots = append(f.roots, args[i])
	}
	if len(f.roots) == 0 {
		f.roots = []string{"."}
	}
	p := &findParser{f: f, args: args, i: i}
	if p.i >= len(p.args) {
		f.expr = printNode{term: '\n'}
		return nil
	}
	expr, err := p.comma()
	if err != nil {
		return err
	}
	if p.i < len(p.args) {
		if p.args[p.i] == ")" {
			return errors.New("you have too many ')'")
		}
		return p.stray(p.args[p.i])
	}
	if expr == nil {
		expr = &trueNode{v: true}
	}
	if !p.hasAction {
		expr = &andNode{l: expr, r: printNode{term: '\n'}}
	}
	f.expr = expr
	return nil
}

func (f *findRun) unsupported(what string) error {
	return errors.New("agentcore's embedded find does not support " + what + "; " + findUnsupported()[what])
}

// looksLikeExpression is findutils' test for the first word of the
// expression: an option (-x), or ( or ! (at the start).
func looksLikeExpression(a string, leading bool) bool {
	switch {
	case a == "":
		return false
	case a[0] == '-':
		return len(a) > 1
	case a == "(" || a == "!":
		return true
	case a == ")" || a == ",":
		return !leading
	}
	return false
}

func (p *findParser) peek() (string, bool) {
	if p.i < len(p.args) {
		return p.args[p.i], true
	}
	return "", false
}

func (p *findParser) comma() (node, error) {
	l, err := p.or()
	if err != nil {
		return nil, err
	}
	for {
		a, ok := p.peek()
		if !ok || a != "," {
			return l, nil
		}
		p.i++
		if l == nil {
			return nil, errors.New("invalid expression; you have used a binary operator ',' with nothing before it.")
		}
		r, err := p.or()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errors.New("expected an expression after ','")
		}
		l = &commaNode{l: l, r: r}
	}
}

func (p *findParser) or() (node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for {
		a, ok := p.peek()
		if !ok || (a != "-o" && a != "-or") {
			return l, nil
		}
		p.i++
		if l == nil {
			return nil, errors.New("invalid expression; you have used a binary operator '" + a + "' with nothing before it.")
		}
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, errors.New("expected an expression after '" + a + "'")
		}
		l = &orNode{l: l, r: r}
	}
}

func (p *findParser) and() (node, error) {
	var l node
	for {
		a, ok := p.peek()
		if !ok || a == "-o" || a == "-or" || a == "," || a == ")" {
			return l, nil
		}
		if a == "-a" || a == "-and" {
			p.i++
			if l == nil {
				return nil, errors.New("invalid expression; you have used a binary operator '" + a + "' with nothing before it.")
			}
			r, err := p.unary()
			if err != nil {
				return nil, err
			}
			if r == nil {
				return nil, errors.New("expected an expression after '" + a + "'")
			}
			l = &andNode{l: l, r: r}
			continue
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return l, nil
		}
		if l == nil {
			l = r
		} else {
			l = &andNode{l: l, r: r}
		}
	}
}

func (p *findParser) unary() (node, error) {
	a, ok := p.peek()
	if !ok {
		return nil, nil
	}
	switch a {
	case "!", "-not":
		p.i++
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if x == nil {
			return nil, errors.New("expected an expression after '" + a + "'")
		}
		return &notNode{x: x}, nil
	case "(":
		p.i++
		if b, ok := p.peek(); ok && b == ")" {
			return nil, errors.New("invalid expression; empty parentheses are not allowed.")
		}
		x, err := p.comma()
		if err != nil {
			return nil, err
		}
		if b, ok := p.peek(); !ok || b != ")" {
			return nil, errors.New("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.i++
		if x == nil {
			return nil, errors.New("invalid expression; empty parentheses are not allowed.")
		}
		return x, nil
	case ")":
		return nil, nil
	}
	return p.primary()
}

// stray is the error for a word that is not part of the expression.
func (p *findParser) stray(a string) error {
	msg := "paths must precede expression: `" + a + "'"
	// findutils adds the hint when the word names an existing file: what
	// is left of a pattern the shell expanded into several names.
	if access(a, 0) == nil {
		last := p.last
		if last == "" {
			last = "("
		}
		msg += "\nfind: possible unquoted pattern after predicate `" + last + "'?"
	}
	return errors.New(msg)
}

// arg takes the argument of primary name.
func (p *findParser) arg(name string) (string, error) {
	if p.i >= len(p.args) {
		return "", errors.New("missing argument to `" + name + "'")
	}
	a := p.args[p.i]
	p.i++
	return a, nil
}

func (p *findParser) primary() (node, error) {
	f := p.f
	a := p.args[p.i]
	if !lite.HasPrefix(a, "-") || a == "-" {
		return nil, p.stray(a)
	}
	p.i++
	p.last = a
	if _, ok := findUnsupported()[a]; ok {
		return nil, f.unsupported(a)
	}
	switch a {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		pat, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		fold := a[1] == 'i'
		return &nameNode{g: CompileGlob(pat, fold, f.utf8), path: !lite.HasSuffix(a, "name") || lite.HasSuffix(a, "wholename")}, nil
	case "-type":
		s, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		n := &typeNode{}
		for _, part := range lite.Split(s, ",") {
			t, ok := map[string]uint8{"b": DTBlk, "c": DTChr, "d": DTDir, "p": DTFIFO, "f": DTReg, "l": DTLnk, "s": DTSock}[part]
			if !ok {
				if part == "D" {
					return &trueNode{v: false}, nil // Solaris doors: none here
				}
				if part == "" {
					return nil, errors.New("Arguments to -type should contain only one letter")
				}
				return nil, errors.New("Unknown argument to -type: " + part)
			}
			for _, x := range n.types {
				if x == t {
					return nil, errors.New("Duplicate file type '" + part + "' in the argument list to -type.")
				}
			}
			n.types = append(n.types, t)
		}
		return n, nil
	case "-maxdepth", "-mindepth":
		s, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || lite.HasPrefix(s, "+") || lite.HasPrefix(s, "-") {
			return nil, errors.New("Expected a positive decimal integer argument to " + a + ", but got " + f.q.Quote(s))
		}
		if a == "-maxdepth" {
			f.maxDepth = n
		} else {
			f.minDepth = n
		}
		return &trueNode{v: true}, nil
	case "-depth", "-d":
		f.depth = true
		return &trueNode{v: true}, nil
	case "-xdev", "-mount":
		f.xdev = true
		return &trueNode{v: true}, nil
	case "-follow":
		f.follow = followAll
		return &trueNode{v: true}, nil
	case "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn", "-daystart":
		if a == "-daystart" {
			return nil, errors.New("agentcore's embedded find does not support -daystart; use -mmin")
		}
		return &trueNode{v: true}, nil
	case "-true":
		return &trueNode{v: true}, nil
	case "-false":
		return &trueNode{v: false}, nil
	case "-size":
		s, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		return parseSize(s)
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		s, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		return f.parseTime(a, s)
	case "-newer":
		s, err := p.arg(a)
		if err != nil {
			return nil, err
		}
		fi, err := statPath(s, f.follow != followNever)
		if err != nil {
			return nil, errors.New(f.q.Quote(s) + ": " + ErrnoText(err))
		}
		return &timeNode{which: 'm', kind: cmpGt, ref: fi.mtime}, nil
	case "-empty":
		return emptyNode{}, nil
	case "-readable":
		return accessNode{mode: 4}, nil
	case "-writable":
		return accessNode{mode: 2}, nil
	case "-executable":
		return accessNode{mode: 1}, nil
	case "-print":
		p.hasAction = true
		return printNode{term: '\n'}, nil
	case "-print0":
		p.hasAction = true
		return printNode{term: 0}, nil
	case "-prune":
		return pruneNode{}, nil
	case "-quit":
		p.hasAction = true // findutils: -quit turns the default -print off
		return quitNode{}, nil
	case "-delete":
		p.hasAction = true
		f.depth = true
		return deleteNode{}, nil
	case "-exec", "-execdir":
		p.hasAction = true
		start := p.i
		for ; p.i < len(p.args); p.i++ {
			t := p.args[p.i]
			if t == ";" || (t == "+" && p.i > start && p.args[p.i-1] == "{}") {
				break
			}
		}
		if p.i >= len(p.args) || p.i == start {
			return nil, errors.New("missing argument to `" + a + "'")
		}
		n := &execNode{argv: append([]string{}, p.args[start:p.i]...), multi: p.args[p.i] == "+", dir: a == "-execdir"}
		p.i++
		if n.multi {
			f.execs = append(f.execs, n)
		}
		return n, nil
	case "-help", "--help":
		return nil, &exitError{code: 0, msg: findHelp}
	case "-version", "--version":
		return nil, &exitError{code: 0, msg: findVersion}
	}
	return nil, errors.New("unknown predicate `" + a + "'")
}

// parseSize is -size's argument: [+-]N[cwbkMG], in 512-byte blocks when
// no unit is given.
func parseSize(s string) (node, error) {
	n := &sizeNode{unit: 512}
	body := s
	switch {
	case lite.HasPrefix(body, "+"):
		n.kind, body = cmpGt, body[1:]
	case lite.HasPrefix(body, "-"):
		n.kind, body = cmpLt, body[1:]
	}
	if body != "" {
		switch body[len(body)-1] {
		case 'c':
			n.unit = 1
		case 'w':
			n.unit = 2
		case 'b':
			n.unit = 512
		case 'k':
			n.unit = 1 << 10
		case 'M':
			n.unit = 1 << 20
		case 'G':
			n.unit = 1 << 30
		default:
			if c := body[len(body)-1]; c < '0' || c > '9' {
				return nil, errors.New("invalid -size type `" + string(rune(c)) + "'")
			}
			body += "b"
		}
		body = body[:len(body)-1]
	}
	v, err := strconv.ParseUint(body, 10, 64)
	if err != nil {
		return nil, errors.New("invalid argument `" + s + "' to `-size'")
	}
	n.n = v
	return n, nil
}

// parseTime is findutils' parse_time and do_parse_xmin: -mtime N is a
// window of whole days before the start (N*24h ≤ age < (N+1)*24h), +N
// older, -N newer; -mmin likewise in minutes.
func (f *findRun) parseTime(name, s string) (node, error) {
	n := &timeNode{which: name[1]}
	body := s
	kind := cmpEq
	switch {
	case lite.HasPrefix(body, "+"):
		kind, body = cmpGt, body[1:]
	case lite.HasPrefix(body, "-"):
		kind, body = cmpLt, body[1:]
	}
	v, err := strconv.ParseFloat(body, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || body == "" || lite.ContainsAny(body, "+-") {
		return nil, errors.New("invalid argument `" + s + "' to `" + name + "'")
	}
	const day = int64(86400 * time.Second)
	unit, window := day, day
	origin := f.now - day // findutils' cur_day_start
	if lite.HasSuffix(name, "min") {
		unit, window = int64(time.Minute), int64(time.Minute)
		origin = f.now
	} else if kind == cmpLt {
		origin += day - int64(time.Second)
	}
	n.ref = origin - int64(v*float64(unit))
	n.window = window
	// The comparison is inverted: an older file has an earlier time.
	switch kind {
	case cmpGt:
		n.kind = cmpLt
	case cmpLt:
		n.kind = cmpGt
	default:
		n.kind = cmpEq
	}
	return n, nil
}

const findHelp = `Usage: find [-H] [-L] [-P] [path...] [expression]

This is agentcore's embedded find: GNU find 4.9's output and order for
the expressions below.

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions.

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true):
      -follow -nowarn -warn

normal options (always true, specified before other expressions):
      -depth -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N):
      -amin N -atime N -cmin N -ctime N -empty -executable -false
      -iname PATTERN -ipath PATTERN -iwholename PATTERN -mmin N -mtime N
      -name PATTERN -newer FILE -path PATTERN -readable -size N[bcwkMG]
      -true -type [bcdpfls] -wholename PATTERN -writable

actions: -delete -print0 -print -prune -quit
      -exec COMMAND ; -exec COMMAND {} + -execdir COMMAND ; -execdir COMMAND {} +

Not supported: -regex, -printf, -ls, -perm, -user, -group, -ok, -daystart
and the other tests and actions not listed; each is refused with exit
status 1 and a message saying what to use instead.
`

const findVersion = `find (agentcore embedded find) compatible with GNU findutils 4.9.0
Built into agentcore; see 'find --help' for what it supports.
`
