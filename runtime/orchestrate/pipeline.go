package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
)

// prepared is a call after the part of the pipeline that runs when it is
// added: lookup, decode, and binding (runtime.Invocation).
type prepared struct {
	use ToolUse
	// tool is the tool the name resolved to; nil when unknown.
	tool runtime.Tool
	// inv is the call bound once, when the input decoded (bound).
	// Readers may hold &inv, so it never changes: an input a hook or an
	// approver replaces, or a read-only answer that ValidateInput changed,
	// gets its own Invocation, replaced.
	inv      runtime.Invocation
	bound    bool
	replaced *runtime.Invocation
	// safe and interrupt steer scheduling: the bound answers for the
	// model's input, kept when a hook or an approver replaces it.
	safe      bool
	interrupt runtime.InterruptBehavior
	// cancelsSiblings is the tool's CancelsSiblingsOnError trait.
	cancelsSiblings bool
	// early, when set, is the call's final failure, known before it runs
	// (unknown tool, invalid input).
	early *outcome
}

// invocation is the bound call, or nil when its input never decoded.
func (p *prepared) invocation() *runtime.Invocation {
	switch {
	case p.replaced != nil:
		return p.replaced
	case !p.bound:
		return nil
	}
	return &p.inv
}

// input is the decoded input, or nil.
func (p *prepared) input() any {
	if inv := p.invocation(); inv != nil {
		return inv.Input
	}
	return nil
}

// outcome is the end of one call, before it becomes an Event.
type outcome struct {
	res      runtime.Result
	kind     Outcome
	err      error
	modifier runtime.ContextModifier
}

func failure(kind Outcome, err error) *outcome {
	return &outcome{res: runtime.ErrorResult(err.Error()), kind: kind, err: err}
}

// prepare looks the tool up, decodes the input and binds the call, into
// p (zero on entry: the caller's storage, so the large struct is never
// copied). A call whose tool is unknown, whose input is invalid, or whose
// IsConcurrencySafe panics is unsafe; the first two fail at once.
func (e *Executor) prepare(p *prepared, use ToolUse) {
	p.use = use
	p.interrupt = runtime.InterruptBlock
	tool, err := lookup(e.Tools, use.Name)
	if err != nil {
		p.early = failure(OutcomePanic, err)
		return
	}
	if tool == nil {
		p.early = failure(OutcomeUnknownTool, unknownToolError(e.Tools, use.Name))
		return
	}
	p.tool = tool
	raw, input, err := decode(tool, use)
	if err != nil {
		p.early = failure(OutcomeInvalidInput, err)
		return
	}
	inv := &p.inv
	inv.ID, inv.Name, inv.Raw, inv.Tool, inv.Input = use.ID, use.Name, raw, tool, input
	inv.Bind()
	p.bound = true
	p.safe, p.interrupt = inv.ConcurrencySafe, inv.Interrupt
	p.cancelsSiblings = inv.Traits.CancelsSiblingsOnError
}

// lookup is runtime.Lookup with a panicking Name or Aliases turned into an
// error.
func lookup(tools []runtime.Tool, name string) (runtime.Tool, error) {
	t, err := runtime.Guard("Name/Aliases (tool lookup)", func() runtime.Tool { return runtime.Lookup(tools, name) })
	var crash *runtime.Panic
	if errors.As(err, &crash) {
		return nil, panicError(name, crash)
	}
	return t, nil
}

// panicError is the PanicError of tool for a panic runtime.Try or
// runtime.Guard caught.
func panicError(tool string, crash *runtime.Panic) *PanicError {
	return &PanicError{Tool: tool, Method: crash.What, Value: crash.Value}
}

// decode decodes use's input with tool; raw is the input decoded ("{}"
// for none).
func decode(tool runtime.Tool, use ToolUse) (raw json.RawMessage, input any, err error) {
	raw = use.Input
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	var crash *runtime.Panic
	if errors.As(runtime.Try("Decode", func() { input, err = tool.Decode(raw) }), &crash) {
		return raw, nil, fmt.Errorf("InputValidationError: %s failed: the input could not be decoded (panic: %v)", use.Name, crash.Value)
	}
	if err != nil {
		return raw, nil, fmt.Errorf("InputValidationError: %s failed due to the following issue: %w", use.Name, err)
	}
	return raw, input, nil
}

