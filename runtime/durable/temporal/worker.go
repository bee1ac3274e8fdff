package temporal

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	agentsession "github.com/agentcore/agentcore/runtime/session"
)

// WorkerOptions are what a worker runs sessions with. The provider and
// the tools are the worker's own: they never travel through Temporal.
type WorkerOptions struct {
	// TaskQueue is the shared queue the worker serves (workflows and
	// model requests).
	TaskQueue string
	// Workspace names this worker's disk; sessions opened here send their
	// tool calls to WorkspaceQueue(TaskQueue, Workspace). A worker
	// restarted on the same disk must use the same name to take its
	// sessions over. Default: the host name.
	Workspace string
	// StateDir holds the sessions' journals and, for sessions without a
	// Dir, their working directories. Default: a temporary directory.
	StateDir string
	// Tools are the tools calls may use (generated.AllBaseTools()).
	Tools []runtime.Tool
	// Provider answers model requests.
	Provider provider.Provider
	// Permissions are the permission sources each session loads (mode,
	// rules, settings files); its Asker is replaced: asks go to the
	// workflow.
	Permissions permission.Sources
	// MaxConcurrency caps parallel calls; 0 reads the environment.
	MaxConcurrency int
	// Logger logs the worker's own events; nil: slog's default.
	Logger *slog.Logger
}

// WorkspaceQueue is the task queue of the worker whose disk is named
// workspace.
func WorkspaceQueue(taskQueue, workspace string) string { return taskQueue + "@" + workspace }

// Activities are a worker's activities. Register them with Register, or
// let Worker do it.
type Activities struct {
	o   WorkerOptions
	log *slog.Logger

	mu       sync.Mutex
	sessions map[string]*sessionState
}

// NewActivities checks o and returns the activities it makes.
func NewActivities(o WorkerOptions) (*Activities, error) {
	if o.TaskQueue == "" {
		return nil, errors.New("durable worker: no task queue; set WorkerOptions.TaskQueue")
	}
	if o.Provider == nil {
		return nil, errors.New("durable worker: no model provider; set WorkerOptions.Provider")
	}
	if o.Workspace == "" {
		h, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("durable worker: no workspace name and no host name (%w); set WorkerOptions.Workspace", err)
		}
		o.Workspace = h
	}
	if o.StateDir == "" {
		d, err := os.MkdirTemp("", "agentcore-durable-")
		if err != nil {
			return nil, fmt.Errorf("durable worker: make a state directory: %w", err)
		}
		o.StateDir = d
	}
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		return nil, fmt.Errorf("durable worker: state directory: %w", err)
	}
	l := o.Logger
	if l == nil {
		l = slog.Default()
	}
	return &Activities{o: o, log: l.With("workspace", o.Workspace), sessions: map[string]*sessionState{}}, nil
}

// Queue returns the workspace queue of these activities' worker.
func (a *Activities) Queue() string { return WorkspaceQueue(a.o.TaskQueue, a.o.Workspace) }

// RegisterShared registers the workflow and the activities of the shared
// queue (Open, Model) on r.
func (a *Activities) RegisterShared(r worker.Registry) {
	r.RegisterWorkflowWithOptions(SessionWorkflow, workflow.RegisterOptions{Name: WorkflowSession})
	r.RegisterActivityWithOptions(a.Open, activity.RegisterOptions{Name: ActivityOpen})
	r.RegisterActivityWithOptions(a.Model, activity.RegisterOptions{Name: ActivityModel})
}

// RegisterWorkspace registers the activities of the workspace queue
// (Tools, Interrupt, Close) on r.
func (a *Activities) RegisterWorkspace(r worker.ActivityRegistry) {
	r.RegisterActivityWithOptions(a.Tools, activity.RegisterOptions{Name: ActivityTools})
	r.RegisterActivityWithOptions(a.Interrupt, activity.RegisterOptions{Name: ActivityInterrupt})
	r.RegisterActivityWithOptions(a.Close, activity.RegisterOptions{Name: ActivityClose})
}

