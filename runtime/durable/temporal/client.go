package temporal

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/sdk/client"
)

// Start starts a durable session with id (the workflow id) on o.TaskQueue
// and returns at once; Wait, Events, Answer and Interrupt act on it.
func Start(ctx context.Context, c client.Client, id, prompt string, o Options) (client.WorkflowRun, error) {
	if o.TaskQueue == "" {
		return nil, errors.New("durable: no task queue; set Options.TaskQueue to the workers' queue")
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: o.TaskQueue},
		WorkflowSession, Input{Options: o, Prompt: prompt})
	if err != nil {
		return nil, fmt.Errorf("start durable session %s: %w", id, err)
	}
	return run, nil
}

// Wait waits for the session to end and returns its outcome, following
// its continue-as-new runs.
func Wait(ctx context.Context, c client.Client, id string) (*Outcome, error) {
	var out Outcome
	if err := c.GetWorkflow(ctx, id, "").Get(ctx, &out); err != nil {
		return nil, fmt.Errorf("durable session %s: %w", id, err)
	}
	return &out, nil
}

// Events returns the session's stream-json lines so far.
func Events(ctx context.Context, c client.Client, id string) ([]string, error) {
	v, err := c.QueryWorkflow(ctx, id, "", QueryEvents)
	if err != nil {
		return nil, fmt.Errorf("read the events of durable session %s: %w", id, err)
	}
	var lines []string
	return lines, v.Get(&lines)
}

// Pending returns the asks waiting for an answer.
func Pending(ctx context.Context, c client.Client, id string) ([]Ask, error) {
	v, err := c.QueryWorkflow(ctx, id, "", QueryPending)
	if err != nil {
		return nil, fmt.Errorf("read the asks of durable session %s: %w", id, err)
	}
	var asks []Ask
	return asks, v.Get(&asks)
}

// Reply answers a pending ask; the session goes on once all its asks
// are answered. An answer for no pending ask is rejected.
func Reply(ctx context.Context, c client.Client, id string, a Answer) error {
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: UpdateAnswer,
		Args: []any{a}, WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		return fmt.Errorf("answer %s in durable session %s: %w", a.ToolUseID, id, err)
	}
	return h.Get(ctx, nil)
}

// Interrupt interrupts the session's running turn.
func Interrupt(ctx context.Context, c client.Client, id string) error {
	if err := c.SignalWorkflow(ctx, id, "", SignalInterrupt, nil); err != nil {
		return fmt.Errorf("interrupt durable session %s: %w", id, err)
	}
	return nil
}

// Prompt sends another prompt to a session kept open (Options.KeepOpen).
func Prompt(ctx context.Context, c client.Client, id, prompt string) error {
	if err := c.SignalWorkflow(ctx, id, "", SignalPrompt, prompt); err != nil {
		return fmt.Errorf("send a prompt to durable session %s: %w", id, err)
	}
	return nil
}

// End ends a session kept open once it is idle.
func End(ctx context.Context, c client.Client, id string) error {
	if err := c.SignalWorkflow(ctx, id, "", SignalEnd, nil); err != nil {
		return fmt.Errorf("end durable session %s: %w", id, err)
	}
	return nil
}
