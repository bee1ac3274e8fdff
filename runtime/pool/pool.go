// Package pool turns every compiled-in tool and every MCP tool into the
// list the model sees, and decides which definitions are deferred to
// ToolSearch (DESIGN §5, the seed's §3.2):
//
//	AllBaseTools() → mode filter (simple: Bash, Read, Edit)
//	               → blanket deny rules (Bash, mcp__server, …)
//	               → IsEnabled
//	               → assembly: built-ins by name, then mcp__ tools by name,
//	                 de-duplicated by name, built-ins winning
//	               → deferral (always / never / auto:N)
//
// The order is a pure function of the inputs, so the prompt cache stays
// warm from run to run. Deferred tools are not sent; their names reach the
// model in one sorted list (DeferredPrompt), and the ToolSearch tool loads
// their definitions on demand (Search, Loaded, MarkLoaded).
//
// # Wiring
//
//	engine, _ := permission.Load(cwd, home, flags)
//	mode, _ := pool.ResolveDeferMode(os.Getenv, engine.Settings().ToolSearch)
//	p := pool.Assemble(generated.AllBaseTools(), mcpManager.Tools(), pool.Options{
//		Simple: simple, DenyTool: engine.DeniesTool, Defer: mode,
//		ContextWindow: model.ContextWindow, Pending: mcpManager,
//	})
//	pool.Provide(tc, p)                 // ToolSearch searches p
//	// every turn:
//	tools := p.Sent(pool.LoadedIn(tc))  // definitions to send
//	system += p.DeferredPrompt()        // names of the deferred tools
//
// Calls are looked up with p.Lookup (deferred tools too: a model may call
// a tool it loaded). ToolSearch's context modifier records what it loaded
// in tc, so the conversation's ToolContext must carry modifiers from turn
// to turn. Reassemble when MCP servers finish connecting.
package pool

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// DefaultContextWindow is the context window, in tokens, auto mode
// measures against when Options.ContextWindow is zero.
const DefaultContextWindow = 200_000

// PendingServers names the MCP servers still connecting; the MCP manager
// implements it.
type PendingServers interface {
	PendingServers() []string
}

// Options steer Assemble.
type Options struct {
	// Simple keeps only the built-ins named in SimpleTools (MCP tools are
	// still added, and with them the search tool, so they stay deferred).
	Simple bool
	// SimpleTools are the built-ins simple mode keeps; Claude Code keeps
	// Bash, Edit and Read.
	SimpleTools []string
	// SearchTool names the deferred-discovery tool (Claude Code's
	// ToolSearch). It is never deferred, it is sent only while something
	// is deferred, and without it in the pool nothing is deferred: a
	// deferred tool could never be found.
	SearchTool string
	// DenyTool reports whether a blanket deny rule removes a tool
	// (permission.Engine.DeniesTool); nil removes nothing.
	DenyTool func(runtime.Tool) bool
	// Defer is the deferral mode; the zero value is "always".
	Defer DeferMode
	// ContextWindow is the model's context window in tokens, for auto
	// mode; zero means DefaultContextWindow.
	ContextWindow int
	// Pending reports MCP servers still connecting, for ToolSearch; nil
	// means none.
	Pending PendingServers
	// Known names tools that descriptions may mention although they are
	// not among the tools given to Assemble (a sub-agent's pool knows its
	// parent's). Every description is fitted to the pool: what names a
	// known tool the pool lacks is dropped (FitDescription).
	Known []string
}

// Pool is the assembled tool list of a session. It is immutable and safe
// for concurrent use; reassemble when MCP servers come and go.
type Pool struct {
	tools    []runtime.Tool
	deferred map[string]bool
	mode     DeferMode
	window   int
	pending  PendingServers
	search   string
	known    []string

	indexOnce sync.Once
	idx       *index
}

// index returns the search index of the deferred tools, built on the
// first keyword search (the pool is immutable, so once is enough).
func (p *Pool) index() *index {
	p.indexOnce.Do(func() { p.idx = newIndex(p.Deferred(), defaultRankParams) })
	return p.idx
}

// Assemble runs the pipeline over the compiled-in tools (base, in any
// order) and the MCP tools. A tool whose name starts with "mcp__" belongs
// to the MCP group wherever it comes from; every other tool is a
// built-in. Within a group tools are sorted by name; a name seen twice
// keeps the first tool (built-ins before MCP, then input order).
func Assemble(base, mcp []runtime.Tool, opts Options) *Pool {
	var builtins, mcps []runtime.Tool
	keep := func(t runtime.Tool) bool {
		if t == nil {
			return false
		}
		if opts.DenyTool != nil && opts.DenyTool(t) {
			return false
		}
		return safeBool(t.IsEnabled)
	}
	// Simple mode keeps the search tool too when there are MCP tools: they
	// stay deferred behind it rather than all sent up front.
	hasMCP := slices.ContainsFunc(mcp, func(t runtime.Tool) bool { return t != nil && IsMCP(t) }) ||
		slices.ContainsFunc(base, func(t runtime.Tool) bool { return t != nil && IsMCP(t) })
	for _, t := range base {
		if t == nil {
			continue
		}
		if opts.Simple && !IsMCP(t) && !slices.Contains(opts.SimpleTools, t.Name()) &&
			!(hasMCP && opts.SearchTool != "" && t.Name() == opts.SearchTool) {
			continue
		}
		if keep(t) {
			if IsMCP(t) {
				mcps = append(mcps, t)
			} else {
				builtins = append(builtins, t)
			}
		}
	}
	for _, t := range mcp {
		if keep(t) {
			if IsMCP(t) {
				mcps = append(mcps, t)
			} else {
				builtins = append(builtins, t)
			}
		}
	}
	byName := func(a, b runtime.Tool) int { return strings.Compare(a.Name(), b.Name()) }
	slices.SortStableFunc(builtins, byName)
	slices.SortStableFunc(mcps, byName)
	known := slices.Clone(opts.Known)
	for _, t := range slices.Concat(base, mcp) {
		if t != nil && !slices.Contains(known, t.Name()) {
			known = append(known, t.Name())
		}
	}
	seen := map[string]bool{}
	var tools []runtime.Tool
	for _, t := range append(builtins, mcps...) {
		if seen[t.Name()] {
			continue
		}
		seen[t.Name()] = true
		tools = append(tools, t)
	}
	p := &Pool{tools: fit(tools, known), mode: opts.Defer, window: opts.ContextWindow, pending: opts.Pending, search: opts.SearchTool, known: known}
	if p.window <= 0 {
		p.window = DefaultContextWindow
	}
	p.deferred = p.decideDeferral()
	return p
}

