package orchestrate

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime"
)

// StreamingExecutor runs the calls of one assistant message as they are
// added, in one sibling group. Make one with NewStreaming (streaming path)
// or Executor.Start (batch path). Add, Close, Interrupt and Discard may be
// called from any goroutine; the result streams (Ready, Results) are meant
// for one consumer.
type StreamingExecutor struct {
	e     *Executor
	tc    *runtime.ToolContext
	limit int
	// siblingCancel enables sibling cancellation by tools that declare
	// CancelsSiblingsOnError (streaming path only).
	siblingCancel bool

	turnCtx     context.Context
	turnCancel  context.CancelCauseFunc
	groupCtx    context.Context
	groupCancel context.CancelCauseFunc
	// intrCtx is the leaf shared by the calls an interrupt cancels.
	intrCtx    context.Context
	intrCancel context.CancelCauseFunc

	mu          sync.Mutex
	calls       []*tracked
	qhead       int // index of the first call that may still be queued
	next        int // index of the next result to yield
	executing   int
	execUnsafe  int
	pending     []*tracked // completed calls whose modifiers await a flush
	progress    []Event
	closed      bool
	discarded   bool
	interrupted bool
	sibling     *SiblingError
	lastBatch   int
	lastSafe    bool
	epoch       time.Time

	wake   chan struct{}
	wg     sync.WaitGroup
	starts []*tracked // calls schedule moved to executing, to hand to goroutines
}

// tracked is one call in a StreamingExecutor.
type tracked struct {
	prepared
	idx    int
	batch  int
	state  State
	states []StateChange
	ctx    context.Context
	cancel context.CancelFunc // nil unless the call has its own context
	out    *outcome
	okOut  outcome // storage of a successful outcome
	// abandoned is set when the run gave up waiting for Call; stopWatch
	// stops the AbandonAfter watch.
	abandoned bool
	stopWatch func()
	start     time.Time
	end       time.Time
	buf       [4]StateChange // backing of states for the usual four
}

// NewStreaming starts an empty streaming run: the calls of one assistant
// message, added with Add as their tool_use blocks finish streaming. ctx is
// the session (or turn) context: cancelling it stops every call. Calls read
// tc, and context modifiers change it in place, one at a time, never while
// a call runs.
func NewStreaming(ctx context.Context, e *Executor, tc *runtime.ToolContext) *StreamingExecutor {
	s := newRun(ctx, e, tc)
	s.siblingCancel = true
	return s
}

// Start runs calls on the batch path and returns the run, already closed,
// so the caller can Interrupt or Discard it while reading Results.
// RunTools(ctx, calls, tc) is Start(ctx, calls, tc).Results() plus
// clean-up when the reader stops early.
func (e *Executor) Start(ctx context.Context, calls []ToolUse, tc *runtime.ToolContext) *StreamingExecutor {
	s := newRun(ctx, e, tc)
	ts := make([]tracked, len(calls)) // one allocation for the whole batch
	for i, c := range calls {
		e.prepare(&ts[i].prepared, c)
		if e.Observer != nil {
			e.observe(&ts[i].prepared, EventQueued)
		}
	}
	now := time.Now()
	s.mu.Lock()
	s.calls = make([]*tracked, 0, len(calls))
	for i := range ts {
		s.push(&ts[i], now)
	}
	s.closed = true
	s.schedule()
	s.spawn()
	s.mu.Unlock()
	return s
}

func newRun(ctx context.Context, e *Executor, tc *runtime.ToolContext) *StreamingExecutor {
	if tc == nil {
		tc = &runtime.ToolContext{FileState: runtime.NewFileStateCache()}
	}
	s := &StreamingExecutor{e: e, tc: tc, limit: e.maxConcurrency(), wake: make(chan struct{}, 1)}
	s.turnCtx, s.turnCancel = context.WithCancelCause(ctx)
	s.groupCtx, s.groupCancel = context.WithCancelCause(s.turnCtx)
	s.intrCtx, s.intrCancel = context.WithCancelCause(s.groupCtx)
	return s
}

