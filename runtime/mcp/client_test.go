package mcp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/provider"
)

var _ = Describe("the client's capabilities", func() {
	Describe("with a server of protocol 2026-07-28 (multi round-trip input requests)", func() {
		var (
			m        *mcp.Manager
			mu       sync.Mutex
			elicited []ask.ElicitRequest
			sampled  []mcp.SamplingRequest
			answer   ask.ElicitAnswer
			dir      string
		)
		BeforeEach(func() {
			dir = GinkgoT().TempDir()
			elicited, sampled = nil, nil
			answer = ask.ElicitAnswer{Action: ask.ElicitAccept, Content: map[string]any{"name": "Ada", "age": int64(36)}}
			m = start(map[string]mcp.ServerConfig{"ask": stdio(bins.Ask)}, mcp.Options{
				Roots: []string{dir},
				Elicit: func(_ context.Context, r ask.ElicitRequest) (ask.ElicitAnswer, error) {
					mu.Lock()
					defer mu.Unlock()
					elicited = append(elicited, r)
					return answer, nil
				},
				Sample: func(_ context.Context, r mcp.SamplingRequest) (mcp.SamplingResult, error) {
					mu.Lock()
					defer mu.Unlock()
					sampled = append(sampled, r)
					return mcp.SamplingResult{Text: "Paris", Model: "test-model", Stop: provider.StopEndTurn}, nil
				},
			})
			waitAll(m)
		})

		It("lists the roots, and the changed roots after SetRoots", func() {
			Expect(call(find(m, "mcp__ask__roots"), `{}`).Text()).To(Equal("roots: file://" + dir))
			other := GinkgoT().TempDir()
			m.SetRoots([]string{other, dir, other})
			Expect(m.Roots()).To(Equal([]string{other, dir}))
			Expect(call(find(m, "mcp__ask__roots"), `{}`).Text()).To(ContainSubstring("file://" + other))
		})

		It("answers a form with the Elicitor, in JSON's types", func() {
			res := call(find(m, "mcp__ask__form"), `{}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).To(Equal(`action=accept content={"age":36,"name":"Ada"} meta=map[]`))
			Expect(elicited).To(HaveLen(1))
			Expect(elicited[0].Server).To(Equal("ask"))
			Expect(elicited[0].Message).To(Equal("Who are you?"))
			Expect(elicited[0].Fields).To(HaveLen(2))
			Expect(elicited[0].Fields[0].Name).To(Equal("name"), "required fields first")
			Expect(elicited[0].Fields[1].Kind).To(Equal(ask.FieldInteger))
			Expect(*elicited[0].Fields[1].Max).To(Equal(150.0))
		})

		It("sends the reason of a decline in _meta", func() {
			answer = ask.ElicitAnswer{Action: ask.ElicitDecline, Reason: "nobody is there"}
			Expect(call(find(m, "mcp__ask__form"), `{}`).Text()).To(Equal("action=decline content=null meta=map[agentcore/declineReason:nobody is there]"))
		})

		It("answers a sampling request with the Sampler", func() {
			res := call(find(m, "mcp__ask__sample"), `{}`)
			Expect(res.IsError).To(BeFalse(), res.Text())
			Expect(res.Text()).To(Equal("model=test-model text=Paris stop=endTurn"))
			Expect(sampled).To(HaveLen(1))
			Expect(sampled[0].Server).To(Equal("ask"))
			Expect(sampled[0].Request.System).To(Equal("Answer in one word."))
			Expect(sampled[0].Request.MaxTokens).To(Equal(20))
			Expect(sampled[0].Request.Messages).To(Equal([]provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("Capital of France?")}}}))
		})
	})

	It("declares no elicitation or sampling without handlers, so such calls fail", func() {
		m := start(map[string]mcp.ServerConfig{"ask": stdio(bins.Ask)}, mcp.Options{})
		waitAll(m)
		res := call(find(m, "mcp__ask__sample"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("does not support CreateMessage"))
		cwd, err := filepath.Abs(".")
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Roots()).To(Equal([]string{cwd}), "the roots default to the directory")
	})

	Describe("ElicitRequestOf", func() {
		schema := func(s string) *sdk.ElicitParams {
			var v any
			Expect(json.Unmarshal([]byte(s), &v)).To(Succeed())
			return &sdk.ElicitParams{Message: "m", RequestedSchema: v}
		}
		DescribeTable("reads a property of a flat schema into a field",
			func(prop string, want ask.FormField) {
				r, err := mcp.ElicitRequestOf("s", schema(`{"type":"object","properties":{"f":`+prop+`}}`))
				Expect(err).NotTo(HaveOccurred())
				want.Name = "f"
				Expect(r.Fields).To(Equal([]ask.FormField{want}))
			},
			Entry("a string with a format and length bounds", `{"type":"string","format":"email","minLength":3,"maxLength":9,"title":"E"}`,
				ask.FormField{Kind: ask.FieldString, Format: "email", Min: ptr(3.0), Max: ptr(9.0), Title: "E"}),
			Entry("an untitled enum", `{"type":"string","enum":["a","b"],"default":"b"}`,
				ask.FormField{Kind: ask.FieldChoice, Choices: []ask.Choice{{Value: "a"}, {Value: "b"}}, Default: "b"}),
			Entry("a legacy titled enum", `{"type":"string","enum":["a","b"],"enumNames":["A","B"]}`,
				ask.FormField{Kind: ask.FieldChoice, Choices: []ask.Choice{{Value: "a", Label: "A"}, {Value: "b", Label: "B"}}}),
			Entry("a titled enum", `{"type":"string","oneOf":[{"const":"x","title":"X"}]}`,
				ask.FormField{Kind: ask.FieldChoice, Choices: []ask.Choice{{Value: "x", Label: "X"}}}),
			Entry("a multi-select with bounds", `{"type":"array","minItems":1,"items":{"anyOf":[{"const":"x","title":"X"}]},"default":["x"]}`,
				ask.FormField{Kind: ask.FieldMultiChoice, Min: ptr(1.0), Choices: []ask.Choice{{Value: "x", Label: "X"}}, Default: []string{"x"}}),
			Entry("a number with bounds", `{"type":"number","minimum":0,"maximum":1,"default":0.5}`,
				ask.FormField{Kind: ask.FieldNumber, Min: ptr(0.0), Max: ptr(1.0), Default: 0.5}),
			Entry("a boolean", `{"type":"boolean","description":"d"}`,
				ask.FormField{Kind: ask.FieldBoolean, Description: "d"}),
		)
		It("refuses a nested object, naming the property", func() {
			_, err := mcp.ElicitRequestOf("s", schema(`{"type":"object","properties":{"o":{"type":"object"}}}`))
			Expect(err).To(MatchError(ContainSubstring(`property "o": type "object" is not one an elicitation form may use`)))
		})
		It("reads URL mode", func() {
			r, err := mcp.ElicitRequestOf("s", &sdk.ElicitParams{Mode: "url", URL: "https://x.test/", Message: "go"})
			Expect(err).NotTo(HaveOccurred())
			Expect(r).To(Equal(ask.ElicitRequest{Server: "s", Mode: ask.ElicitURL, URL: "https://x.test/", Message: "go"}))
		})
	})

	It("refuses to sample image content, saying so", func() {
		_, err := mcp.SamplingRequestOf("s", &sdk.CreateMessageParams{Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.ImageContent{MIMEType: "image/png"}}}})
		Expect(err).To(MatchError(ContainSubstring("agentcore samples text messages only")))
	})
})

func ptr[T any](v T) *T { return &v }
