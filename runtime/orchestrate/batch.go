package orchestrate

import (
	"context"
	"iter"

	"github.com/agentcore/agentcore/runtime"
)

// Batch is one step of the batch path's plan: a maximal run of consecutive
// concurrency-safe calls, or one unsafe call.
type Batch struct {
	// ConcurrencySafe is true when the batch's calls run in parallel.
	ConcurrencySafe bool `json:"concurrency_safe"`
	// IDs are the calls' tool_use ids, in call order.
	IDs []string `json:"ids"`
}

// Plan partitions calls, in the model's order, into the batches RunTools
// runs: consecutive concurrency-safe calls share a batch, every unsafe call
// is alone. A call whose tool is unknown, whose input does not decode, or
// whose IsConcurrencySafe panics is unsafe. Plan runs no tool.
func (e *Executor) Plan(calls []ToolUse) []Batch {
	var out []Batch
	for _, c := range calls {
		var p prepared
		e.prepare(&p, c)
		safe := p.early == nil && p.safe
		if safe && len(out) > 0 && out[len(out)-1].ConcurrencySafe {
			out[len(out)-1].IDs = append(out[len(out)-1].IDs, c.ID)
			continue
		}
		out = append(out, Batch{ConcurrencySafe: safe, IDs: []string{c.ID}})
	}
	return out
}

// RunTools runs calls on the batch path and yields their events: progress
// as it happens, results in call order. Batches follow Plan: a safe batch
// runs in parallel (at most the concurrency cap at once), an unsafe call
// alone; the context modifiers of a parallel batch are applied after the
// batch in call order, that of a serial call at once, so later batches see
// them. Cancelling ctx stops every call; each still yields one result.
// Stopping the iteration early discards the rest and waits for the
// running calls to end.
func (e *Executor) RunTools(ctx context.Context, calls []ToolUse, tc *runtime.ToolContext) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		s := e.Start(ctx, calls, tc)
		for ev := range s.Results() {
			if !yield(ev) {
				s.Discard()
				s.Wait()
				return
			}
		}
	}
}
