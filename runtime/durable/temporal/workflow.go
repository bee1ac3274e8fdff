package temporal

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// session is the workflow's state.
type session struct {
	in      Input
	id      string
	snap    Snapshot
	pending []Ask
	answers map[string]Answer
	// interrupted is set by SignalInterrupt for the running turn;
	// interrupts counts the signals of the turn (a second one aborts).
	interrupted bool
	interrupts  int
	ended       bool
	lastText    string
	stop        string
	errText     string
}

// SessionWorkflow is the agent loop as a workflow: it asks the model,
// runs the calls of its answer on the worker holding the files, sends the
// results back and repeats until the model ends its turn, MaxTurns is
// reached or the user interrupts. With Options.KeepOpen it then waits for
// more prompts.
func SessionWorkflow(ctx workflow.Context, in Input) (*Outcome, error) {
	s := &session{in: in, id: workflow.GetInfo(ctx).WorkflowExecution.ID, answers: map[string]Answer{}}
	if in.Snapshot != nil {
		s.snap = *in.Snapshot
	}
	s.snap.Runs++
	if err := s.register(ctx); err != nil {
		return nil, err
	}
	interrupts := workflow.GetSignalChannel(ctx, SignalInterrupt)
	prompts := workflow.GetSignalChannel(ctx, SignalPrompt)
	ends := workflow.GetSignalChannel(ctx, SignalEnd)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			interrupts.Receive(ctx, nil)
			s.interrupted = true
			s.interrupts++
		}
	})
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			var p string
			prompts.Receive(ctx, &p)
			s.snap.Prompts = append(s.snap.Prompts, p)
		}
	})
	workflow.Go(ctx, func(ctx workflow.Context) {
		ends.Receive(ctx, nil)
		s.ended = true
	})

	if s.snap.Workspace == "" {
		var open OpenResult
		actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
			TaskQueue:           in.Options.TaskQueue,
			StartToCloseTimeout: time.Minute,
		})
		if err := workflow.ExecuteActivity(actx, ActivityOpen, OpenRequest{Session: s.id, Dir: in.Options.Dir}).Get(ctx, &open); err != nil {
			return nil, fmt.Errorf("open the session's workspace: %w", err)
		}
		s.snap.Workspace, s.snap.Dir, s.snap.Cwd = open.Workspace, open.Dir, open.Dir
	}
	if in.Prompt != "" {
		s.snap.Prompts = append([]string{in.Prompt}, s.snap.Prompts...)
	}

	for {
		if s.snap.MidPrompt {
			// A run continued in the middle of a prompt goes on with it.
			s.snap.MidPrompt = false
		} else if len(s.snap.Prompts) > 0 {
			p := s.snap.Prompts[0]
			s.snap.Prompts = s.snap.Prompts[1:]
			s.snap.Turns, s.stop, s.errText = 0, "", ""
			s.add(provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(p)}})
		} else if !in.Options.KeepOpen || s.ended {
			break
		} else {
			if err := workflow.Await(ctx, func() bool { return len(s.snap.Prompts) > 0 || s.ended }); err != nil {
				return nil, err
			}
			continue
		}
		if err := s.runPrompt(ctx); err != nil {
			return nil, err
		}
		if s.stop == "" { // continue as new in the middle of the prompt
			s.snap.MidPrompt = true
			return nil, s.continueAsNew(ctx)
		}
		if !in.Options.KeepOpen {
			break
		}
		if s.tooLong(ctx) {
			return nil, s.continueAsNew(ctx)
		}
	}
	s.close(ctx)
	return &Outcome{Stop: s.stop, Text: s.lastText, Turns: s.snap.Turns, Usage: s.snap.Usage,
		Error: s.errText, Messages: s.snap.Messages, Runs: s.snap.Runs, Workspace: s.snap.Workspace}, nil
}

