package gen_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

var _ = Describe("names", func() {
	DescribeTable("file stems of tool names",
		func(name, want string) { Expect(gen.Snake(name)).To(Equal(want)) },
		Entry(nil, "Read", "read"),
		Entry(nil, "NotebookEdit", "notebook_edit"),
		Entry(nil, "WebFetch", "web_fetch"),
		Entry(nil, "MCPSearch", "mcp_search"),
		Entry(nil, "ListMcpResourcesTool", "list_mcp_resources_tool"),
		Entry(nil, "Tool2Go", "tool2_go"),
		Entry(nil, "mcp__srv__do-it", "mcp__srv__do_it"),
	)

	DescribeTable("valid tool names",
		func(name string, ok bool) { Expect(gen.IsToolName(name)).To(Equal(ok)) },
		Entry(nil, "Read", true),
		Entry(nil, "mcp__server__tool-1", true),
		Entry(nil, "", false),
		Entry(nil, "has space", false),
		Entry(nil, strings.Repeat("x", 65), false),
	)

	It("documents every optional method in tooldefs/doc.go", func() {
		doc, err := os.ReadFile("../tooldefs/doc.go")
		Expect(err).NotTo(HaveOccurred())
		for _, m := range gen.OptionalMethodNames() {
			Expect(string(doc)).To(ContainSubstring("//\t"+m+"("), "tooldefs/doc.go does not document %s", m)
		}
	})
})
