package agent

import (
	"context"
	"slices"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
)

// ContinueNotice is the text a resumed run adds after the results of the
// calls a PreToolUse hook had deferred, when it was given no prompt: the
// model goes on from where it stopped (Claude Code's words).
const ContinueNotice = "Continue from where you left off."

// DeferredNotRunResult answers a deferred call that its hooks deferred
// again when the run was resumed with a new prompt: the conversation goes
// on with the prompt, without the call.
const DeferredNotRunResult = "Error: the call was not run: a PreToolUse hook deferred it, and the conversation went on with a new prompt instead"

// Deferred is a turn that ended because a PreToolUse hook deferred some
// of its calls (Claude Code's permissionDecision "defer" in -p): the
// assistant message holding Uses is the last of the conversation, without
// its tool_result message, until a resumed run asks the hooks again.
type Deferred struct {
	// Uses are the turn's tool_use blocks, in the model's order.
	Uses []provider.Block
	// Results are the tool_result blocks of the calls that have one (the
	// deferred calls' siblings, which ran), by tool_use id.
	Results map[string]provider.Block
}

// Pending are the uses without a result: the deferred calls.
func (d *Deferred) Pending() []provider.Block {
	var out []provider.Block
	for _, u := range d.Uses {
		if _, ok := d.Results[u.ID]; !ok {
			out = append(out, u)
		}
	}
	return out
}

// DeferRecorder is a Recorder that keeps deferred calls, so a resumed
// conversation leaves them open instead of answering them as
// interrupted (a *transcript.Writer is one).
type DeferRecorder interface {
	Recorder
	// Deferred is told of a call of the last assistant message that a
	// hook deferred; its siblings' results were told to ToolResult.
	Deferred(use provider.Block)
}

// Deferred returns the deferred turn the conversation ends with, nil when
// it ends otherwise. Not while Run runs.
func (a *Agent) Deferred() *Deferred { return a.pending }

// deferTurn ends a turn some of whose calls a hook deferred: the others'
// results are kept (and recorded), the deferred calls are recorded as
// such, no results message joins the conversation, and out says which
// call was deferred (the last, as Claude Code reports it).
func (a *Agent) deferTurn(s *turnState, uses []provider.Block, out *Outcome) {
	d := &Deferred{Uses: uses, Results: map[string]provider.Block{}}
	rr, _ := a.cfg.Recorder.(ResultRecorder)
	var last provider.Block
	for _, b := range uses {
		ev, ok := s.results[b.ID]
		if ok && ev.Outcome == orchestrate.OutcomeDeferred {
			last = b
			if dr, ok := a.cfg.Recorder.(DeferRecorder); ok {
				dr.Deferred(sanitized(provider.Message{Content: []provider.Block{b}}).Content[0])
			}
			continue
		}
		var res runtime.Result
		switch {
		case ok:
			res = ev.Result
		case s.cut[b.ID]:
			res = runtime.ErrorResult(CutOffResult)
		default:
			res = runtime.ErrorResult(NotRunInterruptedResult)
		}
		if !ok && rr != nil {
			rr.ToolResult(b, provider.ToolResult(b.ID, res))
		}
		out.ToolCalls++
		if res.IsError {
			out.ToolErrors++
		}
		d.Results[b.ID] = provider.ToolResult(b.ID, res)
	}
	a.pending = d
	out.Stop, out.Deferred, out.Text = StopDeferred, &last, ""
}