// register installs the queries and the update handler.
func (s *session) register(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryEvents, func() ([]string, error) {
		return s.events(), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, QueryPending, func() ([]Ask, error) {
		return slices.Clone(s.pending), nil
	}); err != nil {
		return err
	}
	if err := workflow.SetQueryHandler(ctx, QueryMessages, func() ([]provider.Message, error) {
		return slices.Clone(s.snap.Messages), nil
	}); err != nil {
		return err
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, UpdateAnswer,
		func(ctx workflow.Context, a Answer) error {
			s.answers[a.ToolUseID] = a
			if a.Interrupt {
				s.interrupted = true
			}
			return nil
		},
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, a Answer) error {
			if a.Behavior != "allow" && a.Behavior != "deny" {
				return fmt.Errorf("answer %s: behavior must be \"allow\" or \"deny\", not %q", a.ToolUseID, a.Behavior)
			}
			for _, p := range s.pending {
				if p.ToolUseID == a.ToolUseID {
					if _, done := s.answers[a.ToolUseID]; done {
						return fmt.Errorf("answer %s: the ask was answered already", a.ToolUseID)
					}
					return nil
				}
			}
			return fmt.Errorf("answer %s: no ask of this session waits for it; query %q for the pending ones", a.ToolUseID, QueryPending)
		}})
}

// add appends m to the conversation.
func (s *session) add(m provider.Message) { s.snap.Messages = append(s.snap.Messages, m) }

// tooLong reports whether the history should be cut by continue-as-new.
func (s *session) tooLong(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	return info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() > orDefault(s.in.Options.HistoryLimit, 10000)
}

// continueAsNew ends this run and starts the next with the snapshot, once
// no update handler is running.
func (s *session) continueAsNew(ctx workflow.Context) error {
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return err
	}
	snap := s.snap
	next := Input{Options: s.in.Options, Snapshot: &snap}
	return workflow.NewContinueAsNewError(ctx, WorkflowSession, next)
}

// runPrompt runs turns until the prompt's run ends (s.stop set) or the
// history asks for continue-as-new between two turns (s.stop empty).
func (s *session) runPrompt(ctx workflow.Context) error {
	o := s.in.Options
	for {
		if o.MaxTurns > 0 && s.snap.Turns >= o.MaxTurns {
			s.stop = string(agent.StopMaxTurns)
			return nil
		}
		if s.snap.Turns > 0 && s.tooLong(ctx) {
			return nil
		}
		s.snap.Turns++
		s.interrupted, s.interrupts = false, 0
		res, err := s.model(ctx)
		if s.interrupted {
			s.add(provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(agent.InterruptNotice)}})
			s.stop = string(agent.StopInterrupted)
			return nil
		}
		if err != nil {
			s.stop, s.errText = string(agent.StopError), err.Error()
			return nil
		}
		msg := res.Message
		msg.Role = provider.Assistant
		s.snap.Usage = s.snap.Usage.Add(res.Usage)
		for _, b := range msg.Content {
			if b.Type == provider.TextBlock && b.Text != "" {
				s.lastText = b.Text
			}
		}
		if len(msg.Content) > 0 {
			s.add(msg)
		}
		uses := msg.ToolUses()
		if len(uses) == 0 {
			s.stop = string(agent.StopEndTurn)
			return nil
		}
		results, err := s.tools(ctx, uses)
		if err != nil {
			return err
		}
		user := provider.Message{Role: provider.User, Content: results}
		if s.interrupted {
			user.Content = append(user.Content, provider.Text(agent.InterruptNotice))
		}
		s.add(user)
		if s.interrupted {
			s.stop = string(agent.StopInterrupted)
			return nil
		}
	}
}

