// Package agent is the conversation loop: it sends the conversation and the
// tool list to a model, hands each tool_use block to the streaming executor
// the moment it finishes streaming, sends the results back as one user
// turn, and repeats until the model ends its turn, a turn limit is reached,
// or the user interrupts.
//
// The loop keeps the conversation valid for the API whatever happens:
// every tool_use in the history is answered by a tool_result, also after
// an interrupt, a failed stream or a tool crash. Context modifiers (a cd in
// Bash, a file read) change the ToolContext the next turn's calls see.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
)

// InterruptNotice is the text the loop adds to the conversation when the
// user interrupts a turn, as Claude Code does.
const InterruptNotice = "[Request interrupted by user]"

// StreamBrokenNotice is the text the loop adds after the results of a turn
// whose response broke off after some of its calls had started: the calls
// the model finished asking for ran (or were stopped), the rest of its
// response was lost.
const StreamBrokenNotice = "[The response broke off (stream failure); the tool calls above are all of this turn that ran]"

// The results of calls that did not run say why, truthfully: the model
// decides from them whether to ask again.
const (
	// CutOffResult answers a tool_use whose input JSON is incomplete: the
	// response broke off, or hit max_tokens, inside the block.
	CutOffResult = "the tool input was cut off before it was complete (the response ended early); nothing was run"
	// NotRunBrokenResult answers a complete call that never started
	// because the model's response broke off.
	NotRunBrokenResult = "not run: the model's response was cut off by a network error before the call could start"
	// NotRunInterruptedResult answers a call that never started because
	// the user interrupted the turn.
	NotRunInterruptedResult = "Error: the call was not run: the turn was interrupted before it could start"
)

// Config is what an Agent is made of.
type Config struct {
	// Provider is the model.
	Provider provider.Provider
	// Fallback, if set, is the model a turn is sent to once when
	// Provider's stream fails with an overload or a server error (the
	// provider has retried already): the failed turn is discarded with
	// its calls when those changed nothing (a call that changed something
	// keeps its result, and Fallback goes on from there), EventFallback
	// says so, and Fallback
	// answers for the rest of the conversation (Claude Code's
	// --fallback-model).
	Fallback provider.Provider
	// Tools gives each turn its tools: List for a fixed list, a
	// *pool.Pool for deferred discovery, a session for MCP servers that
	// come and go. nil means no tools.
	Tools Tools
	// CanUseTool decides permissions; nil allows every call.
	CanUseTool orchestrate.CanUseToolFunc
	// PreToolUse and PostToolUse are the executor's hooks; nil: none.
	PreToolUse  orchestrate.PreToolUseFunc
	PostToolUse orchestrate.PostToolUseFunc
	// PostToolUseFailure is the executor's hook after a call failed.
	PostToolUseFailure orchestrate.PostToolUseFailureFunc
	// MaxConcurrency caps parallel calls; 0 means
	// orchestrate.DefaultMaxConcurrency.
	MaxConcurrency int
	// System is the system prompt.
	System string
	// MaxTurns caps the model requests of one Run; 0 means no cap.
	MaxTurns int
	// MaxTokens caps each response; 0 lets the provider choose.
	MaxTokens int
	// PartialMessages asks the provider for the API's own stream events
	// and hands each to the Observer as an EventStream.
	PartialMessages bool
	// Observer, if set, sees every event. It is called from the loop's
	// goroutine and from running tools' goroutines, so it must be safe for
	// concurrent use, and quick. A tool that runs a sub-agent reports the
	// sub-agent's events as progress values of type Event with
	// ParentToolUseID set; the Observer sees them as they are, not as
	// EventToolProgress.
	Observer func(Event)
	// Notices, if set, is asked before every model request for news that
	// arrived between requests (a background sub-agent finished). Each
	// text is added to the conversation as a text block of the last user
	// message, so the model reads it in this request; earlier messages
	// stay as they were.
	Notices func() []string
	// OnStop, when set, runs when the model ends its turn (StopEndTurn)
	// with active reporting whether it already made the run go on once;
	// a non-empty answer is sent as a user message and the run goes on,
	// as Claude Code's Stop hooks do. Stop set ends the run with
	// StopError and err (a hook's continue:false).
	OnStop func(ctx context.Context, active bool) (again string, stop error)
	// Answer, when set, holds the run to a structured final answer
	// (-p --json-schema; structured.Output implements it): the run ends
	// after the turn in which the answer was accepted, a turn ended
	// without one is answered with its reminder, and its error ends the
	// run with StopError.
	Answer Answer
	// History is the conversation to continue (a resumed session's): the
	// agent starts with these messages, which must pair every tool_use
	// with a tool_result (transcript.Load does), but for the last
	// message's when Deferred is set.
	History []provider.Message
	// Deferred is the turn History ends with when a PreToolUse hook
	// deferred some of its calls: its last message is the assistant
	// message holding Deferred.Uses. The next Run asks about the pending
	// calls again before anything else.
	Deferred *Deferred
	// Recorder, if set, is told of the conversation as it grows, from the
	// loop's goroutine (a *transcript.Writer keeps it on disk). One that
	// is also a ResultRecorder is told of each tool result as it comes.
	Recorder Recorder
	// Retry is how a failed model request is retried; the zero value is
	// Claude Code's policy (ten retries with exponential back-off).
	Retry RetryPolicy
	// Context keeps the conversation within the model's context window:
	// near its Threshold the loop compacts before the next request
	// (Compact). The zero value never compacts on its own.
	Context ContextPolicy
	// Compaction, if set, is told of every compaction (the PreCompact
	// and PostCompact hooks).
	Compaction CompactHooks
	// LargeResults, if set, writes a tool result above its tool's size
	// cap to a file and gives the model a preview and the file's path.
	LargeResults *LargeResults
}

