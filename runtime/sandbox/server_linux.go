package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// A session's long-lived sandbox: one bwrap, started on the session's
// first sandboxed command with the mounts of Sandbox.mounts, runs a small
// server (this binary again, serverArg) that forks each command of the
// session inside the namespaces it already has, so a command pays for a
// fork and exec of bash instead of new namespaces and mounts (see
// RELIABILITY.md, "Bash cost").
//
// The protocol: the server's end of a SOCK_SEQPACKET pair is its fd 3.
// It first sends a hello (reply with its pid). For each command the host
// sends one byte with two descriptors: the output file and its end of a
// fresh stream pair, on which it then writes a request; the server
// answers there with a reply once bash has started (Pid, or Err) and one
// when it has exited (Exited, Code, Cwd). When the host closes its end of
// fd 3 the server kills the commands still running and exits, and bwrap
// with it.

// serverArg, as the only argument, makes this binary a sandbox server
// (see init). The number changes with the protocol.
const serverArg = "__agentcore-sandbox-server-1"

// init, not a function for main to call: every program that links this
// package (agentcore, an embedder's binary, each test binary) must be
// able to serve, and one that forgot the call would be run inside bwrap
// as itself.
func init() {
	if len(os.Args) >= 2 && os.Args[1] == serverArg {
		os.Exit(serve(3, os.Args[2:]))
	}
}

// serve is the server inside the sandbox: it runs until fd's peer closes,
// and returns the exit status. bridges are Bridge arguments (PORT=SOCKET)
// it serves meanwhile.
func serve(fd int, bridges []string) int {
	f := os.NewFile(uintptr(fd), "sandbox-control")
	c, err := net.FileConn(f) // a close-on-exec duplicate
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentcore sandbox server:", err)
		return 2
	}
	ctl := c.(*net.UnixConn)
	tmp, err := os.MkdirTemp("/tmp", "agentcore-sandbox-server-")
	hello := reply{Pid: os.Getpid()}
	if err == nil {
		err = startBridges(bridges)
	}
	if err != nil {
		hello = reply{Err: err.Error()}
	}
	b, _ := json.Marshal(hello)
	// The pidfd of the server goes with its hello: inside its own pid
	// namespace the server cannot name its pid as the host sees it; the
	// host reads that from the pidfd.
	var rights []byte
	if hello.Err == "" {
		self, err := unix.PidfdOpen(os.Getpid(), 0)
		if err != nil {
			hello = reply{Err: "pidfd_open: " + err.Error()}
			b, _ = json.Marshal(hello)
		} else {
			defer unix.Close(self)
			rights = syscall.UnixRights(self)
		}
	}
	if _, _, err := ctl.WriteMsgUnix(b, rights, nil); err != nil || hello.Err != "" {
		return 2
	}
	var mu sync.Mutex
	running := map[int]bool{}
	seq := 0
	oob := make([]byte, syscall.CmsgSpace(4*4))
	one := make([]byte, 1)
	for {
		n, oobn, _, _, err := ctl.ReadMsgUnix(one, oob)
		if err != nil || n == 0 {
			break
		}
		fds, err := unixRights(oob[:oobn])
		if err != nil || len(fds) < 2 {
			for _, fd := range fds {
				syscall.Close(fd)
			}
			continue
		}
		seq++
		var extra []*os.File
		for _, fd := range fds[2:] {
			extra = append(extra, os.NewFile(uintptr(fd), "extra"))
		}
		go serveOne(os.NewFile(uintptr(fds[0]), "output"), os.NewFile(uintptr(fds[1]), "command"), extra,
			filepath.Join(tmp, "cwd-"+strconv.Itoa(seq)), func(pid int, on bool) {
				mu.Lock()
				defer mu.Unlock()
				if on {
					running[pid] = true
				} else {
					delete(running, pid)
				}
			})
	}
	// The session is over: nothing of its commands may outlive it.
	mu.Lock()
	for pid := range running {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	mu.Unlock()
	return 0
}

