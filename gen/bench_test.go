package gen_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	markersdefs "github.com/agentcore/agentcore/gen/testdata/markers/tooldefs"
	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

// readInput is a typical Read call from the model.
var readInput = []byte(`{"file_path": "/home/user/project/internal/server/handler.go", "offset": 120, "limit": 80}`)

// BenchmarkDecodeRead compares, on the same Read-like input, the generated
// decode+validate with a plain json.Unmarshal into the same struct (no
// validation) and with santhosh-tekuri/jsonschema validating the generated
// schema (parse + validate, as it must to see the input).
//
//	go test -run '^$' -bench DecodeRead -benchmem ./gen/
func BenchmarkDecodeRead(b *testing.B) {
	tool := fileReadTool
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tool.Decode(readInput); err != nil {
				b.Fatal(err)
			}
		}
	})
	if real := runtime.Lookup(generated.AllBaseTools(), "Read"); real != nil {
		b.Run("generated-agentcore-Read", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := real.Decode(readInput); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in := new(markersdefs.FileReadInput)
			if err := json.Unmarshal(readInput, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	s, err := compileSchema(tool)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("santhosh-tekuri", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(readInput))
			if err != nil {
				b.Fatal(err)
			}
			if err := s.Validate(inst); err != nil {
				b.Fatal(err)
			}
		}
	})
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(readInput))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("santhosh-tekuri-validate-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Validate(inst); err != nil {
				b.Fatal(err)
			}
		}
	})
}