// Answer is a structured final answer the run must end with.
type Answer interface {
	// Begin starts a run: no answer yet.
	Begin()
	// Turn is told of a turn's tool_use blocks once each has its result:
	// the accepted answer (non-nil ends the run), or an error that ends
	// it (the retries are used up).
	Turn(uses []provider.Block) (json.RawMessage, error)
	// Missing is asked when the model ended its turn without an answer:
	// the user message to go on with, or an error that ends the run.
	Missing() (string, error)
}

// Recorder keeps a conversation as it grows. History is not told again.
type Recorder interface {
	// Add is told of each message as it joins the conversation, final:
	// the prompt, the assistant message once the model finished it, the
	// tool results once every call of the turn has one.
	Add(m provider.Message)
	// Amend is told of blocks added to the last message (Notices').
	Amend(blocks []provider.Block)
	// TurnEnd is called when a turn's messages are all told (after its
	// tool results, or its last assistant message), and when a run ends;
	// a recorder that writes to disk syncs here.
	TurnEnd()
}

// ResultRecorder is a Recorder that keeps each tool result the moment the
// loop has it, before the turn's results message (which waits for every
// call): a process killed while a slow call runs keeps the results of
// the calls that ended, so their side effects are not invisible on
// resume.
type ResultRecorder interface {
	Recorder
	// ToolResult is told of the result of the call use, a tool_use of
	// the assistant message Add is told of when the response ends (or was
	// told of already).
	ToolResult(use, result provider.Block)
}

// Tools is where the agent finds a turn's tools.
type Tools interface {
	// Turn is asked before every model request, after the previous
	// turn's context changes. callable are the tools calls may use;
	// sent, a subset in the order sent to the API (keep it stable: it is
	// part of the prompt cache key), are those whose definitions go to
	// the model. A deferred tool is callable but not sent until loaded.
	Turn(tc *runtime.ToolContext) (callable, sent []runtime.Tool)
}

// List is a fixed tool list, every tool callable and sent.
type List []runtime.Tool

// Turn returns l as both the callable and the sent tools.
func (l List) Turn(*runtime.ToolContext) (callable, sent []runtime.Tool) { return l, l }

// ToolsFunc adapts a function to Tools.
type ToolsFunc func(tc *runtime.ToolContext) (callable, sent []runtime.Tool)

// Turn calls f.
func (f ToolsFunc) Turn(tc *runtime.ToolContext) (callable, sent []runtime.Tool) { return f(tc) }

