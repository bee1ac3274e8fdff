package anthropic

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// wire marshals the request the SDK would send.
func wire(req provider.Request) map[string]any {
	params, err := New("m").params(req)
	Expect(err).NotTo(HaveOccurred())
	data, err := json.Marshal(params)
	Expect(err).NotTo(HaveOccurred())
	var out map[string]any
	Expect(json.Unmarshal(data, &out)).To(Succeed())
	return out
}

var _ = Describe("request encoding", func() {
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

	It("refuses a schema that is not a JSON object, naming the tool", func() {
		_, err := New("m").params(provider.Request{Tools: []provider.Tool{{Name: "Bad", InputSchema: json.RawMessage(`[1]`)}}})
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
		_, err := New("m").params(provider.Request{Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{{Type: "video"}}}}})
		Expect(err).To(MatchError(ContainSubstring(`unknown content block type "video"`)))
	})

	It("names itself after the model", func() {
		Expect(New("").Name()).To(Equal("anthropic:" + DefaultModel))
		Expect(New("claude-x").Name()).To(Equal("anthropic:claude-x"))
	})
})
