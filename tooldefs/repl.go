//go:build internal || ant

package tooldefs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// REPL runs a short script of tool calls and returns each call's result,
// in order. The calls go through the same pipeline as the calls you make
// yourself: input decoding and validation, the permission rules (each
// call is checked as if you had made it, and may be asked about or
// denied), and scheduling (consecutive calls that are safe to run in
// parallel do, unless sequential is set). It is for developing and
// testing agents: replaying a sequence of calls, checking what tools
// return. A REPL call counts as read-only only when every call in it is.
// Deferred tools can be called without loading them first. REPL cannot
// call REPL.
//
// +tool:name=REPL
// +tool:searchHint="run a script of tool calls and return their results"
type REPL struct{}

// REPLInput is the input of REPL.
type REPLInput struct {
	// The tool calls to run, in order: each a tool name and its input, as you would call the tool yourself.
	Calls []REPLCall `json:"calls" jsonschema:"minItems=1,maxItems=20"`
	// Run the calls one at a time, in order. By default consecutive calls that may run in parallel (read-only ones) do, as your own calls do.
	Sequential bool `json:"sequential,omitempty"`

	// plan is the calls as ValidateInput resolved them, the tools and
	// decoded inputs IsReadOnly judges; nil (not validated) is not
	// read-only.
	plan []replStep
}

// REPLCall is one call of a REPL script.
type REPLCall struct {
	// The name of the tool to call.
	Name string `json:"name" jsonschema:"minLength=1"`
	// The input object of the call, as the schema of that tool describes it.
	Input json.RawMessage `json:"input,omitempty"`
}

// replStep is one call resolved: its tool and decoded input.
type replStep struct {
	tool  runtime.Tool
	input any
}

// REPLResult is the result of one call of the script.
type REPLResult struct {
	Name    string `json:"name"`
	IsError bool   `json:"is_error"`
	Text    string `json:"text"`
	// Content is the result's blocks as the call returned them (images
	// included).
	Content []runtime.Block `json:"-"`
}

// REPLOutput is the script's results, in the calls' order.
type REPLOutput struct {
	Results []REPLResult `json:"results"`
	// Failed counts the results that are errors.
	Failed int `json:"failed"`
}

// REPLProgress reports one finished call of the script.
type REPLProgress struct {
	Done, Total int
	Name        string
	IsError     bool
}

// replName is the tool's own name, which its scripts may not call.
const replName = "REPL"

// replKey marks a context as running inside a REPL call.
type replKey struct{}

// errNestedREPL refuses a REPL inside a REPL (directly, or from a
// sub-agent a REPL started).
var errNestedREPL = errors.New("REPL cannot run inside REPL: put the calls in the outer script instead")

// ValidateInput resolves every call against the session's tools and
// decodes its input, so a script with an unknown tool, an invalid input
// or a nested REPL fails before anything runs and before any permission
// prompt. Each call's own ValidateInput runs later, in the pipeline.
func (REPL) ValidateInput(ctx context.Context, in *REPLInput, tc *runtime.ToolContext) error {
	if ctx.Value(replKey{}) != nil {
		return errNestedREPL
	}
	s, err := runtime.Need[orchestrate.Runner](tc, "REPL")
	if err != nil {
		return err
	}
	tools := s.Tools()
	plan := make([]replStep, len(in.Calls))
	for i, call := range in.Calls {
		t := runtime.Lookup(tools, call.Name)
		if t == nil {
			return fmt.Errorf("calls[%d]: no tool named %q in this session; call only tools you could call yourself", i, call.Name)
		}
		if t.Name() == replName {
			return fmt.Errorf("calls[%d]: %w", i, errNestedREPL)
		}
		input, err := t.Decode(call.raw())
		if err != nil {
			return fmt.Errorf("calls[%d] (%s): InputValidationError: %w", i, t.Name(), err)
		}
		plan[i] = replStep{tool: t, input: input}
	}
	in.plan = plan
	return nil
}

// raw is the call's input, {} when absent.
func (c REPLCall) raw() json.RawMessage {
	if len(c.Input) == 0 {
		return json.RawMessage("{}")
	}
	return c.Input
}

