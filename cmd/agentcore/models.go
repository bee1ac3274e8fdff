package main

import (
	"context"
	"errors"
	"iter"
	"os"
	"sync"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/provider/awscreds"
	"github.com/agentcore/agentcore/runtime/provider/openai"
)

// userAgent is what the model providers send as User-Agent.
func userAgent() string { return "agentcore/" + moduleVersion() }

// anthropicConfigured reports whether the environment asks for the
// Anthropic API when --model is not given.
func anthropicConfigured() bool {
	for _, v := range []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_MODEL"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// apiModel returns the provider of an API-backed --model: kind is the part
// before the colon, name the model (empty for the default). The SDKs'
// own retries are off: the agent loop retries a whole request, with the
// session's policy, and shows each retry.
func apiModel(kind, name string) (provider.Provider, error) {
	timeouts, err := provider.ResolveTimeouts(os.Getenv)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "anthropic":
		return anthropic.NewWithOptions(anthropicOptions(name, timeouts)), nil
	case "openai":
		if name == "" {
			return nil, errors.New("--model openai needs a model name: --model openai:NAME, e.g. openai:gpt-4.1, or the name your server serves (openai:qwen3:8b for Ollama)")
		}
		p, err := openai.New(openaiOptions(name, timeouts))
		if err != nil {
			return nil, err
		}
		return p, nil
	case "bedrock":
		o := anthropicOptions(name, timeouts)
		if o.Model == "" {
			return nil, errors.New("--model bedrock needs a Bedrock model ID: --model bedrock:MODEL, e.g. bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0")
		}
		o.AuthToken = "" // Bedrock signs with the AWS credentials
		o.AWS = awscreds.Env{Getenv: os.Getenv}
		p, err := anthropic.NewBedrock(context.Background(), o)
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	return nil, errors.New("unknown model kind " + kind)
}

// switchable is the session's model, which the Agent SDK host may change
// between requests (set_model): each request goes to the model current
// when it is sent.
type switchable struct {
	mu      sync.Mutex
	current provider.Provider
}

func (s *switchable) get() provider.Provider {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// set makes p the model of the next request.
func (s *switchable) set(p provider.Provider) {
	s.mu.Lock()
	s.current = p
	s.mu.Unlock()
}

func (s *switchable) Name() string  { return s.get().Name() }
func (s *switchable) Streams() bool { return s.get().Streams() }

func (s *switchable) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return s.get().Stream(ctx, req)
}

// Fork gives a sub-agent the current model's provider for it
// (provider.ForSubagent): the replay model's script for that Agent call.
// Without it the sub-agent would play the parent's turns.
func (s *switchable) Fork(id, model string) (provider.Provider, error) {
	return provider.ForSubagent(s.get(), id, model)
}
