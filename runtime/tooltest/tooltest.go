// Package tooltest provides hand-written runtime.Tool implementations for
// tests and benchmarks of the runtime: a configurable simulated tool whose
// safety, duration, failure, panic, progress, context modifier and
// interrupt behaviour are set on the tool or per call in its JSON input,
// and a Monitor that records what ran at the same time.
//
// A Sim decodes its input strictly into [Input] (unknown keys are an
// error), so the same tool serves valid-input, invalid-input and
// per-call-behaviour cases:
//
//	glob := &tooltest.Sim{ToolName: "Glob", Safe: true}
//	raw := `{"summary":"*.go","sleep_ms":2,"progress":1}`
//
// Sim is safe for concurrent use once configured.
package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	rt "github.com/agentcore/agentcore/runtime"
)

// Input is the per-call behaviour of a Sim, decoded from the call's JSON.
// Zero fields fall back to the Sim's Default.
type Input struct {
	// Summary is what RenderUse shows, e.g. a command or a path.
	Summary string `json:"summary,omitempty"`
	// SleepMS is real time the call takes, in milliseconds.
	SleepMS float64 `json:"sleep_ms,omitempty"`
	// Spin is virtual work: the number of scheduler yields the call makes.
	Spin int `json:"spin,omitempty"`
	// Fail makes Call return an error with this text.
	Fail string `json:"fail,omitempty"`
	// ErrorResult makes Call return an is_error result with this text.
	ErrorResult string `json:"error_result,omitempty"`
	// Panic makes Call panic with this value.
	Panic string `json:"panic,omitempty"`
	// Progress is the number of progress values the call reports.
	Progress int `json:"progress,omitempty"`
	// Block makes the call run until its context is cancelled.
	Block bool `json:"block,omitempty"`
	// IgnoreCancel makes SleepMS/Spin ignore cancellation (a block-style
	// tool that always finishes its work).
	IgnoreCancel bool `json:"ignore_cancel,omitempty"`
	// Safe, when set, overrides the Sim's concurrency safety.
	Safe *bool `json:"safe,omitempty"`
	// Output is the text of the result; "<name> done" when empty.
	Output string `json:"output,omitempty"`
	// Modify makes the call register a context modifier.
	Modify bool `json:"modify,omitempty"`
	// Invalid makes ValidateInput fail with this text.
	Invalid string `json:"invalid,omitempty"`
	// PanicSafe makes IsConcurrencySafe panic.
	PanicSafe bool `json:"panic_safe,omitempty"`
	// Tag is free text for tests to tell calls apart.
	Tag string `json:"tag,omitempty"`
}

// Sim is a configurable runtime.Tool. The zero value is a valid unsafe,
// block-on-interrupt tool named "Sim".
type Sim struct {
	// ToolDefaults answers what Sim does not configure: enabled, not
	// deferred, not destructive, progress printed, "Rejected".
	rt.ToolDefaults
	// ToolName is the name; "Sim" when empty.
	ToolName string
	// ToolAliases are older names.
	ToolAliases []string
	// Safe is the concurrency safety when the input does not override it.
	Safe bool
	// ReadOnly is IsReadOnly's answer.
	ReadOnly bool
	// Interrupt is the interrupt behaviour.
	Interrupt rt.InterruptBehavior
	// CancelsSiblings makes an error result cancel the call's siblings,
	// as Bash's does (Traits.CancelsSiblingsOnError).
	CancelsSiblings bool
	// Default is merged into every decoded input (input fields win).
	Default Input
	// Permission is the tool's own CheckPermissions answer.
	Permission rt.PermissionDecision
	// Monitor, when set, records every Call's start and end.
	Monitor *Monitor
	// OnCall, when set, replaces the simulated behaviour of Call.
	OnCall func(ctx context.Context, in *Input, call *rt.Call) (rt.Result, error)
	// OnModify, when set, is the body of the context modifier a call with
	// Modify registers; it receives the call id.
	OnModify func(id string, tc *rt.ToolContext)
}

var _ rt.Tool = (*Sim)(nil)

// Name returns ToolName or "Sim".
func (s *Sim) Name() string {
	if s.ToolName == "" {
		return "Sim"
	}
	return s.ToolName
}

// Aliases returns ToolAliases.
func (s *Sim) Aliases() []string { return s.ToolAliases }

// Description describes the simulated tool.
func (s *Sim) Description() string { return "A simulated tool for tests." }

// SearchHint returns a fixed hint.
func (s *Sim) SearchHint() string { return "simulated test tool" }

