package subagent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
)

// Status is the state of a background sub-agent; the words are the
// background shells' (TaskOutput reports both alike).
type Status string

const (
	// StatusRunning: the sub-agent has not finished.
	StatusRunning Status = "running"
	// StatusCompleted: it ended its turn with an answer.
	StatusCompleted Status = "completed"
	// StatusFailed: it ended by an error (the model request failed, its
	// turn limit).
	StatusFailed Status = "failed"
	// StatusKilled: it was stopped with Kill (TaskStop) or by the
	// session's end.
	StatusKilled Status = "killed"
)

// IDPrefix starts every background sub-agent's id ("agent_1"): TaskOutput
// and TaskStop tell them from background shells ("bash_1") by it.
const IDPrefix = "agent_"

// ErrNotRunning is Kill's error for a sub-agent that has ended.
var ErrNotRunning = errors.New("the background agent is not running")

// Registry holds a session's background sub-agents. It is safe for
// concurrent use.
type Registry struct {
	mu     sync.Mutex
	seq    int
	agents map[string]*Background
	wg     sync.WaitGroup
}

// Agents returns the registry of tc's session, made on first use; the
// session's end stops every sub-agent still running and waits for it.
func Agents(tc *runtime.ToolContext) (*Registry, error) {
	return runtime.SessionValue(tc, func() (*Registry, func()) {
		r := &Registry{agents: map[string]*Background{}}
		return r, r.stopAll
	})
}

// Find returns the background sub-agent id of tc's session.
func Find(tc *runtime.ToolContext, id string) (*Background, error) {
	r, err := Agents(tc)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	b, ok := r.agents[id]
	r.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no background agent found with ID %q: use the ID the Agent tool with run_in_background returned", id)
	}
	return b, nil
}

// Background is one sub-agent running in the background.
type Background struct {
	// ID names it for TaskOutput and TaskStop ("agent_1").
	ID string
	// Description is the Agent call's; Type the sub-agent's type.
	Description, Type string
	// OutputPath is the file its transcript goes to, line by line.
	OutputPath string
	// Started is when it started.
	Started time.Time

	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	status   Status
	result   Result
	err      error
	offset   int64 // read position of ReadNew
	reported bool  // ReadNew gave the final answer
}

// Start runs child in the background on req.Prompt, reporting its events
// to the parent session (parent.Emit: they show nested under the Agent
// call while the parent runs) and writing its transcript to a file. When
// it ends, the parent's model is told at its next request
// (notices.Notify). The registry owns child and ends it (End: its
// worktree too).
func (r *Registry) Start(parent agent.Subagents, notices runtime.Conversation, child agent.Subagent, req Request) (*Background, error) {
	r.mu.Lock()
	r.seq++
	id := IDPrefix + strconv.Itoa(r.seq)
	r.mu.Unlock()
	dir := filepath.Join(os.TempDir(), "agentcore-agents")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the output directory: %w", err)
	}
	f, err := os.CreateTemp(dir, id+"-*.log")
	if err != nil {
		return nil, fmt.Errorf("create the output file: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Background{ID: id, Description: req.Description, Type: req.Type.Name, OutputPath: f.Name(),
		Started: time.Now(), cancel: cancel, done: make(chan struct{}), status: StatusRunning}
	r.mu.Lock()
	r.agents[id] = b
	r.mu.Unlock()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(b.done)
		defer cancel()
		log := &transcript{f: f}
		res, err := Run(ctx, child, req.Prompt, func(ev agent.Event) {
			log.write(ev)
			parent.Emit(ev)
		})
		End(child, req, &res)
		b.mu.Lock()
		b.result, b.err = res, err
		switch {
		case b.status == StatusKilled:
		case err != nil:
			b.status = StatusFailed
		default:
			b.status = StatusCompleted
		}
		status := b.status
		b.mu.Unlock()
		log.end(status, res)
		f.Close()
		if status != StatusKilled {
			notices.Notify(notice(b, status))
		}
	}()
	return b, nil
}

