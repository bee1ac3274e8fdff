package gen_test

import (
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

// FuzzGeneratedDecoders is FuzzDecode for the real tools: every decoder in
// generated/ (this variant's registry) must accept exactly what
// santhosh-tekuri/jsonschema accepts on the tool's generated schema, except
// for Go range limits the schema cannot state, and never panic.
//
//	go test -run '^$' -fuzz FuzzGeneratedDecoders -fuzztime 30s ./gen/
func FuzzGeneratedDecoders(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `[]`, `"x"`,
		`{"file_path":"/a","offset":1,"limit":2}`,
		`{"file_path":"/a","old_string":"a","new_string":"b","replace_all":true}`,
		`{"command":"ls -la","timeout":1000,"description":"list","run_in_background":false}`,
		`{"pattern":"**/*.go","path":"/tmp"}`,
		`{"pattern":"func","output_mode":"content","-n":true,"-C":2,"head_limit":10}`,
		`{"todos":[{"content":"a","status":"pending","activeForm":"doing a"}]}`,
		`{"questions":[{"question":"q?","header":"h","options":[{"label":"a","description":"b"}],"multiSelect":false}]}`,
		`{"url":"http://127.0.0.1/","prompt":"p"}`,
		`{"file_path":"\ud800","content":"\u0000"}`,
		`{"timeout":1e400}`, `{"offset":-1}`, `{"limit":1.5}`,
	} {
		f.Add([]byte(s))
	}
	tools := generated.AllBaseTools()
	schemas := make([]*jsonschema.Schema, len(tools))
	for i, t := range tools {
		s, err := compileSchema(t)
		if err != nil {
			f.Fatalf("%s: %v", t.Name(), err)
		}
		schemas[i] = s
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, tool := range tools {
			checkAgainstReference(t, tool, schemas[i], data)
		}
	})
}

func checkAgainstReference(t *testing.T, tool runtime.Tool, s *jsonschema.Schema, data []byte) {
	t.Helper()
	v, err := tool.Decode(json.RawMessage(data))
	ref := referenceValid(s, data)
	if rangeOnly(err) {
		return
	}
	if (err == nil) != (ref == nil) {
		t.Fatalf("%s: generated decoder says %v, reference validator says %v, for %q", tool.Name(), err, ref, data)
	}
	if err == nil && v == nil {
		t.Fatalf("%s: accepted %q but returned no input", tool.Name(), data)
	}
}