// Agent runs conversations. Use one Agent per conversation; Run may be
// called again to continue it with a new prompt, but not concurrently.
type Agent struct {
	cfg  Config
	tc   *runtime.ToolContext
	exec *orchestrate.Executor

	// messages is written only by the goroutine running Run, under
	// msgMu, so Messages can copy it from another goroutine (a tool
	// inspecting the conversation while the turn runs).
	msgMu    sync.Mutex
	messages []provider.Message

	// retries is the failing request's retry state (Run's goroutine).
	retries retries
	// lastUses are the last turn's tool_use blocks, for Config.Answer
	// (Run's goroutine).
	lastUses []provider.Block

	// cur is the running turn's state; the loop's goroutine only.
	cur *turnState

	// pending is the deferred turn the conversation ends with (Run's
	// goroutine).
	pending *Deferred

	// usageTokens is the conversation's size as the last response's
	// usage gave it, usageAt the number of messages it covers (under
	// msgMu); compactedFresh is set by a compaction until the next
	// response; compactFailures counts automatic compactions failed in
	// a row; lastTools are the definitions last sent (Run's goroutine).
	usageTokens     int64
	usageAt         int
	compactedFresh  bool
	compactFailures int
	lastTools       []provider.Tool

	mu          sync.Mutex
	turnCancel  context.CancelFunc
	run         *orchestrate.StreamingExecutor
	interrupted bool
}

// New returns an agent whose tools run in tc (the working directory, the
// file-state cache); tc carries context changes from turn to turn.
func New(cfg Config, tc *runtime.ToolContext) *Agent {
	a := &Agent{cfg: cfg, tc: tc, messages: slices.Clone(cfg.History), pending: cfg.Deferred}
	a.exec = &orchestrate.Executor{CanUseTool: cfg.CanUseTool, PreToolUse: cfg.PreToolUse, PostToolUse: cfg.PostToolUse, PostToolUseFailure: cfg.PostToolUseFailure,
		MaxConcurrency: cfg.MaxConcurrency, Observer: a.observe}
	return a
}

// setTools makes tools the ones calls are looked up in. Only between
// turns: no call may run.
func (a *Agent) setTools(tools []runtime.Tool) {
	a.exec.Tools = tools
}

// Messages returns a copy of the conversation so far: the messages
// complete when it is called. It is safe to call while Run runs (the
// running turn's assistant message joins once the model finished it).
func (a *Agent) Messages() []provider.Message {
	a.msgMu.Lock()
	defer a.msgMu.Unlock()
	return slices.Clone(a.messages)
}

// addMessage appends m to the conversation.
func (a *Agent) addMessage(m provider.Message) {
	a.msgMu.Lock()
	a.messages = append(a.messages, m)
	a.msgMu.Unlock()
	if a.cfg.Recorder != nil {
		a.cfg.Recorder.Add(m)
	}
}

// turnEnd tells the recorder a turn's messages are complete.
func (a *Agent) turnEnd() {
	if a.cfg.Recorder != nil {
		a.cfg.Recorder.TurnEnd()
	}
}

// ToolContext returns the context tools run in, with every change applied.
func (a *Agent) ToolContext() *runtime.ToolContext { return a.tc }

// Interrupt interrupts the current turn: the model stream stops, running
// calls whose interrupt behaviour is cancel stop, block calls finish, and
// Run returns with StopInterrupted once every call has its result. It is
// safe to call from any goroutine (a signal handler); without a running
// turn it does nothing.
func (a *Agent) Interrupt() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.turnCancel == nil || a.interrupted {
		return
	}
	a.interrupted = true
	a.turnCancel()
	if a.run != nil {
		a.run.Interrupt()
	}
}

func (a *Agent) isInterrupted() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.interrupted
}

func (a *Agent) emit(ev Event) {
	if a.cfg.Observer == nil {
		return
	}
	if ev.At.IsZero() {
		ev.At = time.Now()
	}
	a.cfg.Observer(ev)
}

// Run adds prompt as a user message and runs the loop until the model ends
// its turn, MaxTurns is reached, the user interrupts, or ctx is cancelled
// (cancelling ctx stops every call, whatever its interrupt behaviour). An
// empty prompt continues the conversation as it stands.
//
// When the conversation ends with a turn a PreToolUse hook deferred
// (Deferred), its pending calls are asked about again first: see
// resumeDeferred. Without a prompt, the model then goes on from there;
// with one, it goes on from there first, and then gets the prompt, as
// Claude Code does.
func (a *Agent) Run(ctx context.Context, prompt string) *Outcome {
	start := time.Now()
	out := &Outcome{}
	if a.pending != nil {
		stop, continued := a.resumeDeferred(ctx, prompt, out)
		switch {
		case stop:
			return a.done(out, start)
		case !continued:
			prompt = "" // it joined the results message
		case prompt != "":
			a.loop(ctx, out)
			if out.Stop != StopEndTurn {
				return a.done(out, start)
			}
			out.Stop = ""
		}
	}
	if prompt != "" {
		a.addMessage(provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(prompt)}})
	}
	a.loop(ctx, out)
	return a.done(out, start)
}