// Close ends every session's state (shells, MCP servers).
func (a *Activities) CloseAll() {
	a.mu.Lock()
	all := a.sessions
	a.sessions = map[string]*sessionState{}
	a.mu.Unlock()
	for _, st := range all {
		st.close()
	}
}

// sessionState is one session on this worker.
type sessionState struct {
	id      string
	dir     string
	journal journal
	log     *slog.Logger

	open sync.Once
	sess *agentsession.Session
	err  error

	batch sync.Mutex // one batch at a time

	mu          sync.Mutex
	answers     map[string]Answer
	pending     []Ask
	run         *orchestrate.StreamingExecutor
	abort       context.CancelCauseFunc
	turnKey     string // the batch running (its first call's id)
	interruptOf map[string]bool
	replayed    atomic.Int64
}

func (st *sessionState) logf(format string, args ...any) {
	st.log.Warn(fmt.Sprintf(format, args...), "session", st.id)
}

// asking reports whether an ask of this batch waits for a human.
func (st *sessionState) asking() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.pending) > 0
}

func (st *sessionState) close() {
	if st.sess != nil {
		_ = st.sess.Close()
	}
}

// asker answers the engine's asks from the workflow's answers, and
// records the others as pending.
type asker struct{ st *sessionState }

// Ask answers a yes/no ask.
func (k asker) Ask(ctx context.Context, req ask.AskRequest) (ask.Answer, error) {
	r, err := k.AskHost(ctx, req)
	return r.Answer, err
}

// AskHost answers from the workflow's Answer for the call, or records the
// ask and denies for this attempt (whose results are dropped).
func (k asker) AskHost(_ context.Context, req ask.AskRequest) (ask.HostReply, error) {
	st := k.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if a, ok := st.answers[req.ToolUseID]; ok {
		if a.Behavior == "allow" {
			return ask.HostReply{Answer: ask.AnswerAllowOnce, UpdatedInput: a.UpdatedInput}, nil
		}
		return ask.HostReply{Answer: ask.AnswerDeny, Message: a.Message}, nil
	}
	st.pending = append(st.pending, Ask{ToolUseID: req.ToolUseID, ToolName: req.Tool, Input: req.Input,
		Use: req.Use, Message: req.Message, Suggestion: req.Suggestion, Detail: req.Detail})
	return ask.HostReply{Answer: ask.AnswerDeny, Message: "waiting for the user's approval"}, nil
}

// state returns the session's state on this worker, opening it on first
// use (also after a restart: the journal is on disk).
func (a *Activities) state(ctx context.Context, id, dir string) (*sessionState, error) {
	a.mu.Lock()
	st, ok := a.sessions[id]
	if !ok {
		st = &sessionState{id: id, dir: dir, log: a.log, interruptOf: map[string]bool{},
			journal: journal{dir: filepath.Join(a.o.StateDir, "sessions", safeName(id), "journal")}}
		a.sessions[id] = st
	}
	a.mu.Unlock()
	st.open.Do(func() {
		if err := os.MkdirAll(st.journal.dir, 0o755); err != nil {
			st.err = fmt.Errorf("make the session's journal: %w", err)
			return
		}
		tools := make([]runtime.Tool, len(a.o.Tools))
		for i, t := range a.o.Tools {
			tools[i] = &journaled{Tool: t, st: st}
		}
		src := a.o.Permissions
		src.Asker = asker{st}
		st.sess, st.err = agentsession.Open(ctx, agentsession.Options{ID: id, Dir: st.dir, Tools: tools, Permissions: src,
			Provider: a.o.Provider, MaxConcurrency: a.o.MaxConcurrency})
		if st.err != nil {
			st.err = fmt.Errorf("open session %s in %s: %w", id, st.dir, st.err)
		}
	})
	if st.err != nil {
		a.mu.Lock()
		delete(a.sessions, id)
		a.mu.Unlock()
		return nil, st.err
	}
	return st, nil
}

