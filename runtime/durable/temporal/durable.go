// Package temporal runs agentcore sessions as durable Temporal workflows.
//
// The agent loop is a workflow (SessionWorkflow). Each model request is an
// activity (ActivityModel) that runs on any worker of the session's task
// queue, with the provider the worker built from its own configuration, so
// keys never enter workflow history. Each batch of tool calls is an
// activity (ActivityTools) routed to the worker that holds the session's
// working directory, through that worker's own task queue (its
// workspace queue): the activity runs agentcore's executor, so calls are
// partitioned, ordered, cancelled as siblings and each answered exactly as
// in a local session. A call's result is journaled on the worker's disk
// the moment the call returns, so a batch activity that is retried after
// its worker died does not run a finished call again.
//
// Humans in the loop: a call the permission engine would ask about ends
// the batch activity with the ask (the payload an Agent SDK host's
// canUseTool gets); the workflow waits, without any process, for the
// answer through the UpdateAnswer update, then runs the batch again with
// the decision. Interrupt is the SignalInterrupt signal; the session's
// stream-json lines are readable while it runs with the QueryEvents query.
//
// When the worker holding the files dies, the workflow waits for a worker
// with the same workspace name (a restarted process on the same disk) to
// serve the workspace queue: the files are the agent's work, and a
// workspace re-created from git would lose every uncommitted change.
// Options.WorkspaceWait bounds that wait.
package temporal

import (
	"encoding/json"
	"time"

	"github.com/agentcore/agentcore/runtime/provider"
)

// Names of the workflow, its activities, signals, updates and queries.
const (
	// WorkflowSession is the session workflow's registered name.
	WorkflowSession = "agentcore.Session"
	// ActivityOpen prepares a session's workspace on some worker and
	// returns that worker's workspace queue.
	ActivityOpen = "agentcore.Open"
	// ActivityModel makes one model request.
	ActivityModel = "agentcore.Model"
	// ActivityTools runs one batch of tool calls.
	ActivityTools = "agentcore.Tools"
	// ActivityInterrupt interrupts the running batch of a session.
	ActivityInterrupt = "agentcore.Interrupt"
	// ActivityClose releases a session's state on its worker.
	ActivityClose = "agentcore.Close"

	// SignalInterrupt interrupts the running turn, as Esc does locally.
	SignalInterrupt = "interrupt"
	// SignalPrompt sends another prompt to a session kept open.
	SignalPrompt = "prompt"
	// SignalEnd ends a session kept open once it is idle.
	SignalEnd = "end"
	// UpdateAnswer answers a pending permission ask (an Answer).
	UpdateAnswer = "answer"
	// QueryEvents returns the session's stream-json lines so far.
	QueryEvents = "events"
	// QueryPending returns the asks waiting for an answer ([]Ask).
	QueryPending = "pending"
	// QueryMessages returns the conversation so far.
	QueryMessages = "messages"
)

// Options are a session's settings. The zero value of each field picks a
// default that suits a coding session.
type Options struct {
	// TaskQueue is the shared queue of the workflow and of model
	// requests; the workers serving it run sessions.
	TaskQueue string `json:"task_queue"`
	// System is the system prompt.
	System string `json:"system,omitempty"`
	// Dir is the working directory on the worker that opens the session;
	// empty makes one under the worker's state directory.
	Dir string `json:"dir,omitempty"`
	// MaxTurns caps the model requests of each prompt; 0: no cap.
	MaxTurns int `json:"max_turns,omitempty"`
	// MaxTokens caps each response; 0 lets the provider choose.
	MaxTokens int `json:"max_tokens,omitempty"`
	// KeepOpen keeps the session waiting for SignalPrompt after the model
	// ends its turn, until SignalEnd.
	KeepOpen bool `json:"keep_open,omitempty"`
	// ModelTimeout bounds one model request (default 10 minutes).
	ModelTimeout time.Duration `json:"model_timeout,omitempty"`
	// ToolsTimeout bounds one attempt of a tool batch (default 2 hours).
	ToolsTimeout time.Duration `json:"tools_timeout,omitempty"`
	// Heartbeat is how long a running batch may go without a heartbeat
	// before Temporal deems its worker dead and retries it (default 30s;
	// the worker beats every third of it).
	Heartbeat time.Duration `json:"heartbeat,omitempty"`
	// WorkspaceWait bounds how long a batch waits for the worker holding
	// the files when it is gone; 0 waits for ever.
	WorkspaceWait time.Duration `json:"workspace_wait,omitempty"`
	// HistoryLimit is the workflow history length (in events) past which
	// the session continues as new with its transcript (default 10000,
	// well below Temporal's 51200 limit); Temporal's own suggestion to
	// continue is followed too.
	HistoryLimit int `json:"history_limit,omitempty"`
}