// done ends a Run: its duration, and EventDone.
func (a *Agent) done(out *Outcome, start time.Time) *Outcome {
	out.Duration = time.Since(start)
	a.emit(Event{Kind: EventDone, Turn: out.Turns, Outcome: out})
	return out
}

// loop makes model requests and runs their calls until the run is over
// (out.Stop set).
func (a *Agent) loop(ctx context.Context, out *Outcome) {
	stopActive, reactive := false, false
	if a.cfg.Answer != nil {
		a.cfg.Answer.Begin()
	}
	for {
		if a.cfg.MaxTurns > 0 && out.Turns >= a.cfg.MaxTurns {
			out.Stop = StopMaxTurns
			break
		}
		if a.autoCompact(ctx, out) {
			a.emit(Event{Kind: EventInterrupted, Turn: out.Turns})
			out.Stop = StopInterrupted
			break
		}
		out.Turns++
		done := a.turn(ctx, out)
		if done && out.Stop == StopError && !reactive && a.cfg.Context.Threshold > 0 && provider.PromptTooLong(out.Err) {
			// The API found the conversation too long for the window
			// (the estimate was short, or a result was huge): compact
			// and send the request again, once, as Claude Code does.
			reactive = true
			err := out.Err
			out.Stop, out.Err = "", nil
			ok, interrupted := a.compactInRun(ctx, out)
			if interrupted {
				a.emit(Event{Kind: EventInterrupted, Turn: out.Turns})
				out.Stop = StopInterrupted
				break
			}
			if ok {
				out.Turns--
				continue
			}
			out.Stop, out.Err = StopError, err
		}
		if done && out.Stop == StopError && a.fallBack(out) {
			out.Turns-- // the failed request is sent again, to the fallback
			out.Stop, out.Err = "", nil
			continue
		}
		a.turnEnd()
		if a.cfg.Answer != nil && out.StructuredOutput == nil && (!done || out.Stop == StopEndTurn) {
			v, err := a.cfg.Answer.Turn(a.lastUses)
			if err != nil {
				out.Stop, out.Err = StopError, err
				break
			}
			if v != nil {
				out.StructuredOutput, out.Stop, done = v, StopEndTurn, true
			}
		}
		if done && out.Stop == StopEndTurn && a.cfg.OnStop != nil {
			again, err := a.cfg.OnStop(ctx, stopActive)
			if err != nil {
				out.Stop, out.Err = StopError, err
				break
			}
			if again != "" {
				stopActive = true
				out.Stop = ""
				a.addMessage(provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(again)}})
				continue
			}
		}
		if done && out.Stop == StopEndTurn && a.cfg.Answer != nil && out.StructuredOutput == nil {
			again, err := a.cfg.Answer.Missing()
			if err != nil {
				out.Stop, out.Err = StopError, err
				break
			}
			out.Stop = ""
			a.addMessage(provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(again)}})
			continue
		}
		if done {
			break
		}
	}
}

