//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// nameSchema is the --json-schema of these specs.
const nameSchema = `{"type":"object","properties":{"name":{"type":"string"},"stars":{"type":"integer","minimum":0}},"required":["name"],"additionalProperties":false}`

// rootIn runs `agentcore args…` (print mode's -p is the root's) in dir.
func rootIn(dir string, env []string, args ...string) (string, string, int) {
	return invoke(invocation{dir: dir, home: dir, configDir: dir, env: env}, args...)
}

var _ = Describe("agentcore -p --json-schema, Claude Code's structured output", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })
	scenario := func(body string) string {
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(body), 0o644)).To(Succeed())
		return "replay:scn.jsonl"
	}
	// result is the last line of stream-json, or json's one object.
	result := func(stdout string) map[string]any {
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		var r map[string]any
		Expect(json.Unmarshal([]byte(lines[len(lines)-1]), &r)).To(Succeed(), stdout)
		Expect(r).To(HaveKeyWithValue("type", "result"))
		return r
	}

	It("carries a valid answer as structured_output in json's result", func() {
		model := scenario(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"s1","name":"StructuredOutput","input":{"name":"agentcore","stars":3}}]}`)
		stdout, stderr, code := rootIn(dir, nil, "-p", "--model", model, "--output-format", "json", "--json-schema", nameSchema, "name it")
		Expect(code).To(Equal(0), stderr)
		r := result(stdout)
		Expect(r).To(HaveKeyWithValue("subtype", "success"))
		Expect(r).To(HaveKeyWithValue("is_error", false))
		Expect(r).To(HaveKeyWithValue("structured_output", map[string]any{"name": "agentcore", "stars": 3.0}))
		Expect(r).To(HaveKeyWithValue("num_turns", 1.0), "the run ends with the accepted answer: no request after it")
	})

	It("prints the answer as JSON in the text format", func() {
		model := scenario(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"Here it is."},{"type":"tool_use","id":"s1","name":"StructuredOutput","input":{"name":"agentcore"}}]}`)
		stdout, stderr, code := rootIn(dir, nil, "-p", "--model", model, "--json-schema", nameSchema, "name it")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(Equal(`{"name":"agentcore"}` + "\n"))
	})

	It("sends an invalid answer back with the validation error, and the corrected second answer wins (stream-json)", func() {
		model := scenario(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"s1","name":"StructuredOutput","input":{"name":"agentcore","stars":-1,"extra":true}}]}
{"when":{"errors":["s1"]},"blocks":[{"type":"tool_use","id":"s2","name":"StructuredOutput","input":{"name":"agentcore","stars":1}}]}`)
		stdout, stderr, code := rootIn(dir, nil, "-p", "--model", model, "--output-format", "stream-json", "--verbose", "--json-schema", nameSchema, "name it")
		Expect(code).To(Equal(0), stderr)
		var sent map[string]any
		for _, line := range strings.Split(stdout, "\n") {
			if strings.Contains(line, `"tool_use_id":"s1"`) {
				Expect(json.Unmarshal([]byte(line), &sent)).To(Succeed())
			}
		}
		Expect(sent).NotTo(BeNil(), "the invalid answer's result goes to the model: %s", stdout)
		block := sent["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
		Expect(block).To(HaveKeyWithValue("is_error", true))
		Expect(block["content"]).To(ContainSubstring("does not match the required schema"))
		Expect(block["content"]).To(Or(ContainSubstring("stars"), ContainSubstring("extra")), "it names what is wrong")
		r := result(stdout)
		Expect(r).To(HaveKeyWithValue("subtype", "success"))
		Expect(r).To(HaveKeyWithValue("structured_output", map[string]any{"name": "agentcore", "stars": 1.0}))
		Expect(r).To(HaveKeyWithValue("num_turns", 2.0))
	})

	It("reminds a model that ends its turn without an answer, and fails with error_max_structured_output_retries once the retries are used up", func() {
		model := scenario(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"It is agentcore."}]}
{"blocks":[{"type":"tool_use","id":"s1","name":"StructuredOutput","input":{"stars":2}}]}
{"blocks":[{"type":"text","text":"Still agentcore."}]}
{"blocks":[{"type":"tool_use","id":"s2","name":"StructuredOutput","input":{"name":"never reached"}}]}`)
		stdout, stderr, code := rootIn(dir, []string{"MAX_STRUCTURED_OUTPUT_RETRIES=2"}, "-p", "--model", model, "--output-format", "stream-json", "--verbose", "--json-schema", nameSchema, "name it")
		Expect(code).To(Equal(1), "the run failed: %s", stderr)
		r := result(stdout)
		Expect(r).To(HaveKeyWithValue("subtype", "error_max_structured_output_retries"))
		Expect(r).To(HaveKeyWithValue("is_error", true))
		Expect(r).NotTo(HaveKey("structured_output"))
		Expect(r).To(HaveKeyWithValue("num_turns", 3.0), "three failed answers, then no fourth request")
		Expect(r["errors"]).To(ContainElement(ContainSubstring("MAX_STRUCTURED_OUTPUT_RETRIES")))
		Expect(stderr).To(ContainSubstring("no valid StructuredOutput answer after 3 attempts"))
	})

	It("rejects a schema that is not inline JSON, or not an object's, saying what to pass", func() {
		_, stderr, code := rootIn(dir, nil, "-p", "--model", "replay", "--json-schema", "schema.json", "x")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("inline JSON"))
		_, stderr, code = rootIn(dir, nil, "-p", "--model", "replay", "--json-schema", `{"type":"array"}`, "x")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring(`must describe an object`))
	})

	It("sends the Messages API a StructuredOutput tool whose input_schema is the schema, and a reminder after a turn without an answer", func() {
		srv, bodies := recordingAPI(func(n int, w http.ResponseWriter) {
			if n == 1 {
				fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: "It is agentcore."}}}.write(w)
				return
			}
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{ID: "toolu_1", Tool: "StructuredOutput", Input: `{"name":"agentcore"}`}}}.write(w)
		})
		stdout, stderr, code := rootIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "--model", "claude-fake-1", "--output-format", "json", "--json-schema", nameSchema, "name it")
		Expect(code).To(Equal(0), stderr)
		Expect(result(stdout)).To(HaveKeyWithValue("structured_output", map[string]any{"name": "agentcore"}))
		Expect(bodies()).To(HaveLen(2))
		msgs := bodies()[1]["messages"].([]any)
		last, _ := json.Marshal(msgs[len(msgs)-1])
		Expect(string(last)).To(ContainSubstring("You MUST call the StructuredOutput tool"), "the reminder is the next request's user message")
		var tool map[string]any
		for _, t := range bodies()[0]["tools"].([]any) {
			if t.(map[string]any)["name"] == "StructuredOutput" {
				tool = t.(map[string]any)
			}
		}
		Expect(tool).NotTo(BeNil())
		var want map[string]any
		Expect(json.Unmarshal([]byte(nameSchema), &want)).To(Succeed())
		Expect(tool["input_schema"]).To(Equal(want))
	})
})

var _ = Describe("the Agent SDK's outputFormat driving agentcore", Label("node"), func() {
	It("passes the schema (--json-schema): an invalid answer is sent back, the corrected one is the result's structured_output", func() {
		api := scriptedAPI([2]string{"StructuredOutput", `{"name":7}`}, [2]string{"StructuredOutput", `{"name":"agentcore"}`})
		lines := runSDKScript("structured.mjs", GinkgoT().TempDir(), api)
		var result map[string]any
		var rejected bool
		for _, l := range lines {
			Expect(l.Kind).To(Equal("message"), "the script did not time out")
			if l.Message["type"] == "result" {
				result = l.Message
			}
			if l.Message["type"] == "user" {
				b, _ := json.Marshal(l.Message)
				rejected = rejected || strings.Contains(string(b), "does not match the required schema")
			}
		}
		Expect(rejected).To(BeTrue(), "the invalid answer's validation error reached the model")
		Expect(result).To(HaveKeyWithValue("subtype", "success"))
		Expect(result).To(HaveKeyWithValue("structured_output", map[string]any{"name": "agentcore"}))
	})
})
