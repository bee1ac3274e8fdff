package gen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentcore/agentcore/features"
	fieldsgen "github.com/agentcore/agentcore/gen/testdata/fields/generated"
	fieldsdefs "github.com/agentcore/agentcore/gen/testdata/fields/tooldefs"
	gatedgen "github.com/agentcore/agentcore/gen/testdata/gated/generated"
	markersgen "github.com/agentcore/agentcore/gen/testdata/markers/generated"
	markersdefs "github.com/agentcore/agentcore/gen/testdata/markers/tooldefs"
	methodsgen "github.com/agentcore/agentcore/gen/testdata/methods/generated"
	methodsdefs "github.com/agentcore/agentcore/gen/testdata/methods/tooldefs"
	minimalgen "github.com/agentcore/agentcore/gen/testdata/minimal/generated"
	"github.com/agentcore/agentcore/runtime"
)

// compileSchema compiles a tool's input schema with the reference
// validator.
func compileSchema(t runtime.Tool) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.InputSchema()))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	url := "mem:///" + t.Name() + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// referenceValid validates raw JSON with santhosh-tekuri/jsonschema.
func referenceValid(s *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// rangeOnly reports a rejection the schema cannot express: the Go field's
// integer or float range (an int8 holding 300, a uint holding -1).
func rangeOnly(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "must be an integer from") || strings.Contains(err.Error(), "out of range for a"))
}

// The golden scenarios' tools, as the test binary compiles them.
var (
	echoTool     runtime.Tool = minimalgen.EchoTool()
	fileReadTool runtime.Tool = markersgen.FileReadTool()
	fieldsTool   runtime.Tool = fieldsgen.FieldsTool()
	methodsTool  runtime.Tool = methodsgen.MethodsTool()
	fixtureTools              = []runtime.Tool{echoTool, fileReadTool, fieldsTool, methodsTool}
)

