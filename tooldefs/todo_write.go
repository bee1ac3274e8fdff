package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

// TodoWrite creates and updates a structured todo list for the current
// session: it tracks progress on multi-step work and shows the user what
// is being done.
//
// Use it for tasks of three or more distinct steps, when the user gives
// several things to do, and after new instructions arrive; not for a
// single trivial step. Send the whole list every time. Each item has
// content (what to do, imperative: "Run the tests"), activeForm (the same
// in the present continuous, shown while it runs: "Running the tests")
// and status: pending, in_progress or completed. Keep exactly one item
// in_progress while you work; mark an item completed as soon as it is
// done (not in batches), and only when it is fully done — not when tests
// fail or the work is partial.
//
// +tool:name=TodoWrite
// +tool:localOnly
// +tool:searchHint="track a todo list of the steps of the current work"
type TodoWrite struct{}

// TodoWriteInput is the input of TodoWrite.
type TodoWriteInput struct {
	// The updated todo list: every item, each time.
	Todos []TodoItem `json:"todos"`
}

// TodoItem is one item of the todo list.
type TodoItem struct {
	// What to do, in the imperative ("Run the tests").
	Content string `json:"content" jsonschema:"minLength=1"`
	// pending, in_progress or completed.
	Status string `json:"status" jsonschema:"enum=pending,enum=in_progress,enum=completed"`
	// The same in the present continuous ("Running the tests").
	ActiveForm string `json:"activeForm" jsonschema:"minLength=1"`
}

// TodoWriteOutput is the list before and after the call.
type TodoWriteOutput struct {
	OldTodos []tasklist.Todo `json:"oldTodos"`
	NewTodos []tasklist.Todo `json:"newTodos"`
}

// IsEnabled is true unless AGENTCORE_ENABLE_TASKS picks the Task tools.
func (TodoWrite) IsEnabled() bool { return !tasklist.TasksEnabled() }

// ValidateInput refuses blank items.
func (TodoWrite) ValidateInput(_ context.Context, in *TodoWriteInput, _ *runtime.ToolContext) error {
	for i, t := range in.Todos {
		if strings.TrimSpace(t.Content) == "" || strings.TrimSpace(t.ActiveForm) == "" {
			return fmt.Errorf("todos[%d]: content and activeForm must not be blank", i)
		}
	}
	return nil
}

// CheckPermissions allows the call: it changes only the session's own
// todo list.
func (TodoWrite) CheckPermissions(context.Context, *TodoWriteInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call replaces the session's todo list.
func (TodoWrite) Call(_ context.Context, in *TodoWriteInput, c *runtime.Call) (TodoWriteOutput, error) {
	st, err := tasklist.For(c.Context)
	if err != nil {
		return TodoWriteOutput{}, err
	}
	todos := make([]tasklist.Todo, len(in.Todos))
	for i, t := range in.Todos {
		todos[i] = tasklist.Todo{Content: t.Content, Status: t.Status, ActiveForm: t.ActiveForm}
	}
	old, err := st.SetTodos(todos)
	if err != nil {
		return TodoWriteOutput{}, errors.Join(errors.New("the todo list was not changed"), err)
	}
	runtime.RemindersOf(c.Context).Set("todos", tasklist.CompactReminder(todos))
	return TodoWriteOutput{OldTodos: old, NewTodos: todos}, nil
}

// ResultBlocks confirms, as Claude Code's TodoWrite does.
func (TodoWrite) ResultBlocks(TodoWriteOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock("Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable")}
}

// RenderUse counts the items.
func (TodoWrite) RenderUse(in *TodoWriteInput) string {
	done := 0
	for _, t := range in.Todos {
		if t.Status == tasklist.Completed {
			done++
		}
	}
	return fmt.Sprintf("%d todos, %d done", len(in.Todos), done)
}

// RenderResult shows the list: ✓ done, ▸ in progress, ○ pending.
func (TodoWrite) RenderResult(_ *TodoWriteInput, out TodoWriteOutput) string {
	return tasklist.TodoLines(out.NewTodos)
}