// InputSchema returns a loose object schema.
func (s *Sim) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// InterruptBehavior returns Interrupt.
func (s *Sim) InterruptBehavior(any) rt.InterruptBehavior { return s.Interrupt }

// Traits reports the static flags.
func (s *Sim) Traits() rt.Traits {
	return rt.Traits{
		ReadOnly:               rt.Flag{Value: s.ReadOnly},
		ConcurrencySafe:        rt.Flag{Value: s.Safe, InputDependent: true},
		Interrupt:              s.Interrupt,
		CancelsSiblingsOnError: s.CancelsSiblings,
	}
}

// Decode parses raw strictly into *Input merged over Default.
func (s *Sim) Decode(raw json.RawMessage) (any, error) {
	in := s.Default
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if in.SleepMS < 0 || in.Spin < 0 || in.Progress < 0 {
		return nil, errors.New("sleep_ms, spin and progress must not be negative")
	}
	return &in, nil
}

// ValidateInput fails with Input.Invalid when set.
func (s *Sim) ValidateInput(_ context.Context, input any, _ *rt.ToolContext) error {
	if in := input.(*Input); in.Invalid != "" {
		return errors.New(in.Invalid)
	}
	return nil
}

// CheckPermissions returns Permission.
func (s *Sim) CheckPermissions(context.Context, any, *rt.ToolContext) rt.PermissionDecision {
	return s.Permission
}

// PermissionTarget returns the summary as a command target.
func (s *Sim) PermissionTarget(input any) rt.Target {
	return rt.Target{Kind: rt.TargetCommand, Value: input.(*Input).Summary}
}

// IsConcurrencySafe returns Input.Safe, else Safe; it panics when asked to.
func (s *Sim) IsConcurrencySafe(input any) bool {
	in := input.(*Input)
	if in.PanicSafe {
		panic("IsConcurrencySafe exploded")
	}
	if in.Safe != nil {
		return *in.Safe
	}
	return s.Safe
}

// IsReadOnly returns ReadOnly.
func (s *Sim) IsReadOnly(any) bool { return s.ReadOnly }

// UserFacingName returns the name.
func (s *Sim) UserFacingName(any) string { return s.Name() }

// Call simulates the configured behaviour.
func (s *Sim) Call(ctx context.Context, input any, call *rt.Call) (rt.Result, error) {
	in := input.(*Input)
	if s.Monitor != nil {
		safe := in.Safe == nil && s.Safe || in.Safe != nil && *in.Safe
		s.Monitor.enter(call.ID, safe)
		defer s.Monitor.exit(call.ID, safe)
	}
	if s.OnCall != nil {
		return s.OnCall(ctx, in, call)
	}
	for i := range in.Progress {
		call.Progress(fmt.Sprintf("step %d/%d", i+1, in.Progress))
	}
	if in.Panic != "" {
		panic(in.Panic)
	}
	if err := work(ctx, in); err != nil {
		return rt.Result{}, err
	}
	if in.Modify {
		id, f := call.ID, s.OnModify
		call.ModifyContext(func(tc *rt.ToolContext) {
			if f != nil {
				f(id, tc)
			}
		})
	}
	if in.Fail != "" {
		return rt.Result{}, errors.New(in.Fail)
	}
	if in.ErrorResult != "" {
		return rt.ErrorResult(in.ErrorResult), nil
	}
	out := in.Output
	if out == "" {
		out = s.Name() + " done"
	}
	return rt.Result{Data: out, Content: []rt.Block{rt.TextBlock(out)}}, nil
}

// work spends the call's time: Spin yields, SleepMS of real time, or until
// cancelled when Block is set.
func work(ctx context.Context, in *Input) error {
	for range in.Spin {
		if !in.IgnoreCancel && ctx.Err() != nil {
			return context.Cause(ctx)
		}
		runtime.Gosched()
	}
	if in.SleepMS > 0 {
		d := time.Duration(in.SleepMS * float64(time.Millisecond))
		if in.IgnoreCancel {
			time.Sleep(d)
		} else {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return context.Cause(ctx)
			}
		}
	}
	if in.Block {
		<-ctx.Done()
		return context.Cause(ctx)
	}
	return nil
}

// RenderUse returns the summary.
func (s *Sim) RenderUse(input any) string { return input.(*Input).Summary }

// RenderResult returns the result's text.
func (s *Sim) RenderResult(_ any, r rt.Result) string { return r.Text() }

// RenderError returns the error's text.
func (s *Sim) RenderError(_ any, err error) string { return "Error: " + err.Error() }