// IsReadOnly is true when every call of the script is read-only, judged
// on the inputs ValidateInput decoded; an unvalidated script is not.
func (REPL) IsReadOnly(in *REPLInput) bool {
	if in.plan == nil || len(in.plan) != len(in.Calls) {
		return false
	}
	for _, st := range in.plan {
		ro, err := runtime.Guard("IsReadOnly", func() bool { return st.tool.IsReadOnly(st.input) })
		if err != nil || !ro {
			return false
		}
	}
	return true
}

// Call runs the script through the session's pipeline (orchestrate.Runner):
// as one batch, or call by call when sequential.
func (REPL) Call(ctx context.Context, in *REPLInput, c *runtime.Call) (REPLOutput, error) {
	if ctx.Value(replKey{}) != nil {
		return REPLOutput{}, errNestedREPL
	}
	s, err := runtime.Need[orchestrate.Runner](c.Context, "REPL")
	if err != nil {
		return REPLOutput{}, err
	}
	ctx = context.WithValue(ctx, replKey{}, true)
	uses := make([]orchestrate.ToolUse, len(in.Calls))
	for i, call := range in.Calls {
		uses[i] = orchestrate.ToolUse{ID: fmt.Sprintf("%s.%d", c.ID, i+1), Name: call.Name, Input: call.raw()}
	}
	batches := [][]orchestrate.ToolUse{uses}
	if in.Sequential {
		batches = batches[:0]
		for _, u := range uses {
			batches = append(batches, []orchestrate.ToolUse{u})
		}
	}
	byID := map[string]orchestrate.Event{}
	for _, batch := range batches {
		for ev := range s.Exec(ctx, batch) {
			if ev.Kind != orchestrate.EventResult {
				continue
			}
			byID[ev.ID] = ev
			c.Progress(REPLProgress{Done: len(byID), Total: len(uses), Name: ev.Name, IsError: ev.Result.IsError})
		}
	}
	out := REPLOutput{Results: make([]REPLResult, len(uses))}
	for i, u := range uses {
		ev, ok := byID[u.ID]
		res := ev.Result
		if !ok {
			res = runtime.ErrorResult("Error: the call was not run")
		}
		out.Results[i] = REPLResult{Name: u.Name, IsError: res.IsError, Text: res.Text(), Content: res.Content}
		if res.IsError {
			out.Failed++
		}
	}
	return out, nil
}

// ResultBlocks gives the model each call's result under a header line
// naming the call, its blocks as the call returned them.
func (REPL) ResultBlocks(out REPLOutput) []runtime.Block {
	blocks := []runtime.Block{runtime.TextBlock(fmt.Sprintf("Ran %d calls: %d ok, %d failed.", len(out.Results), len(out.Results)-out.Failed, out.Failed))}
	for i, r := range out.Results {
		status := "ok"
		if r.IsError {
			status = "error"
		}
		blocks = append(blocks, runtime.TextBlock(fmt.Sprintf("── %d. %s: %s", i+1, r.Name, status)))
		if len(r.Content) == 0 {
			blocks = append(blocks, runtime.TextBlock("(no output)"))
		}
		blocks = append(blocks, r.Content...)
	}
	return blocks
}

// RenderUse lists the calls' tools.
func (REPL) RenderUse(in *REPLInput) string {
	names := make([]string, len(in.Calls))
	for i, c := range in.Calls {
		names[i] = c.Name
	}
	s := strings.Join(names, ", ")
	if in.Sequential {
		s += " (sequential)"
	}
	return s
}

// RenderProgress shows the calls finished so far.
func (REPL) RenderProgress(_ *REPLInput, p REPLProgress) string {
	status := "ok"
	if p.IsError {
		status = "error"
	}
	return fmt.Sprintf("%d/%d %s: %s", p.Done, p.Total, p.Name, status)
}

// RenderResult counts the calls and the failures.
func (REPL) RenderResult(_ *REPLInput, out REPLOutput) string {
	if out.Failed == 0 {
		return fmt.Sprintf("Ran %d calls", len(out.Results))
	}
	return fmt.Sprintf("Ran %d calls, %d failed", len(out.Results), out.Failed)
}
