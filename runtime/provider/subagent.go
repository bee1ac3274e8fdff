package provider

import "fmt"

// Forker is a provider that gives a sub-agent a provider of its own. The
// replay provider plays the sub-agent's scripted turns (keyed by the
// Agent call's tool_use id); an API provider returns itself, or a copy
// talking to another model.
type Forker interface {
	// Fork returns the provider for the sub-agent started by the Agent
	// call id; model, when not empty, is the model the call asked for
	// (e.g. "haiku" or a full model name).
	Fork(id, model string) (Provider, error)
}

// ForSubagent returns the provider a sub-agent of p uses: p.Fork when p
// is a Forker, else p itself, which fails when a model is asked for that
// p cannot switch to.
func ForSubagent(p Provider, id, model string) (Provider, error) {
	if f, ok := p.(Forker); ok {
		return f.Fork(id, model)
	}
	if model != "" {
		return nil, fmt.Errorf("the model provider %s cannot switch a sub-agent to model %q; leave model out to use the parent's", p.Name(), model)
	}
	return p, nil
}
