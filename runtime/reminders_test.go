package runtime_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("CompactReminders", func() {
	It("keeps one text per key for the whole session, in key order, and forgets an empty one", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		runtime.RemindersOf(tc).Set("todos", "first")
		runtime.RemindersOf(tc.Clone()).Set("a-plan", "plan")
		runtime.RemindersOf(tc).Set("todos", "second")
		Expect(runtime.RemindersOf(tc).All()).To(Equal([]string{"plan", "second"}))
		runtime.RemindersOf(tc).Set("a-plan", "")
		Expect(runtime.RemindersOf(tc).All()).To(Equal([]string{"second"}))
	})

	It("does nothing for a context without a session", func() {
		tc := &runtime.ToolContext{}
		Expect(runtime.RemindersOf(tc)).To(BeNil())
		runtime.RemindersOf(tc).Set("todos", "x")
		Expect(runtime.RemindersOf(tc).All()).To(BeEmpty())
	})
})
