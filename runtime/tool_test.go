package runtime_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

// named is a tool with only a name and aliases; Lookup asks for nothing
// else (the embedded nil Tool panics if it did).
type named struct {
	runtime.Tool
	name    string
	aliases []string
}

func (n named) Name() string      { return n.name }
func (n named) Aliases() []string { return n.aliases }

var _ = Describe("Lookup", func() {
	old := named{name: "OldRead", aliases: []string{"Cat", "Read"}}
	read := named{name: "Read", aliases: []string{"View"}}
	other := named{name: "Other", aliases: []string{"Cat"}}
	tools := []runtime.Tool{old, read, other}

	It("finds a tool by its name", func() {
		Expect(runtime.Lookup(tools, "Other")).To(Equal(other))
	})

	It("finds a tool by an alias", func() {
		Expect(runtime.Lookup(tools, "View")).To(Equal(read))
	})

	It("prefers a tool's name to an earlier tool's alias", func() {
		Expect(runtime.Lookup(tools, "Read")).To(Equal(read))
	})

	It("resolves an alias two tools share to the first", func() {
		Expect(runtime.Lookup(tools, "Cat")).To(Equal(old))
	})

	It("matches names exactly", func() {
		Expect(runtime.Lookup(tools, "read")).To(BeNil())
		Expect(runtime.Lookup(tools, "")).To(BeNil())
	})

	It("finds nothing among no tools", func() {
		Expect(runtime.Lookup(nil, "Read")).To(BeNil())
	})
})

var _ = Describe("the enums' names", func() {
	DescribeTable("InterruptBehavior",
		func(b runtime.InterruptBehavior, want string) {
			Expect(b.String()).To(Equal(want))
		},
		Entry("the zero value is block, the fail-closed default", runtime.InterruptBehavior(0), "block"),
		Entry("cancel", runtime.InterruptCancel, "cancel"),
		Entry("an unknown value reads as block", runtime.InterruptBehavior(7), "block"),
	)

	DescribeTable("Behavior",
		func(b runtime.Behavior, want string) {
			Expect(b.String()).To(Equal(want))
		},
		Entry("the zero value is passthrough, the fail-closed default", runtime.Behavior(0), "passthrough"),
		Entry("allow", runtime.Allow, "allow"),
		Entry("deny", runtime.Deny, "deny"),
		Entry("ask", runtime.Ask, "ask"),
		Entry("an unknown value reads as passthrough", runtime.Behavior(9), "passthrough"),
	)

	It("the zero Traits claim nothing: not read-only, not safe, not destructive, not input-dependent", func() {
		var t runtime.Traits
		for _, f := range []runtime.Flag{t.ReadOnly, t.ConcurrencySafe, t.Destructive} {
			Expect(f).To(Equal(runtime.Flag{Value: false, InputDependent: false}))
		}
	})
})