// Add queues one call and starts it at once when it may run: nothing is
// executing, or it and everything executing are concurrency-safe (and the
// cap is not reached). A queued unsafe call holds back every call added
// after it. Add returns ErrClosed after Close, Results or Discard.
func (s *StreamingExecutor) Add(use ToolUse) error {
	c := &tracked{}
	s.e.prepare(&c.prepared, use)
	if s.e.Observer != nil {
		s.e.observe(&c.prepared, EventQueued)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.discarded {
		return ErrClosed
	}
	s.push(c, time.Now())
	s.schedule()
	s.spawn()
	s.notify()
	return nil
}

// push appends a prepared call in the queued state. Callers hold s.mu.
func (s *StreamingExecutor) push(c *tracked, now time.Time) {
	if s.epoch.IsZero() {
		s.epoch = now
	}
	c.idx, c.state = len(s.calls), StateQueued
	c.states = append(c.buf[:0], StateChange{StateQueued, now})
	if !(c.safe && s.lastSafe && len(s.calls) > 0) {
		s.lastBatch++
	}
	c.batch, s.lastSafe = s.lastBatch, c.safe
	s.calls = append(s.calls, c)
}

// Close says no more calls will be added. Results closes too.
func (s *StreamingExecutor) Close() {
	s.mu.Lock()
	s.closed = true
	s.schedule() // releases the run's contexts when nothing is left to run
	s.spawn()
	s.mu.Unlock()
	s.notify()
}

// Interrupt is the user's interrupt: running calls whose tool's interrupt
// behaviour is cancel are cancelled (their results say so), block calls
// finish, and queued or later-added calls never start. Every call still
// yields exactly one result.
func (s *StreamingExecutor) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interrupted {
		return
	}
	s.interrupted = true
	s.intrCancel(ErrInterrupted)
	s.schedule()
	s.spawn()
	s.notify()
}

// Discard drops the run (the model fell back; the turn is redone): nothing
// not yet yielded is ever yielded, queued calls never start, running
// cancel-on-interrupt calls are cancelled and block calls finish unseen.
// Results and Ready return at once afterwards; Wait waits for the running
// calls to end.
func (s *StreamingExecutor) Discard() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.discarded {
		return
	}
	s.discarded, s.closed = true, true
	s.intrCancel(ErrDiscarded)
	now := time.Now()
	for _, c := range s.calls[s.next:] {
		c.states = append(c.states, StateChange{StateDiscarded, now})
	}
	s.progress = nil
	s.schedule()
	s.spawn()
	s.notify()
}

// Wait blocks until every started call has ended.
func (s *StreamingExecutor) Wait() { s.wg.Wait() }

// Ready yields what is ready now without waiting: progress first, then the
// results whose turn has come, in Add order. The agent loop drains it while
// the model is still streaming.
func (s *StreamingExecutor) Ready() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for {
			ev, ok, _ := s.take()
			if !ok || !yield(ev) {
				return
			}
		}
	}
}

// Results closes the run and yields everything still to come: progress as
// it happens, results in Add order, until every call's result has been
// yielded (or the run is discarded). When it ends normally every call's
// goroutine has ended. Stopping early leaves the run going: call Results
// again, or Discard and Wait.
func (s *StreamingExecutor) Results() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		s.Close()
		for {
			ev, ok, done := s.take()
			if ok {
				if !yield(ev) {
					return
				}
				continue
			}
			if done {
				s.wg.Wait()
				return
			}
			<-s.wake
		}
	}
}

// Wake is the run's wake-up: it receives when something may be ready to
// take (progress, a result whose turn came, the end), after which Ready
// yields it. A consumer that does other work meanwhile (the agent loop
// reading the model's stream) selects on it instead of polling. It is the
// channel Results waits on: use one or the other at a time.
func (s *StreamingExecutor) Wake() <-chan struct{} { return s.wake }

// Trace returns a copy of every call's state transitions so far: index i
// holds the transitions of the i-th added call.
func (s *StreamingExecutor) Trace() [][]StateChange {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([][]StateChange, len(s.calls))
	for i, c := range s.calls {
		out[i] = append([]StateChange(nil), c.states...)
	}
	return out
}

// Epoch is the time of the first Add (zero before it).
func (s *StreamingExecutor) Epoch() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.epoch
}