var _ = Describe("generated decoding", func() {
	It("compiles every generated schema with the reference validator", func() {
		dirs, err := filepath.Glob("testdata/*/generated/schemas")
		Expect(err).NotTo(HaveOccurred())
		Expect(len(dirs)).To(BeNumerically(">=", 5))
		for _, dir := range append(dirs, "../generated/schemas") {
			entries, err := os.ReadDir(dir)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				Expect(err).NotTo(HaveOccurred())
				doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
				Expect(err).NotTo(HaveOccurred(), e.Name())
				c := jsonschema.NewCompiler()
				Expect(c.AddResource("mem:///"+e.Name(), doc)).To(Succeed())
				_, err = c.Compile("mem:///" + e.Name())
				Expect(err).NotTo(HaveOccurred(), e.Name())
				var m map[string]any
				Expect(json.Unmarshal(b, &m)).To(Succeed())
				Expect(m).To(HaveKeyWithValue("type", "object"), e.Name())
				Expect(m).To(HaveKeyWithValue("additionalProperties", false), e.Name())
				for _, k := range []string{"$schema", "$id", "$ref", "$defs"} {
					Expect(string(b)).NotTo(ContainSubstring(`"`+k+`"`), e.Name())
				}
			}
		}
	})

	DescribeTable("agrees with the reference validator on accept and reject",
		func(tool runtime.Tool, input string, accept bool) {
			s, err := compileSchema(tool)
			Expect(err).NotTo(HaveOccurred())
			_, got := tool.Decode(json.RawMessage(input))
			ref := referenceValid(s, []byte(input))
			Expect(got == nil).To(Equal(accept), "generated: %v", got)
			Expect(ref == nil).To(Equal(accept), "reference: %v", ref)
		},
		Entry(nil, fileReadTool, `{"file_path":"/a"}`, true),
		Entry(nil, fileReadTool, ` { "file_path" : "/a" , "offset" : 3 , "limit" : 1 } `, true),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":2.0}`, true),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":1e2}`, true),
		Entry(nil, fileReadTool, `{"file_path":""}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":0}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","offset":-1}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":null}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":1.5}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":"5"}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a","extra":1}`, false),
		Entry(nil, fileReadTool, `{}`, false),
		Entry(nil, fileReadTool, `[]`, false),
		Entry(nil, fileReadTool, `null`, false),
		Entry(nil, fileReadTool, `"x"`, false),
		Entry(nil, fileReadTool, ``, false),
		Entry(nil, fileReadTool, `{"file_path":"/a"} x`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a",}`, false),
		Entry(nil, fileReadTool, `{"file_path":"/a" "limit":1}`, false),
		Entry(nil, fileReadTool, `{"file_path":"\x01"}`, false),
		Entry(nil, fileReadTool, `{"file_path":"\u00e9\ud83d\ude00"}`, true),
		Entry(nil, fileReadTool, `{"file_path":"/a","file_path":"/b"}`, true),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[]}`, true),
		Entry(nil, fieldsTool, `{"mode":"f\u0061st","edits":[]}`, true),
		Entry(nil, fieldsTool, `{"mode":"a,b","edits":[{"old_string":"a","new_string":"b","replace_all":true}],"count":-5,"small":3,"ratio":1.5,"weight":1e3,"size":0,"tags":["x","z"],"spans":{"k":{"start":1,"end":200}},"env":{"A":1.5},"matrix":[[1,2],[]],"extra":{"a":[1,null]},"raw":null,"Plain":"p","first":{"old_string":"","new_string":""},"flag":false,"verbose":false,"name":"éé","globs":[]}`, true),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"extra":null}`, true),
		Entry(nil, fieldsTool, `{"edits":[]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast"}`, false),
		Entry(nil, fieldsTool, `{"mode":"medium","edits":[]}`, false),
		Entry(nil, fieldsTool, `{"mode":1,"edits":[]}`, false),
		Entry(nil, fieldsTool, `{"mode":null,"edits":[]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":{}}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"name":"a"}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"name":"abcdefghi"}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"count":6}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"count":-6}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"small":4}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"ratio":-0.1}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"ratio":1.6}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"flag":"true"}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":[]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":["x","y","z","x"]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":["w"]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":"x"}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[{"old_string":"a"}]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[{"old_string":"a","new_string":"b","x":1}]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"first":null}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"spans":{"k":{"start":1,"end":201}}}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"spans":{"k":{}}}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"env":{"A":"1"}}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"matrix":[[1.5]]}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"Skipped":"x"}`, false),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"plain":"x"}`, false),
	)

	DescribeTable("tells the model exactly which parameter is wrong",
		func(tool runtime.Tool, input, want string) {
			_, err := tool.Decode(json.RawMessage(input))
			Expect(err).To(MatchError(want))
		},
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":"5"}`, `parameter "limit": expected integer, got string`),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":0}`, `parameter "limit": must be at least 1 (got 0)`),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":1.5}`, `parameter "limit": expected integer, got 1.5`),
		Entry(nil, fileReadTool, `{"file_path":"/a","limit":1e30}`, `parameter "limit": must be an integer from -9223372036854775808 to 9223372036854775807 (got 1e30)`),
		Entry(nil, fileReadTool, `{"offset":1}`, `parameter "file_path": required parameter is missing`),
		Entry(nil, fileReadTool, `{"file_path":"/a","path":"/b"}`, `parameter "path": unknown parameter; allowed: file_path, offset, limit`),
		Entry(nil, fileReadTool, `[]`, `input: expected object, got array`),
		Entry(nil, fileReadTool, `{"file_path":"/a",}`, `input: invalid JSON at offset 18: expected a member name, found '}'`),
		Entry(nil, fileReadTool, `{"file_path":"/a"`, `input: invalid JSON: unexpected end of input`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[{"old_string":"a"}]}`, `parameter "edits[0].new_string": required parameter is missing`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"spans":{"k":{"start":"x"}}}`, `parameter "spans[\"k\"].start": expected integer, got string`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":["x","w"]}`, `parameter "tags[1]": must be one of "x", "y", "z" (got "w")`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"matrix":[[1],[2,"3"]]}`, `parameter "matrix[1][1]": expected integer, got string`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"name":"a"}`, `parameter "name": must be at least 2 characters long (got 1)`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"tags":[]}`, `parameter "tags": must have at least 1 items (got 0)`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"small":300}`, `parameter "small": must be an integer from -128 to 127 (got 300)`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"spans":{"k":{"start":-1}}}`, `parameter "spans[\"k\"].start": must be an integer from 0 to 4294967295 (got -1)`),
		Entry(nil, fieldsTool, `{"mode":"fast","edits":[],"first":null}`, `parameter "first": expected object, got null`),
	)

	It("applies defaults to absent parameters only", func() {
		v, err := fieldsTool.Decode(json.RawMessage(`{"mode":"slow","edits":[{"old_string":"a","new_string":"b"}],"verbose":false}`))
		Expect(err).NotTo(HaveOccurred())
		in := v.(*fieldsdefs.FieldsInput)
		Expect(in.Name).To(Equal("anon"))
		Expect(in.Verbose).To(BeFalse())
		Expect(in.Globs).To(Equal([]string{"*.go", "*.md"}))
		Expect(in.Count).To(BeNil())
		Expect(in.Edits).To(Equal([]fieldsdefs.Edit{{OldString: "a", NewString: "b"}}))
		Expect(in.Mode).To(Equal(fieldsdefs.Mode("slow")))

		v, err = fileReadTool.Decode(json.RawMessage(`{"file_path":"/x"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal(&markersdefs.FileReadInput{FilePath: "/x", Limit: 2000}))
	})

	It("decodes what encoding/json decodes, value for value", func() {
		raw := `{"mode":"a,b","edits":[{"old_string":"a\n\"q\"","new_string":"b"}],"count":2,"small":3,"ratio":0.25,"weight":2.5,"size":18446744073709551615,"tags":["x"],"spans":{"k":{"start":1,"end":200}},"env":{"A":1.5},"matrix":[[1,2],[]],"extra":{"a":[1,null,"s",true]},"raw":{"z": [1]},"Plain":"p","first":{"old_string":"","new_string":"","replace_all":true},"flag":true,"verbose":false,"name":"\u00e9\u00e9","globs":["a"]}`
		v, err := fieldsTool.Decode(json.RawMessage(raw))
		Expect(err).NotTo(HaveOccurred())
		var want fieldsdefs.FieldsInput
		Expect(json.Unmarshal([]byte(raw), &want)).To(Succeed())
		Expect(v).To(Equal(&want))
	})
})

