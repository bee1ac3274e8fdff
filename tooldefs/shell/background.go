package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime/sandbox"
)

// Status is the state of a background shell.
type Status string

const (
	// StatusRunning: the command has not exited.
	StatusRunning Status = "running"
	// StatusCompleted: it exited with status 0.
	StatusCompleted Status = "completed"
	// StatusFailed: it exited with a non-zero status.
	StatusFailed Status = "failed"
	// StatusKilled: it was stopped with Kill.
	StatusKilled Status = "killed"
)

// ErrNotFound is returned for an unknown background shell id.
var ErrNotFound = errors.New("no background task with that id")

// ErrNotRunning is returned when stopping a shell that already ended.
var ErrNotRunning = errors.New("background task is not running")

// Registry holds background shells. It is safe for concurrent use.
type Registry struct {
	mu     sync.Mutex
	seq    int
	tasks  map[string]*Task
	prefix string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{tasks: map[string]*Task{}, prefix: "bash_"}
}

// BackgroundOptions describes a background command.
type BackgroundOptions struct {
	// Command is the bash source to run.
	Command string
	// Description is a short label for listings.
	Description string
	// Dir is the working directory; it must exist.
	Dir string
	// Env holds KEY=VALUE pairs added to the process environment.
	Env []string
	// KillGrace is the time between SIGTERM and SIGKILL; 0 means
	// DefaultKillGrace.
	KillGrace time.Duration
	// TempDir is where the output file goes; "" means OutputDir().
	TempDir string
	// Sandbox, when set, runs the command inside the session's sandbox.
	Sandbox *sandbox.Spec
	// Unset are environment variables the command runs without.
	Unset []string
}

// Task is one background shell.
type Task struct {
	// ID names the task for TaskOutput and TaskStop.
	ID string
	// Command and Description are as started.
	Command     string
	Description string
	// OutputPath is the file that receives the interleaved output.
	OutputPath string
	// Started is when the command started.
	Started time.Time

	pid   int
	grace time.Duration
	done  chan struct{}

	mu       sync.Mutex
	status   Status
	exitCode int
	ended    time.Time
	killing  bool
	offset   int64           // read position of ReadNew
	exited   <-chan struct{} // closed when the leader has exited, before done
	killOnce sync.Once
}

// Start runs a command in the background and registers it. The command is
// not bound to any context: it runs until it exits or is killed.
func (r *Registry) Start(opts BackgroundOptions) (*Task, error) {
	if strings.TrimSpace(opts.Command) == "" {
		return nil, errors.New("command is empty: pass the shell command to run")
	}
	if fi, err := os.Stat(opts.Dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("working directory %q does not exist or is not a directory", opts.Dir)
	}
	r.mu.Lock()
	r.seq++
	id := r.prefix + strconv.Itoa(r.seq)
	r.mu.Unlock()

	out, err := createOutput(opts.TempDir, id+"-*.log")
	if err != nil {
		return nil, err
	}
	defer out.Close() // the child holds its own descriptor
	p, err := startCommand(opts.Command, opts.Dir, opts.Env, opts.Unset, out, opts.Sandbox, false)
	if err != nil {
		os.Remove(out.Name())
		return nil, err
	}
	t := &Task{
		ID: id, Command: opts.Command, Description: opts.Description,
		OutputPath: out.Name(), Started: time.Now(),
		pid: p.Pid, grace: opts.KillGrace,
		done: make(chan struct{}), status: StatusRunning,
		exited: p.Done(),
	}
	go func() {
		<-p.Done()
		code, _, _ := p.Exit()
		t.mu.Lock()
		t.exitCode = code
		t.ended = time.Now()
		switch {
		case t.killing:
			t.status = StatusKilled
		case code == 0:
			t.status = StatusCompleted
		default:
			t.status = StatusFailed
		}
		t.mu.Unlock()
		close(t.done)
	}()
	r.mu.Lock()
	r.tasks[id] = t
	r.mu.Unlock()
	return t, nil
}

// Get returns the task with id.
func (r *Registry) Get(id string) (*Task, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.tasks[id]
	return t, ok
}

// List returns the tasks in start order.
func (r *Registry) List() []*Task {
	r.mu.Lock()
	out := make([]*Task, 0, len(r.tasks))
	for _, t := range r.tasks {
		out = append(out, t)
	}
	r.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out
}

