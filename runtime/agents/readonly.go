package agents

import (
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// ReadOnlyOver reports whether a sub-agent of type t can only make
// read-only calls, given the tools it would choose from: a read-only
// type, or a custom type whose every listed tool is among tools and
// read-only for every input. A listed tool that is not there (an MCP
// server not connected yet) makes the answer no: it fails closed.
func ReadOnlyOver(t Type, tools []runtime.Tool, self string) bool {
	if t.ReadOnly {
		return true
	}
	if len(t.Tools) == 0 {
		return false
	}
	for _, name := range t.Tools {
		tool := runtime.Lookup(tools, name)
		if tool == nil || tool.Name() == self || !tool.Traits().ReadOnly.Value {
			return false
		}
	}
	return true
}

// readOnlyTypes remembers, by type name, whether the types seen under
// that name were read-only (Remember), for IsReadOnlyType: the Agent
// tool's IsConcurrencySafe sees only the call's input, not the working
// directory the custom types come from. A name seen once as not
// read-only stays so: the answer fails closed.
var readOnlyTypes = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// Remember records which of types are read-only over tools.
func Remember(types []Type, tools []runtime.Tool, self string) {
	readOnlyTypes.Lock()
	defer readOnlyTypes.Unlock()
	for _, t := range types {
		ro := ReadOnlyOver(t, tools, self)
		if prev, ok := readOnlyTypes.m[t.Name]; ok {
			ro = ro && prev
		}
		readOnlyTypes.m[t.Name] = ro
	}
}

// IsReadOnlyType reports whether the type called name is read-only, as
// far as this process has seen (Remember); a built-in type not seen yet
// answers for itself, any other name is not read-only.
func IsReadOnlyType(name string) bool {
	if name == "" {
		name = GeneralPurpose
	}
	readOnlyTypes.Lock()
	ro, ok := readOnlyTypes.m[name]
	readOnlyTypes.Unlock()
	if ok {
		return ro
	}
	t, err := FindType(Builtins(), name)
	return err == nil && t.ReadOnly
}
