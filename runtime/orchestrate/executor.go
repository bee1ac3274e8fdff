package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agentcore/agentcore/runtime"
)

// EnvMaxConcurrency names the environment variable that caps how many
// concurrency-safe calls run at once. The executor does not read it: a
// program passes it through MaxConcurrencyFromEnv to MaxConcurrency.
const EnvMaxConcurrency = "AGENTCORE_MAX_TOOL_USE_CONCURRENCY"

// DefaultMaxConcurrency is the cap when Executor.MaxConcurrency sets none.
const DefaultMaxConcurrency = 10

// ToolUse is one tool_use block of an assistant message.
type ToolUse struct {
	// ID is the tool_use id; the result carries it back.
	ID string `json:"id"`
	// Name is the tool name the model used (a name or an alias).
	Name string `json:"name"`
	// Input is the raw JSON input object.
	Input json.RawMessage `json:"input"`
}

// CanUseToolFunc decides whether one call may run. It sees the bound call
// (the tool, the decoded input and its answers, the raw input) after
// ValidateInput passed, and must not change it. Only runtime.Allow lets
// the call run; Deny, Ask (nobody answered) and Passthrough (nobody
// decided) reject it, with the decision's Message as the text the model
// gets. It may be called from several goroutines at once.
type CanUseToolFunc func(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) runtime.PermissionDecision

// PreToolUseFunc runs for every call after ValidateInput passed and
// before CanUseTool: Claude Code's PreToolUse hooks. inv is the bound
// call (inv.Raw the input as the model made it); it must not be changed.
// It may be called from several goroutines at once.
type PreToolUseFunc func(ctx context.Context, inv *runtime.Invocation, tc *runtime.ToolContext) PreToolUseResult

// PreToolUseResult is what a PreToolUseFunc decided.
type PreToolUseResult struct {
	// Behavior is Passthrough (no opinion), Deny (the call is rejected
	// with Message, CanUseTool is not asked), Allow (CanUseTool sees it
	// through runtime.HookDecision: no prompt, but deny and ask rules
	// hold) or Ask (CanUseTool asks, with Message as the reason).
	Behavior runtime.Behavior
	Message  string
	// UpdatedInput, when set, replaces the call's input; it is decoded
	// and validated again, and the call's scheduling stays as it was
	// planned for the original input.
	UpdatedInput json.RawMessage
	// Context are texts appended to the call's result for the model.
	Context []string
	// Defer, with Behavior Passthrough, parks the call (Claude Code's
	// permissionDecision "defer" in -p): it does not run, and its event's
	// Outcome is OutcomeDeferred, so the agent loop ends the run there and
	// a resumed run asks the hooks again. Message says why.
	Defer bool
}

// PostToolUseFunc runs after a call's Call returned a result: Claude
// Code's PostToolUse hooks. It may be called from several goroutines at
// once.
type PostToolUseFunc func(ctx context.Context, inv *runtime.Invocation, res runtime.Result, tc *runtime.ToolContext) PostToolUseResult

// PostToolUseResult is what a PostToolUseFunc said.
type PostToolUseResult struct {
	// Context are texts appended to the result for the model (a hook's
	// additionalContext or its blocking feedback).
	Context []string
	// Content, when not nil, replaces the result's content before the
	// model reads it (a hook's updatedToolOutput).
	Content []runtime.Block
}

// Failure is a call that ran and failed, as PostToolUseFailureFunc gets
// it.
type Failure struct {
	// Err is what the call failed with; Interrupted is set when the user
	// interrupted it.
	Err         error
	Interrupted bool
	// Duration is how long the call ran.
	Duration time.Duration
}

// PostToolUseFailureFunc runs after a call that ran failed (its Call
// returned an error or panicked, or was interrupted or cancelled while
// running): Claude Code's PostToolUseFailure hooks. Its Context is
// appended to the error result. It may be called from several goroutines
// at once.
type PostToolUseFailureFunc func(ctx context.Context, inv *runtime.Invocation, f Failure, tc *runtime.ToolContext) PostToolUseResult

