package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/sdkproto"
	"github.com/agentcore/agentcore/runtime/session"
)

// The Agent SDK's protocol is runtime/sdkproto's; what is agentcore's
// own is here: the model set_model switches to, and the host's agent
// types offered to the Agent tool.

// newSDKChannel is the channel to the SDK host on stdin and out, whose
// set_model switches current (spec "": back to --model).
func newSDKChannel(out, warn io.Writer, current *switchable, defaultModel string) *sdkproto.Channel {
	return sdkproto.New(out, warn, sdkproto.Options{
		APIKeySource: apiKeySource(),
		SetModel: func(spec string) error {
			if spec == "" {
				spec = defaultModel
			}
			p, _, err := modelSpec(spec)
			if err != nil {
				return err
			}
			current.set(p)
			return nil
		},
	})
}

// apiKeySource names the variable the Messages API's credential comes
// from, or "none", as Claude Code reports it.
func apiKeySource() string {
	switch {
	case os.Getenv("ANTHROPIC_API_KEY") != "":
		return "ANTHROPIC_API_KEY"
	case os.Getenv("ANTHROPIC_AUTH_TOKEN") != "":
		return "ANTHROPIC_AUTH_TOKEN"
	}
	return "none"
}

// hostTypes are the initialize request's agents as sub-agent types, by
// name. An agent with disallowedTools is left out, with a warning:
// agentcore cannot take tools away from an agent's set, and giving it
// the tools the host meant to withhold would widen what it may do.
func hostTypes(init *sdkproto.Initialize, warn io.Writer) agents.HostTypes {
	if init == nil {
		return nil
	}
	var out agents.HostTypes
	for _, name := range slices.Sorted(maps.Keys(init.Agents)) {
		a := init.Agents[name]
		if len(a.DisallowedTools) > 0 {
			fmt.Fprintf(warn, "agentcore: the SDK host's agent %q is left out: agentcore does not support disallowedTools (list the tools it may use instead)\n", name)
			continue
		}
		out = append(out, agents.Type{Name: name, Description: a.Description, Tools: a.Tools, Model: a.Model,
			System: a.Prompt, Source: "the SDK host (agents)"})
	}
	return out
}

// withHostAgents tells the model of the host's agent types where it
// learns of the others: the Agent tool's description.
func withHostAgents(o *session.Options, host agents.HostTypes) {
	if len(host) == 0 {
		return
	}
	_, list, _ := strings.Cut(agents.DescribeTypes(host), "\n")
	o.Tools = slices.Clone(o.Tools)
	for i, t := range o.Tools {
		if t.Name() == agentTool {
			o.Tools[i] = runtime.WithDescription(t, strings.TrimRight(t.Description(), "\n")+"\n\nAgent types the host application defines:\n"+list)
		}
	}
}
