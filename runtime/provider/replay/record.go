package replay

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"iter"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime/provider"
)

// Recorder wraps a provider and writes every response it streams as a
// replay turn, with the timing it was seen with and a condition on the tool
// results it answered. What it writes plays back with New(Load(file)).
type Recorder struct {
	inner provider.Provider
	w     io.Writer
	name  string

	mu       sync.Mutex
	wroteHdr bool
	err      error
}

// NewRecorder records inner's responses to w as JSONL; name labels the
// scenario.
func NewRecorder(inner provider.Provider, w io.Writer, name string) *Recorder {
	return &Recorder{inner: inner, w: w, name: name}
}

// Name is the wrapped provider's name.
func (r *Recorder) Name() string { return r.inner.Name() }

// Streams is the wrapped provider's answer.
func (r *Recorder) Streams() bool { return r.inner.Streams() }

// Err returns the first error met while writing.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Stream passes req through and records the response once it is complete.
// An abandoned or failed response is not recorded.
func (r *Recorder) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		start := time.Now()
		type span struct{ start, end time.Time }
		spans := map[int]*span{}
		mark := func(idx int) {
			now := time.Now()
			s, ok := spans[idx]
			if !ok {
				spans[idx] = &span{start: now, end: now}
				return
			}
			s.end = now
		}
		for ev, err := range r.inner.Stream(ctx, req) {
			if err != nil {
				yield(ev, err)
				return
			}
			switch ev.Type {
			case provider.EventText, provider.EventToolUseStart, provider.EventToolUse:
				mark(ev.Index)
			case provider.EventMessage:
				r.record(req, ev, start, func(i int) (time.Time, time.Time, bool) {
					s, ok := spans[i]
					if !ok {
						return time.Time{}, time.Time{}, false
					}
					return s.start, s.end, true
				})
			}
			if !yield(ev, nil) {
				return
			}
		}
	}
}

func (r *Recorder) record(req provider.Request, ev provider.Event, start time.Time, span func(int) (time.Time, time.Time, bool)) {
	turn := Turn{StopReason: ev.StopReason}
	if n := len(req.Messages); n > 0 {
		var ids []string
		for _, b := range req.Messages[n-1].Content {
			if b.Type == provider.ToolResultBlock {
				ids = append(ids, b.ToolUseID)
			}
		}
		if len(ids) > 0 {
			turn.When = &Condition{Results: ids}
		}
	}
	prevEnd := start
	for i, b := range ev.Message.Content {
		sb := ScriptBlock{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, Input: b.Input}
		if s, e, ok := span(i); ok {
			sb.DelayMS = max(0, int(s.Sub(prevEnd).Milliseconds()))
			d := int(e.Sub(s).Milliseconds())
			sb.DurationMS = &d
			prevEnd = e
		}
		turn.Blocks = append(turn.Blocks, sb)
	}
	if len(turn.Blocks) == 0 {
		turn.Blocks = []ScriptBlock{{Type: provider.TextBlock}}
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if !r.wroteHdr {
		hdr := Scenario{Name: r.name, Description: fmt.Sprintf("recorded from %s on %s", r.inner.Name(), start.UTC().Format(time.RFC3339))}
		if len(req.Messages) > 0 {
			for _, b := range req.Messages[0].Content {
				if b.Type == provider.TextBlock {
					hdr.Prompt = b.Text
					break
				}
			}
		}
		r.err = r.writeJSON(hdr)
		r.wroteHdr = true
	}
	if r.err == nil {
		r.err = r.writeJSON(turn)
	}
}

func (r *Recorder) writeJSON(v any) error {
	var buf bytes.Buffer
	if err := writeLine(&buf, v); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if _, err := r.w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
