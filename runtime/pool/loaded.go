package pool

import (
	"slices"

	"github.com/agentcore/agentcore/runtime"
)

// Catalog is what ToolSearch needs of the pool; *Pool implements it. The
// CLI registers it in the ToolContext with Provide, and may register
// its own implementation that follows MCP servers as they connect.
type Catalog interface {
	// Tools returns every tool of the pool, in pool order.
	Tools() []runtime.Tool
	// IsDeferred reports whether the named tool's definition is withheld.
	IsDeferred(name string) bool
	// PendingServers names the MCP servers still connecting.
	PendingServers() []string
}

// Provide registers the catalog ToolSearch searches.
func Provide(tc *runtime.ToolContext, c Catalog) { runtime.WithService[Catalog](tc, c) }

// CatalogFrom returns the catalog registered in tc.
func CatalogFrom(tc *runtime.ToolContext) (Catalog, bool) { return runtime.Service[Catalog](tc) }

// Loaded is the set of deferred tools loaded in a conversation. It is an
// immutable value: With returns a new set, so a cloned ToolContext (a
// sub-agent) never changes its parent's set.
type Loaded struct {
	names []string // sorted, unique
}

// NewLoaded returns a set holding names.
func NewLoaded(names ...string) Loaded { return Loaded{}.With(names...) }

// Has reports whether name is loaded.
func (l Loaded) Has(name string) bool {
	_, ok := slices.BinarySearch(l.names, name)
	return ok
}

// Names returns the loaded names, sorted.
func (l Loaded) Names() []string { return slices.Clone(l.names) }

// With returns the set plus names.
func (l Loaded) With(names ...string) Loaded {
	out := slices.Clone(l.names)
	for _, n := range names {
		if i, ok := slices.BinarySearch(out, n); !ok && n != "" {
			out = slices.Insert(out, i, n)
		}
	}
	return Loaded{names: out}
}

// LoadedIn returns the conversation's loaded set from tc (empty when none
// was recorded). The agent loop passes it to Pool.Sent every turn.
func LoadedIn(tc *runtime.ToolContext) Loaded {
	l, _ := runtime.Service[Loaded](tc)
	return l
}

// MarkLoaded returns the context modifier that records names as loaded
// for the rest of the conversation.
func MarkLoaded(names ...string) runtime.ContextModifier {
	names = slices.Clone(names)
	return func(tc *runtime.ToolContext) {
		if tc == nil {
			return
		}
		runtime.WithService(tc, LoadedIn(tc).With(names...))
	}
}
