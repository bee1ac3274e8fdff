package shell

import (
	"fmt"

	"github.com/agentcore/agentcore/runtime"
)

// Background returns the background shells of tc's session, which the
// Bash, TaskOutput and TaskStop tools share: a registry given with
// runtime.WithService when there is one, else the session's own, made on
// first use and killed (KillAll) when the session closes
// (runtime.ToolContext.Close).
func Background(tc *runtime.ToolContext) (*Registry, error) {
	if r, ok := runtime.Service[*Registry](tc); ok && r != nil {
		return r, nil
	}
	r, err := runtime.SessionValue(tc, func() (*Registry, func()) {
		r := NewRegistry()
		return r, r.KillAll
	})
	if err != nil {
		return nil, fmt.Errorf("no background shells: %w", err)
	}
	return r, nil
}

// FindTask looks a background task up among the shells of tc's session,
// with an error the model can act on when there is no such task.
func FindTask(tc *runtime.ToolContext, id string) (*Task, error) {
	r, err := Background(tc)
	if err != nil {
		return nil, err
	}
	t, ok := r.Get(id)
	if !ok {
		return nil, fmt.Errorf("no background task found with ID %q: use the task ID that Bash with run_in_background returned", id)
	}
	return t, nil
}