func unixRights(oob []byte) ([]int, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for i := range msgs {
		f, err := syscall.ParseUnixRights(&msgs[i])
		if err != nil {
			return fds, err
		}
		fds = append(fds, f...)
	}
	return fds, nil
}

// serveOne runs the request read from conn with output to out; extra
// are descriptors the command gets from fd 3 on (its cgroups').
func serveOne(out, conn *os.File, extra []*os.File, cwdPath string, track func(pid int, on bool)) {
	defer conn.Close()
	closeExtra := func() {
		for _, f := range extra {
			f.Close()
		}
	}
	answer := func(r reply, rights []byte) {
		b, _ := json.Marshal(r)
		_ = syscall.Sendmsg(int(conn.Fd()), append(b, '\n'), rights, nil, 0)
	}
	var one [1]byte
	var req request
	err := json.NewDecoder(conn).Decode(&req)
	if err != nil {
		closeExtra()
		out.Close()
		answer(reply{Err: "read request: " + err.Error()}, nil)
		return
	}
	script := req.Command
	if req.Cwd {
		if script, err = TrapCwd(req.Command, cwdPath); err != nil {
			closeExtra()
			out.Close()
			answer(reply{Err: err.Error()}, nil)
			return
		}
	}
	pidfd := -1
	cmd := &exec.Cmd{Path: lookBash(req.Env), Args: []string{"bash", "-c", script}, Dir: req.Dir, Env: req.Env,
		Stdout: out, Stderr: out, ExtraFiles: extra,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, PidFD: &pidfd}}
	err = cmd.Start()
	out.Close() // bash has its own
	closeExtra()
	if err != nil {
		answer(reply{Err: startError(err).Error()}, nil)
		return
	}
	track(cmd.Process.Pid, true)
	// The pidfd tells the host bash's pid as it sees it; bash is not
	// reaped before the host says it has read it (one byte back), so
	// that the pid still names bash when the host reads it.
	var rights []byte
	if pidfd >= 0 {
		rights = syscall.UnixRights(pidfd)
	}
	answer(reply{Pid: cmd.Process.Pid}, rights)
	if pidfd >= 0 {
		syscall.Close(pidfd)
	}
	_, _ = conn.Read(one[:])
	werr := cmd.Wait()
	track(cmd.Process.Pid, false)
	r := reply{Exited: true, Code: ExitCode(cmd, werr)}
	if req.Cwd {
		if b, err := os.ReadFile(cwdPath); err == nil {
			r.Cwd = strings.TrimRight(string(b), "\n")
		}
		os.Remove(cwdPath)
	}
	answer(r, nil)
}

// lookBash finds bash on the PATH of env, as bwrap's execvp would, and
// remembers it for that PATH.
func lookBash(env []string) string {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	if p, ok := bashOnPath.Load(path); ok {
		return p.(string)
	}
	p := findBash(path)
	bashOnPath.Store(path, p)
	return p
}

var bashOnPath sync.Map

func findBash(path string) string {
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		p := filepath.Join(d, "bash")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return "/bin/bash"
}

// pool keeps the long-lived sandboxes of one session (at most
// maxServers at once; one that still runs commands is closed when they
// end). A sandbox is started on the first command that
// needs it and restarted, with the mounts made again, when the
// confinement or the paths it protects have changed on disk; a server
// that died is replaced by the next command. Commands of one sandbox share
// its private /tmp. Close ends them all; the zero value is ready to use.
type pool struct {
	mu      sync.Mutex
	servers map[string]*server
	open    []*server // every server not yet closed, retired ones included
	stubs   []string  // mount points made for missing protected paths
	closed  bool
}

// maxServers bounds the sandboxes a session keeps at once: one, so that
// a change of confinement (a worktree switch) replaces the sandbox. A
// subagent confined elsewhere that runs alongside its parent makes them
// alternate; each replacement costs a bwrap start.
const maxServers = 1

// serverStart bounds the wait for a new server's hello.
const serverStart = 30 * time.Second

// errServerGone says the request never reached the server.
var errServerGone = errors.New("the session's sandbox server has ended")