// resumeDeferred answers the deferred turn the conversation ends with:
// its pending calls go through the pipeline again (hooks, permission,
// Call) and, unless a hook defers one again, the turn's results message
// joins the conversation, the pending calls' results beside their
// siblings', in the calls' order, followed by ContinueNotice (no prompt)
// or the prompt. deferred reports a call deferred again: without a
// prompt the run ends there (out says so); with one, the call is answered
// with DeferredNotRunResult and the prompt goes on. continued reports
// that ContinueNotice was added: the caller runs the model on it before
// the prompt.
func (a *Agent) resumeDeferred(ctx context.Context, prompt string, out *Outcome) (stop, continued bool) {
	d := a.pending
	pending := d.Pending()
	if a.cfg.Tools != nil {
		callable, _ := a.cfg.Tools.Turn(a.tc)
		a.setTools(callable)
	}
	calls := make([]orchestrate.ToolUse, len(pending))
	s := a.newTurn(nil, out.Turns)
	for i, b := range pending {
		calls[i] = orchestrate.ToolUse{ID: b.ID, Name: b.Name, Input: b.Input}
		s.queued(b)
	}
	// The calls run as a turn's do: Interrupt stops them.
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	run := a.exec.Start(ctx, calls, a.tc)
	a.mu.Lock()
	a.turnCancel, a.run, a.interrupted = cancel, run, false
	a.mu.Unlock()
	for ev := range run.Results() {
		s.handle(ev)
	}
	a.mu.Lock()
	a.turnCancel, a.run = nil, nil
	a.mu.Unlock()
	if a.isInterrupted() || turnCtx.Err() != nil {
		// Interrupted: the turn is closed as an interrupted one is.
		user := provider.Message{Role: provider.User}
		for _, b := range d.Uses {
			r, ok := d.Results[b.ID]
			if !ok {
				res := runtime.ErrorResult(NotRunInterruptedResult)
				if ev, ran := s.results[b.ID]; ran && ev.Outcome != orchestrate.OutcomeDeferred {
					res = ev.Result
				}
				r = provider.ToolResult(b.ID, res)
			}
			user.Content = append(user.Content, r)
		}
		user.Content = append(user.Content, provider.Text(InterruptNotice))
		a.pending = nil
		a.addMessage(user)
		a.emit(Event{Kind: EventUser, Turn: out.Turns, Message: &user})
		a.turnEnd()
		a.emit(Event{Kind: EventInterrupted, Turn: out.Turns})
		out.Stop = StopInterrupted
		return true, false
	}

	var again []provider.Block
	for _, b := range pending {
		if ev, ok := s.results[b.ID]; ok && ev.Outcome == orchestrate.OutcomeDeferred {
			again = append(again, b)
		}
	}
	if len(again) > 0 && prompt == "" {
		// Deferred again: the turn stays open, the siblings' results and
		// the calls that ran now kept for the next resume.
		for _, b := range pending {
			if ev, ok := s.results[b.ID]; ok && ev.Outcome != orchestrate.OutcomeDeferred {
				d.Results[b.ID] = provider.ToolResult(b.ID, ev.Result)
			}
		}
		for _, b := range again {
			if dr, ok := a.cfg.Recorder.(DeferRecorder); ok {
				dr.Deferred(b)
			}
		}
		last := again[len(again)-1]
		out.Stop, out.Deferred, out.DeferredAgain = StopDeferred, &last, true
		return true, false
	}
	user := provider.Message{Role: provider.User}
	for _, b := range d.Uses {
		r, ok := d.Results[b.ID]
		if !ok {
			res := runtime.ErrorResult(DeferredNotRunResult)
			if ev, ran := s.results[b.ID]; ran && ev.Outcome != orchestrate.OutcomeDeferred {
				res = ev.Result
			}
			r = provider.ToolResult(b.ID, res)
			out.ToolCalls++
			if res.IsError {
				out.ToolErrors++
			}
		}
		user.Content = append(user.Content, r)
	}
	continued = len(again) == 0
	if continued {
		user.Content = append(user.Content, provider.Text(ContinueNotice))
	} else {
		user.Content = append(user.Content, provider.Text(prompt))
	}
	a.pending = nil
	a.lastUses = slices.Clone(d.Uses)
	a.addMessage(user)
	a.emit(Event{Kind: EventUser, Turn: out.Turns, Message: &user})
	a.turnEnd()
	return false, continued
}