// take returns the next event to hand out, if any: pending progress first,
// else the next result in order when it is completed. done is true when
// nothing more will ever come.
func (s *StreamingExecutor) take() (ev Event, ok, done bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.discarded {
		return Event{}, false, true
	}
	if len(s.progress) > 0 {
		ev = s.progress[0]
		s.progress[0] = Event{}
		s.progress = s.progress[1:]
		return ev, true, false
	}
	if s.next < len(s.calls) && s.calls[s.next].state == StateCompleted {
		c := s.calls[s.next]
		s.next++
		c.state = StateYielded
		c.states = append(c.states, StateChange{StateYielded, time.Now()})
		return c.event(), true, false
	}
	return Event{}, false, s.closed && s.next == len(s.calls)
}

func (c *tracked) event() Event {
	o := c.out
	return Event{
		Kind: EventResult, ID: c.use.ID, Name: c.use.Name, Raw: c.use.Input, Tool: c.tool, Input: c.input(), Invocation: c.invocation(),
		Result: o.res, Outcome: o.kind, Err: o.err,
		Started: c.start, Ended: c.end, States: c.states,
	}
}

func (s *StreamingExecutor) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// abortCause is why a queued call must not start, or nil.
func (s *StreamingExecutor) abortCause() error {
	switch {
	case s.discarded:
		return ErrDiscarded
	case s.sibling != nil:
		return s.sibling
	case s.interrupted:
		return ErrInterrupted
	}
	return context.Cause(s.groupCtx)
}

// schedule starts, in Add order, every queued call that may start now, and
// flushes pending context modifiers when nothing runs. Callers hold s.mu.
func (s *StreamingExecutor) schedule() {
	for {
		for s.qhead < len(s.calls) && s.calls[s.qhead].state != StateQueued {
			s.qhead++
		}
		var head *tracked
		if s.qhead < len(s.calls) {
			head = s.calls[s.qhead]
		}
		if s.executing == 0 && len(s.pending) > 0 && (head == nil || head.batch != s.pending[0].batch) {
			s.flush()
		}
		if head == nil {
			if s.closed && s.executing == 0 {
				s.turnCancel(context.Canceled) // release the contexts
			}
			return
		}
		if cause := s.abortCause(); cause != nil {
			now := time.Now()
			head.start = now
			s.finish(head, cancelled(&head.prepared, cause), now)
			continue
		}
		if head.early != nil {
			if s.executing > 0 {
				return // unsafe: waits for the running calls
			}
			now := time.Now()
			head.start = now
			s.finish(head, head.early, now)
			continue
		}
		if s.executing > 0 && (!head.safe || s.execUnsafe > 0 || s.executing >= s.limit) {
			return
		}
		s.launch(head)
	}
}

// launch moves c to executing and queues it for a goroutine. Callers hold
// s.mu.
func (s *StreamingExecutor) launch(c *tracked) {
	now := time.Now()
	c.state, c.start = StateExecuting, now
	c.states = append(c.states, StateChange{StateExecuting, now})
	s.executing++
	if !c.safe {
		s.execUnsafe++
	}
	// Calls share the leaf context of their interrupt class; a call with a
	// deadline gets its own.
	c.ctx = s.groupCtx
	if c.interrupt == runtime.InterruptCancel {
		c.ctx = s.intrCtx
	}
	if d := s.e.CallTimeout; d > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(c.ctx, d, &TimeoutError{Tool: c.use.Name, After: d})
	}
	if d := s.e.AbandonAfter; d > 0 {
		s.watch(c, d)
	}
	s.wg.Add(1)
	s.starts = append(s.starts, c)
}

// watch arranges for c to be abandoned when it keeps running d after its
// context was cancelled. Callers hold s.mu.
func (s *StreamingExecutor) watch(c *tracked, d time.Duration) {
	var mu sync.Mutex
	var timer *time.Timer
	stopped := false
	stopCtx := context.AfterFunc(c.ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			timer = time.AfterFunc(d, func() { s.abandon(c) })
		}
	})
	c.stopWatch = func() {
		stopCtx()
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if timer != nil {
			timer.Stop()
		}
	}
}

// abandon gives up on c, still executing long after its context ended.
func (s *StreamingExecutor) abandon(c *tracked) {
	s.mu.Lock()
	if c.state != StateExecuting || c.abandoned {
		s.mu.Unlock()
		return
	}
	c.abandoned = true
	s.executing--
	if !c.safe {
		s.execUnsafe--
	}
	o := cancelled(&c.prepared, context.Cause(c.ctx))
	o.res = runtime.ErrorResult(o.res.Text() + fmt.Sprintf(" (%s did not stop within %s of being cancelled and was abandoned)", c.use.Name, s.e.AbandonAfter))
	s.finish(c, o, time.Now())
	s.wg.Done() // the stuck goroutine no longer counts
	s.schedule()
	s.spawn()
	wake := s.wakeful()
	s.mu.Unlock()
	if wake {
		s.notify()
	}
}

