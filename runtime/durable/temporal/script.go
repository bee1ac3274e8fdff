package temporal

import (
	"context"
	"iter"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// Script is a replay provider for durable sessions: it keeps no state
// between requests, so any worker can answer any request of any session.
// The turn it plays is picked from the conversation: after n assistant
// messages, the first turn from the n-th on whose condition holds, as
// replay.Provider would pick it.
type Script struct {
	sc   *replay.Scenario
	opts replay.Options
}

// NewScript returns a stateless provider playing sc (opts.Speed 0: no
// delays).
func NewScript(sc *replay.Scenario, opts replay.Options) *Script {
	return &Script{sc: sc, opts: opts}
}

// Name returns the replay provider's name.
func (s *Script) Name() string { return replay.New(s.sc, s.opts).Name() }

// Streams reports the scenario's stream setting.
func (s *Script) Streams() bool { return replay.New(s.sc, s.opts).Streams() }

// Stream plays the turn that follows the conversation of req.
func (s *Script) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	n := 0
	for _, m := range req.Messages {
		if m.Role == provider.Assistant {
			n++
		}
	}
	sub := *s.sc
	if n < len(sub.Turns) {
		sub.Turns = sub.Turns[n:]
	} else {
		sub.Turns = nil
	}
	return replay.New(&sub, s.opts).Stream(ctx, req)
}
