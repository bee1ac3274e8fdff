package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// wire decodes the request body the provider builds.
func wire(req provider.Request) map[string]any {
	data, err := New("m").body(req, true)
	Expect(err).NotTo(HaveOccurred())
	var out map[string]any
	Expect(json.Unmarshal(data, &out)).To(Succeed())
	return out
}

// bodyOf is the body built for req with the model "test-model".
func bodyOf(req provider.Request) string {
	data, err := New("test-model").body(req, true)
	Expect(err).NotTo(HaveOccurred())
	return string(data)
}

// say is a request of one user message.
func say(text string) []provider.Message {
	return []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text(text)}}}
}

// conversation is a tool round trip: text, tool_use, tool results with text,
// an image and an error, and a closing text that takes the breakpoint.
var conversation = provider.Request{System: "be brief", MaxTokens: 1234, Messages: []provider.Message{
	{Role: provider.User, Content: []provider.Block{provider.Text("read a.go")}},
	{Role: provider.Assistant, Content: []provider.Block{provider.Text("Reading."), provider.ToolUse("toolu_1", "Read", json.RawMessage(`{"file_path":"a.go","limit":10}`))}},
	{Role: provider.User, Content: []provider.Block{
		provider.ToolResult("toolu_1", runtime.Result{Content: []runtime.Block{runtime.TextBlock("package a"), {Type: "image", MediaType: "image/png", Data: "aGk="}}}),
		provider.ToolResult("toolu_2", runtime.Result{IsError: true, Content: []runtime.Block{runtime.TextBlock("")}}),
		provider.Text("continue"),
	}},
}}

