package agents

import (
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// WithTypes returns the Agent tool t whose description ends with the
// types the model may pick (DescribeTypes), the custom ones included,
// and remembers which of them are read-only over tools (Remember) so the
// Agent call's IsConcurrencySafe knows them. A front end calls it once it
// has loaded the types of the working directory (LoadTypes); the other
// tools pass through as they are.
func WithTypes(tools []runtime.Tool, self string, types []Type) []runtime.Tool {
	Remember(types, tools, self)
	out := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		out[i] = t
		if t.Name() == self {
			out[i] = runtime.WithDescription(t, strings.TrimRight(t.Description(), "\n")+"\n\n"+DescribeTypes(types))
		}
	}
	return out
}
