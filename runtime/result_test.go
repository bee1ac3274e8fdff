package runtime_test

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("Result", func() {
	It("TextBlock is a text block", func() {
		Expect(runtime.TextBlock("hi")).To(Equal(runtime.Block{Type: "text", Text: "hi"}))
	})

	It("ErrorResult is an error result with the message as its only block", func() {
		r := runtime.ErrorResult("file not found: read it first")
		Expect(r.IsError).To(BeTrue())
		Expect(r.Content).To(Equal([]runtime.Block{runtime.TextBlock("file not found: read it first")}))
		Expect(r.Data).To(BeNil())
		Expect(r.Modifier).To(BeNil())
	})

	DescribeTable("Text joins the blocks with newlines and names images",
		func(blocks []runtime.Block, want string) {
			Expect(runtime.Result{Content: blocks}.Text()).To(Equal(want))
		},
		Entry("no blocks", nil, ""),
		Entry("one text block", []runtime.Block{runtime.TextBlock("a")}, "a"),
		Entry("text blocks", []runtime.Block{runtime.TextBlock("a"), runtime.TextBlock("b\nc")}, "a\nb\nc"),
		Entry("an image between texts",
			[]runtime.Block{runtime.TextBlock("before"), {Type: "image", MediaType: "image/png", Data: "iVBO"}, runtime.TextBlock("after")},
			"before\n[image image/png]\nafter"),
	)
})

var _ = Describe("Call", func() {
	It("NewCall keeps the id and the context", func() {
		tc := &runtime.ToolContext{Cwd: "/"}
		c := runtime.NewCall("toolu_1", tc, nil)
		Expect(c.ID).To(Equal("toolu_1"))
		Expect(c.Context).To(BeIdenticalTo(tc))
	})

	Describe("Progress", func() {
		It("hands each value to the callback at once, in order", func() {
			var got []any
			c := runtime.NewCall("1", nil, func(p any) { got = append(got, p) })
			c.Progress("half")
			c.Progress(2)
			Expect(got).To(Equal([]any{"half", 2}))
		})

		It("does nothing without a callback or a call", func() {
			Expect(func() { runtime.NewCall("1", nil, nil).Progress("x") }).NotTo(Panic())
			var c *runtime.Call
			Expect(func() { c.Progress("x") }).NotTo(Panic())
		})
	})

	Describe("ModifyContext", func() {
		It("has no modifier until one is registered", func() {
			Expect(runtime.NewCall("1", nil, nil).Modifier()).To(BeNil())
		})

		It("combines modifiers so that later registrations run after earlier ones", func() {
			c := runtime.NewCall("1", nil, nil)
			c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd += "a" })
			c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd += "b" })
			c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd += "c" })
			tc := &runtime.ToolContext{}
			c.Modifier()(tc)
			Expect(tc.Cwd).To(Equal("abc"))
		})

		It("does not touch the call's context itself: the orchestrator applies the modifier", func() {
			tc := &runtime.ToolContext{Cwd: "/start"}
			c := runtime.NewCall("1", tc, nil)
			c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd = "/moved" })
			Expect(tc.Cwd).To(Equal("/start"))
			c.Modifier()(tc)
			Expect(tc.Cwd).To(Equal("/moved"))
		})

		It("ignores a nil modifier and a nil call", func() {
			c := runtime.NewCall("1", nil, nil)
			c.ModifyContext(nil)
			Expect(c.Modifier()).To(BeNil())
			var none *runtime.Call
			Expect(func() { none.ModifyContext(func(*runtime.ToolContext) {}) }).NotTo(Panic())
			Expect(none.Modifier()).To(BeNil())
		})

		It("keeps every registration made from several goroutines", func() {
			c := runtime.NewCall("1", nil, nil)
			var wg sync.WaitGroup
			for i := 0; i < 50; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c.ModifyContext(func(tc *runtime.ToolContext) { tc.WorkingDirs = append(tc.WorkingDirs, "x") })
				}()
			}
			wg.Wait()
			tc := &runtime.ToolContext{}
			c.Modifier()(tc)
			Expect(tc.WorkingDirs).To(HaveLen(50))
		})
	})
})
