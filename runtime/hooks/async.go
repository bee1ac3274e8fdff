package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// asyncHooks are a Runner's command hooks running in the background.
type asyncHooks struct {
	mu     sync.Mutex
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
	closed bool
}

// startAsync runs h in the background with stdin: nothing waits for it
// and nothing it answers blocks; what it says for the model reaches
// r.Notify when it ends (Claude Code's async hooks). Close ends it.
func (r *Runner) startAsync(ev Event, h Hook, stdin []byte) {
	b := &r.bg
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	if b.ctx == nil {
		b.ctx, b.cancel = context.WithCancel(context.Background())
	}
	ctx := b.ctx
	b.wg.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.wg.Done()
		defer func() { _ = recover() }() // a background hook never takes the session down
		r.deliverAsync(ev, h, r.runOne(ctx, h, stdin))
	}()
}

// deliverAsync gives the model what an async hook said: a JSON answer's
// systemMessage and additionalContext, and for an AsyncRewake hook that
// exited 2, its stderr (or stdout).
func (r *Runner) deliverAsync(ev Event, h Hook, a answer) {
	if r.Notify == nil || a.err != nil {
		return
	}
	var parts []string
	switch {
	case a.code == 2 && h.AsyncRewake:
		parts = append(parts, nonEmpty(strings.TrimSpace(a.stderr), strings.TrimSpace(a.stdout)))
	case a.code == 0:
		var o Output
		out := strings.TrimSpace(a.stdout)
		if strings.HasPrefix(out, "{") && json.Unmarshal([]byte(out), &o) == nil {
			parts = append(parts, o.SystemMessage)
			if o.HookSpecificOutput != nil {
				parts = append(parts, o.HookSpecificOutput.AdditionalContext)
			}
		}
	}
	var text []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			text = append(text, p)
		}
	}
	if len(text) > 0 {
		r.Notify(fmt.Sprintf("Async %s hook %q said: %s", ev, h.Command, strings.Join(text, "\n")))
	}
}

// Close ends the async hooks still running (their process groups are
// killed) and waits for them; later async hooks do not start. A nil
// Runner has none.
func (r *Runner) Close() {
	if r == nil {
		return
	}
	b := &r.bg
	b.mu.Lock()
	b.closed = true
	if b.cancel != nil {
		b.cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// Wait waits for the async hooks started so far to end.
func (r *Runner) Wait() {
	if r != nil {
		r.bg.wg.Wait()
	}
}
