package tooldefs

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// TaskStop stops a running background task: a shell started by Bash with
// run_in_background, together with every process it started, or an agent
// started by Agent with run_in_background, whose running calls are
// cancelled.
//
// - Takes the task_id Bash or Agent returned (e.g. "bash_1", "agent_1").
// - Stopping a task that has already ended is an error that gives its
// status.
//
// +tool:name=TaskStop
// +tool:localOnly
// +tool:destructive
// +tool:alias=KillShell
// +tool:searchHint="stop a background shell task"
type TaskStop struct{}

// TaskStopInput is the input of TaskStop. Give task_id; shell_id is the
// older name KillShell callers use.
type TaskStopInput struct {
	// The ID of the background task to stop, as Bash or Agent returned it.
	TaskID string `json:"task_id,omitempty"`
	// Deprecated: use task_id.
	ShellID string `json:"shell_id,omitempty"`
}

// TaskStopResult is what TaskStop did.
type TaskStopResult struct {
	TaskID  string `json:"task_id"`
	Command string `json:"command"`
	// Status is the task's status after the stop (killed).
	Status string `json:"status"`
}

func (in *TaskStopInput) id() string {
	if in.TaskID != "" {
		return in.TaskID
	}
	return in.ShellID
}

// ValidateInput refuses a missing, unknown or already ended task.
func (TaskStop) ValidateInput(_ context.Context, in *TaskStopInput, tc *runtime.ToolContext) error {
	if in.id() == "" {
		return errors.New("missing required parameter task_id: pass the ID Bash or Agent with run_in_background returned")
	}
	t, err := findBackground(tc, in.id())
	if err != nil {
		return err
	}
	if st, _, _ := t.State(); st != string(shell.StatusRunning) {
		return fmt.Errorf("task %s is not running (status: %s)", t.ID(), st)
	}
	return nil
}

// Call stops the task and waits until it has exited.
func (TaskStop) Call(ctx context.Context, in *TaskStopInput, c *runtime.Call) (TaskStopResult, error) {
	if in.id() == "" {
		return TaskStopResult{}, errors.New("missing required parameter task_id: pass the ID Bash or Agent with run_in_background returned")
	}
	t, err := findBackground(c.Context, in.id())
	if err != nil {
		return TaskStopResult{}, err
	}
	if err := t.Kill(); err != nil {
		if errors.Is(err, errTaskNotRunning) {
			st, _, _ := t.State()
			return TaskStopResult{}, fmt.Errorf("task %s is not running (status: %s)", t.ID(), st)
		}
		return TaskStopResult{}, err
	}
	st, _, _ := t.State()
	return TaskStopResult{TaskID: t.ID(), Command: t.Label(), Status: st}, nil
}

// ResultBlocks confirms the stop.
func (TaskStop) ResultBlocks(out TaskStopResult) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("Successfully stopped task: %s (%s)", out.TaskID, out.Command))}
}

// RenderUse shows the task.
func (TaskStop) RenderUse(in *TaskStopInput) string { return in.id() }

// RenderResult confirms the stop.
func (TaskStop) RenderResult(_ *TaskStopInput, out TaskStopResult) string {
	return "Stopped " + out.TaskID + ": " + shell.OneLine(out.Command, 80)
}
