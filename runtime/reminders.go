package runtime

import (
	"slices"
	"sync"
)

// CompactReminders are what a session's tools keep for the model to be
// shown again after a compaction summarised the conversation away, by
// key: TodoWrite keeps the todo list here, as Claude Code re-attaches it.
// A session's is RemindersOf its ToolContext. Safe for concurrent use.
type CompactReminders struct {
	mu sync.Mutex
	m  map[string]string
}

// RemindersOf returns the reminders of tc's session, made on first use;
// nil for a context without a session (Set and All then do nothing).
func RemindersOf(tc *ToolContext) *CompactReminders {
	r, err := SessionValue(tc, func() (*CompactReminders, func()) { return &CompactReminders{}, nil })
	if err != nil {
		return nil
	}
	return r
}

// Set keeps text under key, in place of what was there; "" removes it.
func (r *CompactReminders) Set(key, text string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if text == "" {
		delete(r.m, key)
		return
	}
	if r.m == nil {
		r.m = map[string]string{}
	}
	r.m[key] = text
}

// All returns the reminders kept, in the order of their keys.
func (r *CompactReminders) All() []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := make([]string, 0, len(r.m))
	for k := range r.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = r.m[k]
	}
	return out
}
