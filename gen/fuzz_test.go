package gen_test

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FuzzDecode feeds arbitrary bytes to the generated decoders: they must
// never panic, and must accept exactly what the reference validator
// accepts on the generated schema, except for Go range limits the schema
// cannot state. Seeds live in testdata/fuzz/FuzzDecode.
//
//	go test -run '^$' -fuzz FuzzDecode -fuzztime 30s ./gen/
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"file_path":"/a","offset":1,"limit":2}`,
		`{"mode":"fast","edits":[{"old_string":"a","new_string":"b"}],"tags":["x"],"spans":{"k":{"start":1}},"matrix":[[1]],"extra":{"a":[null]}}`,
		`{"mode":"slow","edits":[],"count":1.0,"ratio":0.5,"name":"\u00e9\u00e9"}`,
		`[]`, `null`, `{"file_path":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	schemas := make([]*jsonschema.Schema, len(fixtureTools))
	for i, t := range fixtureTools {
		s, err := compileSchema(t)
		if err != nil {
			f.Fatal(err)
		}
		schemas[i] = s
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, tool := range fixtureTools {
			v, err := tool.Decode(json.RawMessage(data))
			ref := referenceValid(schemas[i], data)
			if rangeOnly(err) {
				continue
			}
			if (err == nil) != (ref == nil) {
				t.Fatalf("%s: generated decoder says %v, reference validator says %v, for %q", tool.Name(), err, ref, data)
			}
			if err == nil && v == nil {
				t.Fatalf("%s: accepted %q but returned no input", tool.Name(), data)
			}
		}
	})
}
