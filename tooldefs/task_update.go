package tooldefs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/tasklist"
)

// TaskUpdate changes a task of the session's task list: its status, its
// subject, description or activeForm, its owner, and its dependencies.
//
// - Set status in_progress when you start a task and completed when it is
// fully done. A task cannot start while a task it is blocked by is not
// completed: finish the blocker first.
// - addBlockedBy lists tasks this one waits for; addBlocks tasks that wait
// for this one. Both sides are recorded; a cycle is refused.
// - Set owner to claim a task (e.g. a sub-agent's name) so others leave it.
//
// +tool:name=TaskUpdate
// +tool:localOnly
// +tool:searchHint="update a task's status, owner or dependencies"
type TaskUpdate struct{}

// TaskUpdateInput is the input of TaskUpdate.
type TaskUpdateInput struct {
	// The task's ID.
	TaskID string `json:"taskId" jsonschema:"minLength=1"`
	// The new status: pending, in_progress or completed.
	Status string `json:"status,omitempty" jsonschema:"enum=pending,enum=in_progress,enum=completed"`
	// A new subject.
	Subject string `json:"subject,omitempty"`
	// A new description.
	Description string `json:"description,omitempty"`
	// A new present-continuous form of the subject.
	ActiveForm string `json:"activeForm,omitempty"`
	// The new owner.
	Owner string `json:"owner,omitempty"`
	// IDs of tasks that cannot start until this one is completed.
	AddBlocks []string `json:"addBlocks,omitempty"`
	// IDs of tasks that must be completed before this one can start.
	AddBlockedBy []string `json:"addBlockedBy,omitempty"`
}

// IsEnabled is true when AGENTCORE_ENABLE_TASKS picks the Task tools.
func (TaskUpdate) IsEnabled() bool { return tasklist.TasksEnabled() }

// CheckPermissions allows the call: it changes only the session's task list.
func (TaskUpdate) CheckPermissions(context.Context, *TaskUpdateInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// TaskUpdateOutput is the task after the change and what changed.
type TaskUpdateOutput struct {
	Task    tasklist.Task `json:"task"`
	Changed []string      `json:"changed"`
}

// Call applies the change, all of it or nothing.
func (TaskUpdate) Call(_ context.Context, in *TaskUpdateInput, c *runtime.Call) (TaskUpdateOutput, error) {
	st, err := tasklist.For(c.Context)
	if err != nil {
		return TaskUpdateOutput{}, err
	}
	var out TaskUpdateOutput
	_, err = st.Update(func(l *tasklist.List) error {
		t, err := l.Find(in.TaskID)
		if err != nil {
			return err
		}
		for _, id := range in.AddBlockedBy {
			if err := link(l, id, t.ID); err != nil {
				return err
			}
			out.Changed = append(out.Changed, "blockedBy")
		}
		for _, id := range in.AddBlocks {
			if err := link(l, t.ID, id); err != nil {
				return err
			}
			out.Changed = append(out.Changed, "blocks")
		}
		set := func(field, v string, dst *string) {
			if v != "" && v != *dst {
				*dst = v
				out.Changed = append(out.Changed, field)
			}
		}
		set("subject", in.Subject, &t.Subject)
		set("description", in.Description, &t.Description)
		set("activeForm", in.ActiveForm, &t.ActiveForm)
		set("owner", in.Owner, &t.Owner)
		if in.Status == tasklist.InProgress && t.Status != tasklist.InProgress {
			if open := l.OpenBlockers(t); len(open) > 0 {
				return fmt.Errorf("task #%s cannot start: it is blocked by #%s, which %s not completed; finish that first", t.ID,
					strings.Join(open, ", #"), map[bool]string{true: "is", false: "are"}[len(open) == 1])
			}
		}
		set("status", in.Status, &t.Status)
		out.Task = *t
		out.Changed = slices.Compact(out.Changed)
		return nil
	})
	return out, err
}

// link records that blocker blocks blocked, refusing unknown ids, self
// links and cycles.
func link(l *tasklist.List, blocker, blocked string) error {
	b, err := l.Find(blocker)
	if err != nil {
		return err
	}
	d, err := l.Find(blocked)
	if err != nil {
		return err
	}
	if b.ID == d.ID {
		return fmt.Errorf("task #%s cannot block itself", b.ID)
	}
	if waitsFor(l, b.ID, d.ID, map[string]bool{}) {
		return fmt.Errorf("task #%s already waits for #%s: making #%s block #%s would be a cycle", b.ID, d.ID, b.ID, d.ID)
	}
	if !slices.Contains(b.Blocks, d.ID) {
		b.Blocks = append(b.Blocks, d.ID)
	}
	if !slices.Contains(d.BlockedBy, b.ID) {
		d.BlockedBy = append(d.BlockedBy, b.ID)
	}
	return nil
}

// waitsFor reports whether task a waits, directly or not, for task b.
func waitsFor(l *tasklist.List, a, b string, seen map[string]bool) bool {
	if seen[a] {
		return false
	}
	seen[a] = true
	t, err := l.Find(a)
	if err != nil {
		return false
	}
	for _, id := range t.BlockedBy {
		if id == b || waitsFor(l, id, b, seen) {
			return true
		}
	}
	return false
}

// ResultBlocks confirms what changed.
func (TaskUpdate) ResultBlocks(out TaskUpdateOutput) []runtime.Block {
	if len(out.Changed) == 0 {
		return []runtime.Block{runtime.TextBlock("Task #" + out.Task.ID + " is unchanged.")}
	}
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("Updated task #%s %s", out.Task.ID, strings.Join(out.Changed, ", ")))}
}

// RenderUse shows the id and the new status.
func (TaskUpdate) RenderUse(in *TaskUpdateInput) string {
	s := "#" + strings.TrimPrefix(in.TaskID, "#")
	if in.Status != "" {
		s += " " + in.Status
	}
	return s
}

// RenderResult shows the task's line.
func (TaskUpdate) RenderResult(_ *TaskUpdateInput, out TaskUpdateOutput) string {
	return tasklist.Mark(out.Task.Status) + " #" + out.Task.ID + " " + out.Task.Subject
}
