// Package orchestrate runs the tool calls of an assistant message: the
// per-call pipeline, the batch path (RunTools) and the streaming path
// (StreamingExecutor), as DESIGN §7 and the seed's §3.4 describe.
//
// # The per-call pipeline
//
// Every call, on every path, goes through one pipeline: look the tool up by
// name or alias → decode and validate the input (Tool.Decode) → bind the
// call (runtime.Invocation: the tool, the input and every per-input
// answer, each tool method asked once) → Tool.ValidateInput →
// Executor.PreToolUse → Executor.CanUseTool → Tool.Call with the call's
// own context → the Result becomes the tool_result → its context modifier
// is applied. The hooks, the permission check and the events all get the
// one bound Invocation: the tool is looked up once, the input decoded
// once, a Bash command parsed once. Every call ends with exactly one result Event. Failures become
// is_error results whose text tells the model what happened, classified by
// Event.Outcome: an unknown tool, invalid input, a denied permission, a
// panic in any tool method, a timeout (Executor.CallTimeout), a sibling
// Bash error, a user interrupt or a cancelled context. No panic escapes.
//
// # Batch path
//
//	ex := &orchestrate.Executor{Tools: tools, CanUseTool: check}
//	for ev := range ex.RunTools(ctx, calls, tc) {
//		if ev.Kind == orchestrate.EventProgress { show(ev); continue }
//		send(ev.ID, ev.Result) // in call order
//	}
//
// Calls are partitioned in the model's order (Executor.Plan): a maximal run
// of consecutive concurrency-safe calls runs in parallel, at most
// MaxConcurrency at once (AGENTCORE_MAX_TOOL_USE_CONCURRENCY, default 10);
// an unsafe call runs alone. Results come in call order, progress at once.
// The context modifiers of a parallel batch are applied after the batch in
// call order, that of a serial call at once; later calls see the changes.
// Executor.Start returns the same run as a handle, to Interrupt or Discard.
//
// # Streaming path
//
//	s := orchestrate.NewStreaming(ctx, ex, tc)
//	for block := range modelStream {           // as each tool_use completes
//		s.Add(orchestrate.ToolUse{ID: block.ID, Name: block.Name, Input: block.Input})
//		for ev := range s.Ready() { ... }      // what is ready, never blocks
//	}
//	for ev := range s.Results() { ... }        // closes, then the rest in order
//
// A consumer busy with something else (the agent loop reading the model's
// stream) selects on s.Wake() and drains Ready when it fires, instead of
// polling. Executor.Observer, when set, sees each call queued, started,
// progressing and ended as it happens; progress then goes to it alone.
//
// A call starts as soon as it is added when nothing is executing, or when
// it and everything executing are concurrency-safe; a queued unsafe call
// holds back the calls behind it. Each call moves queued → executing →
// completed → yielded (Event.States and StreamingExecutor.Trace record the
// transitions with timestamps); a call cancelled before it started goes
// from queued straight to completed. Results are yielded in Add order;
// progress ahead of order. The streaming path honours the same concurrency
// cap as the batch path. Context modifiers are applied in Add order
// whenever nothing is executing, so no call ever sees the context change
// under it.
//
// When a call of a tool whose Traits declare CancelsSiblingsOnError (Bash,
// as in Claude Code) errors, its running and queued siblings (and calls
// added later) are cancelled and get "Cancelled: parallel tool call
// Bash(<summary>) errored"; other tools' errors stay local. Any is_error
// result of such a tool counts (a failed command, invalid input, a panic,
// a timeout), except a denied permission or the call's own cancellation. Discard drops the run: nothing not yet yielded comes out.
// Interrupt stops running tools whose InterruptBehavior is cancel, lets
// block tools finish, and starts nothing more.
//
// # Cancellation
//
// Contexts form a tree: the ctx given to NewStreaming/RunTools (session) →
// the run's turn context (Discard, end of run) → its sibling group
// (cancelled by a Bash error) → the call. Calls that share a fate share
// the leaf: the calls an interrupt cancels (InterruptBehavior cancel) hang
// from one interruptible context, block calls directly from the group, and
// a call with a deadline (Executor.CallTimeout) gets a context of its own —
// which spares two map operations per call and behaves the same. A
// cancellation reaches only the calls below it, and never changes a result
// that is already completed. The cause (context.Cause) of a cancelled call
// context is ErrInterrupted, ErrDiscarded, a *SiblingError, a
// *TimeoutError, or the session's own cause. Tools must honour ctx: a call
// ends when Call returns — unless Executor.AbandonAfter is set, which gives
// up on a call still running that long after its context was cancelled.
//
// # Cost
//
// The batch path costs about 3 allocations and a few µs of CPU per call
// with no-op tools (BenchmarkOverhead, against a bare goroutine per call):
// a goroutine runs one call and, when finishing it lets the next start,
// runs that one too.
package orchestrate