// RenderGrouped joins the summaries.
func (s *Sim) RenderGrouped(inputs []any) string {
	parts := make([]string, len(inputs))
	for i, in := range inputs {
		parts[i] = s.RenderUse(in)
	}
	return strings.Join(parts, ", ")
}

// Monitor records the calls that run at the same time: overlaps of an
// unsafe call with any other call, and the highest number of calls
// running at once. It is safe for concurrent use.
type Monitor struct {
	mu         sync.Mutex
	running    map[string]bool // id → safe
	unsafeRun  int
	maxRunning int
	violations []string
	started    []string
}

// NewMonitor returns an empty monitor.
func NewMonitor() *Monitor { return &Monitor{running: map[string]bool{}} }

func (m *Monitor) enter(id string, safe bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running == nil {
		m.running = map[string]bool{}
	}
	if !safe && len(m.running) > 0 {
		m.violations = append(m.violations, fmt.Sprintf("unsafe %s started while %d calls ran", id, len(m.running)))
	}
	if safe && m.unsafeRun > 0 {
		m.violations = append(m.violations, fmt.Sprintf("safe %s started while an unsafe call ran", id))
	}
	m.running[id] = safe
	if !safe {
		m.unsafeRun++
	}
	m.maxRunning = max(m.maxRunning, len(m.running))
	m.started = append(m.started, id)
}

func (m *Monitor) exit(id string, safe bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.running, id)
	if !safe {
		m.unsafeRun--
	}
}

// Violations lists every overlap seen involving an unsafe call.
func (m *Monitor) Violations() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.violations...)
}

// MaxRunning is the highest number of calls that ran at once.
func (m *Monitor) MaxRunning() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maxRunning
}

// Started lists the ids of the calls that entered Call, in start order.
func (m *Monitor) Started() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.started...)
}

// Running is the number of calls running now.
func (m *Monitor) Running() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.running)
}

// Bool returns a pointer to b, for Input.Safe.
func Bool(b bool) *bool { return &b }

// NoOp is a tool that does nothing as cheaply as possible: its Decode
// ignores the input and its Call returns a fixed result. Benchmarks use it
// to measure the runtime's own per-call overhead.
type NoOp struct {
	// ToolDefaults answers what NoOp does not say: no aliases, enabled,
	// not deferred, input accepted, no permission target, not destructive,
	// the default renders but RenderResult and RenderGrouped.
	rt.ToolDefaults
	// ToolName is the name; "NoOp" when empty.
	ToolName string
	// Safe is the concurrency safety of every call.
	Safe bool
}

var (
	_         rt.Tool = (*NoOp)(nil)
	noopInput         = &struct{}{}
	noopOut           = rt.Result{Content: []rt.Block{rt.TextBlock("ok")}}
)

// Name returns ToolName or "NoOp".
func (n *NoOp) Name() string {
	if n.ToolName == "" {
		return "NoOp"
	}
	return n.ToolName
}

// Description describes the tool.
func (n *NoOp) Description() string { return "Does nothing." }

// InputSchema returns an object schema.
func (n *NoOp) InputSchema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// InterruptBehavior is cancel.
func (n *NoOp) InterruptBehavior(any) rt.InterruptBehavior { return rt.InterruptCancel }

// Traits reports Safe.
func (n *NoOp) Traits() rt.Traits {
	return rt.Traits{ConcurrencySafe: rt.Flag{Value: n.Safe}, ReadOnly: rt.Flag{Value: true}}
}

// Decode ignores raw.
func (n *NoOp) Decode(json.RawMessage) (any, error) { return noopInput, nil }

// CheckPermissions allows.
func (n *NoOp) CheckPermissions(context.Context, any, *rt.ToolContext) rt.PermissionDecision {
	return rt.PermissionDecision{Behavior: rt.Allow}
}

// IsConcurrencySafe returns Safe.
func (n *NoOp) IsConcurrencySafe(any) bool { return n.Safe }

// IsReadOnly is true.
func (n *NoOp) IsReadOnly(any) bool { return true }

// UserFacingName returns the name.
func (n *NoOp) UserFacingName(any) string { return n.Name() }

// Call returns "ok".
func (n *NoOp) Call(context.Context, any, *rt.Call) (rt.Result, error) { return noopOut, nil }

// RenderResult returns "ok".
func (n *NoOp) RenderResult(any, rt.Result) string { return "ok" }

// RenderGrouped returns the count.
func (n *NoOp) RenderGrouped(inputs []any) string { return fmt.Sprintf("%d calls", len(inputs)) }