var _ = Describe("generated definitions", func() {
	var tc *runtime.ToolContext
	BeforeEach(func() {
		tc = runtime.NewToolContext(GinkgoT().TempDir())
	})

	It("takes behaviour from markers, methods and fail-closed defaults", func() {
		fr, ev := fileReadTool, methodsTool
		Expect(fr.Name()).To(Equal("FileRead"))
		Expect(fr.Aliases()).To(Equal([]string{"ReadFile", "Cat"}))
		Expect(runtime.Lookup(fixtureTools, "Cat")).To(BeIdenticalTo(fr))
		Expect(fr.Description()).To(Equal("FileRead reads a text file and returns it with line numbers."))
		Expect(fr.SearchHint()).To(Equal("read a file"))
		frIn, err := fr.Decode(json.RawMessage(`{"file_path":"a.txt"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(fr.InterruptBehavior(frIn)).To(Equal(runtime.InterruptCancel))
		Expect(fr.InterruptBehavior("not its input")).To(Equal(runtime.InterruptBlock), "a foreign input gets the fail-closed answer")
		Expect(fr.Traits()).To(Equal(runtime.Traits{ReadOnly: runtime.Flag{Value: true}, ConcurrencySafe: runtime.Flag{Value: true}, Interrupt: runtime.InterruptCancel}))
		Expect(fr.IsEnabled()).To(BeTrue())
		Expect(fr.ShouldDefer()).To(BeFalse())

		Expect(ev.InterruptBehavior(nil)).To(Equal(runtime.InterruptBlock))
		Expect(ev.ShouldDefer()).To(BeTrue())
		Expect(ev.Traits()).To(Equal(runtime.Traits{
			ReadOnly:        runtime.Flag{InputDependent: true},
			ConcurrencySafe: runtime.Flag{InputDependent: true},
			Destructive:     runtime.Flag{Value: true},
		}))
		fast, err := ev.Decode(json.RawMessage(`{"mode":"fast","edits":[]}`))
		Expect(err).NotTo(HaveOccurred())
		slow, err := ev.Decode(json.RawMessage(`{"mode":"slow","edits":[{"old_string":"a","new_string":"b"}]}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(ev.IsConcurrencySafe(fast)).To(BeTrue())
		Expect(ev.IsConcurrencySafe(slow)).To(BeFalse())
		Expect(ev.IsReadOnly(fast)).To(BeTrue())
		Expect(ev.IsReadOnly(slow)).To(BeFalse())
		Expect(ev.IsDestructive(fast)).To(BeTrue())
		Expect(ev.UserFacingName(slow)).To(Equal("Methods(slow)"))
		Expect(fr.UserFacingName(nil)).To(Equal("FileRead"))
		Expect(ev.CheckPermissions(context.Background(), fast, tc).Behavior).To(Equal(runtime.Allow))
		Expect(ev.CheckPermissions(context.Background(), slow, tc).Behavior).To(Equal(runtime.Passthrough))
		Expect(ev.ValidateInput(context.Background(), fast, tc)).To(Succeed())
	})

	It("gives a tool with only a name the fail-closed defaults", func() {
		Expect(echoTool.Name()).To(Equal("Echo"))
		Expect(echoTool.Aliases()).To(BeNil())
		Expect(echoTool.SearchHint()).To(BeEmpty())
		Expect(echoTool.IsEnabled()).To(BeTrue())
		Expect(echoTool.ShouldDefer()).To(BeFalse())
		Expect(echoTool.AlwaysLoad()).To(BeFalse())
		Expect(echoTool.Traits()).To(Equal(runtime.Traits{}))
		in, err := echoTool.Decode(json.RawMessage(`{"text":"hi"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(echoTool.InterruptBehavior(in)).To(Equal(runtime.InterruptBlock))
		Expect(echoTool.IsReadOnly(in)).To(BeFalse())
		Expect(echoTool.IsConcurrencySafe(in)).To(BeFalse())
		Expect(echoTool.IsDestructive(in)).To(BeFalse())
		Expect(echoTool.CheckPermissions(context.Background(), in, tc).Behavior).To(Equal(runtime.Passthrough))
		Expect(echoTool.PermissionTarget(in)).To(Equal(runtime.Target{}))
		Expect(echoTool.UserFacingName(in)).To(Equal("Echo"))
		Expect(echoTool.RenderUse(in)).To(Equal("hi"), "the first required string parameter")
		res, err := echoTool.Call(context.Background(), in, runtime.NewCall("1", tc, nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal("hi"), "a string output is the text")
		Expect(echoTool.RenderResult(in, res)).To(Equal("Done"))
	})

	It("runs Call, reports progress and renders", func() {
		path := filepath.Join(tc.Cwd, "f.txt")
		Expect(os.WriteFile(path, []byte("one\ntwo\nthree"), 0o644)).To(Succeed())
		fr := fileReadTool
		in, err := fr.Decode(json.RawMessage(`{"file_path":` + string(must(json.Marshal(path))) + `,"offset":2}`))
		Expect(err).NotTo(HaveOccurred())
		res, err := fr.Call(context.Background(), in, runtime.NewCall("1", tc, nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal("two\nthree"))
		Expect(fr.RenderUse(in)).To(Equal(path))
		Expect(fr.RenderResult(in, res)).To(Equal("Done"))
		Expect(fr.RenderRejected(in)).To(Equal("Rejected"))
		Expect(fr.RenderGrouped([]any{in, in})).To(Equal(path + "\n" + path))

		ev := methodsTool
		ein, err := ev.Decode(json.RawMessage(`{"mode":"fast","edits":[{"old_string":"a","new_string":"b"}]}`))
		Expect(err).NotTo(HaveOccurred())
		var progress []any
		res, err = ev.Call(context.Background(), ein, runtime.NewCall("2", tc, func(p any) { progress = append(progress, p) }))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal("1 edits"))
		Expect(res.Data).To(Equal(methodsdefs.MethodsOutput{Count: 1}))
		Expect(ev.RenderProgress(ein, progress[0])).To(Equal("step 1"))
		Expect(ev.RenderProgress(ein, "other")).To(Equal("other"))
		Expect(ev.RenderResult(ein, res)).To(Equal("1 edits"))
		Expect(ev.RenderGrouped([]any{ein, ein})).To(Equal("2 calls"))
		Expect(ev.RenderUse(ein)).To(Equal("fast"))
	})

	It("never panics on an input Decode did not return", func() {
		for _, t := range fixtureTools {
			_, err := t.Call(context.Background(), "junk", runtime.NewCall("1", tc, nil))
			Expect(err).To(MatchError(ContainSubstring("pass the value Decode returned")))
			Expect(t.ValidateInput(context.Background(), 42, tc)).To(HaveOccurred())
			Expect(t.CheckPermissions(context.Background(), nil, tc).Behavior).To(Equal(runtime.Deny))
			Expect(t.IsConcurrencySafe(nil)).To(BeFalse())
			Expect(t.IsReadOnly(nil)).To(BeFalse())
			Expect(t.RenderUse(nil)).To(Equal(""))
			Expect(t.RenderError(nil, nil)).To(Equal(""))
		}
	})

	It("registers exactly the tools of the variant it was built as", func() {
		names := map[string]bool{}
		for _, t := range gatedgen.AllBaseTools() {
			names[t.Name()] = true
		}
		Expect(names).To(HaveKey("Always"))
		Expect(names["Secret"]).To(Equal(features.Variant != "external"), "Secret is internal || ant")
		Expect(names["Finder"]).To(Equal(features.Variant != "ant"), "Finder is !ant")
		if s := runtime.Lookup(gatedgen.AllBaseTools(), "Secret"); s != nil {
			Expect(s.IsEnabled()).To(BeFalse())
			Expect(s.UserFacingName(nil)).To(Equal("Secret thing"))
			in, err := s.Decode(json.RawMessage(`{}`))
			Expect(err).NotTo(HaveOccurred())
			res, err := s.Call(context.Background(), in, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Text()).To(Equal("42"), "a Stringer output is its String()")
		}
		if f := runtime.Lookup(gatedgen.AllBaseTools(), "Finder"); f != nil {
			Expect(f.AlwaysLoad()).To(BeTrue())
			in, err := f.Decode(json.RawMessage(`{"pattern":"*.go"}`))
			Expect(err).NotTo(HaveOccurred())
			res, err := f.Call(context.Background(), in, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Text()).To(Equal(`["*.go"]`), "other outputs are JSON")
		}
	})
})

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