// Known returns the names of the tools the pool's descriptions were
// fitted against: its own, those Assemble left out, and Options.Known.
func (p *Pool) Known() []string { return slices.Clone(p.known) }

// IsMCP reports whether t is an MCP tool (its name starts with "mcp__").
func IsMCP(t runtime.Tool) bool { return strings.HasPrefix(t.Name(), "mcp__") }

// Deferrable reports whether t may be withheld until the search tool
// loads it: the search tool never; a tool asking to always load never;
// MCP tools and tools marked shouldDefer otherwise.
func (p *Pool) Deferrable(t runtime.Tool) bool {
	if t.Name() == p.search || safeBool(t.AlwaysLoad) {
		return false
	}
	return IsMCP(t) || safeBool(t.ShouldDefer)
}

func (p *Pool) decideDeferral() map[string]bool {
	out := map[string]bool{}
	if p.mode.Kind == DeferNever || p.search == "" || runtime.Lookup(p.tools, p.search) == nil {
		// Without the search tool a deferred tool could never be found.
		return out
	}
	var candidates []runtime.Tool
	for _, t := range p.tools {
		if p.Deferrable(t) {
			candidates = append(candidates, t)
		}
	}
	if p.mode.Kind == DeferAuto {
		if EstimateTokens(candidates...)*100 <= p.mode.percent()*p.window {
			return out
		}
	}
	for _, t := range candidates {
		out[t.Name()] = true
	}
	return out
}

// Tools returns every tool of the pool in pool order, deferred or not
// (for lookup when a call arrives, and for listings).
func (p *Pool) Tools() []runtime.Tool { return slices.Clone(p.tools) }

// Lookup finds a pool tool by name or alias; nil when none matches.
func (p *Pool) Lookup(name string) runtime.Tool { return runtime.Lookup(p.tools, name) }

// Mode returns the deferral mode the pool was assembled with.
func (p *Pool) Mode() DeferMode { return p.mode }

// IsDeferred reports whether the named tool's definition is withheld.
func (p *Pool) IsDeferred(name string) bool { return p.deferred[name] }

// Deferred returns the deferred tools in pool order.
func (p *Pool) Deferred() []runtime.Tool {
	var out []runtime.Tool
	for _, t := range p.tools {
		if p.deferred[t.Name()] {
			out = append(out, t)
		}
	}
	return out
}

// DeferredNames returns the deferred tools' names, sorted.
func (p *Pool) DeferredNames() []string {
	var out []string
	for name := range p.deferred {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Sent returns the tools whose definitions go to the API this turn, in
// pool order: every tool not deferred, plus the deferred tools loaded in
// the conversation. The search tool is left out when nothing is deferred.
func (p *Pool) Sent(loaded Loaded) []runtime.Tool {
	var out []runtime.Tool
	for _, t := range p.tools {
		name := t.Name()
		switch {
		case name == p.search && len(p.deferred) == 0:
		case p.deferred[name] && !loaded.Has(name):
		default:
			out = append(out, t)
		}
	}
	return out
}

// DeferredPrompt is the text that tells the model which deferred tools
// exist; empty when none are deferred. It lists the names, sorted, one a
// line, so it is byte-identical for the same pool.
func (p *Pool) DeferredPrompt() string {
	names := p.DeferredNames()
	if len(names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<available-deferred-tools>\n")
	fmt.Fprintf(&b, "Load one with %s (\"select:<name>\" or keywords) before calling it.\n", p.search)
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte('\n')
	}
	b.WriteString("</available-deferred-tools>")
	return b.String()
}

// PendingServers names the MCP servers still connecting.
func (p *Pool) PendingServers() []string {
	if p.pending == nil {
		return nil
	}
	out := slices.Clone(p.pending.PendingServers())
	slices.Sort(out)
	return out
}

// safeBool calls a tool's bool method; a panic means false (fail closed:
// not enabled, not deferred, not always loaded).
func safeBool(f func() bool) bool {
	v, _ := runtime.Guard("tool method", f)
	return v
}

// Turn gives the agent loop a turn's tools (agent.Tools): every pool tool
// is callable, and the definitions sent are Sent(LoadedIn(tc)), so tools
// the search tool loaded are sent from the next turn on.
func (p *Pool) Turn(tc *runtime.ToolContext) (callable, sent []runtime.Tool) {
	return p.Tools(), p.Sent(LoadedIn(tc))
}
