package main

import (
	"fmt"

	"github.com/agentcore/agentcore/runtime/provider"
)

// fallbackProvider is --fallback-model's provider, nil without the flag.
// A bare name is Anthropic's, as for --model; the same model as main is
// refused, as Claude Code does.
func (f *runFlags) fallbackProvider(main provider.Provider) (provider.Provider, error) {
	if f.fallbackModel == "" {
		return nil, nil
	}
	p, _, err := modelSpec(f.fallbackModel)
	if err != nil {
		return nil, fmt.Errorf("--fallback-model: %w", err)
	}
	if p.Name() == main.Name() {
		return nil, fmt.Errorf("--fallback-model %s is the main model: pick a different model to fall back to", f.fallbackModel)
	}
	return p, nil
}