// server is one long-lived bwrap and the server inside it.
type server struct {
	key, fingerprint string
	bwrap            *exec.Cmd
	pid              int // the server's, inside bwrap
	ctlMu            sync.Mutex
	ctl              *net.UnixConn
	inflight         int
	retired, dead    bool
	lastUse          time.Time
	closeOnce        sync.Once
}

// start runs req in the session's sandbox for sb, starting or restarting
// it as needed. The command never runs unconfined: an error means it did
// not run.
func (ss *Sandbox) start(sb *Spec, req request, out *os.File) (*Process, error) {
	for attempt := 0; ; attempt++ {
		srv, err := ss.acquire(sb)
		if err != nil {
			return nil, err
		}
		p, dead, err := srv.run(req, out, func(dead bool) { ss.release(srv, dead) })
		if err == nil {
			return p, nil
		}
		ss.release(srv, dead)
		if !errors.Is(err, errServerGone) || attempt > 0 {
			return nil, err
		}
	}
}

// PIDs returns the pids of the session's sandbox servers and of the bwrap
// processes around them, for tests and diagnostics.
func (ss *Sandbox) PIDs() (servers, bwraps []int) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, s := range ss.open {
		servers, bwraps = append(servers, s.pid), append(bwraps, s.bwrap.Process.Pid)
	}
	return servers, bwraps
}

// Close ends every sandbox of the session: the commands still running in
// them are killed, bwrap and its server exit, and the mount points made
// for missing protected paths are removed. Later commands fail.
func (ss *Sandbox) Close() {
	ss.mu.Lock()
	ss.closed = true
	open := slices.Clone(ss.open)
	ss.servers = nil
	ss.mu.Unlock()
	for _, s := range open {
		s.close()
	}
	// Only now, with every sandbox gone, may the mount points go.
	ss.mu.Lock()
	ss.open = nil
	ss.removeStubsLocked()
	ss.mu.Unlock()
}

// acquire returns the live server for sb's confinement, counted in use.
func (ss *Sandbox) acquire(sb *Spec) (*server, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return nil, errors.New("the session has ended: its sandbox is closed")
	}
	if ss.servers == nil {
		ss.servers = map[string]*server{}
	}
	key := sb.key()
	srv := ss.servers[key]
	if srv != nil && (srv.dead || !alive(srv.pid) || !alive(srv.bwrap.Process.Pid) || srv.fingerprint != sb.fingerprint()) {
		ss.retireLocked(srv)
		srv = nil
	}
	if srv == nil {
		for len(ss.servers) >= maxServers {
			var lru *server
			for _, s := range ss.servers {
				if lru == nil || s.lastUse.Before(lru.lastUse) {
					lru = s
				}
			}
			ss.retireLocked(lru)
		}
		// Mount points of servers that are gone are removed before new
		// ones are made: removing a mount point detaches the mount in
		// every namespace that has it.
		ss.removeStubsLocked()
		var stubs []string
		var err error
		srv, stubs, err = launch(sb)
		for _, s := range stubs {
			if !slices.Contains(ss.stubs, s) {
				ss.stubs = append(ss.stubs, s)
			}
		}
		if err != nil {
			ss.removeStubsLocked()
			return nil, err
		}
		srv.key, srv.fingerprint = key, sb.fingerprint()
		ss.servers[key] = srv
		ss.open = append(ss.open, srv)
	}
	srv.inflight++
	srv.lastUse = time.Now()
	return srv, nil
}

// release ends one use of srv; dead says the server is gone.
func (ss *Sandbox) release(srv *server, dead bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	srv.inflight--
	if dead && !srv.dead {
		srv.dead = true
		if ss.servers[srv.key] == srv {
			delete(ss.servers, srv.key)
		}
		srv.retired = true
	}
	if srv.retired && srv.inflight == 0 {
		ss.closeLocked(srv)
	}
}

// retireLocked takes srv out of use; it closes once its commands ended.
func (ss *Sandbox) retireLocked(srv *server) {
	if ss.servers[srv.key] == srv {
		delete(ss.servers, srv.key)
	}
	srv.retired = true
	if srv.inflight == 0 {
		ss.closeLocked(srv)
	}
}