// turn makes one model request (sending it again while it fails before
// any of its calls started) and runs its calls; it reports whether the
// run is over (out.Stop set).
func (a *Agent) turn(ctx context.Context, out *Outcome) bool {
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.lastUses = nil
	streams := a.cfg.Provider.Streams()
	a.mu.Lock()
	a.turnCancel, a.run, a.interrupted = cancel, nil, false
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.turnCancel, a.run = nil, nil
		a.mu.Unlock()
	}()

	cwd := a.tc.Cwd // no call runs yet: safe to read
	var callable, sent []runtime.Tool
	if a.cfg.Tools != nil {
		callable, sent = a.cfg.Tools.Turn(a.tc)
	}
	a.addNotices() // after Turn, which may have news of the tools
	a.setTools(callable)
	req := provider.Request{System: a.cfg.System, Messages: a.messages, Tools: provider.ToolsOf(sent), MaxTokens: a.cfg.MaxTokens, RawEvents: a.cfg.PartialMessages}
	a.lastTools = req.Tools

	var (
		s         *turnState
		final     *finalEvent
		streamErr error
		run       *orchestrate.StreamingExecutor
		began     time.Time
	)
	for {
		req.NoStream, a.retries.noStream = a.retries.noStream, false
		run = nil
		if streams {
			// The executor hangs off the session context, not the
			// turn's: a user interrupt stops only cancel-on-interrupt
			// calls.
			run = orchestrate.NewStreaming(ctx, a.exec, a.tc)
		}
		a.mu.Lock()
		a.run = run
		if a.interrupted && run != nil {
			run.Interrupt()
		}
		a.mu.Unlock()
		a.emit(Event{Kind: EventRequest, Turn: out.Turns})
		began = a.cfg.Retry.now()
		s = a.newTurn(run, out.Turns)
		final, streamErr = s.stream(turnCtx, req)
		if streamErr == nil {
			a.retried()
			break
		}
		if a.isInterrupted() || ctx.Err() != nil || (run != nil && len(s.added) > 0) {
			break // an interrupt, or calls started: handled below
		}
		// Nothing started: the attempt is dropped (its executor
		// discarded, the seed's discard mechanism) and nothing of it
		// enters the history; the same request goes again, or the run
		// ends with the error.
		if run != nil {
			run.Discard()
			run.Wait()
		}
		info, ok := a.retry(streamErr, began)
		if !ok {
			out.Stop, out.Err = StopError, streamErr
			return true
		}
		if !a.backoff(turnCtx, out.Turns, info) {
			// Interrupted while waiting: the turn ends as an interrupt
			// before anything streamed.
			s = a.newTurn(nil, out.Turns)
			final, streamErr, run = nil, nil, nil
			break
		}
	}
	interrupted := a.isInterrupted() || (ctx.Err() != nil)

	// broken is a stream that failed after some of its calls were handed
	// to the executor: they may have run (a Write, a commit), so the turn
	// is kept as far as it came, each call with its real result (the
	// calls the model finished asking for all run to their end); the
	// next request tells the model what happened and goes on from there.
	var (
		broken     error
		retryInfo  *RetryInfo
		retryAgain bool
	)
	if streamErr != nil && !interrupted {
		retryInfo, retryAgain = a.retry(streamErr, began)
		if !retryAgain && a.fallbackFor(streamErr) && s.onlyReadOnlyStarted() {
			// Only calls that changed nothing ran while a fallback model
			// takes the turn again: the turn is dropped.
			run.Discard()
			run.Wait()
			out.Stop, out.Err = StopError, streamErr
			return true
		}
		broken = streamErr
	}

	var msg provider.Message
	if final != nil && !interrupted {
		msg = final.Message
		out.Usage = out.Usage.Add(final.Usage)
		for _, b := range msg.Content {
			if b.Type == provider.TextBlock && b.Text != "" {
				out.Text = b.Text
			}
		}
		s.cutMaxTokens(&msg, final.StopReason)
	} else {
		msg = s.partial(broken != nil)
		if t := s.text.String(); t != "" {
			out.Text = t
		}
	}
	msg = sanitized(msg)
	uses := msg.ToolUses()
	a.lastUses = uses

	// Calls the stream did not announce one by one (a non-streaming
	// provider, or a final message with more blocks) run now; a call
	// whose input was cut off never runs.
	var late []orchestrate.ToolUse
	for _, b := range uses {
		if !s.added[b.ID] && !s.cut[b.ID] {
			late = append(late, orchestrate.ToolUse{ID: b.ID, Name: b.Name, Input: b.Input})
			s.queued(b)
		}
	}
	if run == nil {
		run = a.exec.Start(ctx, late, a.tc)
		a.mu.Lock()
		a.run = run
		if a.interrupted {
			run.Interrupt()
		}
		a.mu.Unlock()
	} else {
		for _, u := range late {
			_ = run.Add(u)
		}
	}
	if interrupted {
		run.Interrupt()
	}

	if len(msg.Content) > 0 {
		a.addMessage(msg)
		if final != nil {
			a.noteUsage(final.Usage)
		}
		a.emit(Event{Kind: EventAssistant, Turn: out.Turns, Message: &msg, Stop: final.stopReason(), Usage: final.usage()})
	}

	for ev := range run.Results() {
		s.handle(ev)
	}
	if a.tc.Cwd != cwd {
		a.emit(Event{Kind: EventContext, Turn: out.Turns, Text: "working directory is now " + a.tc.Cwd})
	}
	interrupted = interrupted || a.isInterrupted() || ctx.Err() != nil

	// A call a PreToolUse hook deferred ends the run here, the turn
	// without its results message until a resumed run decides.
	if !interrupted && broken == nil && slices.ContainsFunc(uses, func(b provider.Block) bool {
		return s.results[b.ID].Outcome == orchestrate.OutcomeDeferred && s.results[b.ID].Kind == orchestrate.EventResult
	}) {
		a.deferTurn(s, uses, out)
		return true
	}

	// Every tool_use gets its tool_result, in the blocks' order.
	user := provider.Message{Role: provider.User}
	for _, b := range uses {
		ev, ok := s.results[b.ID]
		var res runtime.Result
		switch {
		case ok:
			res = ev.Result
		case s.cut[b.ID]:
			res = runtime.ErrorResult(CutOffResult)
		case broken != nil && !interrupted:
			res = runtime.ErrorResult(NotRunBrokenResult)
		default:
			res = runtime.ErrorResult(NotRunInterruptedResult)
		}
		out.ToolCalls++
		if res.IsError {
			out.ToolErrors++
		}
		user.Content = append(user.Content, provider.ToolResult(b.ID, res))
	}
	if interrupted {
		user.Content = append(user.Content, provider.Text(InterruptNotice))
	} else if broken != nil {
		user.Content = append(user.Content, provider.Text(StreamBrokenNotice))
	}
	if len(user.Content) > 0 {
		a.addMessage(user)
		a.emit(Event{Kind: EventUser, Turn: out.Turns, Message: &user})
	}

	switch {
	case interrupted:
		a.emit(Event{Kind: EventInterrupted, Turn: out.Turns})
		out.Stop = StopInterrupted
		return true
	case broken != nil:
		if !retryAgain {
			out.Stop, out.Err = StopError, broken
			return true
		}
		if !a.backoff(turnCtx, out.Turns, retryInfo) {
			a.emit(Event{Kind: EventInterrupted, Turn: out.Turns})
			out.Stop = StopInterrupted
			return true
		}
		return false // the next request continues the broken response
	case len(uses) == 0:
		out.Stop = StopEndTurn
		return true
	}
	return false
}

