package runtime_test

import (
	"context"
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("Invocation", func() {
	type in struct{ Path string }
	var calls map[string]int
	var explode string

	tool := func() runtime.Tool {
		count := func(method string) {
			calls[method]++
			if method == explode {
				panic(method + " exploded")
			}
		}
		return runtime.Define(runtime.Definition[*in]{
			Name: "Probe",
			Decode: func(raw json.RawMessage) (*in, error) {
				var v in
				return &v, json.Unmarshal(raw, &v)
			},
			Call:              func(context.Context, *in, *runtime.Call) (runtime.Result, error) { return runtime.Result{}, nil },
			IsConcurrencySafe: func(*in) bool { count("IsConcurrencySafe"); return true },
			IsReadOnly:        func(*in) bool { count("IsReadOnly"); return true },
			IsDestructive:     func(*in) bool { count("IsDestructive"); return true },
			InterruptBehavior: func(*in) runtime.InterruptBehavior {
				count("InterruptBehavior")
				return runtime.InterruptCancel
			},
			PermissionTarget: func(v *in) runtime.Target {
				count("PermissionTarget")
				return runtime.Target{Kind: runtime.TargetPath, Value: v.Path}
			},
			UserFacingName: func(*in) string { count("UserFacingName"); return "Probe!" },
			RenderUse:      func(v *in) string { count("RenderUse"); return v.Path },
		})
	}

	BeforeEach(func() {
		calls, explode = map[string]int{}, ""
	})

	It("asks the tool each per-input question once and keeps the answers", func() {
		inv := runtime.NewInvocation(tool(), &in{Path: "a.txt"})
		Expect(calls).To(Equal(map[string]int{"IsConcurrencySafe": 1, "IsReadOnly": 1, "IsDestructive": 1,
			"InterruptBehavior": 1, "PermissionTarget": 1, "UserFacingName": 1, "RenderUse": 1}))
		Expect(inv.ToolName).To(Equal("Probe"))
		Expect(inv.ConcurrencySafe && inv.ReadOnly && inv.Destructive).To(BeTrue())
		Expect(inv.Interrupt).To(Equal(runtime.InterruptCancel))
		Expect(inv.Target).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "a.txt"}))
		Expect(inv.TargetErr).NotTo(HaveOccurred())
		Expect(inv.UserFacingName).To(Equal("Probe!"))
		Expect(inv.Use).To(Equal("a.txt"))
	})

	DescribeTable("gives a panicking method its fail-closed answer and still asks the rest",
		func(method string, check func(inv *runtime.Invocation)) {
			explode = method
			var inv *runtime.Invocation
			Expect(func() { inv = runtime.NewInvocation(tool(), &in{Path: "a.txt"}) }).NotTo(Panic())
			check(inv)
			Expect(calls).To(HaveLen(7), "every method was asked")
			for m, n := range calls {
				Expect(n).To(Equal(1), m)
			}
			Expect(inv.Use).To(Or(Equal("a.txt"), BeEmpty()))
		},
		Entry("IsConcurrencySafe", "IsConcurrencySafe", func(inv *runtime.Invocation) {
			Expect(inv.ConcurrencySafe).To(BeFalse())
			Expect(inv.ReadOnly).To(BeTrue())
		}),
		Entry("IsReadOnly", "IsReadOnly", func(inv *runtime.Invocation) { Expect(inv.ReadOnly).To(BeFalse()) }),
		Entry("InterruptBehavior", "InterruptBehavior", func(inv *runtime.Invocation) {
			Expect(inv.Interrupt).To(Equal(runtime.InterruptBlock))
		}),
		Entry("PermissionTarget", "PermissionTarget", func(inv *runtime.Invocation) {
			var crash *runtime.Panic
			Expect(errors.As(inv.TargetErr, &crash)).To(BeTrue())
			Expect(crash.What).To(Equal("PermissionTarget"))
			Expect(inv.Target).To(Equal(runtime.Target{}))
			Expect(inv.UserFacingName).To(Equal("Probe!"))
		}),
		Entry("UserFacingName", "UserFacingName", func(inv *runtime.Invocation) {
			Expect(inv.UserFacingName).To(Equal("Probe"))
		}),
		Entry("RenderUse", "RenderUse", func(inv *runtime.Invocation) { Expect(inv.Use).To(BeEmpty()) }),
	)
})