// safeName makes a session id a file name.
func safeName(id string) string {
	if safeID.MatchString(id) {
		return id
	}
	return "x" + fmt.Sprintf("%x", id)
}

// Open makes (or checks) the session's working directory on this worker
// and returns the workspace queue its tool calls go to.
func (a *Activities) Open(ctx context.Context, req OpenRequest) (*OpenResult, error) {
	dir := req.Dir
	if dir == "" {
		dir = filepath.Join(a.o.StateDir, "sessions", safeName(req.Session), "work")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("make the session's working directory: %w", err)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("the working directory %s is not a directory on worker %s; give a directory that exists there", dir, a.o.Workspace), "BadDir", err)
	}
	a.log.Info("session opened", "session", req.Session, "dir", dir, "queue", a.Queue())
	return &OpenResult{Workspace: a.Queue(), Dir: dir}, nil
}

// Model sends one request to the worker's provider and returns the whole
// message. The tool definitions are the worker's.
func (a *Activities) Model(ctx context.Context, req ModelRequest) (*ModelResult, error) {
	r := provider.Request{System: req.System, Messages: req.Messages, MaxTokens: req.MaxTokens,
		Tools: provider.ToolsOf(a.o.Tools)}
	for ev, err := range a.o.Provider.Stream(ctx, r) {
		if err != nil {
			if retry, after := provider.Retryable(err); retry {
				return nil, temporal.NewApplicationErrorWithOptions(err.Error(), "ModelRetryable",
					temporal.ApplicationErrorOptions{NextRetryDelay: after, Cause: err})
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, temporal.NewNonRetryableApplicationError(err.Error(), "ModelFailed", err)
		}
		activity.RecordHeartbeat(ctx)
		if ev.Type == provider.EventMessage {
			return &ModelResult{Message: ev.Message, StopReason: ev.StopReason, Usage: ev.Usage}, nil
		}
	}
	return nil, errors.New("the model's stream ended without a message")
}

// Tools runs one batch of calls through agentcore's executor on this
// worker, in the session's working directory.
func (a *Activities) Tools(ctx context.Context, req ToolsRequest) (*ToolsResult, error) {
	st, err := a.state(ctx, req.Session, req.Dir)
	if err != nil {
		return nil, temporal.NewNonRetryableApplicationError(err.Error(), "OpenFailed", err)
	}
	st.batch.Lock()
	defer st.batch.Unlock()
	info := activity.GetInfo(ctx)
	key := ""
	if len(req.Calls) > 0 {
		key = req.Calls[0].ID
	}
	tc := st.sess.ToolContext()
	if req.Cwd != "" && req.Cwd != tc.Cwd {
		if fi, err := os.Stat(req.Cwd); err == nil && fi.IsDir() {
			tc.Cwd = req.Cwd
		}
	}
	ex := &orchestrate.Executor{Tools: st.sess.Tools(), CanUseTool: st.sess.Engine().CanUseTool, MaxConcurrency: a.o.MaxConcurrency}
	calls := make([]orchestrate.ToolUse, 0, len(req.Calls))
	for _, c := range req.Calls {
		calls = append(calls, orchestrate.ToolUse{ID: c.ID, Name: c.Name, Input: c.Input})
	}
	st.replayed.Store(0)
	st.mu.Lock()
	st.answers, st.pending, st.turnKey = req.Answers, nil, key
	interrupted := req.Interrupted || st.interruptOf[key]
	runCtx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	run := ex.Start(runCtx, calls, tc)
	st.run, st.abort = run, abort
	if interrupted {
		run.Interrupt()
	}
	st.mu.Unlock()
	defer func() {
		st.mu.Lock()
		st.run, st.abort, st.turnKey = nil, nil, ""
		delete(st.interruptOf, key)
		st.mu.Unlock()
	}()
	a.log.Info("batch started", "session", req.Session, "calls", len(calls), "attempt", info.Attempt)

	beat := info.HeartbeatTimeout / 3
	if beat <= 0 {
		beat = 10 * time.Second
	}
	stop := make(chan struct{})
	var done atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(beat)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx, done.Load())
			}
		}
	}()
	res := &ToolsResult{}
	for ev := range run.Results() {
		if ev.Kind != orchestrate.EventResult {
			continue
		}
		done.Add(1)
		res.Results = append(res.Results, provider.ToolResult(ev.ID, ev.Result))
		if ev.Outcome == orchestrate.OutcomeInterrupted || (ev.Outcome == orchestrate.OutcomeCancelled && ctx.Err() == nil) {
			res.Interrupted = true
		}
	}
	close(stop)
	wg.Wait()
	res.Cwd = tc.Cwd
	res.Replayed = int(st.replayed.Load())
	st.mu.Lock()
	res.Pending = st.pending
	if st.interruptOf[key] || interrupted {
		res.Interrupted = true
	}
	st.mu.Unlock()
	if len(res.Pending) > 0 {
		res.Results = nil // asked: the batch runs again once answered
		a.log.Info("batch waits for approval", "session", req.Session, "asks", len(res.Pending))
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err // the attempt timed out or the worker stops: retried
	}
	a.log.Info("batch done", "session", req.Session, "results", len(res.Results), "replayed", res.Replayed)
	return res, nil
}