// Kill stops the task with id (see Task.Kill).
func (r *Registry) Kill(id string) (*Task, error) {
	t, ok := r.Get(id)
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return t, t.Kill()
}

// ShutdownGrace is the time a background task's process group has
// between SIGTERM and SIGKILL when the agent shuts down (KillAll): short,
// so that a command that ignores SIGTERM does not hold up the exit.
const ShutdownGrace = 500 * time.Millisecond

// KillAll stops every running task, all at once, and waits for them;
// call it when the agent shuts down. Each gets at most ShutdownGrace
// between SIGTERM and SIGKILL.
func (r *Registry) KillAll() {
	var wg sync.WaitGroup
	for _, t := range r.List() {
		grace := t.grace
		if grace <= 0 || grace > ShutdownGrace {
			grace = ShutdownGrace
		}
		wg.Go(func() { _ = t.kill(grace) })
	}
	wg.Wait()
}

// Reset kills every task, removes their output files and forgets them; for
// tests and session ends.
func (r *Registry) Reset() {
	r.KillAll()
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, t := range r.tasks {
		os.Remove(t.OutputPath)
		delete(r.tasks, id)
	}
}

// Done is closed when the command has exited.
func (t *Task) Done() <-chan struct{} { return t.done }

// State returns the status and, once ended, the exit code.
func (t *Task) State() (Status, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.status, t.exitCode
}

// Wait waits until the task ends, timeout passes or ctx ends, and reports
// whether the task has ended.
func (t *Task) Wait(ctx context.Context, timeout time.Duration) (bool, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-t.done:
		return true, nil
	case <-timer.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// Kill stops the task's whole process group (SIGTERM, then SIGKILL after
// the grace period) and waits until it has exited. Killing a task that has
// already ended returns ErrNotRunning.
func (t *Task) Kill() error { return t.kill(t.grace) }

func (t *Task) kill(grace time.Duration) error {
	select {
	case <-t.done:
		return fmt.Errorf("%w: %s has status %s", ErrNotRunning, t.ID, t.statusOf())
	default:
	}
	t.killOnce.Do(func() {
		t.mu.Lock()
		t.killing = true
		t.mu.Unlock()
		killGroup(t.pid, t.exited, grace)
	})
	<-t.done
	return nil
}

func (t *Task) statusOf() Status {
	s, _ := t.State()
	return s
}

// ReadNew returns the output written since the previous ReadNew, at most
// maxChars characters (the newest ones, after a note, when there is more).
// A character cut in half at the end of the file is left for the next read
// while the task runs.
func (t *Task) ReadNew(maxChars int) (string, error) {
	if maxChars <= 0 {
		maxChars = MaxOutputChars
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	f, err := os.Open(t.OutputPath)
	if err != nil {
		return "", fmt.Errorf("open output of %s: %w", t.ID, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	end := fi.Size()
	if end <= t.offset {
		return "", nil
	}
	start := t.offset
	skipped := int64(0)
	if window := int64(maxChars) * utf8.UTFMax; end-start > window {
		skipped = end - window - start
		start = end - window
	}
	b := make([]byte, end-start)
	n, err := f.ReadAt(b, start)
	if err != nil && err != io.EOF {
		return "", err
	}
	b = b[:n]
	if t.status == StatusRunning {
		b = b[:completeUTF8(b)]
	}
	t.offset = start + int64(len(b))
	s := string(b)
	if utf8.RuneCountInString(s) > maxChars || skipped > 0 {
		s = lastChars(b, maxChars-noteBudget)
		s = fmt.Sprintf("[... earlier output omitted; the full output is in %s ...]\n", t.OutputPath) + s
	}
	return strings.ToValidUTF8(s, "\uFFFD"), nil
}

// completeUTF8 returns the length of b without a trailing incomplete rune.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// Output returns the whole output so far, capped like a foreground result
// (head and tail).
func (t *Task) Output(maxChars int) (string, error) {
	if maxChars <= 0 {
		maxChars = MaxOutputChars
	}
	f, err := os.Open(t.OutputPath)
	if err != nil {
		return "", fmt.Errorf("open output of %s: %w", t.ID, err)
	}
	defer f.Close()
	st, err := readOutput(f, maxChars)
	if err != nil {
		return "", err
	}
	if st.truncated {
		return st.head + truncationNote(st, t.OutputPath) + st.tail, nil
	}
	return st.text, nil
}
