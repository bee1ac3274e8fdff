package tooldefs

import (
	"context"
	"strconv"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

// TaskCreate adds a task to the session's task list, which the session's
// sub-agents share. Use it to plan multi-step work: one task per
// distinct step, with a short imperative subject and a description of
// what done means. New tasks are pending; set dependencies and progress
// with TaskUpdate, read them with TaskList and TaskGet.
//
// +tool:name=TaskCreate
// +tool:localOnly
// +tool:searchHint="add a task to the shared task list"
type TaskCreate struct{}

// TaskCreateInput is the input of TaskCreate.
type TaskCreateInput struct {
	// A brief title, in the imperative ("Fix the login bug").
	Subject string `json:"subject" jsonschema:"minLength=1"`
	// What needs to be done, and how to tell it is done.
	Description string `json:"description" jsonschema:"minLength=1"`
	// The subject in the present continuous, shown while it runs ("Fixing the login bug").
	ActiveForm string `json:"activeForm,omitempty"`
}

// IsEnabled is true when AGENTCORE_ENABLE_TASKS picks the Task tools.
func (TaskCreate) IsEnabled() bool { return tasklist.TasksEnabled() }

// CheckPermissions allows the call: it changes only the session's task list.
func (TaskCreate) CheckPermissions(context.Context, *TaskCreateInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call adds the task.
func (TaskCreate) Call(_ context.Context, in *TaskCreateInput, c *runtime.Call) (tasklist.Task, error) {
	st, err := tasklist.For(c.Context)
	if err != nil {
		return tasklist.Task{}, err
	}
	var t tasklist.Task
	_, err = st.Update(func(l *tasklist.List) error {
		l.Next++
		t = tasklist.Task{ID: strconv.Itoa(l.Next), Subject: in.Subject, Description: in.Description, ActiveForm: in.ActiveForm,
			Status: tasklist.Pending, Blocks: []string{}, BlockedBy: []string{}}
		l.Tasks = append(l.Tasks, t)
		return nil
	})
	return t, err
}

// ResultBlocks confirms with the new id.
func (TaskCreate) ResultBlocks(t tasklist.Task) []runtime.Block {
	return []runtime.Block{runtime.TextBlock("Task #" + t.ID + " created successfully: " + t.Subject)}
}

// RenderUse shows the subject.
func (TaskCreate) RenderUse(in *TaskCreateInput) string { return in.Subject }

// RenderResult shows the new task.
func (TaskCreate) RenderResult(_ *TaskCreateInput, t tasklist.Task) string {
	return tasklist.Mark(t.Status) + " #" + t.ID + " " + t.Subject
}