func (ss *Sandbox) closeLocked(srv *server) {
	srv.close()
	ss.open = slices.DeleteFunc(ss.open, func(s *server) bool { return s == srv })
	ss.removeStubsLocked()
}

// removeStubsLocked removes the mount points for missing protected paths
// once no server that may have them mounted is left.
func (ss *Sandbox) removeStubsLocked() {
	if len(ss.open) > 0 || len(ss.stubs) == 0 {
		return
	}
	stubs := slices.Clone(ss.stubs)
	slices.Reverse(stubs) // .claude/settings.json before .claude
	removeStubs(stubs)
	ss.stubs = nil
}

// key names sb's confinement: what it makes writable, protects and shows.
func (s *Spec) key() string {
	return strings.Join([]string{strings.Join(s.Writable, "\x00"), strings.Join(s.Protected, "\x00"),
		strings.Join(s.ReadOnly, "\x00"), strconv.FormatBool(s.Network), s.Bwrap,
		strings.Join(s.DenyRead, "\x00"), strings.Join(s.AllowRead, "\x00"), s.limits(), bridgeKey(s.Bridges)}, "\x01")
}

// fingerprint is the state on disk that sb's mounts were made from:
// which writable and read-only paths exist, and which file each protected
// path is (or that it is missing). A sandbox made from another state binds
// stale files or misses a protected path created since, so it is made
// again.
func (s *Spec) fingerprint() string {
	var b strings.Builder
	for _, p := range slices.Concat(s.Writable, s.ReadOnly, s.DenyRead, s.AllowRead) {
		if _, err := os.Stat(p); err == nil {
			b.WriteString("+")
		} else {
			b.WriteString("-")
		}
	}
	for _, p := range s.Protected {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			b.WriteString("|-")
			continue
		}
		fmt.Fprintf(&b, "|%d:%d", st.Dev, st.Ino)
	}
	return b.String()
}

// launch starts bwrap with sb's mounts and the server inside, and waits
// for its hello. It returns the mount points bwrap made, also on error.
func launch(sb *Spec) (*server, []string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("start the session's sandbox: find this program to run inside it: %w", err)
	}
	args, stubs := sb.mounts()
	if within(exe, []string{"/tmp"}) {
		// go test and go run build under /tmp, which the sandbox
		// replaces with its own.
		args = append(args, "--ro-bind", exe, exe)
	}
	args = append(args, "--chdir", "/", "--", exe, serverArg)
	for _, b := range sb.Bridges {
		args = append(args, b.String())
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("start the session's sandbox: %w", err)
	}
	theirs := os.NewFile(uintptr(pair[1]), "sandbox-control")
	defer theirs.Close()
	mine := os.NewFile(uintptr(pair[0]), "sandbox-control")
	c, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("start the session's sandbox: %w", err)
	}
	ctl := c.(*net.UnixConn)
	errs, err := os.CreateTemp("", "agentcore-bwrap-*.err")
	if err != nil {
		ctl.Close()
		return nil, nil, fmt.Errorf("start the session's sandbox: %w", err)
	}
	os.Remove(errs.Name())
	defer errs.Close()
	cmd := exec.Command(sb.binary(), args...)
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Stdout, cmd.Stderr = errs, errs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		ctl.Close()
		if errors.Is(err, exec.ErrNotFound) {
			return nil, stubs, errors.New(BwrapMissingHelp)
		}
		return nil, stubs, fmt.Errorf("start the session's sandbox: %w", err)
	}
	theirs.Close() // bwrap has it: a bwrap that fails ends the wait for the hello
	srv := &server{bwrap: cmd, ctl: ctl}
	fail := func(why string) (*server, []string, error) {
		srv.close()
		b, _ := io.ReadAll(io.NewSectionReader(errs, 0, 4096))
		if msg := strings.TrimSpace(string(b)); msg != "" {
			why += ": " + msg
		}
		return nil, stubs, errors.New("start the session's sandbox: " + why + "; the command did not run")
	}
	_ = ctl.SetReadDeadline(time.Now().Add(serverStart))
	buf := make([]byte, 4096)
	oob := make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := ctl.ReadMsgUnix(buf, oob)
	_ = ctl.SetReadDeadline(time.Time{})
	var hello reply
	if err != nil {
		return fail("no answer from the server inside bwrap (" + err.Error() + ")")
	}
	pid, perr := hostPid(oob[:oobn])
	switch {
	case json.Unmarshal(buf[:n], &hello) != nil || hello.Err != "" || hello.Pid <= 0:
		return fail("the server inside bwrap failed: " + string(buf[:n]))
	case perr != nil:
		return fail("the server's pid as the host sees it: " + perr.Error())
	case parentOf(parentOf(pid)) != cmd.Process.Pid:
		// The host kills a timed-out command's group by pid: the pid
		// must be the server's, under bwrap and the init bwrap runs as
		// pid 1 of the sandbox's pid namespace.
		return fail("the server's pid " + strconv.Itoa(pid) + " is not a grandchild of bwrap")
	}
	srv.pid = pid
	return srv, stubs, nil
}

