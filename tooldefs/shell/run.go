// Package shell runs commands for the Bash tool: a real `bash -c` in its own
// process group, killed whole on timeout or cancel, with stdout and stderr
// interleaved into one output file as a terminal would show them, long
// output cut to its head and tail (the whole kept on disk), the final working
// directory reported back, and a registry of background shells, one per
// session (Background). A sandboxed command runs in the confinement the
// session's sandbox gives its call (runtime/sandbox's Spec).
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/sandbox"
)

const (
	// DefaultTimeout is the timeout of a command that names none.
	DefaultTimeout = 2 * time.Minute
	// MaxTimeout is the longest timeout a command may ask for.
	MaxTimeout = 10 * time.Minute
	// MaxOutputChars is how much output a result carries; beyond it the
	// head and tail are kept and the whole output stays on disk.
	MaxOutputChars = 30000
	// DefaultProgressInterval is how often a running command reports its
	// last lines.
	DefaultProgressInterval = 300 * time.Millisecond
	// DefaultKillGrace is how long a process group has between SIGTERM and
	// SIGKILL.
	DefaultKillGrace = 2 * time.Second
	// progressLines is how many trailing lines a progress report carries.
	progressLines = 5
)

// Options describes one foreground command.
type Options struct {
	// Command is the bash source to run.
	Command string
	// Dir is the working directory; it must exist.
	Dir string
	// Env holds KEY=VALUE pairs added to the process environment.
	Env []string
	// Timeout bounds the run; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxOutputChars caps the output in the result; 0 means MaxOutputChars.
	MaxOutputChars int
	// OnProgress, when set, receives the last lines while the command runs,
	// every ProgressInterval when something changed (and at least once a
	// second for the elapsed time).
	OnProgress func(Progress)
	// ProgressInterval is the polling period; 0 means
	// DefaultProgressInterval.
	ProgressInterval time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL; 0 means
	// DefaultKillGrace.
	KillGrace time.Duration
	// TempDir is where output files go; "" means OutputDir().
	TempDir string
	// Sandbox, when set, runs the command inside the session's sandbox.
	Sandbox *sandbox.Spec
	// Unset are environment variables the command runs without (the
	// agent's credentials, sandbox.Secrets).
	Unset []string
}

// Progress is a snapshot of a running command.
type Progress struct {
	// LastLines are the last few lines of output so far.
	LastLines string
	// TotalLines and TotalBytes count the output so far.
	TotalLines int
	TotalBytes int64
	// Elapsed is the time since the command started.
	Elapsed time.Duration
}

// Result is the outcome of a finished command.
type Result struct {
	// Output is the interleaved stdout and stderr, without trailing
	// newlines; when longer than the cap, its head and tail around a note
	// naming FullOutputPath.
	Output string
	// Truncated is true when Output is cut; FullOutputPath then holds the
	// whole output.
	Truncated      bool
	FullOutputPath string
	// TotalBytes, TotalChars and TotalLines measure the whole output.
	TotalBytes int64
	TotalChars int64
	TotalLines int
	// ExitCode is the shell's exit status; 128+n when killed by signal n.
	ExitCode int
	// TimedOut is true when the command ran past its timeout and was killed.
	TimedOut bool
	// Canceled is true when the context ended the command.
	Canceled bool
	// Cwd is the shell's working directory when it exited ("" when unknown,
	// e.g. the command called exec or replaced the EXIT trap).
	Cwd string
	// Duration is the wall time of the run.
	Duration time.Duration
	// SandboxDenied is true when a sandboxed command failed because the
	// sandbox refused a write or a connection; Output then ends with a note.
	SandboxDenied bool
}

// OutputDir is the directory under the OS temp dir that holds output files.
func OutputDir() string { return fileDir("") }

func fileDir(dir string) string {
	if dir != "" {
		return dir
	}
	return os.TempDir() + string(os.PathSeparator) + "agentcore-bash"
}

