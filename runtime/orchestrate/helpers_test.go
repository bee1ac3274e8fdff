package orchestrate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// use builds a ToolUse whose input is v marshalled (or a raw string).
func use(id, name string, v any) orchestrate.ToolUse {
	var raw json.RawMessage
	switch x := v.(type) {
	case nil:
		raw = json.RawMessage(`{}`)
	case string:
		raw = json.RawMessage(x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			panic(err)
		}
		raw = b
	}
	return orchestrate.ToolUse{ID: id, Name: name, Input: raw}
}

// collect splits a stream into results and progress events.
func collect(seq iter.Seq[orchestrate.Event]) (results, progress []orchestrate.Event) {
	for ev := range seq {
		if ev.Kind == orchestrate.EventProgress {
			progress = append(progress, ev)
		} else {
			results = append(results, ev)
		}
	}
	return results, progress
}

func ids(evs []orchestrate.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.ID
	}
	return out
}

func texts(evs []orchestrate.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Result.Text()
	}
	return out
}

func states(ev orchestrate.Event) []string {
	out := make([]string, len(ev.States))
	for i, s := range ev.States {
		out[i] = s.State.String()
	}
	return out
}

var bg = context.Background()

func newTC() *runtime.ToolContext { return runtime.NewToolContext(".") }

var _ = fmt.Sprint

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