// spawn starts a goroutine for every call launch queued. Callers hold s.mu.
func (s *StreamingExecutor) spawn() {
	for i, c := range s.starts {
		go s.worker(c)
		s.starts[i] = nil
	}
	s.starts = s.starts[:0]
}

// worker runs c, then, as long as finishing a call lets another start, runs
// that one too, sparing a goroutine per call.
func (s *StreamingExecutor) worker(c *tracked) {
	for c != nil {
		call := runtime.NewCall(c.use.ID, s.tc, c.progressFunc(s))
		o := s.e.execute(c.ctx, &c.prepared, call, &c.okOut)
		now := time.Now()
		if c.stopWatch != nil {
			c.stopWatch()
		}
		s.mu.Lock()
		if c.abandoned { // the run already moved on without this call
			s.mu.Unlock()
			return
		}
		s.executing--
		if !c.safe {
			s.execUnsafe--
		}
		s.finish(c, o, now)
		if c.cancel != nil {
			c.cancel()
		}
		s.schedule()
		c = nil
		if n := len(s.starts); n > 0 {
			c = s.starts[n-1]
			s.starts[n-1] = nil
			s.starts = s.starts[:n-1]
			s.wg.Done() // this goroutine carries on with c
			s.spawn()
		}
		wake := s.wakeful()
		s.mu.Unlock()
		if wake {
			s.notify()
		}
	}
	s.wg.Done()
}

// wakeful reports whether the consumer has something to take or should
// see the end. Callers hold s.mu.
func (s *StreamingExecutor) wakeful() bool {
	return len(s.progress) > 0 || s.discarded ||
		s.next < len(s.calls) && s.calls[s.next].state == StateCompleted ||
		s.closed && s.next == len(s.calls)
}

func (c *tracked) progressFunc(s *StreamingExecutor) func(any) {
	return func(p any) { s.onProgress(c, p) }
}

// finish records c's outcome: completed, modifier pending, and sibling
// cancellation when c's tool declares CancelsSiblingsOnError. Callers hold s.mu.
func (s *StreamingExecutor) finish(c *tracked, o *outcome, now time.Time) {
	c.out, c.end, c.state = o, now, StateCompleted
	if !s.discarded {
		c.states = append(c.states, StateChange{StateCompleted, now})
	}
	if o.modifier != nil {
		s.pending = append(s.pending, c)
	}
	if s.siblingCancel && s.sibling == nil && o.res.IsError && c.cancelsSiblings &&
		o.kind != OutcomeRejected && o.kind != OutcomeSiblingError && o.kind != OutcomeInterrupted &&
		o.kind != OutcomeCancelled && o.kind != OutcomeDiscarded && o.kind != OutcomeDeferred {
		s.sibling = &SiblingError{Desc: c.describe()}
		s.groupCancel(s.sibling)
	}
}

// flush applies the pending modifiers in Add order. Callers hold s.mu and
// nothing is executing.
func (s *StreamingExecutor) flush() {
	slices.SortFunc(s.pending, func(a, b *tracked) int { return a.idx - b.idx })
	for i, c := range s.pending {
		if !s.discarded {
			applyModifier(c.out.modifier, s.tc)
		}
		c.out.modifier = nil
		s.pending[i] = nil
	}
	s.pending = s.pending[:0]
}

// onProgress passes on a progress value of c: to the Observer when the
// executor has one, else into the queue Ready and Results read.
func (s *StreamingExecutor) onProgress(c *tracked, p any) {
	s.mu.Lock()
	if s.discarded || c.state != StateExecuting {
		s.mu.Unlock()
		return
	}
	ev := Event{Kind: EventProgress, ID: c.use.ID, Name: c.use.Name, Raw: c.use.Input,
		Tool: c.tool, Input: c.input(), Invocation: c.invocation(), Progress: p, Started: c.start}
	if o := s.e.Observer; o != nil {
		s.mu.Unlock()
		_ = runtime.Try("Observer", func() { o(ev) })
		return
	}
	s.progress = append(s.progress, ev)
	s.mu.Unlock()
	s.notify()
}