// Run runs opts.Command with bash and waits for it, its timeout or ctx.
// A non-zero exit status is not an error here (see Result.ExitCode); the
// error reports a run that could not start.
func Run(ctx context.Context, opts Options) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{Canceled: true}, fmt.Errorf("command not started: %w", err)
	}
	if strings.TrimSpace(opts.Command) == "" {
		return Result{}, errors.New("command is empty: pass the shell command to run")
	}
	if fi, err := os.Stat(opts.Dir); err != nil || !fi.IsDir() {
		return Result{}, fmt.Errorf("working directory %q does not exist or is not a directory", opts.Dir)
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxChars := opts.MaxOutputChars
	if maxChars <= 0 {
		maxChars = MaxOutputChars
	}

	out, err := createOutput(opts.TempDir, "bash-*.log")
	if err != nil {
		return Result{}, err
	}
	keepOutput := false
	defer func() {
		out.Close()
		if !keepOutput {
			os.Remove(out.Name())
		}
	}()

	start := time.Now()
	p, err := startCommand(opts.Command, opts.Dir, opts.Env, opts.Unset, out, opts.Sandbox, true)
	if err != nil {
		return Result{}, err
	}
	stopProgress := startProgress(out.Name(), start, opts)

	res := Result{}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.Done():
	case <-timer.C:
		res.TimedOut = true
		killGroup(p.Pid, p.Done(), opts.KillGrace)
	case <-ctx.Done():
		res.Canceled = true
		killGroup(p.Pid, p.Done(), opts.KillGrace)
	}
	stopProgress()
	res.Duration = time.Since(start)
	var perr error
	res.ExitCode, res.Cwd, perr = p.Exit()
	if perr != nil {
		return res, perr
	}

	st, err := readOutput(out, maxChars)
	if err != nil {
		return res, fmt.Errorf("read command output: %w", err)
	}
	res.TotalBytes, res.TotalChars, res.TotalLines = st.bytes, st.chars, st.lines
	res.Output = st.text
	if st.truncated {
		keepOutput = true
		res.Truncated = true
		res.FullOutputPath = out.Name()
		res.Output = st.head + truncationNote(st, out.Name()) + st.tail
	}
	if note := opts.Sandbox.NoteOf(p, res.ExitCode, st.head+st.tail+st.text); note != "" {
		res.SandboxDenied = true
		res.Output += note
	}
	return res, nil
}

// startCommand starts command in its own process group, stdout and stderr
// sharing out, stdin at /dev/null, without the variables named in unset:
// in the sandbox sb when set, unconfined when nil. With wantCwd the command reports the directory it ended in.
func startCommand(command, dir string, env, unset []string, out *os.File, sb *sandbox.Spec, wantCwd bool) (*sandbox.Process, error) {
	env = sandbox.Scrub(append(os.Environ(), env...), unset)
	if sb != nil {
		return sb.Start(command, dir, env, out, wantCwd)
	}
	script, cwdPath := command, ""
	if wantCwd {
		cwdPath = strings.TrimSuffix(out.Name(), ".log") + ".cwd"
		var err error
		if script, err = sandbox.TrapCwd(command, cwdPath); err != nil {
			return nil, err
		}
	}
	bash := bashPath()
	cmd := exec.Command(bash, "-c", script)
	if bash == "" {
		cmd.Err = fmt.Errorf("bash: %w", exec.ErrNotFound)
	}
	cmd.Args[0] = "bash"
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = out
	cmd.Stderr = out
	if err := procgroup.Start(cmd); err != nil {
		if cwdPath != "" {
			os.Remove(cwdPath)
		}
		return nil, startError(err)
	}
	p := sandbox.NewProcess(cmd.Process.Pid)
	go func() {
		werr := cmd.Wait()
		cwd := ""
		if cwdPath != "" {
			if b, err := os.ReadFile(cwdPath); err == nil {
				cwd = strings.TrimRight(string(b), "\n")
			}
			os.Remove(cwdPath)
		}
		p.End(sandbox.ExitCode(cmd, werr), cwd, nil)
	}()
	return p, nil
}

// createOutput creates a new output file named after pattern in
// fileDir(dir), making the directory when it is missing.
func createOutput(dir, pattern string) (*os.File, error) {
	dir = fileDir(dir)
	f, err := os.CreateTemp(dir, pattern)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create output directory: %w", err)
		}
		f, err = os.CreateTemp(dir, pattern)
	}
	if err != nil {
		return nil, fmt.Errorf("create output file: %w", err)
	}
	return f, nil
}