// InterruptRequest names the batch an interrupt is for.
type InterruptRequest struct {
	Session string `json:"session"`
	// Batch is the first call's tool_use id of the batch to interrupt.
	Batch string `json:"batch"`
	// Abort cancels every call, whatever its interrupt behaviour.
	Abort bool `json:"abort,omitempty"`
}

// Interrupt interrupts the session's running batch (or the batch about
// to start): cancel-on-interrupt calls stop, the others finish; with
// Abort every call stops.
func (a *Activities) Interrupt(ctx context.Context, req InterruptRequest) error {
	a.mu.Lock()
	st, ok := a.sessions[req.Session]
	a.mu.Unlock()
	if !ok {
		return nil // nothing runs here for it
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.interruptOf[req.Batch] = true
	if st.run != nil && st.turnKey == req.Batch {
		st.run.Interrupt()
		if req.Abort {
			st.abort(orchestrate.ErrInterrupted)
		}
	}
	a.log.Info("interrupt", "session", req.Session)
	return nil
}

// Close releases the session's state on this worker; its files stay.
func (a *Activities) Close(ctx context.Context, id string) error {
	a.mu.Lock()
	st, ok := a.sessions[id]
	delete(a.sessions, id)
	a.mu.Unlock()
	if ok {
		st.close()
	}
	return nil
}

// Worker serves the shared queue and this worker's workspace queue.
type Worker struct {
	acts   *Activities
	shared worker.Worker
	ws     worker.Worker
}

// NewWorker returns a worker on c running sessions with o. Start it, and
// Stop it when done.
func NewWorker(c client.Client, o WorkerOptions) (*Worker, error) {
	acts, err := NewActivities(o)
	if err != nil {
		return nil, err
	}
	shared := worker.New(c, o.TaskQueue, worker.Options{})
	acts.RegisterShared(shared)
	ws := worker.New(c, acts.Queue(), worker.Options{})
	acts.RegisterWorkspace(ws)
	return &Worker{acts: acts, shared: shared, ws: ws}, nil
}

// Queue returns the worker's workspace queue.
func (w *Worker) Queue() string { return w.acts.Queue() }

// Start starts polling both queues.
func (w *Worker) Start() error {
	if err := w.ws.Start(); err != nil {
		return fmt.Errorf("start the workspace worker: %w", err)
	}
	if err := w.shared.Start(); err != nil {
		w.ws.Stop()
		return fmt.Errorf("start the shared worker: %w", err)
	}
	return nil
}

// Stop stops polling, waits for running activities, and ends the
// sessions' state.
func (w *Worker) Stop() {
	w.shared.Stop()
	w.ws.Stop()
	w.acts.CloseAll()
}
