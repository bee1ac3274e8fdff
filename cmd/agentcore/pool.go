package main

import (
	"context"
	"slices"

	"github.com/spf13/cobra"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

// poolFlags are the flags that decide which tools the model sees.
type poolFlags struct {
	simple bool
}

func (f *poolFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.simple, "simple", false, "simple mode: only Bash, Read and Edit")
}

// toolPool is the assembled tool list and what is deferred.
type toolPool struct {
	// Tools is in pool order: built-ins by name, then MCP tools by name.
	Tools    []runtime.Tool
	deferred map[string]bool
	closers  []func()
}

// Deferred reports whether the named tool is withheld until ToolSearch.
func (p *toolPool) Deferred(name string) bool { return p.deferred[name] }

// Sent returns the tools whose definitions are sent to the model.
func (p *toolPool) Sent() []runtime.Tool {
	var out []runtime.Tool
	for _, t := range p.Tools {
		if !p.deferred[t.Name()] {
			out = append(out, t)
		}
	}
	return out
}

// Close stops whatever the pool started (MCP servers).
func (p *toolPool) Close() {
	for _, c := range p.closers {
		c()
	}
}

func (f *poolFlags) assemble(_ context.Context) (*toolPool, error) {
	var tools []runtime.Tool
	for _, t := range generated.AllBaseTools() {
		if f.simple && !slices.Contains([]string{"Bash", "Read", "Edit"}, t.Name()) {
			continue
		}
		if t.IsEnabled() {
			tools = append(tools, t)
		}
	}
	slices.SortFunc(tools, func(a, b runtime.Tool) int {
		if a.Name() < b.Name() {
			return -1
		}
		if a.Name() > b.Name() {
			return 1
		}
		return 0
	})
	p := &toolPool{Tools: tools, deferred: map[string]bool{}}
	for _, t := range tools {
		if t.ShouldDefer() && !t.AlwaysLoad() {
			p.deferred[t.Name()] = true
		}
	}
	return p, nil
}