// describe is the short description of a call used in sibling-error
// messages: Name(summary), the summary the call's render line cut at 40
// runes.
func (p *prepared) describe() (desc string) {
	name := p.use.Name
	summary := ""
	if inv := p.invocation(); inv != nil {
		name, summary = inv.ToolName, inv.Use
	}
	if summary == "" {
		return name
	}
	if utf8.RuneCountInString(summary) > 40 {
		r := []rune(summary)
		summary = string(r[:40]) + "…"
	}
	return name + "(" + summary + ")"
}

// execute runs the rest of the pipeline for one prepared call: ValidateInput
// → permission → Call, in ctx (the call's own context). It always returns
// exactly one outcome; no panic escapes. A successful outcome is written to
// *ok (storage the caller owns, sparing an allocation) and returned.
func (e *Executor) execute(ctx context.Context, p *prepared, call *runtime.Call, ok *outcome) *outcome {
	if p.early != nil {
		return p.early
	}
	if err := context.Cause(ctx); err != nil {
		return cancelled(p, err)
	}
	tc := call.Context
	if err := validate(ctx, p, tc); err != nil {
		return err
	}
	pctx := ctx
	var extra []string
	if e.PreToolUse != nil {
		h, o := e.preToolUse(ctx, p, tc)
		if o != nil {
			return o
		}
		extra = h.Context
		if h.Behavior == runtime.Allow || h.Behavior == runtime.Ask {
			pctx = runtime.WithHookDecision(ctx, runtime.PermissionDecision{Behavior: h.Behavior, Message: h.Message})
		}
	}
	if o := e.permit(pctx, p, tc); o != nil {
		return o
	}
	if err := context.Cause(ctx); err != nil {
		return cancelled(p, err)
	}
	if e.Observer != nil {
		e.observe(p, EventStart)
	}
	began := time.Now()
	res, err, panicked := invoke(ctx, p, call)
	ran := time.Since(began)
	if e.Observer != nil {
		e.observe(p, EventEnd)
	}
	if cause := context.Cause(ctx); cause != nil {
		// Cancelled while running: whatever Call returned is superseded.
		return e.failed(ctx, p, tc, cancelled(p, cause), ran)
	}
	switch {
	case panicked:
		return e.failed(ctx, p, tc, failure(OutcomePanic, err), ran)
	case err != nil:
		// What the tool registered before failing still happened (Bash's
		// `cd x && false` moved the shell), so its modifiers apply.
		o := failure(OutcomeToolError, err)
		o.modifier = call.Modifier()
		return e.failed(ctx, p, tc, o, ran)
	}
	if len(res.Content) == 0 && res.IsError {
		res.Content = []runtime.Block{runtime.TextBlock("Error: " + p.use.Name + " failed without a message")}
	}
	if e.PostToolUse != nil {
		hctx := context.WithValue(ctx, ranKey{}, ran)
		post, crash := runtime.Guard("PostToolUse", func() PostToolUseResult { return e.PostToolUse(hctx, p.invocation(), res, tc) })
		if crash != nil {
			post.Context = append(post.Context, fmt.Sprintf("PostToolUse hook failed: %v", crash))
		}
		if post.Content != nil {
			res.Content = post.Content
		}
		extra = append(extra, post.Context...)
	}
	res.Content = appendContext(res.Content, extra)
	mod := combine(call.Modifier(), res.Modifier)
	res.Modifier = nil
	*ok = outcome{res: res, kind: OutcomeOK, modifier: mod}
	return ok
}

// ranKey is the context key of how long a call ran (Ran).
type ranKey struct{}

// Ran is how long the call a PostToolUseFunc is called for ran: its
// Call, without the hooks and the permission check (Claude Code's
// duration_ms); ok is false outside a PostToolUseFunc.
func Ran(ctx context.Context) (d time.Duration, ok bool) {
	d, ok = ctx.Value(ranKey{}).(time.Duration)
	return d, ok
}

