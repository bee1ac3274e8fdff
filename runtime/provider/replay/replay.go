// Package replay is a provider.Provider that streams a scripted
// conversation (a Scenario) with realistic timing: text arrives in deltas,
// tool_use blocks finish one by one, so the agent loop starts tools while
// the "model" is still talking — offline, without a key.
//
// A turn may be conditioned on the tool results of the previous user
// message (which ids were answered, which failed), so one scenario can
// branch on what the tools did. Recorder turns a live session with any
// provider into such a scenario.
package replay

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime/provider"
)

//go:embed default.jsonl
var defaultScenario []byte

// Default returns the embedded default scenario: a read-only look around
// the current directory.
func Default() *Scenario {
	sc, err := Parse(defaultScenario)
	if err != nil {
		panic("replay: the embedded default scenario is invalid: " + err.Error())
	}
	return sc
}

// Options tune a replay provider.
type Options struct {
	// Speed scales time: 2 plays twice as fast; 0 or less plays without
	// any delay (for tests).
	Speed float64
	// Name is shown as the provider name; default "replay".
	Name string
	// Cwd replaces ${CWD} in tool inputs, so a scenario can use the
	// absolute paths file tools want wherever it is played.
	Cwd string
}

// Provider streams a Scenario.
type Provider struct {
	sc   *Scenario
	opts Options

	mu     sync.Mutex
	cursor int // index of the next turn to consider
}

// New returns a provider playing sc.
func New(sc *Scenario, opts Options) *Provider {
	if opts.Name == "" {
		opts.Name = "replay"
		if sc.Name != "" {
			opts.Name = "replay:" + sc.Name
		}
	}
	return &Provider{sc: sc, opts: opts}
}

// Fork plays the turns sc scripts for the sub-agent of the Agent call id
// (Scenario.Subagents), from the first; model is ignored. A sub-agent
// without a script is an error naming the scripted ones.
func (p *Provider) Fork(id, _ string) (provider.Provider, error) {
	turns, ok := p.sc.Subagents[id]
	if !ok {
		known := make([]string, 0, len(p.sc.Subagents))
		for k := range p.sc.Subagents {
			known = append(known, k)
		}
		slices.Sort(known)
		list := "none"
		if len(known) > 0 {
			list = strings.Join(known, ", ")
		}
		return nil, fmt.Errorf("replay: the scenario scripts no sub-agent for the Agent call %s (it scripts: %s); add turns with \"agent\":%q", id, list, id)
	}
	sub := &Scenario{Name: p.sc.Name, Stream: p.sc.Stream, Turns: turns}
	opts := p.opts
	opts.Name = p.opts.Name + "/" + id
	return &Provider{sc: sub, opts: opts}, nil
}

// Scenario returns the scenario being played.
func (p *Provider) Scenario() *Scenario { return p.sc }

// Name returns "replay:<scenario name>".
func (p *Provider) Name() string { return p.opts.Name }

// Streams reports the scenario's "stream" setting (default true).
func (p *Provider) Streams() bool { return p.sc.Stream == nil || *p.sc.Stream }

