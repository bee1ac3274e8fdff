package tooldefs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// Monitor watches a background command: each output line (matching
// pattern, if given) reaches you as a notification in your next request,
// until the command ends, max_lines lines were sent or timeout_ms passed.
// Give command to start one (it is checked and run as a background Bash
// call, and stopped with the watch), or task_id to watch a Bash
// run_in_background task. TaskStop with the monitor ID ends the watch.
//
// +tool:name=Monitor
// +tool:agentOnly
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="watch background task output lines"
type Monitor struct{}

// MonitorInput is the input of Monitor.
type MonitorInput struct {
	// A shell command to start and watch; each output line is an event, its exit ends the watch. Give this or task_id.
	Command string `json:"command,omitempty"`
	// What the command watches, in a few words.
	Description string `json:"description,omitempty"`
	// The ID of a background Bash task to watch (e.g. "bash_1"). Give this or command.
	TaskID string `json:"task_id,omitempty"`
	// A regular expression (RE2); only matching lines are sent. Default: every line.
	Pattern string `json:"pattern,omitempty"`
	// Stop after sending this many lines.
	MaxLines *int `json:"max_lines,omitempty" jsonschema:"minimum=1,maximum=1000,default=100"`
	// Stop after this many milliseconds.
	TimeoutMs *int `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=3600000,default=1800000"`
	// Watch until TaskStop or the session ends; timeout_ms is ignored.
	Persistent bool `json:"persistent,omitempty"`
}

// Monitor's defaults and its polling interval.
const (
	MonitorDefaultLines   = 100
	MonitorDefaultTimeout = 30 * time.Minute
)

// MonitorResult is what Monitor started.
type MonitorResult struct {
	MonitorID string `json:"monitor_id"`
	TaskID    string `json:"task_id"`
	Pattern   string `json:"pattern,omitempty"`
	MaxLines  int    `json:"max_lines"`
	// TimeoutMs is 0 for a persistent watch.
	TimeoutMs int64 `json:"timeout_ms"`
	// Started is true when Monitor started the command it watches.
	Started bool `json:"started,omitempty"`
}

// ValidateInput refuses a pattern that is not RE2, an input with both or
// neither of command and task_id, and a task that is not a background
// shell of the session.
func (Monitor) ValidateInput(_ context.Context, in *MonitorInput, tc *runtime.ToolContext) error {
	if _, err := regexp.Compile(in.Pattern); err != nil {
		return fmt.Errorf("pattern is not a valid RE2 regular expression: %w", err)
	}
	switch command := strings.TrimSpace(in.Command) != ""; {
	case command && in.TaskID != "":
		return errors.New("give command or task_id, not both: command starts a new command to watch, task_id watches a running one")
	case command:
		return nil
	case in.TaskID == "":
		return errors.New("give command (a shell command to start and watch) or task_id (a background Bash task's ID, e.g. \"bash_1\")")
	}
	_, err := shell.FindTask(tc, in.TaskID)
	return err
}

// Call starts the watch and returns at once.
func (Monitor) Call(ctx context.Context, in *MonitorInput, c *runtime.Call) (MonitorResult, error) {
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return MonitorResult{}, fmt.Errorf("pattern is not a valid RE2 regular expression: %w", err)
	}
	conv, err := runtime.Need[runtime.Conversation](c.Context, "Monitor")
	if err != nil {
		return MonitorResult{}, err
	}
	mons, err := shell.Monitors(c.Context)
	if err != nil {
		return MonitorResult{}, err
	}
	taskID, owns := in.TaskID, false
	if in.TaskID == "" {
		if taskID, err = monitorStart(ctx, in, c); err != nil {
			return MonitorResult{}, err
		}
		owns = true
	}
	task, err := shell.FindTask(c.Context, taskID)
	if err != nil {
		return MonitorResult{}, err
	}
	lines, timeout := MonitorDefaultLines, MonitorDefaultTimeout
	if in.MaxLines != nil {
		lines = *in.MaxLines
	}
	if in.TimeoutMs != nil {
		timeout = time.Duration(*in.TimeoutMs) * time.Millisecond
	}
	if in.Persistent {
		timeout = 0
	}
	w := mons.Start(task, shell.WatchOptions{Pattern: re, MaxLines: lines, Timeout: timeout, OwnsTask: owns}, conv.Notify)
	return MonitorResult{MonitorID: w.ID, TaskID: task.ID, Pattern: in.Pattern, MaxLines: lines, TimeoutMs: timeout.Milliseconds(), Started: owns}, nil
}

// monitorStart starts in's command as a background Bash call through the
// session's pipeline, so that it is validated, permission-checked, hooked
// and sandboxed exactly as the same Bash call would be, and returns its
// task's ID.
func monitorStart(ctx context.Context, in *MonitorInput, c *runtime.Call) (string, error) {
	runner, err := runtime.Need[orchestrate.Runner](c.Context, "Monitor's command")
	if err != nil {
		return "", err
	}
	desc := in.Description
	if desc == "" {
		desc = "Monitor: " + shell.OneLine(in.Command, 60)
	}
	input, err := json.Marshal(map[string]any{"command": in.Command, "description": desc, "run_in_background": true})
	if err != nil {
		return "", err
	}
	use := orchestrate.ToolUse{ID: c.ID + ".bash", Name: "Bash", Input: input}
	for ev := range runner.Exec(ctx, []orchestrate.ToolUse{use}) {
		if ev.Kind != orchestrate.EventResult || ev.ID != use.ID {
			continue
		}
		if ev.Result.IsError {
			return "", fmt.Errorf("the command was not started: %s", ev.Result.Text())
		}
		// Bash's output as its JSON form (background_task_id), so this
		// file builds without bash.go (one file per tool).
		var out struct {
			BackgroundTaskID string `json:"background_task_id"`
		}
		if raw, err := json.Marshal(ev.Result.Data); err == nil && json.Unmarshal(raw, &out) == nil && out.BackgroundTaskID != "" {
			return out.BackgroundTaskID, nil
		}
		return "", fmt.Errorf("the command was not started in the background: %s", ev.Result.Text())
	}
	return "", errors.New("the command was not started: the session ran no Bash call")
}

// ResultBlocks says what was started, in Claude Code's words.
func (Monitor) ResultBlocks(out MonitorResult) []runtime.Block {
	expires := "expires in " + (time.Duration(out.TimeoutMs) * time.Millisecond).String()
	if out.TimeoutMs == 0 {
		expires = "persistent, no timeout"
	}
	stop := "stop it"
	if out.Started {
		stop = "stop it and its command"
	}
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("Monitor started (task %s, watching %s, %s, unless the source ends first or %d lines were sent). New lines arrive as notifications; %s with TaskStop (task_id %q).",
		out.MonitorID, out.TaskID, expires, out.MaxLines, stop, out.MonitorID))}
}

// RenderUse shows the task or the command, and the pattern.
func (Monitor) RenderUse(in *MonitorInput) string {
	what := in.TaskID
	if what == "" {
		what = shell.OneLine(in.Command, 80)
	}
	if in.Pattern != "" {
		return what + " /" + in.Pattern + "/"
	}
	return what
}

// RenderResult names the monitor.
func (Monitor) RenderResult(_ *MonitorInput, out MonitorResult) string {
	return "Watching " + out.TaskID + " as " + out.MonitorID
}