// failed runs the PostToolUseFailure hook of a call that ran and ended
// in o, and returns o with the hook's context added to its result. A
// sibling's error or a discarded stream is no failure of the call's own.
func (e *Executor) failed(ctx context.Context, p *prepared, tc *runtime.ToolContext, o *outcome, ran time.Duration) *outcome {
	if e.PostToolUseFailure == nil || o.kind == OutcomeSiblingError || o.kind == OutcomeDiscarded {
		return o
	}
	f := Failure{Err: o.err, Interrupted: o.kind == OutcomeInterrupted, Duration: ran}
	if f.Interrupted {
		f.Err = errors.New(InterruptMessage)
	}
	// The hooks run to their end even when the call was cancelled: they
	// are bounded by their own timeouts.
	hctx := context.WithoutCancel(ctx)
	post, crash := runtime.Guard("PostToolUseFailure", func() PostToolUseResult { return e.PostToolUseFailure(hctx, p.invocation(), f, tc) })
	if crash != nil {
		post.Context = append(post.Context, fmt.Sprintf("PostToolUseFailure hook failed: %v", crash))
	}
	o.res.Content = appendContext(o.res.Content, post.Context)
	return o
}

// preToolUse runs the PreToolUse hook of a call: a deny rejects it, an
// updated input replaces p.input once it decodes and validates.
func (e *Executor) preToolUse(ctx context.Context, p *prepared, tc *runtime.ToolContext) (PreToolUseResult, *outcome) {
	h, err := runtime.Guard("PreToolUse", func() PreToolUseResult { return e.PreToolUse(ctx, p.invocation(), tc) })
	var crash *runtime.Panic
	if errors.As(err, &crash) {
		return h, failure(OutcomeRejected, fmt.Errorf("%s was blocked: its PreToolUse hook failed (panic: %v)", p.use.Name, crash.Value))
	}
	if h.Behavior == runtime.Deny {
		msg := h.Message
		if msg == "" {
			msg = fmt.Sprintf("%s was blocked by a PreToolUse hook.", p.use.Name)
		}
		return h, failure(OutcomeRejected, errors.New(msg))
	}
	if h.Defer {
		msg := fmt.Sprintf("%s was deferred by a PreToolUse hook: it did not run", p.use.Name)
		if h.Message != "" {
			msg += " (" + h.Message + ")"
		}
		return h, failure(OutcomeDeferred, errors.New(msg))
	}
	if len(h.UpdatedInput) > 0 {
		return h, e.replaceInput(ctx, p, h.UpdatedInput, tc,
			fmt.Sprintf("a PreToolUse hook rewrote the input of %s, and the new input", p.use.Name))
	}
	return h, nil
}

// observe tells the Observer of a step of p's life; a panicking Observer
// is ignored.
func (e *Executor) observe(p *prepared, kind EventKind) {
	ev := Event{Kind: kind, ID: p.use.ID, Name: p.use.Name, Raw: p.use.Input, Tool: p.tool, Input: p.input(), Invocation: p.invocation()}
	_ = runtime.Try("Observer", func() { e.Observer(ev) })
}

// appendContext adds texts for the model to a result's content.
func appendContext(content []runtime.Block, texts []string) []runtime.Block {
	for _, t := range texts {
		if t != "" {
			content = append(content, runtime.TextBlock(t))
		}
	}
	return content
}

func validate(ctx context.Context, p *prepared, tc *runtime.ToolContext) *outcome {
	var err error
	var crash *runtime.Panic
	if errors.As(runtime.Try("ValidateInput", func() { err = p.tool.ValidateInput(ctx, p.input(), tc) }), &crash) {
		return failure(OutcomePanic, panicError(p.use.Name, crash))
	}
	if err != nil {
		return failure(OutcomeInvalidInput, err)
	}
	// A tool may judge read-only on what its ValidateInput worked out
	// (REPL: its inner calls), so that one answer is asked again now. A
	// bound call never changes (the agent and the listeners hold it), so a
	// new answer goes into a copy that the later steps see.
	if inv := p.invocation(); inv != nil {
		ro, gerr := runtime.Guard("IsReadOnly", func() bool { return p.tool.IsReadOnly(p.input()) })
		if ro = ro && gerr == nil; ro != inv.ReadOnly {
			again := *inv
			again.ReadOnly = ro
			p.replaced = &again
		}
	}
	return nil
}