// AllowAll is the default CanUseToolFunc: every call may run.
func AllowAll(context.Context, *runtime.Invocation, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Executor holds what every run of tool calls shares: the tools, the
// permission check and the limits. Its fields must not change while a run
// uses it; one Executor serves any number of runs, concurrently.
type Executor struct {
	// Tools are the tools calls may name (by name or alias).
	Tools []runtime.Tool
	// CanUseTool decides permissions; nil allows every call.
	CanUseTool CanUseToolFunc
	// PreToolUse and PostToolUse, when set, run before the permission
	// check and after a successful Call (Claude Code's hooks).
	PreToolUse  PreToolUseFunc
	PostToolUse PostToolUseFunc
	// PostToolUseFailure, when set, runs after a call that ran failed.
	PostToolUseFailure PostToolUseFailureFunc
	// MaxConcurrency caps how many concurrency-safe calls run at once;
	// 0 means DefaultMaxConcurrency (agentcore sets it from
	// AGENTCORE_MAX_TOOL_USE_CONCURRENCY: MaxConcurrencyFromEnv).
	MaxConcurrency int
	// CallTimeout, when positive, bounds every Call; a call that is still
	// running then is cancelled and its result says it timed out.
	CallTimeout time.Duration
	// Observer, when set, is told of each call's life as it happens, on
	// the goroutine where it happens: EventQueued when Add or Start has
	// bound the call (before it may start), EventStart when its Call
	// begins (after validation, hooks and the permission check),
	// EventProgress for each progress value, EventEnd when Call returned.
	// Progress then goes to the Observer only, not to Ready or Results:
	// it travels one way. The Observer must be quick, safe for concurrent
	// use, and must not call back into the run.
	Observer func(Event)
	// AbandonAfter, when positive, is how long a call may keep running
	// after its context was cancelled (timeout, interrupt, sibling error,
	// session end). A call still running then is abandoned: it gets its
	// cancellation result at once and the run moves on, while the tool's
	// goroutine is left to finish on its own (it may overlap later calls,
	// and its outcome is ignored). 0 waits for every Call to return: tools
	// are expected to honour their context.
	AbandonAfter time.Duration
}

// MaxConcurrencyFromEnv returns the cap AGENTCORE_MAX_TOOL_USE_CONCURRENCY
// sets in the environment getenv reads (os.Getenv in a program): its
// value when it is a positive integer, DefaultMaxConcurrency otherwise.
func MaxConcurrencyFromEnv(getenv func(string) string) int {
	n, err := strconv.Atoi(strings.TrimSpace(getenv(EnvMaxConcurrency)))
	if err != nil || n <= 0 {
		return DefaultMaxConcurrency
	}
	return n
}

func (e *Executor) maxConcurrency() int {
	if e.MaxConcurrency > 0 {
		return e.MaxConcurrency
	}
	return DefaultMaxConcurrency
}

// EventKind tells a progress event from a result event.
type EventKind int

const (
	// EventResult is the one final result of a call.
	EventResult EventKind = iota
	// EventProgress is a progress value reported while the call runs.
	EventProgress
	// EventQueued, EventStart and EventEnd go to Executor.Observer only:
	// a call was added and bound, its Call began, its Call returned.
	EventQueued
	EventStart
	EventEnd
)

// Outcome classifies how a call ended.
type Outcome int

const (
	// OutcomeOK: Call returned a result (which may itself be is_error).
	OutcomeOK Outcome = iota
	// OutcomeToolError: Call returned an error.
	OutcomeToolError
	// OutcomeUnknownTool: no tool has the name.
	OutcomeUnknownTool
	// OutcomeInvalidInput: the input failed to decode or validate
	// (Decode or ValidateInput).
	OutcomeInvalidInput
	// OutcomeRejected: permission was denied.
	OutcomeRejected
	// OutcomePanic: the tool panicked.
	OutcomePanic
	// OutcomeTimeout: the call outlived Executor.CallTimeout.
	OutcomeTimeout
	// OutcomeSiblingError: a parallel call of a tool that cancels its
	// siblings on error (Bash) errored and cancelled it.
	OutcomeSiblingError
	// OutcomeInterrupted: the user interrupted it.
	OutcomeInterrupted
	// OutcomeCancelled: the run's context was cancelled.
	OutcomeCancelled
	// OutcomeDiscarded: the run was discarded; never yielded.
	OutcomeDiscarded
	// OutcomeDeferred: a PreToolUse hook deferred the call
	// (PreToolUseResult.Defer); it did not run and its result is not
	// for the model: the run stops and a resumed one decides again.
	OutcomeDeferred
)

var outcomeNames = [...]string{"ok", "tool_error", "unknown_tool", "invalid_input", "rejected",
	"panic", "timeout", "sibling_error", "interrupted", "cancelled", "discarded", "deferred"}

// String returns the outcome's snake_case name.
func (o Outcome) String() string {
	if o >= 0 && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// State is a step of a call's life.
type State int

const (
	// StateQueued: added, waiting until it may start.
	StateQueued State = iota
	// StateExecuting: validation, permission check and Call are running.
	StateExecuting
	// StateCompleted: the result is known but not yet yielded (order).
	StateCompleted
	// StateYielded: the result was handed out.
	StateYielded
	// StateDiscarded: the run was discarded before the result was yielded.
	StateDiscarded
)

var stateNames = [...]string{"queued", "executing", "completed", "yielded", "discarded"}

// String returns the state's name.
func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("state(%d)", int(s))
}

// MarshalText writes the state's name.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// StateChange is one transition of a call, with its time.
type StateChange struct {
	State State     `json:"state"`
	At    time.Time `json:"at"`
}

// Event is what the result streams yield: one progress value of a call, or
// the call's one final result.
type Event struct {
	// Kind says whether this is a progress or a result event.
	Kind EventKind
	// ID and Name are the tool_use's id and the name the model used.
	ID, Name string
	// Raw is the call's input as the model sent it.
	Raw json.RawMessage
	// Tool is the resolved tool; nil when the name is unknown.
	Tool runtime.Tool
	// Input is the decoded input; nil when decoding failed.
	Input any
	// Invocation is the call bound once (Tool, Input and every answer
	// about it, such as its render line); nil when the name is unknown or
	// the input did not decode. Readers must not change it.
	Invocation *runtime.Invocation
	// Progress is the progress value (EventProgress only).
	Progress any

	// Result is the tool_result to send back: Content and IsError are
	// always set for a result event, also for failures the tool never saw.
	Result runtime.Result
	// Outcome classifies how the call ended.
	Outcome Outcome
	// Err is the failure behind an is_error result, if any; renderers pass
	// it to RenderError.
	Err error
	// Started and Ended bound the executing state; both equal the
	// completion time for a call that never executed.
	Started, Ended time.Time
	// States is the call's trace of transitions, ending with yielded.
	States []StateChange
}

// IsError reports whether the result is an error result.
func (ev Event) IsError() bool { return ev.Result.IsError }

// Rejected reports whether permission was denied, so renderers pick
// RenderRejected rather than RenderError.
func (ev Event) Rejected() bool { return ev.Outcome == OutcomeRejected }

// Errors that cancel calls; they are the causes of cancelled call contexts
// (context.Cause) and the Err of the events of the calls they stopped.
var (
	// ErrInterrupted is the cause of calls stopped by a user interrupt.
	ErrInterrupted = errors.New("interrupted by the user")
	// ErrDiscarded is the cause of calls stopped because the run was
	// discarded.
	ErrDiscarded = errors.New("tool execution discarded")
	// ErrClosed is returned by Add after Close, Results or Discard.
	ErrClosed = errors.New("orchestrate: no more calls may be added (closed or discarded)")
)

// SiblingError is the cause of calls cancelled because a parallel call of
// a tool declaring CancelsSiblingsOnError (Bash) errored.
type SiblingError struct {
	// Desc describes the failed call, e.g. "Bash(npm test)".
	Desc string
}

// Error returns the text the cancelled calls' results carry.
func (e *SiblingError) Error() string {
	return "Cancelled: parallel tool call " + e.Desc + " errored"
}

// TimeoutError is the cause of a call stopped by Executor.CallTimeout.
type TimeoutError struct {
	Tool  string
	After time.Duration
}

// Error says which tool timed out after how long.
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("Error: %s timed out after %s and was stopped; retry with less work or a narrower input", e.Tool, e.After)
}

// PanicError is the failure of a tool method that panicked.
type PanicError struct {
	Tool   string
	Method string
	Value  any
}

// Error tells the model the tool crashed, and that its input is not to
// blame.
func (e *PanicError) Error() string {
	return fmt.Sprintf("Error: %s failed unexpectedly (panic in %s: %v). This is a bug in the tool, not in your input; try another approach", e.Tool, e.Method, e.Value)
}
