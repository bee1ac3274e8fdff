package mcp_test

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/mcp"
)

var _ = Describe("names", func() {
	DescribeTable("ToolName sanitises both parts",
		func(server, tool, want string) {
			Expect(mcp.ToolName(server, tool)).To(Equal(want))
		},
		Entry("plain", "github", "create_issue", "mcp__github__create_issue"),
		Entry("dashes kept", "my-server", "get-thing", "mcp__my-server__get-thing"),
		Entry("dots and slashes", "my.server", "weird.name/v2", "mcp__my_server__weird_name_v2"),
		Entry("spaces", "my server", "do it", "mcp__my_server__do_it"),
		Entry("unicode letters", "café", "naïve", "mcp__caf___na_ve"),
		Entry("empty tool", "s", "", "mcp__s__"),
	)

	Describe("TruncateDescription", func() {
		It("keeps a description of exactly the limit", func() {
			s := strings.Repeat("a", mcp.MaxDescriptionLength)
			Expect(mcp.TruncateDescription(s)).To(Equal(s))
		})
		It("cuts one over the limit to the limit, marked", func() {
			s := strings.Repeat("a", mcp.MaxDescriptionLength+1)
			got := mcp.TruncateDescription(s)
			Expect(utf8.RuneCountInString(got)).To(Equal(mcp.MaxDescriptionLength))
			Expect(got).To(HaveSuffix("… [truncated]"))
		})
		It("counts characters, not bytes, and never splits one", func() {
			s := strings.Repeat("é", 3000)
			got := mcp.TruncateDescription(s)
			Expect(utf8.ValidString(got)).To(BeTrue())
			Expect(utf8.RuneCountInString(got)).To(Equal(mcp.MaxDescriptionLength))
		})
	})

	DescribeTable("server input schemas become object schemas",
		func(in any, want string) {
			Expect(mcp.ObjectSchema(in)).To(MatchJSON(want))
		},
		Entry("kept", map[string]any{"type": "object", "required": []any{"a"}}, `{"type":"object","required":["a"]}`),
		Entry("type added", map[string]any{"properties": map[string]any{}}, `{"type":"object","properties":{}}`),
		Entry("not an object", []any{1}, `{"type":"object"}`),
		Entry("null", json.RawMessage(`null`), `{"type":"object"}`),
	)
})
