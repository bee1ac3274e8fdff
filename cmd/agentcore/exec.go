package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/render"
)

// execDeps are what exec runs calls against; a zero field means the
// session's own. Specs pass simulated tools and a fixed decision.
type execDeps struct {
	// tools replaces the session pool's tools.
	tools []runtime.Tool
	// canUseTool replaces the session's permission engine.
	canUseTool orchestrate.CanUseToolFunc
}

type execOptions struct {
	mode      string
	arrivalMS float64
	plan      bool
	json      bool
	trace     bool
	timeout   time.Duration
	abandon   time.Duration
	cwd       string
	session   sessionFlags
}

func newExecCmd(deps execDeps) *cobra.Command {
	var o execOptions
	cmd := &cobra.Command{
		Use:   "exec [file]",
		Short: "Run a list of tool_use blocks through the orchestrator",
		Long: `exec reads tool_use blocks — a JSON array of {"id","name","input"} objects, or
the content array (or whole message) of an Anthropic assistant message — from
a file, or from stdin when the file is "-" or missing, and runs them the way
the agent would: on the streaming path (calls start as they arrive) or the
batch path (calls run after the last one arrived, batch by batch).

--arrival-ms N spaces the calls N ms apart, as a model's stream would: the
first arrives after N ms. The batch path starts after the last arrival.

Output is text rendered by each tool's render methods, or with --json:
  {"results":[{"id","name","is_error","content","started_ms","ended_ms",
   "states":[{"state","at_ms"}]}],"wall_ms"}
in call order, times in ms relative to the first call's arrival; wall_ms
runs from the start of the stream to the last result. --plan prints the
batches the batch path would run, without running anything:
  {"batches":[{"concurrency_safe":true,"ids":["a","b"]}]}

Ctrl+C interrupts: tools that allow it stop, the others finish; a second
Ctrl+C cancels everything.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := "-"
			if len(args) == 1 {
				file = args[0]
			}
			return runExec(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), file, o, deps)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.mode, "mode", "streaming", "execution path: streaming or batch")
	f.Float64Var(&o.arrivalMS, "arrival-ms", 0, "milliseconds between call arrivals (a model streaming its tool_use blocks)")
	f.BoolVar(&o.plan, "plan", false, "print the batches without running anything")
	f.BoolVar(&o.json, "json", false, "machine-readable JSON output")
	f.BoolVar(&o.trace, "trace", false, "print each call's state transitions with timestamps")
	f.DurationVar(&o.timeout, "timeout", 0, "cancel any call still running after this long (0: no limit)")
	f.DurationVar(&o.abandon, "abandon-after", 0, "give up on a call still running this long after it was cancelled (0: wait for it)")
	f.StringVar(&o.cwd, "cwd", ".", "working directory of the tools")
	o.session.register(cmd)
	o.session.registerSandbox(cmd)
	return cmd
}

func runExec(ctx context.Context, stdin io.Reader, out io.Writer, file string, o execOptions, deps execDeps) error {
	if o.mode != "streaming" && o.mode != "batch" {
		return fmt.Errorf("--mode %q: use streaming or batch", o.mode)
	}
	if o.arrivalMS < 0 || math.IsNaN(o.arrivalMS) || math.IsInf(o.arrivalMS, 0) {
		return fmt.Errorf("--arrival-ms %v: must be a number of milliseconds ≥ 0", o.arrivalMS)
	}
	// The flags first: a rule flag that took the file argument
	// (expandVariadic) says so, rather than finding no input.
	if _, err := o.session.perm.sources(); err != nil {
		return err
	}
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return fmt.Errorf("read tool_use blocks: %w", err)
	}
	calls, err := parseToolUses(data)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := o.session.openSession(ctx, openOptions{dir: o.cwd, waitMCP: usesMCP(calls)})
	if err != nil {
		return err
	}
	defer s.Close()
	// A script cannot answer a prompt: "ask" becomes a denied result.
	s.Engine().SetAsker(ask.NonInteractive{})
	ex := &orchestrate.Executor{Tools: s.Tools(), CanUseTool: s.Engine().CanUseTool, CallTimeout: o.timeout, AbandonAfter: o.abandon}
	if deps.tools != nil {
		ex.Tools = deps.tools
	}
	if deps.canUseTool != nil {
		ex.CanUseTool = deps.canUseTool
	}
	if o.plan {
		return printPlan(out, ex.Plan(calls), calls, o.json)
	}
	return execute(ctx, out, ex, calls, s.ToolContext(), o)
}

// parseToolUses reads a JSON array of {id,name,input} objects or of
// Anthropic content blocks (non-tool_use blocks are skipped), or a message
// object with such a content array.
func parseToolUses(data []byte) ([]orchestrate.ToolUse, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New("no input: give a JSON array of tool_use blocks in a file or on stdin")
	}
	if data[0] == '{' {
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(data, &msg); err != nil || len(msg.Content) == 0 {
			return nil, errors.New(`parse input: a JSON object must be an assistant message with a "content" array`)
		}
		data = msg.Content
	}
	var blocks []struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &blocks); err != nil {
		return nil, fmt.Errorf("parse input: want a JSON array of {\"id\",\"name\",\"input\"} objects or Anthropic content blocks: %w", err)
	}
	var calls []orchestrate.ToolUse
	seen := map[string]bool{}
	for i, b := range blocks {
		if b.Type != "" && b.Type != "tool_use" {
			continue
		}
		if b.Name == "" {
			return nil, fmt.Errorf("block %d: missing \"name\"", i)
		}
		if b.ID == "" {
			b.ID = fmt.Sprintf("toolu_%02d", i+1)
		}
		if seen[b.ID] {
			return nil, fmt.Errorf("block %d: duplicate id %q", i, b.ID)
		}
		seen[b.ID] = true
		if len(b.Input) == 0 || string(b.Input) == "null" {
			b.Input = json.RawMessage("{}")
		}
		calls = append(calls, orchestrate.ToolUse{ID: b.ID, Name: b.Name, Input: b.Input})
	}
	if len(calls) == 0 {
		return nil, errors.New("no tool_use blocks in the input")
	}
	return calls, nil
}

func printPlan(out io.Writer, plan []orchestrate.Batch, calls []orchestrate.ToolUse, asJSON bool) error {
	if asJSON {
		if plan == nil {
			plan = []orchestrate.Batch{}
		}
		return writeJSON(out, map[string]any{"batches": plan})
	}
	names := map[string]string{}
	for _, c := range calls {
		names[c.ID] = c.Name
	}
	for i, b := range plan {
		kind := "serial (not concurrency-safe)"
		if b.ConcurrencySafe {
			kind = "parallel (concurrency-safe)"
		}
		parts := make([]string, len(b.IDs))
		for j, id := range b.IDs {
			parts[j] = names[id] + " " + id
		}
		fmt.Fprintf(out, "batch %d, %s: %s\n", i+1, kind, strings.Join(parts, ", "))
	}
	return nil
}

type jsonState struct {
	State string  `json:"state"`
	AtMS  float64 `json:"at_ms"`
}

type jsonResult struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	IsError   bool        `json:"is_error"`
	Content   string      `json:"content"`
	StartedMS float64     `json:"started_ms"`
	EndedMS   float64     `json:"ended_ms"`
	States    []jsonState `json:"states"`
}

func execute(ctx context.Context, out io.Writer, ex *orchestrate.Executor, calls []orchestrate.ToolUse, tc *runtime.ToolContext, o execOptions) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	gap := time.Duration(o.arrivalMS * float64(time.Millisecond))
	begin := time.Now()

	var s *orchestrate.StreamingExecutor
	if o.mode == "batch" {
		if !sleepUntil(ctx, begin.Add(gap*time.Duration(len(calls)))) {
			return context.Cause(ctx)
		}
		s = ex.Start(ctx, calls, tc)
	} else {
		s = orchestrate.NewStreaming(ctx, ex, tc)
	}
	stopSignals := onInterrupt(s, cancel)
	defer stopSignals()

	var results []jsonResult
	var r *render.Renderer
	if !o.json {
		r = render.New(out, render.Options{Format: render.Text})
		defer r.Close()
	}
	var epoch time.Time
	ms := func(t time.Time) float64 {
		if epoch.IsZero() {
			epoch = s.Epoch()
		}
		return math.Round(float64(t.Sub(epoch))/float64(time.Microsecond)) / 1000
	}
	emit := func(ev orchestrate.Event) {
		if ev.Kind == orchestrate.EventProgress {
			if r != nil {
				r.ObserveCall(ev)
			}
			return
		}
		res := jsonResult{ID: ev.ID, Name: ev.Name, IsError: ev.IsError(), Content: ev.Result.Text(),
			StartedMS: ms(ev.Started), EndedMS: ms(ev.Ended), States: make([]jsonState, len(ev.States))}
		for i, st := range ev.States {
			res.States[i] = jsonState{State: st.State.String(), AtMS: ms(st.At)}
		}
		if o.json {
			results = append(results, res)
			return
		}
		r.ObserveCall(ev)
		if o.trace {
			parts := make([]string, len(res.States))
			for i, st := range res.States {
				parts[i] = fmt.Sprintf("%s %.3fms", st.State, st.AtMS)
			}
			r.Detail("trace: " + strings.Join(parts, " → "))
		}
	}

	if o.mode == "streaming" {
		for i, c := range calls {
			if !sleepUntil(ctx, begin.Add(gap*time.Duration(i+1))) {
				break
			}
			if err := s.Add(c); err != nil {
				break
			}
			for ev := range s.Ready() {
				emit(ev)
			}
		}
	}
	for ev := range s.Results() {
		emit(ev)
	}
	wall := float64(time.Since(begin).Microseconds()) / 1000
	if o.json {
		if results == nil {
			results = []jsonResult{}
		}
		return writeJSON(out, map[string]any{"results": results, "wall_ms": wall})
	}
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

// sleepUntil waits until t or until ctx is done; false when ctx ended it.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// onInterrupt makes the first Ctrl+C interrupt the run and the second
// cancel it. The returned func stops listening.
func onInterrupt(s *orchestrate.StreamingExecutor, cancel context.CancelCauseFunc) func() {
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-sig:
				n++
				if n == 1 {
					s.Interrupt()
				} else {
					cancel(errors.New("cancelled by a second interrupt"))
				}
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(sig); close(done) }
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// usesMCP reports whether any call names an MCP tool (or ToolSearch, which
// searches them), so exec waits for the servers to connect first.
func usesMCP(calls []orchestrate.ToolUse) bool {
	for _, c := range calls {
		if strings.HasPrefix(c.Name, "mcp__") || c.Name == "ToolSearch" || strings.Contains(c.Name, "McpResource") {
			return true
		}
	}
	return false
}
