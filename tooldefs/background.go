package tooldefs

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/shell"
	"github.com/agentcore/agentcore/tooldefs/subagent"
)

// background is what TaskOutput and TaskStop need of a background task:
// a shell (shell.Task) or an agent (subagent.Background).
type background interface {
	ID() string
	Label() string
	OutputPath() string
	Done() <-chan struct{}
	Wait(ctx context.Context, timeout time.Duration) (bool, error)
	ReadNew(maxChars int) (string, error)
	// State is the status and, for a shell that ended, its exit code.
	State() (status string, code int, hasCode bool)
	Kill() error
}

// findBackground finds the task id of tc's session: a monitor when the id
// has shell.MonitorPrefix, an agent when it has subagent.IDPrefix, else a shell.
func findBackground(tc *runtime.ToolContext, id string) (background, error) {
	if strings.HasPrefix(id, shell.MonitorPrefix) {
		w, err := shell.FindMonitor(tc, id)
		if err != nil {
			return nil, err
		}
		return monitorTask{w}, nil
	}
	if strings.HasPrefix(id, subagent.IDPrefix) {
		b, err := subagent.Find(tc, id)
		if err != nil {
			return nil, err
		}
		return agentTask{b}, nil
	}
	t, err := shell.FindTask(tc, id)
	if err != nil {
		return nil, err
	}
	return shellTask{t}, nil
}

type shellTask struct{ *shell.Task }

func (t shellTask) ID() string         { return t.Task.ID }
func (t shellTask) Label() string      { return t.Command }
func (t shellTask) OutputPath() string { return t.Task.OutputPath }
func (t shellTask) State() (string, int, bool) {
	st, code := t.Task.State()
	return string(st), code, st != shell.StatusRunning
}
func (t shellTask) Kill() error {
	err := t.Task.Kill()
	if errors.Is(err, shell.ErrNotRunning) {
		return errTaskNotRunning
	}
	return err
}

type agentTask struct{ *subagent.Background }

func (t agentTask) ID() string         { return t.Background.ID }
func (t agentTask) Label() string      { return t.Description }
func (t agentTask) OutputPath() string { return t.Background.OutputPath }
func (t agentTask) State() (string, int, bool) {
	return string(t.Background.State()), 0, false
}
func (t agentTask) Kill() error {
	err := t.Background.Kill()
	if errors.Is(err, subagent.ErrNotRunning) {
		return errTaskNotRunning
	}
	return err
}

// errTaskNotRunning is Kill's error for a task that already ended.
var errTaskNotRunning = errors.New("the task is not running")

// monitorTask is a monitor as TaskOutput and TaskStop see it.
type monitorTask struct{ *shell.Watch }

func (t monitorTask) ID() string            { return t.Watch.ID }
func (t monitorTask) Label() string         { return "Monitor " + t.Task.ID }
func (t monitorTask) OutputPath() string    { return t.Task.OutputPath }
func (t monitorTask) Done() <-chan struct{} { return t.Watch.Done() }
func (t monitorTask) ReadNew(int) (string, error) {
	return "", nil // the lines went out as notifications
}
func (t monitorTask) Wait(ctx context.Context, timeout time.Duration) (bool, error) {
	select {
	case <-t.Watch.Done():
		return true, nil
	case <-time.After(timeout):
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}
func (t monitorTask) State() (string, int, bool) { return t.Status(), 0, false }
func (t monitorTask) Kill() error {
	err := t.Watch.Kill()
	if errors.Is(err, shell.ErrNotRunning) {
		return errTaskNotRunning
	}
	return err
}
