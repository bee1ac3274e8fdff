package tooldefs

import (
	"context"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

// TaskList lists every task of the session's task list — the list the
// session's sub-agents share — with its status, owner and open blockers.
// Use it to find the next task to work on: a pending task without open
// blockers and without an owner.
//
// +tool:name=TaskList
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="list the tasks of the shared task list"
type TaskList struct{}

// TaskListInput is the input of TaskList: none.
type TaskListInput struct{}

// IsEnabled is true when AGENTCORE_ENABLE_TASKS picks the Task tools.
func (TaskList) IsEnabled() bool { return tasklist.TasksEnabled() }

// Call reads the list.
func (TaskList) Call(_ context.Context, _ *TaskListInput, c *runtime.Call) (tasklist.List, error) {
	st, err := tasklist.For(c.Context)
	if err != nil {
		return tasklist.List{}, err
	}
	return st.Tasks()
}

// ResultBlocks is one line per task.
func (TaskList) ResultBlocks(l tasklist.List) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(taskLines(l))}
}

func taskLines(l tasklist.List) string {
	if len(l.Tasks) == 0 {
		return "No tasks yet. Create them with TaskCreate."
	}
	lines := make([]string, len(l.Tasks))
	for i := range l.Tasks {
		lines[i] = l.TaskLine(&l.Tasks[i])
	}
	return strings.Join(lines, "\n")
}

// RenderUse says nothing: there is no input.
func (TaskList) RenderUse(*TaskListInput) string { return "" }

// RenderResult shows the list.
func (TaskList) RenderResult(_ *TaskListInput, l tasklist.List) string { return taskLines(l) }