// hostPid reads the pid, as this process sees it, of the process whose
// pidfd came in oob (a process inside the sandbox's pid namespace,
// whose own pids mean nothing out here), and closes the descriptors.
func hostPid(oob []byte) (int, error) {
	fds, err := unixRights(oob)
	defer func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	}()
	if err != nil || len(fds) != 1 {
		return -1, fmt.Errorf("want one pidfd, got %d (%v)", len(fds), err)
	}
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fds[0]))
	if err != nil {
		return -1, fmt.Errorf("read the pidfd: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || pid <= 0 {
				return -1, fmt.Errorf("the process has gone (pidfd Pid %q)", strings.TrimSpace(v))
			}
			return pid, nil
		}
	}
	return -1, errors.New("no Pid in the pidfd's fdinfo (Linux 5.3 or later shows it)")
}

// HostPID is the pid, as the host sees it, of the process with pid nspid
// inside the session's sandbox (its pid namespace), or -1; for tests and
// diagnostics.
func (ss *Sandbox) HostPID(nspid int) int {
	servers, _ := ss.PIDs()
	for _, srv := range servers {
		ns, err := os.Readlink("/proc/" + strconv.Itoa(srv) + "/ns/pid")
		if err != nil {
			continue
		}
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			if l, err := os.Readlink("/proc/" + e.Name() + "/ns/pid"); err != nil || l != ns {
				continue
			}
			b, err := os.ReadFile("/proc/" + e.Name() + "/status")
			if err != nil {
				continue
			}
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "NSpid:"); ok {
					f := strings.Fields(v)
					if len(f) > 0 && f[len(f)-1] == strconv.Itoa(nspid) {
						pid, _ := strconv.Atoi(e.Name())
						return pid
					}
				}
			}
		}
	}
	return -1
}

// alive reports whether pid is a process that has not exited (a zombie
// has), from /proc.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// parentOf is the parent pid of pid from /proc, -1 when unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return ppid
}