// next picks the first remaining turn whose condition holds.
func (p *Provider) next(req provider.Request) (Turn, error) {
	var last provider.Message
	if n := len(req.Messages); n > 0 {
		last = req.Messages[n-1]
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cursor >= len(p.sc.Turns) {
		return Turn{}, fmt.Errorf("replay: the scenario has no turn left (it has %d); the conversation went further than the script", len(p.sc.Turns))
	}
	for i := p.cursor; i < len(p.sc.Turns); i++ {
		if p.sc.Turns[i].When.matches(req.Messages) {
			p.cursor = i + 1
			return p.sc.Turns[i], nil
		}
	}
	var got []string
	for _, b := range last.Content {
		if b.Type == provider.ToolResultBlock {
			state := "ok"
			if b.IsError {
				state = "error"
			}
			got = append(got, b.ToolUseID+"="+state)
		}
	}
	return Turn{}, fmt.Errorf("replay: no remaining turn (from turn %d) matches the tool results [%s]", p.cursor+1, strings.Join(got, " "))
}

// Stream plays the next matching turn.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		turn, err := p.next(req)
		if err != nil {
			yield(provider.Event{}, err)
			return
		}
		msg := provider.Message{Role: provider.Assistant}
		var out int64
		streams := p.Streams()
		for i, b := range turn.Blocks {
			if err := p.sleep(ctx, b.DelayMS); err != nil {
				yield(provider.Event{}, err)
				return
			}
			dur := duration(b)
			switch b.Type {
			case provider.TextBlock:
				pieces := split(b.Text, dur)
				each := dur / max(1, len(pieces))
				for _, piece := range pieces {
					if err := p.sleep(ctx, each); err != nil {
						yield(provider.Event{}, err)
						return
					}
					if streams && !yield(provider.Event{Type: provider.EventText, Index: i, Text: piece}, nil) {
						return
					}
				}
				msg.Content = append(msg.Content, provider.Text(b.Text))
				out += int64(len(b.Text)/4 + 1)
			case provider.ToolUseBlock:
				block := provider.ToolUse(b.ID, b.Name, p.expand(b.Input))
				if streams && !yield(provider.Event{Type: provider.EventToolUseStart, Index: i, Block: provider.ToolUse(b.ID, b.Name, nil)}, nil) {
					return
				}
				// The input "streams" for dur; the block is usable only
				// once it is complete.
				if err := p.sleep(ctx, dur); err != nil {
					yield(provider.Event{}, err)
					return
				}
				if streams && !yield(provider.Event{Type: provider.EventToolUse, Index: i, Block: block}, nil) {
					return
				}
				msg.Content = append(msg.Content, block)
				out += int64(len(b.Input)/4 + 1)
			}
		}
		stop := turn.StopReason
		if stop == "" {
			stop = provider.StopEndTurn
			if len(msg.ToolUses()) > 0 {
				stop = provider.StopToolUse
			}
		}
		usage := provider.Usage{InputTokens: inputTokens(req), OutputTokens: out}
		if turn.Usage != nil {
			usage = *turn.Usage
		}
		yield(provider.Event{Type: provider.EventMessage, Message: msg, StopReason: stop, Usage: usage}, nil)
	}
}

// duration is a block's streaming time: explicit, or about 60 characters
// a second for text and 200 ms for a tool call's input.
func duration(b ScriptBlock) int {
	if b.DurationMS != nil {
		return *b.DurationMS
	}
	if b.Type == provider.ToolUseBlock {
		return 200
	}
	return min(1500, utf8.RuneCountInString(b.Text)*1000/60)
}

// split cuts text into word-sized deltas, about one per 30 ms of streaming.
func split(text string, durMS int) []string {
	if text == "" {
		return nil
	}
	n := max(1, min(durMS/30, utf8.RuneCountInString(text)))
	words := strings.SplitAfter(text, " ")
	if n >= len(words) {
		return words
	}
	per := int(math.Ceil(float64(len(words)) / float64(n)))
	var out []string
	for i := 0; i < len(words); i += per {
		out = append(out, strings.Join(words[i:min(len(words), i+per)], ""))
	}
	return out
}

// expand replaces ${CWD} in a tool input with Options.Cwd.
func (p *Provider) expand(in json.RawMessage) json.RawMessage {
	if p.opts.Cwd == "" || !bytes.Contains(in, []byte("${CWD}")) {
		return in
	}
	q, _ := json.Marshal(p.opts.Cwd)
	return bytes.ReplaceAll(in, []byte("${CWD}"), q[1:len(q)-1])
}

func (p *Provider) sleep(ctx context.Context, ms int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ms <= 0 || p.opts.Speed <= 0 {
		return nil
	}
	d := time.Duration(float64(ms) * float64(time.Millisecond) / p.opts.Speed)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// inputTokens estimates the request's size, four bytes a token: the
// system prompt, the messages and the tool definitions sent, so a run
// shows offline what deferring definitions saves.
func inputTokens(req provider.Request) int64 {
	n := len(req.System)
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	for _, m := range req.Messages {
		for _, b := range m.Content {
			n += len(b.Text) + len(b.Input)
			for _, c := range b.Content {
				n += len(c.Text)
			}
		}
	}
	return int64(n/4 + 1)
}