// addNotices appends Config.Notices' texts to the last user message. The
// message is copied, not changed in place: a caller may hold the old one.
func (a *Agent) addNotices() {
	if a.cfg.Notices == nil {
		return
	}
	notes := a.cfg.Notices()
	n := len(a.messages)
	if len(notes) == 0 || n == 0 || a.messages[n-1].Role != provider.User {
		return
	}
	last := a.messages[n-1]
	last.Content = slices.Clone(last.Content)
	added := make([]provider.Block, 0, len(notes))
	for _, note := range notes {
		added = append(added, provider.Text(note))
	}
	last.Content = append(last.Content, added...)
	a.msgMu.Lock()
	a.messages[n-1] = last
	a.msgMu.Unlock()
	if a.cfg.Recorder != nil {
		a.cfg.Recorder.Amend(added)
	}
}

// turnState is the bookkeeping of one turn.
type turnState struct {
	a    *Agent
	run  *orchestrate.StreamingExecutor
	turn int

	text    strings.Builder // text of the current text block
	blocks  []provider.Block
	added   map[string]bool
	results map[string]orchestrate.Event
	// open maps the tool_use blocks still streaming to their index in
	// blocks; cut holds the calls whose input was cut off.
	open map[string]int
	cut  map[string]bool
	// uses are the tool_use blocks handed to the executor, by id.
	uses map[string]provider.Block
	// bound are the calls the executor bound, by id (EventQueued).
	bound map[string]*runtime.Invocation
}

type streamItem struct {
	ev  provider.Event
	err error
}

// finalEvent is the EventMessage of a stream.
type finalEvent provider.Event

func (f *finalEvent) stopReason() provider.StopReason {
	if f == nil {
		return ""
	}
	return f.StopReason
}

func (f *finalEvent) usage() provider.Usage {
	if f == nil {
		return provider.Usage{}
	}
	return f.Usage
}