// run hands req to the server and returns once bash has started; done is
// called once the command has ended (dead: the server went first). On
// error, dead says the server is gone or unusable.
func (s *server) run(req request, out *os.File, done func(dead bool)) (*Process, bool, error) {
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, false, fmt.Errorf("talk to the session's sandbox: %w", err)
	}
	theirs := os.NewFile(uintptr(pair[1]), "sandbox-command")
	mine := os.NewFile(uintptr(pair[0]), "sandbox-command")
	b, err := json.Marshal(req)
	if err != nil {
		theirs.Close()
		mine.Close()
		return nil, false, fmt.Errorf("talk to the session's sandbox: %w", err)
	}
	// A request that fits the socket's buffer is written before the
	// server gets the socket, so that it reads it without waiting.
	early := len(b) <= 32<<10
	if early {
		if _, err := mine.Write(b); err != nil {
			theirs.Close()
			mine.Close()
			return nil, false, fmt.Errorf("talk to the session's sandbox: %w", err)
		}
	}
	fds := []int{int(out.Fd()), int(theirs.Fd())}
	for _, f := range req.Files {
		fds = append(fds, int(f.Fd()))
	}
	s.ctlMu.Lock()
	_, _, err = s.ctl.WriteMsgUnix([]byte{0}, syscall.UnixRights(fds...), nil)
	s.ctlMu.Unlock()
	theirs.Close()
	if err != nil {
		mine.Close()
		return nil, true, fmt.Errorf("%w (%w)", errServerGone, err)
	}
	c, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		return nil, false, fmt.Errorf("talk to the session's sandbox: %w", err)
	}
	_ = c.SetDeadline(time.Now().Add(serverStart))
	uc := c.(*net.UnixConn)
	var started reply
	if !early {
		_, err = c.Write(b)
	}
	var r *bufio.Reader
	pid, perr := -1, error(nil)
	if err == nil {
		// The first reply carries bash's pidfd (see serveOne).
		var line, oob []byte
		line, oob, err = readFirst(uc)
		if err == nil {
			pid, perr = -1, errors.New("no pidfd")
			if len(oob) > 0 {
				pid, perr = hostPid(oob)
			}
			i := bytes.IndexByte(line, '\n')
			r = bufio.NewReader(io.MultiReader(bytes.NewReader(line[i+1:]), c))
			err = json.Unmarshal(line[:i], &started)
		}
	}
	parent := -1
	if err == nil && started.Err == "" && perr == nil {
		parent = parentOf(pid)
		_, err = c.Write([]byte{1}) // bash may be reaped now
	}
	_ = c.SetDeadline(time.Time{})
	switch {
	case err != nil:
		c.Close()
		return nil, true, fmt.Errorf("the session's sandbox server did not start the command (%w); the next command starts a new sandbox", err)
	case started.Err != "":
		c.Close()
		return nil, false, errors.New(started.Err)
	case started.Pid <= 0 || perr != nil || parent != s.pid:
		// The host kills this pid's group on timeout: it must be the
		// server's child, whatever the server says.
		c.Close()
		return nil, true, fmt.Errorf("the session's sandbox server started a command whose pid is not its child (%d, %v); the next command starts a new sandbox", pid, perr)
	}
	p := NewProcess(pid)
	go func() {
		defer c.Close()
		var ended reply
		if err := readReply(r, &ended); err != nil || !ended.Exited {
			// The server died under the command: end what is left of it.
			_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
			done(true)
			p.End(-1, "", errors.New("the session's sandbox server ended while the command ran; the next command starts a new sandbox"))
			return
		}
		done(false)
		p.End(ended.Code, ended.Cwd, nil)
	}()
	return p, false, nil
}

// readFirst reads from c up to the end of the first line, with the
// descriptors that came with it; the bytes after the line come too.
func readFirst(c *net.UnixConn) (line, oob []byte, err error) {
	buf := make([]byte, 4096)
	ob := make([]byte, syscall.CmsgSpace(4))
	for !bytes.Contains(line, []byte{'\n'}) {
		n, oobn, _, _, err := c.ReadMsgUnix(buf, ob)
		if oobn > 0 && oob == nil {
			oob = append([]byte(nil), ob[:oobn]...)
		}
		line = append(line, buf[:n]...)
		if err != nil {
			return line, oob, err
		}
		if n == 0 {
			return line, oob, io.ErrUnexpectedEOF
		}
	}
	return line, oob, nil
}

func readReply(r *bufio.Reader, into *reply) error {
	line, err := r.ReadBytes('\n')
	if err != nil {
		return err
	}
	return json.Unmarshal(line, into)
}

// close ends the server: it kills its commands and exits when its control
// socket closes; bwrap is killed if it has not gone within a few seconds.
func (s *server) close() {
	s.closeOnce.Do(func() {
		s.ctl.Close()
		exited := make(chan struct{})
		go func() {
			_ = s.bwrap.Wait()
			close(exited)
		}()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-s.bwrap.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
}
