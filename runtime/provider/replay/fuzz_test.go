package replay_test

import (
	"testing"

	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// FuzzParse feeds arbitrary bytes to the scenario parser (JSON and JSONL):
// it must never panic, and a scenario it accepts must marshal and parse
// back.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 30s ./runtime/provider/replay/
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `null`, "{}\n{}", `{"turns":[]}`,
		`{"turns":[{"blocks":[{"type":"text","text":"hi"}]}]}`,
		`{"turns":[{"blocks":[{"type":"tool_use","name":"Read","input":{"file_path":"/a"}}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := replay.Parse(data)
		if err != nil {
			return
		}
		out, err := sc.Marshal()
		if err != nil {
			t.Fatalf("accepted %q but cannot marshal it: %v", data, err)
		}
		if _, err := replay.Parse(out); err != nil {
			t.Fatalf("accepted %q, marshalled to %q, which does not parse: %v", data, out, err)
		}
	})
}
