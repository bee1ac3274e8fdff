package tooltest_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Sim", func() {
	It("decodes strictly, merging over Default", func() {
		s := &tooltest.Sim{Default: tooltest.Input{Output: "dflt", Spin: 2}}
		in, err := s.Decode(json.RawMessage(`{"summary":"x"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(*in.(*tooltest.Input)).To(Equal(tooltest.Input{Summary: "x", Output: "dflt", Spin: 2}))
		_, err = s.Decode(json.RawMessage(`{"nope":1}`))
		Expect(err).To(MatchError(ContainSubstring(`unknown field "nope"`)))
		_, err = s.Decode(json.RawMessage(`{"spin":-1}`))
		Expect(err).To(HaveOccurred())
	})

	It("answers safety from the input, then the tool", func() {
		s := &tooltest.Sim{Safe: true}
		Expect(s.IsConcurrencySafe(&tooltest.Input{})).To(BeTrue())
		Expect(s.IsConcurrencySafe(&tooltest.Input{Safe: tooltest.Bool(false)})).To(BeFalse())
		Expect(func() { s.IsConcurrencySafe(&tooltest.Input{PanicSafe: true}) }).To(Panic())
	})

	It("simulates output, failure, progress and modifiers", func() {
		var progress []any
		var modified string
		s := &tooltest.Sim{ToolName: "T", OnModify: func(id string, _ *runtime.ToolContext) { modified = id }}
		call := runtime.NewCall("c1", runtime.NewToolContext("."), func(p any) { progress = append(progress, p) })
		res, err := s.Call(context.Background(), &tooltest.Input{Progress: 2, Modify: true}, call)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal("T done"))
		Expect(progress).To(Equal([]any{"step 1/2", "step 2/2"}))
		call.Modifier()(nil)
		Expect(modified).To(Equal("c1"))
		_, err = s.Call(context.Background(), &tooltest.Input{Fail: "boom"}, call)
		Expect(err).To(MatchError("boom"))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err = s.Call(ctx, &tooltest.Input{Block: true}, call)
		Expect(err).To(MatchError(context.Canceled))
	})

	It("is recorded by a Monitor", func() {
		m := tooltest.NewMonitor()
		safe := &tooltest.Sim{ToolName: "S", Safe: true, Monitor: m}
		unsafe := &tooltest.Sim{ToolName: "U", Monitor: m, OnCall: func(ctx context.Context, in *tooltest.Input, call *runtime.Call) (runtime.Result, error) {
			_, _ = safe.Call(ctx, &tooltest.Input{}, runtime.NewCall("inner", nil, nil))
			return runtime.Result{}, nil
		}}
		_, _ = unsafe.Call(context.Background(), &tooltest.Input{}, runtime.NewCall("outer", nil, nil))
		Expect(m.Started()).To(Equal([]string{"outer", "inner"}))
		Expect(m.MaxRunning()).To(Equal(2))
		Expect(m.Violations()).To(HaveLen(1))
		Expect(m.Running()).To(Equal(0))
	})
})

var _ = Describe("NoOp", func() {
	It("does nothing, cheaply", func() {
		n := &tooltest.NoOp{Safe: true}
		in, err := n.Decode(nil)
		Expect(err).NotTo(HaveOccurred())
		res, err := n.Call(context.Background(), in, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Text()).To(Equal("ok"))
		Expect(n.IsConcurrencySafe(in)).To(BeTrue())
	})
})
