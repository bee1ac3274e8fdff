// Command tooldump writes the built-in tools' search-relevant definitions
// (name, description, search hint, input schema) as JSON, for the
// ToolSearch evaluation in runtime/pool, which may not import generated.
// The committed fixture is the external variant's:
//
//	go run ./benchmarks/tooldump > runtime/pool/testdata/builtins.json
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentcore/agentcore/generated"
)

// tool is one built-in as the fixture holds it.
type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	SearchHint  string          `json:"searchHint,omitempty"`
	ShouldDefer bool            `json:"shouldDefer,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

func main() {
	var out []tool
	for _, t := range generated.AllBaseTools() {
		out = append(out, tool{
			Name:        t.Name(),
			Description: t.Description(),
			SearchHint:  t.SearchHint(),
			ShouldDefer: t.ShouldDefer(),
			InputSchema: t.InputSchema(),
		})
	}
	b, err := json.MarshalIndent(map[string]any{"tools": out}, "", "  ")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tooldump:", err)
		os.Exit(1)
	}
	os.Stdout.Write(append(b, '\n'))
}