// stream reads the response, adding finished tool_use blocks to the
// executor and passing on results that are ready meanwhile.
func (s *turnState) stream(ctx context.Context, req provider.Request) (*finalEvent, error) {
	items := make(chan streamItem)
	stop := make(chan struct{})
	go func() {
		defer close(items)
		for ev, err := range s.a.cfg.Provider.Stream(ctx, req) {
			select {
			case items <- streamItem{ev, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() {
		close(stop)
		for range items { // let the reader goroutine end
		}
	}()

	// The executor's wake-up says when results finished while the model
	// still streams are ready: no polling.
	var wake <-chan struct{}
	if s.run != nil {
		wake = s.run.Wake()
	}
	var final *finalEvent
	for {
		select {
		case <-wake:
			s.drain()
			continue
		case it, ok := <-items:
			if !ok {
				if final == nil {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					return nil, errors.New("the model's stream ended without a message")
				}
				return final, nil
			}
			if it.err != nil {
				return nil, it.err
			}
			s.apply(it.ev)
			if it.ev.Type == provider.EventMessage {
				f := finalEvent(it.ev)
				final = &f
			}
			s.drain()
		}
	}
}

// apply handles one stream event.
func (s *turnState) apply(ev provider.Event) {
	switch ev.Type {
	case provider.EventText:
		s.text.WriteString(ev.Text)
		s.a.emit(Event{Kind: EventText, Turn: s.turn, Text: ev.Text})
	case provider.EventRaw:
		s.a.emit(Event{Kind: EventStream, Turn: s.turn, Raw: ev.Raw})
	case provider.EventToolUseStart:
		s.flushText()
		if s.open == nil {
			s.open = map[string]int{}
		}
		s.open[ev.Block.ID] = len(s.blocks)
		s.blocks = append(s.blocks, ev.Block)
	case provider.EventToolUse:
		s.flushText()
		b := ev.Block
		if i, ok := s.open[b.ID]; ok {
			delete(s.open, b.ID)
			s.blocks[i] = b
		} else {
			s.blocks = append(s.blocks, b)
		}
		if cutOff(b) {
			s.markCut(b.ID)
			return
		}
		if s.run != nil && !s.added[b.ID] {
			s.queued(b)
			_ = s.run.Add(orchestrate.ToolUse{ID: b.ID, Name: b.Name, Input: b.Input})
		}
	}
}

// cutOff reports whether b's input JSON is incomplete: the response broke
// off, or hit max_tokens, inside the block. The provider says so
// (Block.Incomplete); input that is not JSON is taken as cut off too.
func cutOff(b provider.Block) bool {
	return b.Incomplete || (len(b.Input) > 0 && !json.Valid(b.Input))
}

func (s *turnState) markCut(id string) {
	if s.cut == nil {
		s.cut = map[string]bool{}
	}
	s.cut[id] = true
}

// cutMaxTokens marks the calls of the final message m that were not
// handed to the executor and whose input is incomplete: invalid JSON, or
// the last block of a response that hit max_tokens.
func (s *turnState) cutMaxTokens(m *provider.Message, stop provider.StopReason) {
	for i, b := range m.Content {
		if b.Type != provider.ToolUseBlock || s.added[b.ID] {
			continue
		}
		if cutOff(b) || (stop == provider.StopMaxTokens && i == len(m.Content)-1) {
			s.markCut(b.ID)
		}
	}
}

// sanitized returns m with each tool_use whose input is not JSON given
// the empty object instead (the API and the transcript need JSON; its
// result says the input was cut off).
func sanitized(m provider.Message) provider.Message {
	cloned := false
	for i, b := range m.Content {
		if b.Type == provider.ToolUseBlock && (len(b.Input) == 0 || !json.Valid(b.Input)) {
			if !cloned { // the caller may hold the blocks
				m.Content, cloned = slices.Clone(m.Content), true
			}
			m.Content[i].Input = json.RawMessage(`{}`)
		}
	}
	return m
}

// onlyReadOnlyStarted reports whether every call handed to the executor
// changes nothing, so that sending the turn again cannot repeat a change.
func (s *turnState) onlyReadOnlyStarted() bool {
	for _, b := range s.blocks {
		if b.Type != provider.ToolUseBlock || !s.added[b.ID] {
			continue
		}
		inv := s.bound[b.ID]
		if inv == nil {
			continue // an unknown tool, or an input that does not decode, ran nothing
		}
		if !inv.ReadOnly {
			return false
		}
	}
	return true
}

// queued records that b is handed to the executor (which then binds it
// and reports it, EventQueued).
func (s *turnState) queued(b provider.Block) {
	if s.added == nil {
		s.added = map[string]bool{}
		s.uses = map[string]provider.Block{}
	}
	s.added[b.ID] = true
	s.uses[b.ID] = b
}

func (s *turnState) flushText() {
	if s.text.Len() > 0 {
		s.blocks = append(s.blocks, provider.Text(s.text.String()))
		s.text.Reset()
	}
}

// partial is the message as far as it streamed: text so far and the
// tool_use blocks that finished. A tool_use still streaming when the
// response broke off is kept, cut (its result says so), when keepCut is
// set, and dropped otherwise (an interrupt: it never ran).
func (s *turnState) partial(keepCut bool) provider.Message {
	s.flushText()
	blocks := s.blocks
	if len(s.open) > 0 {
		blocks = nil
		for i, b := range s.blocks {
			if idx, ok := s.open[b.ID]; ok && b.Type == provider.ToolUseBlock && idx == i {
				if !keepCut {
					continue
				}
				s.markCut(b.ID)
				b.Input = json.RawMessage(`{}`)
			}
			blocks = append(blocks, b)
		}
	}
	return provider.Message{Role: provider.Assistant, Content: blocks}
}

// drain passes on what the executor has ready.
func (s *turnState) drain() {
	if s.run == nil {
		return
	}
	for ev := range s.run.Ready() {
		s.handle(ev)
	}
}

func (s *turnState) handle(ev orchestrate.Event) {
	if ev.Kind != orchestrate.EventResult {
		return // progress goes to the Observer
	}
	if ev.Outcome == orchestrate.OutcomeDeferred {
		s.results[ev.ID] = ev // not for the model: the turn stops here
		return
	}
	if lr := s.a.cfg.LargeResults; lr != nil {
		ev.Result = lr.apply(ev)
	}
	s.results[ev.ID] = ev
	if rr, ok := s.a.cfg.Recorder.(ResultRecorder); ok {
		if use, ok := s.uses[ev.ID]; ok {
			rr.ToolResult(sanitized(provider.Message{Content: []provider.Block{use}}).Content[0], provider.ToolResult(ev.ID, ev.Result))
		}
	}
	s.a.emit(Event{Kind: EventToolResult, Turn: s.turn, ID: ev.ID, Name: ev.Name, Tool: ev.Tool, Input: ev.Input, Invocation: ev.Invocation, Call: &ev})
}

// newTurn is the state of turn, whose calls run (when the model streams)
// in run.
func (a *Agent) newTurn(run *orchestrate.StreamingExecutor, turn int) *turnState {
	s := &turnState{a: a, run: run, turn: turn, results: map[string]orchestrate.Event{}, bound: map[string]*runtime.Invocation{}}
	a.cur = s
	return s
}

// observe is the executor's Observer: it reports each call's life as
// agent events, as it happens. A call is queued on the loop's goroutine
// (Add and Start run there), so the turn's state is the loop's to
// change; start, progress and end come from the calls' goroutines.
func (a *Agent) observe(ev orchestrate.Event) {
	switch ev.Kind {
	case orchestrate.EventQueued:
		turn := 0
		if s := a.cur; s != nil {
			turn = s.turn
			if ev.Invocation != nil {
				s.bound[ev.ID] = ev.Invocation
			}
		}
		a.emit(Event{Kind: EventToolQueued, Turn: turn, ID: ev.ID, Name: ev.Name, Tool: ev.Tool,
			RawInput: ev.Raw, Input: ev.Input, Invocation: ev.Invocation})
	case orchestrate.EventStart:
		a.emit(Event{Kind: EventToolStart, ID: ev.ID, Name: toolName(ev), Tool: ev.Tool, Input: ev.Input, Invocation: ev.Invocation})
	case orchestrate.EventProgress:
		if sub, ok := ev.Progress.(Event); ok && sub.ParentToolUseID != "" {
			a.emit(sub) // a sub-agent's event, shown as its own
			return
		}
		a.emit(Event{Kind: EventToolProgress, ID: ev.ID, Name: toolName(ev), Tool: ev.Tool, Input: ev.Input, Invocation: ev.Invocation, Progress: ev.Progress})
	case orchestrate.EventEnd:
		a.emit(Event{Kind: EventToolEnd, ID: ev.ID, Name: toolName(ev), Tool: ev.Tool, Input: ev.Input, Invocation: ev.Invocation})
	}
}

// toolName is the canonical name of ev's tool (the name the model used
// when it has none).
func toolName(ev orchestrate.Event) string {
	if ev.Invocation != nil {
		return ev.Invocation.ToolName
	}
	return ev.Name
}