// The expected bodies below are what the SDK's encoding of the former
// anthropic.MessageNewParams put on the wire for the same requests.
var _ = Describe("the request body", func() {
	DescribeTable("is byte for byte what the SDK's encoding sent",
		func(req provider.Request, sdk string) {
			Expect(bodyOf(req)).To(Equal(sdk))
		},
		Entry("a one-line prompt", provider.Request{Messages: say("hi")},
			`{"max_tokens":16000,"messages":[{"content":[{"text":"hi","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}],"model":"test-model","stream":true}`),
		Entry("a tool round trip", conversation,
			`{"max_tokens":1234,"messages":[{"content":[{"text":"read a.go","type":"text"}],"role":"user"},{"content":[{"text":"Reading.","type":"text"},{"id":"toolu_1","input":{"file_path":"a.go","limit":10},"name":"Read","type":"tool_use"}],"role":"assistant"},{"content":[{"tool_use_id":"toolu_1","content":[{"text":"package a","type":"text"},{"source":{"data":"aGk=","media_type":"image/png","type":"base64"},"type":"image"}],"type":"tool_result"},{"tool_use_id":"toolu_2","is_error":true,"type":"tool_result"},{"text":"continue","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}],"model":"test-model","system":[{"text":"be brief","cache_control":{"type":"ephemeral"},"type":"text"}],"stream":true}`),
		Entry("escapes, an emptied message, a result without content, tool_use last (no breakpoint), bad and missing input",
			provider.Request{Messages: []provider.Message{
				{Role: provider.User, Content: []provider.Block{provider.Text("<tag> & \"quotes\" é \u2028 \t")}},
				{Role: provider.Assistant, Content: []provider.Block{provider.Text("")}},
				{Role: provider.User, Content: []provider.Block{provider.ToolResult("t0", runtime.Result{})}},
				{Role: provider.Assistant, Content: []provider.Block{provider.ToolUse("t1", "Bare", json.RawMessage(`not json`)), provider.ToolUse("t2", "Bare", nil)}},
			}},
			`{"max_tokens":16000,"messages":[{"content":[{"text":"\u003ctag\u003e \u0026 \"quotes\" é \u2028 \t","type":"text"}],"role":"user"},{"content":[],"role":"assistant"},{"content":[{"tool_use_id":"t0","type":"tool_result"}],"role":"user"},{"content":[{"id":"t1","input":{},"name":"Bare","type":"tool_use"},{"id":"t2","input":{},"name":"Bare","type":"tool_use"}],"role":"assistant"}],"model":"test-model","stream":true}`),
		Entry("a tool result as the newest block", provider.Request{System: "s", Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.ToolResult("t1", runtime.Result{Content: []runtime.Block{runtime.TextBlock("ok")}})}}}},
			`{"max_tokens":16000,"messages":[{"content":[{"tool_use_id":"t1","cache_control":{"type":"ephemeral"},"content":[{"text":"ok","type":"text"}],"type":"tool_result"}],"role":"user"}],"model":"test-model","system":[{"text":"s","cache_control":{"type":"ephemeral"},"type":"text"}],"stream":true}`),
		Entry("no messages", provider.Request{},
			`{"max_tokens":16000,"model":"test-model","stream":true}`),
	)

	It("sends tool definitions equal as JSON to the SDK's, each schema in the caller's key order", func() {
		got := bodyOf(provider.Request{Tools: []provider.Tool{
			{Name: "Read", Description: "reads a file",
				InputSchema: json.RawMessage("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n  \"properties\": {\"file_path\": {\"type\": \"string\", \"description\": \"the <path>\"}, \"offset\": {\"type\": \"integer\"}, \"limit\": {\"type\": \"integer\"}},\n  \"required\": [\"file_path\"],\n  \"additionalProperties\": false,\n  \"type\": \"object\"\n}\n")},
			{Name: "NoDesc", InputSchema: json.RawMessage(`{"type":"object","properties":{}}`)},
			{Name: "Untyped", InputSchema: json.RawMessage(`{"properties":{"b":{"type":"string"},"a":{"type":"number"}},"required":["b"]}`)},
			{Name: "Array", Description: "d", InputSchema: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)},
		}, Messages: say("hi")})
		// The SDK sorted the properties and put unknown keywords last, in
		// map order; the schema now goes through as given, compacted.
		Expect(got).To(MatchJSON(`{"max_tokens":16000,"messages":[{"content":[{"text":"hi","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}],"model":"test-model","tools":[{"input_schema":{"properties":{"file_path":{"description":"the \u003cpath\u003e","type":"string"},"limit":{"type":"integer"},"offset":{"type":"integer"}},"required":["file_path"],"type":"object","additionalProperties":false,"$schema":"https://json-schema.org/draft/2020-12/schema"},"name":"Read","description":"reads a file"},{"input_schema":{"properties":{},"type":"object"},"name":"NoDesc"},{"input_schema":{"properties":{"a":{"type":"number"},"b":{"type":"string"}},"required":["b"],"type":"object"},"name":"Untyped"},{"input_schema":{"type":"object","items":{"type":"string"}},"name":"Array","description":"d","cache_control":{"type":"ephemeral"}}],"stream":true}`))
		Expect(got).To(ContainSubstring(`{"input_schema":{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"file_path":{"type":"string","description":"the \u003cpath\u003e"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["file_path"],"additionalProperties":false,"type":"object"},"name":"Read"`))
	})

	It("sends the empty object schema for a tool without one, where the SDK's encoding left out input_schema (which the API requires)", func() {
		got := bodyOf(provider.Request{Tools: []provider.Tool{
			{Name: "Nil"},
			{Name: "Null", InputSchema: json.RawMessage(`null`)},
			{Name: "Braces", InputSchema: json.RawMessage(`{}`)},
			{Name: "Object", InputSchema: json.RawMessage(`{"type":"object"}`)},
		}, Messages: say("hi")})
		// Formerly {"max_tokens":16000,"messages":[{"content":[{"text":"hi","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}],"model":"test-model","tools":[{"name":"Nil"},{"name":"Null"},{"name":"Braces"},{"name":"Object","cache_control":{"type":"ephemeral"}}],"stream":true}
		Expect(got).To(Equal(`{"max_tokens":16000,"messages":[{"content":[{"text":"hi","cache_control":{"type":"ephemeral"},"type":"text"}],"role":"user"}],"model":"test-model","tools":[{"input_schema":{"type":"object"},"name":"Nil"},{"input_schema":{"type":"object"},"name":"Null"},{"input_schema":{"type":"object"},"name":"Braces"},{"input_schema":{"type":"object"},"name":"Object","cache_control":{"type":"ephemeral"}}],"stream":true}`))
	})

	It("goes on the wire as built: NewStreaming sets stream in place and adds nothing", func() {
		var got []byte
		var path, contentType string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got, _ = io.ReadAll(r.Body)
			path, contentType = r.URL.Path, r.Header.Get("Content-Type")
			w.WriteHeader(http.StatusBadRequest)
		}))
		DeferCleanup(srv.Close)
		p := New("test-model", option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithMaxRetries(0))
		for range p.Stream(context.Background(), conversation) {
		}
		Expect(path).To(Equal("/v1/messages"))
		Expect(contentType).To(Equal("application/json"))
		Expect(string(got)).To(Equal(bodyOf(conversation)))
	})

	It("sends tools in the API's format, keeping every schema keyword", func() {
		out := wire(provider.Request{Tools: []provider.Tool{{Name: "Read", Description: "reads",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"],"additionalProperties":false}`)}},
			Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("hi")}}}})
		tool := out["tools"].([]any)[0].(map[string]any)
		Expect(tool["name"]).To(Equal("Read"))
		Expect(tool["description"]).To(Equal("reads"))
		Expect(tool["input_schema"]).To(Equal(map[string]any{
			"type": "object", "properties": map[string]any{"file_path": map[string]any{"type": "string"}},
			"required": []any{"file_path"}, "additionalProperties": false,
		}))
		Expect(out["max_tokens"]).To(BeNumerically("==", DefaultMaxTokens))
	})

	DescribeTable("sends each schema as an object schema, reading only its top-level type, the same on every request",
		func(schema, want string) {
			req := provider.Request{Tools: []provider.Tool{{Name: "T", InputSchema: json.RawMessage(schema)}}}
			for range 2 { // the second from the checked schemas kept
				data, err := New("m").body(req, true)
				Expect(err).NotTo(HaveOccurred())
				Expect(string(data)).To(ContainSubstring(`"tools":[{"input_schema":` + want + `,"name":"T"`))
			}
		},
		Entry("type object last, after nested types", `{"properties":{"a":{"type":"string","x":{"type":"y"}}},"type":"object"}`,
			`{"properties":{"a":{"type":"string","x":{"type":"y"}}},"type":"object"}`),
		Entry("a nested type object only: the top level gets one", `{"properties":{"type":{"type":"object"}},"items":[{"type":"object"}]}`,
			`{"items":[{"type":"object"}],"properties":{"type":{"type":"object"}},"type":"object"}`),
		Entry("a string holding the key", `{"description":"\"type\":\"object\"","required":["type"]}`,
			`{"description":"\"type\":\"object\"","required":["type"],"type":"object"}`),
		Entry("another type", `{"type":"string","enum":["a,b","}"]}`, `{"enum":["a,b","}"],"type":"object"}`),
		Entry("an escaped key, spaces", "{ \"t\\u0079pe\" : \"object\" , \"properties\" : { } }", `{"properties":{},"type":"object"}`),
		Entry("numbers, booleans and null before it", `{"minProperties":1,"additionalProperties":false,"default":null,"type":"object"}`,
			`{"minProperties":1,"additionalProperties":false,"default":null,"type":"object"}`),
	)

	It("refuses a schema that is not a JSON object, naming the tool", func() {
		_, err := New("m").body(provider.Request{Tools: []provider.Tool{{Name: "Bad", InputSchema: json.RawMessage(`[1]`)}}}, true)
		Expect(err).To(MatchError(ContainSubstring("tool Bad")))
	})

	It("encodes tool results with text and images, drops empty text, and marks errors", func() {
		res := runtime.Result{IsError: true, Content: []runtime.Block{
			runtime.TextBlock(""), runtime.TextBlock("boom"), {Type: "image", MediaType: "image/png", Data: "aGk="}}}
		out := wire(provider.Request{Messages: []provider.Message{
			{Role: provider.User, Content: []provider.Block{provider.Text("go")}},
			{Role: provider.Assistant, Content: []provider.Block{provider.Text(""), provider.ToolUse("t1", "Read", json.RawMessage(`not json`))}},
			{Role: provider.User, Content: []provider.Block{provider.ToolResult("t1", res)}},
		}})
		msgs := out["messages"].([]any)
		asst := msgs[1].(map[string]any)["content"].([]any)
		Expect(asst).To(HaveLen(1), "the empty text block is dropped")
		Expect(asst[0].(map[string]any)["input"]).To(Equal(map[string]any{}), "invalid input becomes {}")
		tr := msgs[2].(map[string]any)["content"].([]any)[0].(map[string]any)
		Expect(tr["is_error"]).To(BeTrue())
		content := tr["content"].([]any)
		Expect(content).To(HaveLen(2))
		Expect(content[0].(map[string]any)["text"]).To(Equal("boom"))
		Expect(content[1].(map[string]any)["type"]).To(Equal("image"))
		Expect(tr["cache_control"]).To(HaveKeyWithValue("type", "ephemeral"), "the newest block is a cache breakpoint")
	})

	It("rejects an unknown block type", func() {
		_, err := New("m").body(provider.Request{Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{{Type: "video"}}}}}, true)
		Expect(err).To(MatchError(ContainSubstring(`unknown content block type "video"`)))
	})

	It("names itself after the model", func() {
		Expect(New("").Name()).To(Equal("anthropic:" + DefaultModel))
		Expect(New("claude-x").Name()).To(Equal("anthropic:claude-x"))
	})
})