// notice is what the parent model is told when b ends, in the shape of
// Claude Code's task notifications.
func notice(b *Background, status Status) string {
	var kept string
	if r, _ := b.Result(); r.WorktreePath != "" {
		kept = fmt.Sprintf("\nIts changes are kept in the worktree %s on branch %s.", r.WorktreePath, r.WorktreeBranch)
	}
	return fmt.Sprintf("<task-notification>\n<task-id>%s</task-id>\n<status>%s</status>\n<summary>Agent %q %s</summary>\nRead its result with TaskOutput (task_id %q).%s\n</task-notification>",
		b.ID, status, b.Description, status, b.ID, kept)
}

// stopAll kills every running sub-agent and waits for them all.
func (r *Registry) stopAll() {
	r.mu.Lock()
	var running []*Background
	for _, b := range r.agents {
		running = append(running, b)
	}
	r.mu.Unlock()
	for _, b := range running {
		_ = b.Kill()
	}
	r.wg.Wait()
}

// Done is closed when the sub-agent has ended.
func (b *Background) Done() <-chan struct{} { return b.done }

// State returns its status.
func (b *Background) State() Status {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

// Wait waits until the sub-agent ends, at most timeout; it reports
// whether it ended. ctx cancels the wait, not the sub-agent.
func (b *Background) Wait(ctx context.Context, timeout time.Duration) (bool, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-b.done:
		return true, nil
	case <-t.C:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// Kill stops the sub-agent (its running calls are cancelled and answered)
// and waits until it has ended.
func (b *Background) Kill() error {
	b.mu.Lock()
	if b.status != StatusRunning {
		b.mu.Unlock()
		return ErrNotRunning
	}
	b.status = StatusKilled
	b.mu.Unlock()
	b.cancel()
	<-b.done
	return nil
}

// ReadNew returns the transcript written since the previous call, at most
// maxChars of it (the rest stays for the next call), and once the
// sub-agent has ended, its final answer or error, once.
func (b *Background) ReadNew(maxChars int) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f, err := os.Open(b.OutputPath)
	if err != nil {
		return "", fmt.Errorf("read the agent's output: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(b.offset, 0); err != nil {
		return "", err
	}
	buf := make([]byte, maxChars)
	n, _ := f.Read(buf)
	b.offset += int64(n)
	out := string(buf[:n])
	ended := false
	select {
	case <-b.done:
		ended = true
	default:
	}
	if ended && !b.reported && n < maxChars {
		b.reported = true
		switch {
		case b.err != nil:
			out += "\nError: " + b.err.Error()
		case b.result.Text != "":
			out += "\nResult:\n" + b.result.Text
		}
		if b.result.WorktreePath != "" {
			out += fmt.Sprintf("\nIts changes are kept in the worktree %s on branch %s.", b.result.WorktreePath, b.result.WorktreeBranch)
		}
	}
	return strings.TrimLeft(out, "\n"), nil
}

// Result returns the final answer once the sub-agent has ended.
func (b *Background) Result() (Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.result, b.err
}

// transcript writes a sub-agent's events as readable lines.
type transcript struct {
	f *os.File
}

func (t *transcript) write(ev agent.Event) {
	switch ev.Kind {
	case agent.EventAssistant:
		for _, blk := range ev.Message.Content {
			if blk.Type == "text" && strings.TrimSpace(blk.Text) != "" {
				fmt.Fprintf(t.f, "%s\n", strings.TrimSpace(blk.Text))
			}
		}
	case agent.EventToolStart:
		use, _ := runtime.Guard("RenderUse", func() string { return ev.Tool.RenderUse(ev.Input) })
		fmt.Fprintf(t.f, "→ %s(%s)\n", ev.Name, oneLine(use, 120))
	case agent.EventToolResult:
		if ev.Call != nil && ev.Call.Result.IsError {
			fmt.Fprintf(t.f, "  %s failed: %s\n", ev.Name, oneLine(ev.Call.Result.Text(), 200))
		}
	}
}

func (t *transcript) end(status Status, res Result) {
	fmt.Fprintf(t.f, "[%s after %d turns, %d tool calls]\n", status, res.Turns, res.ToolCalls)
}
