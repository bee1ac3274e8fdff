package gen_test

import (
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

var _ = Describe("docs/writing-a-tool.md", func() {
	It("lists exactly the markers toolgen accepts, with their examples and meanings", func() {
		guide, err := os.ReadFile("../docs/writing-a-tool.md")
		Expect(err).NotTo(HaveOccurred())
		// Rows look like: | `+tool:readOnly` | IsReadOnly is true for every input |
		rows := map[string]string{}
		for _, l := range strings.Split(string(guide), "\n") {
			if !strings.HasPrefix(l, "| `"+gen.MarkerPrefix) {
				continue
			}
			cells := strings.Split(strings.Trim(l, "| "), "|")
			Expect(cells).To(HaveLen(2), "marker row %q", l)
			rows[strings.Trim(strings.TrimSpace(cells[0]), "`")] = strings.TrimSpace(cells[1])
		}
		want := map[string]string{}
		for _, m := range gen.Markers {
			want[m.Example] = m.Help()
		}
		Expect(rows).To(Equal(want), "the marker table of docs/writing-a-tool.md differs from gen.Markers")
	})
})
