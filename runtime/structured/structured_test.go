package structured_test

import (
	"context"
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/structured"
)

const schema = `{"type":"object","properties":{"name":{"type":"string"},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["name"],"additionalProperties":false}`

func use(id, input string) provider.Block {
	return provider.Block{Type: provider.ToolUseBlock, ID: id, Name: structured.ToolName, Input: json.RawMessage(input)}
}

var _ = Describe("Output", func() {
	var o *structured.Output
	BeforeEach(func() {
		var err error
		o, err = structured.New(json.RawMessage(schema), 2)
		Expect(err).NotTo(HaveOccurred())
		o.Begin()
	})
	// call runs the tool as the executor would: decode, then Call.
	call := func(id, input string) error {
		t := o.Tool()
		in, err := t.Decode(json.RawMessage(input))
		if err != nil {
			return err
		}
		_, err = t.Call(context.Background(), in, runtime.NewCall(id, runtime.NewToolContext(GinkgoT().TempDir()), nil))
		return err
	}

	It("is a tool named StructuredOutput whose input schema is the schema, allowed without asking", func() {
		t := o.Tool()
		Expect(t.Name()).To(Equal("StructuredOutput"))
		Expect(t.InputSchema()).To(MatchJSON(schema))
		Expect(t.CheckPermissions(context.Background(), json.RawMessage(`{"name":"x"}`), runtime.NewToolContext(GinkgoT().TempDir())).Behavior).To(Equal(runtime.Allow))
	})

	DescribeTable("rejects an input the schema does not accept, saying what is wrong",
		func(input, want string) {
			err := call("t1", input)
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring("does not match the required schema"))
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("a missing required property", `{"tags":["a"]}`, "name"),
		Entry("a wrong type", `{"name":7}`, "string"),
		Entry("a value outside an enum", `{"name":"x","tags":["c"]}`, "enum"),
		Entry("an unknown property", `{"name":"x","more":1}`, "more"),
	)

	It("rejects input that is not one JSON value", func() {
		Expect(call("t1", `{"name":"x"} {}`)).To(MatchError(ContainSubstring("not one JSON value")))
	})

	It("returns the accepted answer from the turn that gave it", func() {
		Expect(call("t1", `{"name":"x","tags":["a"]}`)).To(Succeed())
		v, err := o.Turn([]provider.Block{use("t1", `{"name":"x","tags":["a"]}`)})
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(MatchJSON(`{"name":"x","tags":["a"]}`))
	})

	It("counts rejected calls and missing answers, and fails past the retries with ErrMaxRetries", func() {
		Expect(call("t1", `{}`)).To(HaveOccurred())
		v, err := o.Turn([]provider.Block{use("t1", `{}`)})
		Expect(v).To(BeNil())
		Expect(err).NotTo(HaveOccurred(), "1 of 2 retries")
		again, err := o.Missing()
		Expect(err).NotTo(HaveOccurred(), "2 of 2 retries")
		Expect(again).To(Equal(structured.Reminder))
		_, err = o.Missing()
		Expect(errors.Is(err, structured.ErrMaxRetries)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("after 3 attempts"))
	})

	It("starts over at Begin", func() {
		_, _ = o.Missing()
		_, _ = o.Missing()
		o.Begin()
		_, err := o.Missing()
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("refuses a schema it cannot use",
		func(s, want string) {
			_, err := structured.New(json.RawMessage(s), 0)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("not an object's", `{"type":"string"}`, `must describe an object`),
		Entry("not JSON Schema", `[1,2]`, "not a JSON Schema object"),
		Entry("a pattern that is no regexp", `{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, "invalid"),
		Entry("a type no JSON value has", `{"type":"object","properties":{"a":{"type":"nonsense"}}}`, `#/properties/a/type: "nonsense" is not a JSON type`),
		Entry("a type list with one such name", `{"type":"object","properties":{"a":{"items":{"type":["string","int"]}}}}`, `#/properties/a/items/type: "int" is not a JSON type`),
	)

	It("takes a property named type, and type names inside enum and default as data", func() {
		_, err := structured.New(json.RawMessage(`{"type":"object","properties":{"type":{"type":"string","enum":["nonsense"],"default":{"type":"x"}}}}`), 0)
		Expect(err).NotTo(HaveOccurred())
	})

	It("adds the object type a schema without one leaves out (the API needs it)", func() {
		o, err := structured.New(json.RawMessage(`{"properties":{"n":{"type":"integer"}}}`), 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(o.Tool().InputSchema()).To(MatchJSON(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	})

	It("reads MAX_STRUCTURED_OUTPUT_RETRIES", func() {
		env := func(v string) func(string) string { return func(string) string { return v } }
		Expect(structured.MaxRetriesFromEnv(env(""))).To(Equal(0))
		Expect(structured.MaxRetriesFromEnv(env("3"))).To(Equal(3))
		_, err := structured.MaxRetriesFromEnv(env("zero"))
		Expect(err).To(MatchError(ContainSubstring("MAX_STRUCTURED_OUTPUT_RETRIES")))
	})
})
