package tooldefs

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

// TaskGet returns one task of the session's task list in full: subject,
// description, status, owner, and the tasks it blocks and is blocked by
// (with whether each blocker is still open). Read a task before starting
// on it.
//
// +tool:name=TaskGet
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="read one task of the shared task list"
type TaskGet struct{}

// TaskGetInput is the input of TaskGet.
type TaskGetInput struct {
	// The task's ID, as TaskCreate or TaskList gave it.
	TaskID string `json:"taskId" jsonschema:"minLength=1"`
}

// TaskGetOutput is the task and its open blockers.
type TaskGetOutput struct {
	Task         tasklist.Task `json:"task"`
	OpenBlockers []string      `json:"openBlockers"`
}

// IsEnabled is true when AGENTCORE_ENABLE_TASKS picks the Task tools.
func (TaskGet) IsEnabled() bool { return tasklist.TasksEnabled() }

// Call reads the task.
func (TaskGet) Call(_ context.Context, in *TaskGetInput, c *runtime.Call) (TaskGetOutput, error) {
	st, err := tasklist.For(c.Context)
	if err != nil {
		return TaskGetOutput{}, err
	}
	l, err := st.Tasks()
	if err != nil {
		return TaskGetOutput{}, err
	}
	t, err := l.Find(in.TaskID)
	if err != nil {
		return TaskGetOutput{}, err
	}
	return TaskGetOutput{Task: *t, OpenBlockers: l.OpenBlockers(t)}, nil
}

// ResultBlocks is the task as text.
func (TaskGet) ResultBlocks(out TaskGetOutput) []runtime.Block {
	t := out.Task
	var b strings.Builder
	fmt.Fprintf(&b, "Task #%s: %s\nStatus: %s\n", t.ID, t.Subject, t.Status)
	if t.Owner != "" {
		fmt.Fprintf(&b, "Owner: %s\n", t.Owner)
	}
	fmt.Fprintf(&b, "Description: %s\n", t.Description)
	if len(t.BlockedBy) > 0 {
		fmt.Fprintf(&b, "Blocked by: #%s (open: %s)\n", strings.Join(t.BlockedBy, ", #"), orNone(out.OpenBlockers))
	}
	if len(t.Blocks) > 0 {
		fmt.Fprintf(&b, "Blocks: #%s\n", strings.Join(t.Blocks, ", #"))
	}
	return []runtime.Block{runtime.TextBlock(strings.TrimRight(b.String(), "\n"))}
}

func orNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return "#" + strings.Join(ids, ", #")
}

// RenderUse shows the id.
func (TaskGet) RenderUse(in *TaskGetInput) string { return "#" + strings.TrimPrefix(in.TaskID, "#") }

// RenderResult shows the task's line.
func (TaskGet) RenderResult(_ *TaskGetInput, out TaskGetOutput) string {
	return tasklist.Mark(out.Task.Status) + " #" + out.Task.ID + " " + out.Task.Subject
}
