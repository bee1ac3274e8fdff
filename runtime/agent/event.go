package agent

import (
	"encoding/json"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
)

// EventKind names what happened in the loop.
type EventKind int

const (
	// EventRequest: a request is being sent to the model (Turn is its
	// number, from 1).
	EventRequest EventKind = iota
	// EventText: a text delta from the model.
	EventText
	// EventToolQueued: a tool_use block finished streaming and was handed
	// to the executor, which bound it (ID, Name, Tool, RawInput, and Input
	// and Invocation when the input decoded).
	EventToolQueued
	// EventToolStart: a call began running, after its permission check
	// (ID, Name, Tool, Input).
	EventToolStart
	// EventToolProgress: a running call reported progress (Progress).
	EventToolProgress
	// EventToolResult: a call's one result, in call order (Call).
	EventToolResult
	// EventToolEnd: a call's Call returned; its result is yielded later,
	// in call order (ID, Name, Tool, Input).
	EventToolEnd
	// EventAssistant: the model's whole message for this turn (Message,
	// Stop, Usage).
	EventAssistant
	// EventUser: the user message the loop adds: the tool results, and the
	// interruption notice if any (Message).
	EventUser
	// EventContext: tools changed the context, e.g. the working directory
	// (Text says what).
	EventContext
	// EventInterrupted: the user interrupted the turn.
	EventInterrupted
	// EventDone: the run ended (Outcome).
	EventDone
	// EventHook: a hook said something for the user: a non-blocking
	// error, a timeout, a systemMessage (Text).
	EventHook
	// EventFallback: the model failed with an overload or server error
	// (after the provider's own retries) and the turn is sent again to
	// Config.Fallback, which answers from now on (Text: the notice;
	// Fallback says from which model to which, and why).
	EventFallback
	// EventStream: one of the Messages API's stream events, as it came
	// (Raw), when Config.PartialMessages is set and the provider has them.
	EventStream
	// EventRetry: a model request failed with a retryable error and is
	// sent again after a wait (Text: the notice; Retry: the attempt, the
	// wait and the failure). A request whose calls had started is not
	// sent again: its calls' results go into the conversation and the
	// next request continues from there, after the same wait.
	EventRetry
	// EventCompact: a compaction replaced the history with a summary
	// (Compact: what it did); stream-json's compact_boundary.
	EventCompact
)

// FallbackInfo is what EventFallback reports.
type FallbackInfo struct {
	// From and To are the providers' names (Provider.Name).
	From, To string
	// Trigger is "overloaded" or "server_error", as Claude Code names it.
	Trigger string
	// Err is the main model's failure.
	Err error
}

// Event is one step of a run, handed to Config.Observer.
type Event struct {
	Kind EventKind
	// Turn is the number of the model request the event belongs to.
	Turn int
	// Text is the delta of EventText or the note of EventContext.
	Text string

	// ID and Name identify the call of a tool event; Tool is nil when the
	// name is unknown.
	ID, Name string
	Tool     runtime.Tool
	// RawInput is the call's JSON input (EventToolQueued).
	RawInput json.RawMessage
	// Input is the decoded input (EventToolStart, EventToolProgress).
	Input any
	// Invocation is the call bound once (tool, input, and what a renderer
	// shows of it: UserFacingName, Use); nil when the tool is unknown or
	// the input did not decode. Readers must not change it.
	Invocation *runtime.Invocation
	// Progress is the progress value of EventToolProgress.
	Progress any
	// Call is the result of EventToolResult.
	Call *orchestrate.Event

	// Raw is the API's stream event of EventStream.
	Raw json.RawMessage

	// Message is set on EventAssistant and EventUser.
	Message *provider.Message
	// Stop and Usage are set on EventAssistant.
	Stop  provider.StopReason
	Usage provider.Usage

	// Fallback is set on EventFallback.
	Fallback *FallbackInfo
	// Retry is set on EventRetry.
	Retry *RetryInfo
	// Compact is set on EventCompact.
	Compact *CompactInfo

	// Outcome is set on EventDone.
	Outcome *Outcome
	// At is when the event happened.
	At time.Time

	// ParentToolUseID is empty for the main conversation's events. A
	// sub-agent's events carry the tool_use id of the Agent call that
	// started it (stream-json's parent_tool_use_id); their Turn, ID and
	// Message belong to the sub-agent's own conversation.
	ParentToolUseID string
}

// StopReason says why a run ended.
type StopReason string

const (
	// StopEndTurn: the model finished.
	StopEndTurn StopReason = "end_turn"
	// StopMaxTurns: the run hit Config.MaxTurns.
	StopMaxTurns StopReason = "max_turns"
	// StopInterrupted: the user interrupted.
	StopInterrupted StopReason = "interrupted"
	// StopError: the model request failed.
	StopError StopReason = "error"
	// StopDeferred: a PreToolUse hook deferred a call (Claude Code's
	// permissionDecision "defer" in -p); Outcome.Deferred is the call.
	StopDeferred StopReason = "tool_deferred"
)

// Outcome sums up one Run.
type Outcome struct {
	Stop StopReason `json:"stop_reason"`
	// Turns is the number of model requests made.
	Turns int `json:"num_turns"`
	// Text is the model's last text.
	Text string `json:"result"`
	// ToolCalls and ToolErrors count the calls run and those that failed.
	ToolCalls  int `json:"tool_calls"`
	ToolErrors int `json:"tool_errors"`
	// Usage sums the tokens of every response.
	Usage provider.Usage `json:"usage"`
	// StructuredOutput is the accepted structured answer (Config.Answer).
	StructuredOutput json.RawMessage `json:"structured_output,omitempty"`
	// Deferred is the call a PreToolUse hook deferred (StopDeferred):
	// the last of its turn, as Claude Code reports it.
	Deferred *provider.Block `json:"deferred_tool_use,omitempty"`
	// DeferredAgain: the run resumed a deferred turn and its hooks
	// deferred the call again, before any model request.
	DeferredAgain bool `json:"-"`
	// Duration is the run's wall time.
	Duration time.Duration `json:"-"`
	// Err is the failure behind StopError.
	Err error `json:"-"`
}
