package mcp_test

import (
	"testing"

	"github.com/agentcore/agentcore/runtime/mcp"
)

// FuzzParseConfig feeds arbitrary bytes to the .mcp.json loader: it must
// never panic, and every server of a config it accepts has a name and a
// transport.
//
//	go test -run '^$' -fuzz FuzzParseConfig -fuzztime 30s ./runtime/mcp/
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"mcpServers":{}}`,
		`{"mcpServers":{"a":{"command":"node","args":["s.js"],"env":{"K":"${HOME}"}}}}`,
		`{"mcpServers":{"h":{"type":"http","url":"http://127.0.0.1:1/mcp","headers":{"A":"${X:-d}"}}}}`,
		`{"mcpServers":{"s":{"type":"sse","url":"http://127.0.0.1:1/sse"}}}`,
		`{"mcpServers":{"":{"command":""}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := mcp.ParseConfig(data, "fuzz")
		if err != nil {
			return
		}
		for _, name := range cfg.Names() {
			if name == "" {
				t.Fatalf("accepted %q with an unnamed server", data)
			}
		}
	})
}
