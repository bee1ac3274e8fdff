package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/agentcore/agentcore/runtime/mcp"
)

// FuzzDecodeObject checks the MCP adapter's input check on arbitrary
// bytes: it never panics, and what it accepts is a JSON object holding the
// required key.
func FuzzDecodeObject(f *testing.F) {
	for _, seed := range []string{`{"text":"x"}`, `{}`, `[]`, `null`, ``, `{"text":`, `"s"`, `{"text":1,"a":{"b":[1,2]}}`, " \n{\"text\":null} "} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := mcp.DecodeObject(json.RawMessage(raw), []string{"text"})
		if err != nil {
			return
		}
		if _, ok := in["text"]; !ok {
			t.Fatalf("accepted %q without the required key", raw)
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			t.Fatalf("accepted %q, which is not a JSON object", raw)
		}
	})
}