// model runs one model request; an interrupt cancels it.
func (s *session) model(ctx workflow.Context) (*ModelResult, error) {
	o := s.in.Options
	cctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	actx := workflow.WithActivityOptions(cctx, workflow.ActivityOptions{
		TaskQueue:           o.TaskQueue,
		StartToCloseTimeout: orDefault(o.ModelTimeout, 10*time.Minute),
		HeartbeatTimeout:    time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 5, InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	f := workflow.ExecuteActivity(actx, ActivityModel, ModelRequest{System: o.System, Messages: s.snap.Messages, MaxTokens: o.MaxTokens})
	var res ModelResult
	var err error
	done := false
	sel := workflow.NewSelector(ctx)
	sel.AddFuture(f, func(f workflow.Future) { err = f.Get(ctx, &res); done = true })
	for !done {
		if s.interrupted {
			cancel()
			_ = f.Get(ctx, nil)
			return nil, nil
		}
		_ = workflow.Await(ctx, func() bool { return s.interrupted || f.IsReady() })
		if f.IsReady() {
			sel.Select(ctx)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("model request %d: %w", s.snap.Turns, err)
	}
	return &res, nil
}

// tools runs the calls of one assistant message on the workspace worker
// and returns one tool_result per call, in the calls' order. Asks end an
// attempt; the workflow waits for their answers and runs the batch again.
func (s *session) tools(ctx workflow.Context, uses []provider.Block) ([]provider.Block, error) {
	o := s.in.Options
	hb := orDefault(o.Heartbeat, 30*time.Second)
	ao := workflow.ActivityOptions{
		TaskQueue:           s.snap.Workspace,
		StartToCloseTimeout: orDefault(o.ToolsTimeout, 2*time.Hour),
		HeartbeatTimeout:    hb,
		// The worker holding the files may be down: the batch is tried
		// again until it comes back (or WorkspaceWait runs out).
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: 10 * time.Second},
	}
	if o.WorkspaceWait > 0 {
		ao.ScheduleToCloseTimeout = o.WorkspaceWait + ao.StartToCloseTimeout
	}
	actx := workflow.WithActivityOptions(ctx, ao)
	ictx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: s.snap.Workspace, StartToCloseTimeout: time.Minute,
		ScheduleToCloseTimeout: 5 * time.Minute,
	})
	for {
		req := ToolsRequest{Session: s.id, Dir: s.snap.Dir, Cwd: s.snap.Cwd, Calls: uses, Answers: s.answers, Interrupted: s.interrupted}
		f := workflow.ExecuteActivity(actx, ActivityTools, req)
		sent := s.interrupts
		for !f.IsReady() {
			_ = workflow.Await(ctx, func() bool { return f.IsReady() || s.interrupts > sent })
			if s.interrupts > sent {
				// The first interrupt follows each tool's interrupt
				// behaviour; a second aborts every call, as a second
				// Ctrl+C does locally. The batch ends with the results.
				sent = s.interrupts
				workflow.ExecuteActivity(ictx, ActivityInterrupt, InterruptRequest{Session: s.id, Batch: uses[0].ID, Abort: sent > 1})
			}
		}
		var res ToolsResult
		if err := f.Get(ctx, &res); err != nil {
			return nil, fmt.Errorf("run the tool calls of turn %d on %s: %w", s.snap.Turns, s.snap.Workspace, err)
		}
		if res.Cwd != "" {
			s.snap.Cwd = res.Cwd
		}
		if res.Interrupted {
			s.interrupted = true
		}
		if len(res.Pending) == 0 {
			return answerAll(uses, res.Results), nil
		}
		s.pending = res.Pending
		if err := workflow.Await(ctx, func() bool { return s.interrupted || s.answered() }); err != nil {
			return nil, err
		}
		if s.interrupted {
			for _, p := range s.pending {
				if _, ok := s.answers[p.ToolUseID]; !ok {
					s.answers[p.ToolUseID] = Answer{ToolUseID: p.ToolUseID, Behavior: "deny", Message: "The user interrupted before answering."}
				}
			}
		}
		s.pending = nil
	}
}

// answered reports whether every pending ask has its answer.
func (s *session) answered() bool {
	for _, p := range s.pending {
		if _, ok := s.answers[p.ToolUseID]; !ok {
			return false
		}
	}
	return true
}

// answerAll returns one tool_result per use, in order: the batch's, or an
// error result for a call the batch did not answer (never expected: the
// executor answers every call).
func answerAll(uses, results []provider.Block) []provider.Block {
	by := map[string]provider.Block{}
	for _, r := range results {
		if r.Type == provider.ToolResultBlock {
			if _, dup := by[r.ToolUseID]; !dup {
				by[r.ToolUseID] = r
			}
		}
	}
	out := make([]provider.Block, 0, len(uses))
	for _, u := range uses {
		r, ok := by[u.ID]
		if !ok {
			r = provider.Block{Type: provider.ToolResultBlock, ToolUseID: u.ID, IsError: true,
				Content: textContent("Error: the call got no result from its worker; it may not have run")}
		}
		out = append(out, r)
	}
	return out
}

// close releases the session's state on its worker, best effort.
func (s *session) close(ctx workflow.Context) {
	if s.snap.Workspace == "" {
		return
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: s.snap.Workspace, StartToCloseTimeout: time.Minute, ScheduleToCloseTimeout: 2 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 2},
	})
	var err error
	if err = workflow.ExecuteActivity(actx, ActivityClose, s.id).Get(ctx, nil); err != nil && !errors.Is(err, workflow.ErrCanceled) {
		workflow.GetLogger(ctx).Warn("close the session on its worker", "error", err)
	}
}
