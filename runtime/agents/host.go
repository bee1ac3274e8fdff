package agents

import (
	"slices"

	"github.com/agentcore/agentcore/runtime"
)

// HostTypes are the agent types an embedding host defines for one
// session: the Agent SDK's agents option, which comes with its
// initialize request. The host registers them on the session's tool
// context (runtime.WithService); WithHostTypes adds them to the types
// the Agent tool resolves.
type HostTypes []Type

// WithHostTypes returns types and tc's host types; a host type replaces
// a built-in or file type of the same name, as Claude Code's SDK agents
// do.
func WithHostTypes(types []Type, tc *runtime.ToolContext) []Type {
	host, ok := runtime.Service[HostTypes](tc)
	if !ok || len(host) == 0 {
		return types
	}
	out := slices.DeleteFunc(slices.Clone(types), func(t Type) bool {
		return slices.ContainsFunc(host, func(h Type) bool { return h.Name == t.Name })
	})
	return append(out, host...)
}
