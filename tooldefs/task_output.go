package tooldefs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// TaskOutput retrieves output from a background task: a shell started by
// Bash with run_in_background, or an agent started by Agent with
// run_in_background.
//
// - Takes the task_id Bash or Agent returned (e.g. "bash_1", "agent_1").
// - Returns the output written since the previous TaskOutput call for the
// same task, with the task's status (running, completed, failed, killed)
// and, once it ended, its exit code.
// - block (default true) waits for the task to finish, at most timeout
// milliseconds (default 30000); block=false returns at once.
// - For an agent, the output is its transcript (what it said, the tools it
// called) and, once it ended, its final result.
// - The task's whole output is also in the file Bash or Agent named; Read
// it to see everything again.
//
// +tool:name=TaskOutput
// +tool:localOnly
// +tool:alias=BashOutput
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="read output of a background shell task"
type TaskOutput struct{}

// TaskOutputInput is the input of TaskOutput.
type TaskOutputInput struct {
	// The ID of the background task, as Bash or Agent returned it.
	TaskID string `json:"task_id" jsonschema:"minLength=1"`
	// Whether to wait for the task to finish. Defaults to true.
	Block *bool `json:"block,omitempty" jsonschema:"default=true"`
	// The longest time to wait when blocking, in milliseconds. Defaults to 30000.
	Timeout *int `json:"timeout,omitempty" jsonschema:"minimum=0,maximum=600000,default=30000"`
}

// TaskOutputDefaultWait is how long TaskOutput blocks without a timeout.
const TaskOutputDefaultWait = 30 * time.Second

// Retrieval statuses of TaskOutputResult.
const (
	// RetrievalSuccess: the task has ended; Output is the rest of it.
	RetrievalSuccess = "success"
	// RetrievalTimeout: the wait ended before the task did.
	RetrievalTimeout = "timeout"
	// RetrievalNotReady: block=false and the task still runs.
	RetrievalNotReady = "not_ready"
)

// TaskOutputResult is what TaskOutput found.
type TaskOutputResult struct {
	TaskID string `json:"task_id"`
	// RetrievalStatus is success, timeout or not_ready.
	RetrievalStatus string `json:"retrieval_status"`
	// Status is the task's status: running, completed, failed or killed.
	Status string `json:"status"`
	// Command is a shell's command, or an agent's description.
	Command string `json:"command"`
	// ExitCode is set once the task has ended.
	ExitCode *int `json:"exit_code,omitempty"`
	// Output is the output written since the previous read.
	Output string `json:"output"`
	// OutputPath is the file holding the whole output.
	OutputPath string `json:"output_path"`
}

// ValidateInput refuses an unknown task.
func (TaskOutput) ValidateInput(_ context.Context, in *TaskOutputInput, tc *runtime.ToolContext) error {
	_, err := findBackground(tc, in.TaskID)
	return err
}

// Call waits as asked and returns the new output.
func (TaskOutput) Call(ctx context.Context, in *TaskOutputInput, c *runtime.Call) (TaskOutputResult, error) {
	t, err := findBackground(c.Context, in.TaskID)
	if err != nil {
		return TaskOutputResult{}, err
	}
	block := in.Block == nil || *in.Block
	wait := TaskOutputDefaultWait
	if in.Timeout != nil {
		wait = time.Duration(*in.Timeout) * time.Millisecond
	}
	ended := false
	if block {
		if ended, err = t.Wait(ctx, wait); err != nil {
			return TaskOutputResult{}, fmt.Errorf("stopped waiting for task %s: %w", t.ID(), err)
		}
	} else {
		select {
		case <-t.Done():
			ended = true
		default:
		}
	}
	out, err := t.ReadNew(shell.MaxOutputChars)
	if err != nil {
		return TaskOutputResult{}, err
	}
	status, code, hasCode := t.State()
	res := TaskOutputResult{
		TaskID: t.ID(), Status: status, Command: t.Label(),
		Output: strings.TrimRight(out, "\n"), OutputPath: t.OutputPath(),
	}
	switch {
	case ended:
		res.RetrievalStatus = RetrievalSuccess
		if hasCode {
			res.ExitCode = &code
		}
	case block:
		res.RetrievalStatus = RetrievalTimeout
	default:
		res.RetrievalStatus = RetrievalNotReady
	}
	return res, nil
}

// ResultBlocks tags each part, as Claude Code's TaskOutput does.
func (TaskOutput) ResultBlocks(out TaskOutputResult) []runtime.Block {
	parts := []string{
		"<retrieval_status>" + out.RetrievalStatus + "</retrieval_status>",
		"<task_id>" + out.TaskID + "</task_id>",
		"<status>" + out.Status + "</status>",
	}
	if out.ExitCode != nil {
		parts = append(parts, fmt.Sprintf("<exit_code>%d</exit_code>", *out.ExitCode))
	}
	if strings.TrimSpace(out.Output) != "" {
		parts = append(parts, "<output>\n"+out.Output+"\n</output>")
	} else {
		parts = append(parts, "<output>(no new output)</output>")
	}
	return []runtime.Block{runtime.TextBlock(strings.Join(parts, "\n\n"))}
}

// RenderUse shows the task, and when it does not wait.
func (TaskOutput) RenderUse(in *TaskOutputInput) string {
	if in.Block != nil && !*in.Block {
		return in.TaskID + " (non-blocking)"
	}
	return in.TaskID
}

// RenderResult summarises the task's state and the new output.
func (TaskOutput) RenderResult(_ *TaskOutputInput, out TaskOutputResult) string {
	n := 0
	if out.Output != "" {
		n = strings.Count(out.Output, "\n") + 1
	}
	s := fmt.Sprintf("%s %s", out.TaskID, out.Status)
	if out.ExitCode != nil {
		s += fmt.Sprintf(" (exit code %d)", *out.ExitCode)
	}
	if out.RetrievalStatus == RetrievalTimeout {
		s += ", still running after the wait"
	}
	lines := "lines"
	if n == 1 {
		lines = "line"
	}
	return s + fmt.Sprintf(", %d new %s", n, lines)
}
