package gnu

import (
	"errors"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// Stdio is what a program run by this package reads and writes.
type Stdio = find.Stdio

// emitter writes the results in order: stdout through a buffer that is
// flushed before every message on stderr (as glibc's error() does), so
// the two interleave in a shared file as GNU grep's do.
type emitter struct {
	prog    string
	out     *lite.Writer
	err     io.Writer
	used    bool
	errseen bool
	matched bool
	line    bool // --line-buffered
}

func (e *emitter) message(s string) {
	e.out.Flush()
	io.WriteString(e.err, e.prog+": "+s+"\n")
}

func (e *emitter) emit(r *fileResult) {
	for _, s := range r.segs {
		if s.msg {
			e.message(string(s.data))
		} else {
			e.out.Write(s.data)
		}
	}
	r.segs = r.segs[:0]
}

// Grep runs grep with args (the words after the program name) and returns
// its exit status: 0 when a line was selected, 1 when none was, 2 on
// trouble, as GNU grep's. compile compiles the patterns (package regex's
// Compile does all of GNU's).
func Grep(args []string, std Stdio, compile Compiler) int {
	code, _ := grep(args, std, compile, false)
	return code
}

// GrepLiteral runs grep as Grep does when CompileLiteral can match its
// patterns and they do not come from standard input; otherwise it has read
// and written nothing, and ok is false, for Grep to run the command.
func GrepLiteral(args []string, std Stdio) (code int, ok bool) {
	return grep(args, std, CompileLiteral, true)
}

// errLater stops a GrepLiteral that would have to read its patterns from
// standard input, which Grep could then not read again.
var errLater = errors.New("patterns from standard input")

func grep(args []string, std Stdio, compile Compiler, literalOnly bool) (int, bool) {
	em := &emitter{prog: "grep", out: lite.NewWriter(std.Stdout, 64<<10), err: std.Stderr}
	defer em.out.Flush()
	c, err := parseGrep(args, std.Env, literalOnly)
	if err == errLater {
		return 0, false
	}
	if err != nil {
		return exitWith(em, err), true
	}
	m, warnings, err := compile(Patterns{
		List: c.patterns, Syntax: c.kind, UTF8: c.utf8, IgnoreCase: c.ignoreCase,
		WholeLine: c.lineRegexp, WholeWord: c.wordRegexp, OnlyMatching: c.onlyMatching,
	})
	if literalOnly && err == ErrNeedsRegexp {
		return 0, false
	}
	if err != nil {
		return exitWith(em, trouble(err.Error())), true
	}
	for _, w := range warnings {
		em.message("warning: " + w)
	}
	if c.maxCount == 0 {
		return 1, true
	}
	em.line = c.lineBuffered
	r := &grepRun{c: c, m: m, em: em, std: std}
	return r.run(), true
}

// exitWith reports a parse or compile error and returns its status.
func exitWith(em *emitter, err error) int {
	var ee *exitError
	if !errors.As(err, &ee) {
		em.message(err.Error())
		return 2
	}
	switch {
	case ee.code == -1 && ee.msg == "help":
		em.out.WriteString(grepHelp)
		return 0
	case ee.code == -1:
		em.out.WriteString(grepVersion)
		return 0
	}
	if ee.msg != "" {
		em.message(ee.msg)
	}
	if ee.usage {
		em.out.Flush()
		io.WriteString(em.err, grepUsage)
	}
	return ee.code
}

// grepRun is one grep invocation over its operands.
type grepRun struct {
	c   *grepConfig
	m   Matcher
	em  *emitter
	std Stdio

	outFile      bool
	omitDotSlash bool
	outStat      *find.FileInfo // stdout, when it is a regular file
	stdinFD      int
}

// grepJob is one file to search, or messages found while walking.
type grepJob struct {
	path        string // to open
	name        string // to print
	follow      bool
	commandLine bool
	stdin       bool
	res         fileResult
	search      bool // false: only messages to write
}

func (r *grepRun) run() int {
	c := r.c
	operands := c.operands
	if len(operands) == 0 {
		if c.directories == dirRecurse {
			operands = []string{"."}
			r.omitDotSlash = true
		} else {
			operands = []string{"-"}
		}
	}
	r.stdinFD = 0
	if r.std.Stdin != nil {
		r.stdinFD = int(r.std.Stdin.Fd())
	}
	if f, ok := r.std.Stdout.(*os.File); ok {
		if fi, err := find.FstatFD(int(f.Fd())); err == nil && fi.Type() == find.DTReg {
			r.outStat = &fi
		}
	}
	// GNU's out_file: names are printed with -H, with several operands,
	// and with -r on one operand that is a directory.
	switch {
	case c.filenameOption != 0:
		r.outFile = c.filenameOption > 0
	case len(operands) > 1:
		r.outFile = true
	case c.directories == dirRecurse && operands[0] != "-":
		if fi, err := find.StatPath(operands[0], true); err == nil && fi.Type() == find.DTDir {
			r.outFile = true
		}
	}
	// One operand that is not a directory to walk: search it here, writing
	// as the lines come (a pipe keeps streaming).
	if len(operands) == 1 && !r.isWalk(operands[0]) {
		s := r.newSearcher()
		s.usedKnown = true
		j := &grepJob{path: operands[0], name: operands[0], follow: true, commandLine: true, stdin: operands[0] == "-"}
		if j.stdin {
			j.name = c.label
		}
		j.res.direct = r.em
		noMatch := s.grepFile(j)
		r.em.errseen = r.em.errseen || j.res.errors
		if !noMatch {
			r.em.matched = true
			if c.exitOnMatch {
				return 0
			}
		}
		return r.status()
	}
	return r.runParallel(operands)
}

func (r *grepRun) status() int {
	if r.em.errseen {
		return 2
	}
	if r.em.matched {
		return 0
	}
	return 1
}

func (r *grepRun) isWalk(op string) bool {
	if op == "-" || r.c.directories != dirRecurse {
		return false
	}
	fi, err := find.StatPath(op, true)
	return err == nil && fi.Type() == find.DTDir
}

func (r *grepRun) newSearcher() *searcher {
	s := newSearcher(r.c, r.m)
	s.run = r
	s.outFile = r.outFile
	return s
}

// runParallel searches files on several goroutines and writes their
// results in the order GNU grep visits them: the operands in order, each
// directory depth-first in readdir order (fts). Jobs travel in batches:
// a channel operation and a wake-up per file cost more CPU than
// searching a small one, and GNU grep's CPU is the mark.
func (r *grepRun) runParallel(operands []string) int {
	workers := max(1, runtime.GOMAXPROCS(0))
	work := make(chan *grepBatch, 4*workers)
	order := make(chan *grepBatch, 64)
	stop := make(chan struct{})
	go func() {
		defer close(order)
		defer close(work)
		batch := &grepBatch{done: make(chan struct{})}
		flush := func() bool {
			if len(batch.jobs) == 0 {
				return true
			}
			b := batch
			batch = &grepBatch{done: make(chan struct{})}
			select {
			case order <- b:
			case <-stop:
				return false
			}
			select {
			case work <- b:
				return true
			case <-stop:
				return false
			}
		}
		send := func(j *grepJob) bool {
			batch.jobs = append(batch.jobs, j)
			return len(batch.jobs) < grepBatchSize || flush()
		}
		for _, op := range operands {
			if !r.produce(op, send) {
				return
			}
		}
		flush()
	}()
	for i := 0; i < workers; i++ {
		go func() {
			s := r.newSearcher()
			for b := range work {
				for _, j := range b.jobs {
					select {
					case <-stop:
					default:
						if j.search {
							s.grepFile(j)
						}
					}
				}
				close(b.done)
			}
		}()
	}
	defer close(stop)
	for b := range order {
		<-b.done
		for _, j := range b.jobs {
			if r.emit(j) {
				return 0
			}
		}
	}
	return r.status()
}

// grepBatchSize is how many jobs travel together to a worker.
const grepBatchSize = 32

// grepBatch is jobs searched by one worker, done closed after the last.
type grepBatch struct {
	jobs []*grepJob
	done chan struct{}
}

// emit writes j's result; true when grep should stop now with status 0
// (-q and the like after a match).
func (r *grepRun) emit(j *grepJob) bool {
	res := &j.res
	if res.leadSep && r.em.used && r.c.groupSep != nil {
		r.em.out.WriteString(*r.c.groupSep)
		r.em.out.WriteByte('\n')
	}
	r.em.emit(res)
	if res.prtext {
		r.em.used = true
	}
	if res.errors {
		r.em.errseen = true
	}
	if res.count > 0 {
		r.em.matched = true
		if r.c.exitOnMatch {
			return true
		}
	}
	return false
}

// produce walks one operand, sending a job per file (and per message) in
// GNU's order; false when the run was stopped.
func (r *grepRun) produce(op string, send func(*grepJob) bool) bool {
	c := r.c
	if op == "-" {
		return send(&grepJob{name: c.label, stdin: true, commandLine: true, search: true})
	}
	if c.directories == dirRecurse {
		if fi, err := find.StatPath(op, true); err == nil && fi.Type() == find.DTDir {
			name := op
			if !r.omitDotSlash && c.excludeDir[1].excluded(name, false) {
				return true
			}
			root := trimRoot(op)
			return r.walk(root, r.display(root), fi, map[[2]uint64]bool{}, 0, send)
		}
	}
	return send(&grepJob{path: op, name: op, follow: true, commandLine: true, search: true})
}

// trimRoot is fts_open's treatment of a root: two or more trailing
// slashes become one.
func trimRoot(p string) string {
	n := len(p)
	if n > 2 && p[n-1] == '/' {
		for n > 1 && p[n-2] == '/' {
			n--
		}
	}
	return p[:n]
}

func (r *grepRun) display(path string) string {
	if r.omitDotSlash && len(path) > 1 && lite.HasPrefix(path, "./") {
		return path[2:]
	}
	return path
}

func (r *grepRun) messageJob(send func(*grepJob) bool, text string, isErr bool) bool {
	j := &grepJob{}
	if isErr {
		j.res.errors = true
	}
	if !(isErr && r.c.suppressErrors) {
		j.res.message(text)
	}
	return send(j)
}

// walk sends the jobs of directory path (fts preorder, readdir order).
func (r *grepRun) walk(path, name string, dir find.FileInfo, active map[[2]uint64]bool, depth int, send func(*grepJob) bool) bool {
	c := r.c
	id := [2]uint64(dir.ID())
	if active[id] {
		if c.suppressErrors {
			return true
		}
		return r.messageJob(send, name+": warning: recursive directory loop", false)
	}
	ents, err := find.ListDir(path, c.deref || depth == 0)
	if err != nil && len(ents) == 0 {
		return r.messageJob(send, name+": "+find.ErrnoText(err), true)
	}
	active[id] = true
	defer delete(active, id)
	for _, e := range ents {
		typ := e.Type()
		// A file that readdir typed is left out by name before its path
		// is made: most files of a grep -r --include are.
		needStat := typ == find.DTUnknown || (c.deref && typ == find.DTLnk) || typ == find.DTDir
		included := false // known to pass --include and --exclude
		if !needStat {
			if c.include[0].excluded(e.Name(), true) {
				continue
			}
			included = true
		}
		p := find.ChildPath(path, e.Name())
		var fi find.FileInfo
		known := false
		if needStat {
			st, err := find.StatPath(p, c.deref)
			if err != nil {
				if c.deref && typ == find.DTLnk {
					// A dangling symlink: opening it reports the error.
					if !c.include[0].excluded(e.Name(), true) {
						if !send(&grepJob{path: p, name: r.display(p), follow: true, search: true}) {
							return false
						}
					}
					continue
				}
				if !r.messageJob(send, r.display(p)+": "+find.ErrnoText(err), true) {
					return false
				}
				continue
			}
			fi, known = st, true
			typ = st.Type()
		}
		isDir := typ == find.DTDir
		if isDir {
			if c.excludeDir[0].excluded(e.Name(), true) {
				continue
			}
			if !known {
				continue
			}
			if !r.walk(p, r.display(p), fi, active, depth+1, send) {
				return false
			}
			continue
		}
		if !included && c.include[0].excluded(e.Name(), true) {
			continue
		}
		switch typ {
		case find.DTReg:
		case find.DTLnk:
			continue // -r does not follow symlinks it meets
		default:
			if c.devices != devRead {
				continue // devices, FIFOs and sockets met while walking
			}
		}
		if !send(&grepJob{path: p, name: r.display(p), follow: c.deref, search: true}) {
			return false
		}
	}
	if err != nil {
		return r.messageJob(send, name+": "+find.ErrnoText(err), true)
	}
	return true
}

// grepFile is grep.c's grepfile and grepdesc for one job: open, check,
// search, then the -c count or the -l/-L name. It returns true when no
// line was selected.
func (s *searcher) grepFile(j *grepJob) bool {
	c := s.c
	out := &j.res
	s.out, s.name = out, j.name
	fd := 0
	if j.stdin {
		fd = s.stdinFD()
	} else {
		flags := syscall.O_RDONLY | syscall.O_NOCTTY | syscall.O_CLOEXEC
		if !j.follow {
			flags |= oNoFollow
		}
		if s.skipDevices(j.commandLine) {
			flags |= syscall.O_NONBLOCK
		}
		var err error
		for {
			fd, err = openFD(j.path, flags)
			if err != syscall.EINTR {
				break
			}
		}
		if err != nil {
			if j.follow || err != syscall.ELOOP {
				out.errors = true
				if !c.suppressErrors {
					out.message(j.name + ": " + find.ErrnoText(err))
				}
			}
			return true
		}
		defer closeFD(fd)
	}
	fi, err := find.FstatFD(fd)
	if err != nil {
		out.errors = true
		if !c.suppressErrors {
			out.message(j.name + ": " + find.ErrnoText(err))
		}
		return true
	}
	typ := fi.Type()
	isDevice := typ == find.DTChr || typ == find.DTBlk || typ == find.DTSock || typ == find.DTFIFO
	if !j.stdin {
		if s.skipDevices(j.commandLine) && isDevice {
			return true
		}
		if j.commandLine && s.skippedCommandLine(j.name, typ == find.DTDir) {
			return true
		}
		if c.directories == dirSkip && typ == find.DTDir {
			return true
		}
	}
	if !s.outQuiet0() && c.listFiles == listNone && (c.maxCount < 0 || c.maxCount > 1) && typ == find.DTReg && s.run != nil && s.run.outStat != nil &&
		s.run.outStat.ID() == fi.ID() {
		out.errors = true
		if !c.suppressErrors {
			out.message(j.name + ": input file is also the output")
		}
		return true
	}
	var src source
	s.streaming = typ != find.DTReg
	if typ == find.DTReg {
		src = &fileSource{fd: fd, size: fi.Size()}
	} else {
		src = &streamSource{fd: fd}
	}
	count := s.search(src)
	out.count = count
	if c.count {
		if s.outFile {
			out.write([]byte(j.name))
			if c.nullName {
				out.writeByte(0)
			} else {
				out.writeByte(':')
			}
		}
		out.write(strconv.AppendInt(nil, count, 10))
		out.writeByte('\n')
	}
	noMatch := count == 0
	if (noMatch && c.listFiles == listNonMatching) || (!noMatch && c.listFiles == listMatching) {
		out.write([]byte(j.name))
		if c.nullName {
			out.writeByte(0)
		} else {
			out.writeByte('\n')
		}
	}
	return noMatch
}

func (s *searcher) outQuiet0() bool { return s.c.outQuiet }

func (s *searcher) stdinFD() int {
	if s.run != nil {
		return s.run.stdinFD
	}
	return 0
}

// skipDevices is GNU's skip_devices: devices met while walking are
// skipped unless -D read.
func (s *searcher) skipDevices(commandLine bool) bool {
	return s.c.devices == devSkip || (s.c.devices == devReadCommandLine && !commandLine)
}

// skippedCommandLine is skipped_file for an operand: --exclude-dir for a
// directory, --include/--exclude for a file, matched against the name
// and its suffixes.
func (s *searcher) skippedCommandLine(name string, isDir bool) bool {
	if isDir {
		if s.run != nil && s.run.omitDotSlash {
			return false
		}
		return s.c.excludeDir[1].excluded(name, false)
	}
	return s.c.include[1].excluded(name, false)
}
