package subagent_test

import (
	"context"
	"encoding/json"
	"iter"
	"sort"
	"testing"
	"time"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/session"
)

// forking is a model whose first answer is one Agent call; the sub-agent
// it forks notes when its first request arrives and answers at once.
type forking struct {
	turn      int
	firstSub  time.Time
	subPrompt string
}

func (f *forking) Name() string  { return "forking" }
func (f *forking) Streams() bool { return true }

func (f *forking) Stream(_ context.Context, _ provider.Request) iter.Seq2[provider.Event, error] {
	f.turn++
	msg := provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("done")}}
	stop := provider.StopEndTurn
	if f.turn == 1 {
		in, _ := json.Marshal(map[string]any{"description": "Look around", "prompt": "Look", "subagent_type": "Explore"})
		msg.Content = []provider.Block{provider.ToolUse("a1", "Agent", in)}
		stop = provider.StopToolUse
	}
	return func(yield func(provider.Event, error) bool) {
		if f.turn == 1 && !yield(provider.Event{Type: provider.EventToolUse, Block: msg.Content[0]}, nil) {
			return
		}
		yield(provider.Event{Type: provider.EventMessage, Message: msg, StopReason: stop}, nil)
	}
}

func (f *forking) Fork(string, string) (provider.Provider, error) { return &sub{f: f}, nil }

type sub struct{ f *forking }

func (s *sub) Name() string  { return "sub" }
func (s *sub) Streams() bool { return true }
func (s *sub) Stream(context.Context, provider.Request) iter.Seq2[provider.Event, error] {
	if s.f.firstSub.IsZero() {
		s.f.firstSub = time.Now()
	}
	msg := provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("nothing here")}}
	return func(yield func(provider.Event, error) bool) {
		yield(provider.Event{Type: provider.EventMessage, Message: msg, StopReason: provider.StopEndTurn}, nil)
	}
}

// BenchmarkAgentCallToFirstRequest measures the runtime's own overhead of
// starting a sub-agent: from the Agent call's start (its EventToolStart,
// after decode, validation and the permission check) to the sub-agent's
// first model request — resolving the type, opening its session (the
// filtered pool, its ToolContext), building its system prompt and
// entering its loop. Reported as ms/first-request, the median of the
// iterations; each iteration runs in a fresh session over the full
// generated tool set.
func BenchmarkAgentCallToFirstRequest(b *testing.B) {
	dir, home := b.TempDir(), b.TempDir()
	var gaps []time.Duration
	for b.Loop() {
		f := &forking{}
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: home, Tools: generated.AllBaseTools(), Provider: f,
			Permissions: permission.Sources{ConfigDir: home}})
		if err != nil {
			b.Fatal(err)
		}
		var start time.Time
		for ev := range s.Run(context.Background(), "go") {
			if ev.Kind == agent.EventToolStart && ev.Name == "Agent" && ev.ParentToolUseID == "" {
				start = ev.At
			}
		}
		s.Close()
		if start.IsZero() || f.firstSub.IsZero() {
			b.Fatal("the Agent call or its sub-agent did not run")
		}
		gaps = append(gaps, f.firstSub.Sub(start))
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
	b.ReportMetric(float64(gaps[len(gaps)/2])/float64(time.Millisecond), "ms/first-request")
}