func (e *Executor) permit(ctx context.Context, p *prepared, tc *runtime.ToolContext) *outcome {
	can := e.CanUseTool
	if can == nil {
		return nil
	}
	ctx = runtime.WithToolUseID(ctx, p.use.ID)
	d, err := runtime.Guard("CanUseTool", func() runtime.PermissionDecision { return can(ctx, p.invocation(), tc) })
	var crash *runtime.Panic
	if errors.As(err, &crash) {
		return failure(OutcomeRejected, fmt.Errorf("Permission to use %s was denied: the permission check failed (panic: %v)", p.use.Name, crash.Value))
	}
	if d.Behavior == runtime.Allow {
		if d.UpdatedInput != nil {
			return e.replaceInput(ctx, p, d.UpdatedInput, tc, "the input the call was approved with")
		}
		return nil
	}
	msg := d.Message
	if msg == "" {
		switch d.Behavior {
		case runtime.Deny:
			msg = fmt.Sprintf("Permission to use %s has been denied.", p.use.Name)
		default:
			msg = fmt.Sprintf("Permission to use %s was not granted: it needs approval and nobody approved it.", p.use.Name)
		}
	}
	return failure(OutcomeRejected, errors.New(msg))
}

// replaceInput makes raw, the input an approver or a hook changed the
// call to, the call's input: decoded and validated as the model's was.
// what names the new input in the error ("the input the call was
// approved with").
func (e *Executor) replaceInput(ctx context.Context, p *prepared, raw []byte, tc *runtime.ToolContext, what string) *outcome {
	use := p.use
	use.Input = raw
	raw, input, err := decode(p.tool, use)
	if err != nil {
		return failure(OutcomeInvalidInput, fmt.Errorf("%s is invalid: %w", what, err))
	}
	p.use = use
	inv := &runtime.Invocation{ID: use.ID, Name: use.Name, Raw: raw, Tool: p.tool, Input: input}
	inv.Bind()
	p.replaced = inv
	return validate(ctx, p, tc)
}

func invoke(ctx context.Context, p *prepared, call *runtime.Call) (res runtime.Result, err error, panicked bool) {
	var crash *runtime.Panic
	if errors.As(runtime.Try("Call", func() { res, err = p.tool.Call(ctx, p.input(), call) }), &crash) {
		return runtime.Result{}, panicError(p.use.Name, crash), true
	}
	return res, err, false
}

// cancelled is the outcome of a call stopped by its context, by cause.
func cancelled(p *prepared, cause error) *outcome {
	var sib *SiblingError
	var to *TimeoutError
	switch {
	case errors.As(cause, &sib):
		return failure(OutcomeSiblingError, sib)
	case errors.As(cause, &to):
		return failure(OutcomeTimeout, to)
	case errors.Is(cause, ErrInterrupted):
		o := failure(OutcomeInterrupted, ErrInterrupted)
		o.res = runtime.ErrorResult(InterruptMessage)
		return o
	case errors.Is(cause, ErrDiscarded):
		o := failure(OutcomeDiscarded, ErrDiscarded)
		o.res = runtime.ErrorResult("Error: Streaming fallback - tool execution discarded")
		return o
	default:
		err := fmt.Errorf("Cancelled: the %s call was aborted before it finished (%v)", p.use.Name, cause)
		return failure(OutcomeCancelled, err)
	}
}

// InterruptMessage is the result text of a call the user interrupted.
const InterruptMessage = "[Request interrupted by user for tool use]"

// combine chains two modifiers; either may be nil.
func combine(a, b runtime.ContextModifier) runtime.ContextModifier {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(tc *runtime.ToolContext) { a(tc); b(tc) }
}

// applyModifier runs m on tc; a panicking modifier is dropped.
func applyModifier(m runtime.ContextModifier, tc *runtime.ToolContext) {
	if m == nil {
		return
	}
	_ = runtime.Try("context modifier", func() { m(tc) })
}
