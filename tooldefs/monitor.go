package tooldefs

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// Monitor watches a background Bash task: each output line (matching
// pattern, if given) reaches you as a notification in your next request,
// until the task ends, max_lines lines were sent or timeout_ms passed.
// Start the command with Bash run_in_background first. TaskStop with the
// monitor ID ends the watch.
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
	// The ID of the background Bash task to watch (e.g. "bash_1").
	TaskID string `json:"task_id" jsonschema:"minLength=1"`
	// A regular expression (RE2); only matching lines are sent. Default: every line.
	Pattern string `json:"pattern,omitempty"`
	// Stop after sending this many lines.
	MaxLines *int `json:"max_lines,omitempty" jsonschema:"minimum=1,maximum=1000,default=100"`
	// Stop after this many milliseconds.
	TimeoutMs *int `json:"timeout_ms,omitempty" jsonschema:"minimum=100,maximum=3600000,default=1800000"`
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
	TimeoutMs int64  `json:"timeout_ms"`
}

// ValidateInput refuses a pattern that is not RE2 and a task that is
// not a background shell of the session.
func (Monitor) ValidateInput(_ context.Context, in *MonitorInput, tc *runtime.ToolContext) error {
	if _, err := regexp.Compile(in.Pattern); err != nil {
		return fmt.Errorf("pattern is not a valid RE2 regular expression: %w", err)
	}
	_, err := shell.FindTask(tc, in.TaskID)
	return err
}

// Call starts the watch and returns at once.
func (Monitor) Call(_ context.Context, in *MonitorInput, c *runtime.Call) (MonitorResult, error) {
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return MonitorResult{}, fmt.Errorf("pattern is not a valid RE2 regular expression: %w", err)
	}
	task, err := shell.FindTask(c.Context, in.TaskID)
	if err != nil {
		return MonitorResult{}, err
	}
	conv, err := runtime.Need[runtime.Conversation](c.Context, "Monitor")
	if err != nil {
		return MonitorResult{}, err
	}
	mons, err := shell.Monitors(c.Context)
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
	w := mons.Start(task, re, lines, timeout, conv.Notify)
	return MonitorResult{MonitorID: w.ID, TaskID: task.ID, Pattern: in.Pattern, MaxLines: lines, TimeoutMs: timeout.Milliseconds()}, nil
}

// ResultBlocks says what was started, in Claude Code's words.
func (Monitor) ResultBlocks(out MonitorResult) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf("Monitor started (task %s, watching %s, expires in %s unless the source ends first or %d lines were sent). New lines arrive as notifications; stop it with TaskStop (task_id %q).",
		out.MonitorID, out.TaskID, time.Duration(out.TimeoutMs)*time.Millisecond, out.MaxLines, out.MonitorID))}
}

// RenderUse shows the task and the pattern.
func (Monitor) RenderUse(in *MonitorInput) string {
	if in.Pattern != "" {
		return in.TaskID + " /" + in.Pattern + "/"
	}
	return in.TaskID
}

// RenderResult names the monitor.
func (Monitor) RenderResult(_ *MonitorInput, out MonitorResult) string {
	return "Watching " + out.TaskID + " as " + out.MonitorID
}
