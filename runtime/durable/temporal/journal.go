package temporal

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/agentcore/agentcore/runtime"
)

// journal keeps the result of every call that returned, one file per
// tool_use id in the session's state directory, so that a batch tried
// again (its worker died) answers finished calls from here instead of
// running them twice. A call that was running when the worker died has no
// entry and runs again: a tool batch is at least once per unfinished call
// and exactly once per finished one.
type journal struct{ dir string }

// entry is one journaled result.
type entry struct {
	Content []runtime.Block `json:"content"`
	IsError bool            `json:"is_error,omitempty"`
}

var safeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

func (j journal) path(id string) string {
	name := id
	if !safeID.MatchString(id) {
		name = "x" + hex.EncodeToString([]byte(id))
	}
	return filepath.Join(j.dir, name+".json")
}

// load returns the journaled result of call id, if any.
func (j journal) load(id string) (runtime.Result, bool) {
	b, err := os.ReadFile(j.path(id))
	if err != nil {
		return runtime.Result{}, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil {
		return runtime.Result{}, false // a torn write: the call runs again
	}
	return runtime.Result{Content: e.Content, IsError: e.IsError}, true
}

// save writes the result of call id atomically (rename), synced, so the
// entry is whole or absent after a crash.
func (j journal) save(id string, r runtime.Result) error {
	b, err := json.Marshal(entry{Content: r.Content, IsError: r.IsError})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(j.dir, ".entry-*")
	if err != nil {
		return fmt.Errorf("journal a tool result: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("journal a tool result: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("journal a tool result: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("journal a tool result: %w", err)
	}
	return os.Rename(tmp.Name(), j.path(id))
}

// journaled wraps a tool so that its calls are answered from the journal
// when they ran before, start nothing while an ask waits for a human, and
// are journaled when they return.
type journaled struct {
	runtime.Tool
	st *sessionState
}

// Unwrap returns the wrapped tool.
func (j *journaled) Unwrap() runtime.Tool { return j.Tool }

// RenderPreview is the wrapped tool's (runtime.Previewer), "" without one:
// the permission prompt asks the journaled tool for it.
func (j *journaled) RenderPreview(input any, tc *runtime.ToolContext) string {
	if p, ok := j.Tool.(runtime.Previewer); ok {
		return p.RenderPreview(input, tc)
	}
	return ""
}

// Call answers from the journal, or runs the tool and journals its result.
func (j *journaled) Call(ctx context.Context, input any, call *runtime.Call) (runtime.Result, error) {
	if call == nil || call.ID == "" {
		return j.Tool.Call(ctx, input, call)
	}
	jr := j.st.journal
	if r, ok := jr.load(call.ID); ok {
		j.st.replayed.Add(1)
		j.st.log.Info("call answered from the journal", "session", j.st.id, "tool_use_id", call.ID, "tool", j.Name())
		return r, nil
	}
	if j.st.asking() {
		// An earlier call waits for a human: nothing after it may start
		// before it ran. This attempt's results are dropped.
		return runtime.ErrorResult("Error: not run: an earlier call waits for the user's approval"), nil
	}
	j.st.log.Info("call started", "session", j.st.id, "tool_use_id", call.ID, "tool", j.Name())
	r, err := j.Tool.Call(ctx, input, call)
	saved := r
	if err != nil {
		saved = runtime.Result{Content: []runtime.Block{runtime.TextBlock(err.Error())}, IsError: true}
	}
	if serr := jr.save(call.ID, saved); serr != nil {
		j.st.logf("journal %s: %v", call.ID, serr)
	} else {
		j.st.log.Info("call journaled", "session", j.st.id, "tool_use_id", call.ID, "is_error", saved.IsError)
	}
	return r, err
}
