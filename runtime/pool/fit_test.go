package pool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

var _ = Describe("fitting descriptions to the pool", func() {
	const shell = `Shell runs a command.

Use it for terminal work. Prefer the dedicated tools, they are easier to review:
- Finder to find files (not find)
- Viewer to read files (not cat)

Usage:
- Output over 100 lines is saved to a file. Read it with Viewer, or grep it.
- background starts the command at once. Do not add &. Poll it with Poller.
- Poller reads what a background command wrote.
- Never use interactive commands.`

	DescribeTable("FitDescription drops what names an absent tool, and nothing else",
		func(absent []string, want string) {
			Expect(pool.FitDescription(shell, absent)).To(Equal(want))
		},
		Entry("nothing absent: unchanged", nil, shell),
		Entry("a name no one mentions: unchanged", []string{"Writer"}, shell),
		Entry("an item about the tool goes; a later sentence in another item goes alone", []string{"Viewer", "Poller"}, `Shell runs a command.

Use it for terminal work. Prefer the dedicated tools, they are easier to review:
- Finder to find files (not find)

Usage:
- Output over 100 lines is saved to a file.
- background starts the command at once. Do not add &.
- Never use interactive commands.`),
		Entry("a list that goes takes the sentence that led into it, not the paragraph", []string{"Viewer", "Finder"}, `Shell runs a command.

Use it for terminal work.

Usage:
- Output over 100 lines is saved to a file.
- background starts the command at once. Do not add &. Poll it with Poller.
- Poller reads what a background command wrote.
- Never use interactive commands.`),
	)

	It("counts a name only as a word of its own, in its own case", func() {
		desc := "Use ls or find. A Finders list, FinderTool, mcp__x__Finder_y and finder stay."
		Expect(pool.FitDescription(desc, []string{"Finder"})).To(Equal(desc))
		Expect(pool.FitDescription("Lists files. (Finder is faster.) Done.", []string{"Finder"})).To(Equal("Lists files. Done."))
	})

	It("sends each tool's description fitted to the pool: simple mode, deny rules, Known", func() {
		base := []runtime.Tool{
			&tool{name: "Shell", desc: shell}, &tool{name: "Finder"}, &tool{name: "Viewer"}, &tool{name: "Poller"},
		}
		full := pool.Assemble(base, nil, pool.Options{})
		Expect(full.Lookup("Shell").Description()).To(Equal(shell))

		simple := pool.Assemble(base, nil, pool.Options{Simple: true, SimpleTools: []string{"Shell", "Viewer"}})
		d := simple.Lookup("Shell").Description()
		Expect(d).NotTo(ContainSubstring("Finder"))
		Expect(d).NotTo(ContainSubstring("Poller"))
		Expect(d).To(ContainSubstring("- Viewer to read files (not cat)"))
		Expect(simple.Known()).To(ConsistOf("Shell", "Finder", "Viewer", "Poller"))

		denied := pool.Assemble(base, nil, pool.Options{DenyTool: func(t runtime.Tool) bool { return t.Name() == "Viewer" }})
		Expect(denied.Lookup("Shell").Description()).NotTo(ContainSubstring("Viewer"))

		// A sub-agent's pool: fewer tools, the parent's names known; the
		// description is fitted again from the tool's own text.
		child := pool.Assemble([]runtime.Tool{simple.Lookup("Shell"), full.Lookup("Finder")}, nil, pool.Options{Known: simple.Known()})
		Expect(child.Lookup("Shell").Description()).To(ContainSubstring("- Finder to find files (not find)"))
		Expect(child.Lookup("Shell").Description()).NotTo(ContainSubstring("Viewer"))
		w, ok := child.Lookup("Shell").(interface{ Unwrap() runtime.Tool })
		Expect(ok).To(BeTrue())
		Expect(w.Unwrap()).To(BeIdenticalTo(base[0]), "fitted once, not wrapped twice")
	})
})