// Input is the session workflow's argument: the options, the prompt, and
// (after continue-as-new or to resume) the snapshot of the session.
type Input struct {
	Options Options `json:"options"`
	// Prompt is the first prompt; empty continues the conversation.
	Prompt string `json:"prompt,omitempty"`
	// Snapshot, when set, is the state to go on from.
	Snapshot *Snapshot `json:"snapshot,omitempty"`
}

// Snapshot is what a session carries across continue-as-new: the
// transcript and where its files are.
type Snapshot struct {
	Messages  []provider.Message `json:"messages"`
	Workspace string             `json:"workspace"`
	Dir       string             `json:"dir"`
	Cwd       string             `json:"cwd"`
	// Turns counts the model requests of the current prompt.
	Turns int `json:"turns"`
	// Usage sums the tokens of the session.
	Usage provider.Usage `json:"usage"`
	// Runs counts the workflow runs the session took so far.
	Runs int `json:"runs"`
	// MidPrompt says the run was continued between two turns of a prompt.
	MidPrompt bool `json:"mid_prompt,omitempty"`
	// Prompts are prompts that arrived and are not sent yet.
	Prompts []string `json:"prompts,omitempty"`
}

// Outcome sums up a session when its workflow ends.
type Outcome struct {
	// Stop is why the last prompt's run ended: end_turn, max_turns,
	// interrupted or error.
	Stop string `json:"stop_reason"`
	// Text is the model's last text.
	Text string `json:"result"`
	// Turns counts the model requests of the last prompt.
	Turns int `json:"num_turns"`
	// Usage sums the session's tokens.
	Usage provider.Usage `json:"usage"`
	// Error says what failed when Stop is error.
	Error string `json:"error,omitempty"`
	// Messages is the whole conversation.
	Messages []provider.Message `json:"messages"`
	// Runs counts the workflow runs (1 + continue-as-new count).
	Runs int `json:"runs"`
	// Workspace is the task queue of the worker that held the files.
	Workspace string `json:"workspace"`
}

// Ask is a permission ask waiting for a human: the payload an Agent SDK
// host's canUseTool gets.
type Ask struct {
	ToolUseID string          `json:"tool_use_id"`
	ToolName  string          `json:"tool_name"`
	Input     json.RawMessage `json:"input"`
	// Use is the tool's rendering of the call; Message why it asks.
	Use     string `json:"use,omitempty"`
	Message string `json:"message,omitempty"`
	// Suggestion is the allow rule "always" would add.
	Suggestion string `json:"suggestion,omitempty"`
	// Detail is longer text to show (a plan, a diff).
	Detail string `json:"detail,omitempty"`
}

// Answer is a human's decision on an Ask, shaped like canUseTool's
// result: behavior "allow" (with an optional updated_input) or "deny"
// (with the message the model gets; interrupt stops the turn too).
type Answer struct {
	ToolUseID    string          `json:"tool_use_id"`
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updated_input,omitempty"`
	Message      string          `json:"message,omitempty"`
	Interrupt    bool            `json:"interrupt,omitempty"`
}

// OpenRequest and OpenResult are ActivityOpen's argument and result.
type OpenRequest struct {
	Session string `json:"session"`
	Dir     string `json:"dir,omitempty"`
}

// OpenResult says where the session's files are.
type OpenResult struct {
	Workspace string `json:"workspace"`
	Dir       string `json:"dir"`
}

// ModelRequest is ActivityModel's argument.
type ModelRequest struct {
	System    string             `json:"system,omitempty"`
	Messages  []provider.Message `json:"messages"`
	MaxTokens int                `json:"max_tokens,omitempty"`
}

// ModelResult is the model's whole message for a turn.
type ModelResult struct {
	Message    provider.Message    `json:"message"`
	StopReason provider.StopReason `json:"stop_reason"`
	Usage      provider.Usage      `json:"usage"`
}

// ToolsRequest is ActivityTools' argument: one assistant message's calls.
type ToolsRequest struct {
	Session string           `json:"session"`
	Dir     string           `json:"dir"`
	Cwd     string           `json:"cwd,omitempty"`
	Calls   []provider.Block `json:"calls"`
	// Answers are the humans' decisions on earlier asks, by tool_use id.
	Answers map[string]Answer `json:"answers,omitempty"`
	// Interrupted runs the batch as interrupted from the start.
	Interrupted bool `json:"interrupted,omitempty"`
}

// ToolsResult is a batch's outcome: a tool_result for every call, or the
// asks that must be answered before the batch can go on.
type ToolsResult struct {
	Results []provider.Block `json:"results,omitempty"`
	Pending []Ask            `json:"pending,omitempty"`
	Cwd     string           `json:"cwd,omitempty"`
	// Interrupted says a user interrupt stopped the batch.
	Interrupted bool `json:"interrupted,omitempty"`
	// Replayed counts the calls answered from the journal.
	Replayed int `json:"replayed,omitempty"`
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