// startError explains a failure to start bash; a missing bash says how to
// fix it.
func startError(err error) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("start bash: %w (%s)", err, bashMissingHelp)
	}
	return fmt.Errorf("start bash: %w", err)
}

// killGroup sends SIGTERM to the process group led by pid, then SIGKILL
// once the group has had grace to exit, and returns once the leader has
// exited (done is closed) and the group is gone.
func killGroup(pid int, done <-chan struct{}, grace time.Duration) {
	if grace <= 0 {
		grace = DefaultKillGrace
	}
	_ = procgroup.Terminate(pid)
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	leaderDone := false
wait:
	for {
		select {
		case <-done:
			if groupGone(pid) {
				return
			}
			leaderDone, done = true, nil
		case <-tick.C:
			if leaderDone && groupGone(pid) {
				return
			}
		case <-deadline.C:
			break wait
		}
	}
	_ = procgroup.Kill(pid)
	if !leaderDone {
		<-done
	}
	// SIGKILL is delivered at once but a process takes a moment to die
	// (longer on a loaded machine): wait for the group, so that the
	// result means nothing of the command is left running.
	for end := time.Now().Add(killSettle); !groupGone(pid) && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
}

// killSettle bounds the wait for a SIGKILLed group to be gone.
const killSettle = 2 * time.Second

// groupGone reports whether no live process of the group pgid is left.
// Zombies do not count: an orphan nobody reaps (PID 1 of a container may
// not) stays a group member but can no longer do anything.
func groupGone(pgid int) bool {
	if !procgroup.Exists(pgid) {
		return true
	}
	return !liveMember(pgid)
}

// liveMember scans /proc for a process of group pgid that is not a zombie;
// without /proc it assumes there is one.
func liveMember(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if f[0] != "Z" && f[0] != "X" {
			return true
		}
	}
	return false
}

// startProgress polls the output file and reports progress until the
// returned stop function is called; stop waits for the poller to end.
func startProgress(path string, start time.Time, opts Options) (stop func()) {
	if opts.OnProgress == nil {
		return func() {}
	}
	interval := opts.ProgressInterval
	if interval <= 0 {
		interval = DefaultProgressInterval
	}
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		var tail tailer
		lastSize := int64(-1)
		lastReport := time.Time{}
		for {
			select {
			case <-quit:
				return
			case <-t.C:
			}
			p, err := tail.poll(path)
			if err != nil {
				continue
			}
			if p.TotalBytes == lastSize && time.Since(lastReport) < time.Second {
				continue
			}
			lastSize, lastReport = p.TotalBytes, time.Now()
			p.Elapsed = time.Since(start)
			opts.OnProgress(p)
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// tailer follows a growing output file: it counts lines incrementally and
// keeps the last lines.
type tailer struct {
	offset int64
	lines  int
	last   []byte
}

func (t *tailer) poll(path string) (Progress, error) {
	f, err := os.Open(path)
	if err != nil {
		return Progress{}, err
	}
	defer f.Close()
	if _, err := f.Seek(t.offset, io.SeekStart); err != nil {
		return Progress{}, err
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			t.offset += int64(n)
			t.lines += strings.Count(string(chunk), "\n")
			t.last = append(t.last, chunk...)
			if len(t.last) > 8<<10 {
				t.last = append([]byte(nil), t.last[len(t.last)-4<<10:]...)
			}
		}
		if err != nil {
			break
		}
	}
	lines := t.lines
	if len(t.last) > 0 && t.last[len(t.last)-1] != '\n' {
		lines++
	}
	return Progress{LastLines: lastLines(string(t.last), progressLines), TotalLines: lines, TotalBytes: t.offset}, nil
}

// lastLines returns the last n non-empty-trailing lines of s.
func lastLines(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimRight(s, "\n"), "\uFFFD")
	idx := len(s)
	for i := 0; i < n; i++ {
		j := strings.LastIndexByte(s[:idx], '\n')
		if j < 0 {
			return s
		}
		idx = j
	}
	return s[idx+1:]
}
