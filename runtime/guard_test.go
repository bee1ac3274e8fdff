package runtime_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("Try", func() {
	It("returns nil when fn returns", func() {
		ran := false
		Expect(runtime.Try("Call", func() { ran = true })).To(Succeed())
		Expect(ran).To(BeTrue())
	})

	It("turns a panic into a *Panic that names what panicked and the value", func() {
		err := runtime.Try("Call", func() { panic("boom") })
		Expect(err).To(MatchError("panic in Call: boom"))
		var p *runtime.Panic
		Expect(errors.As(err, &p)).To(BeTrue())
		Expect(p.What).To(Equal("Call"))
		Expect(p.Value).To(Equal("boom"))
	})

	It("keeps a panicking error value as it was", func() {
		cause := errors.New("index out of range")
		err := runtime.Try("Decode", func() { panic(cause) })
		var p *runtime.Panic
		Expect(errors.As(err, &p)).To(BeTrue())
		Expect(p.Value).To(BeIdenticalTo(cause))
		Expect(err).To(MatchError("panic in Decode: index out of range"))
	})

	It("recovers panic(nil) too", func() {
		err := runtime.Try("Name", func() { panic(nil) })
		Expect(err).To(MatchError(ContainSubstring("panic in Name: ")))
	})
})

var _ = Describe("Guard", func() {
	It("returns fn's result and no error", func() {
		v, err := runtime.Guard("RenderUse", func() string { return "a.go" })
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal("a.go"))
	})

	It("returns the zero value and a *Panic when fn panics", func() {
		v, err := runtime.Guard("IsConcurrencySafe", func() bool { panic(42) })
		Expect(v).To(BeFalse())
		Expect(err).To(MatchError("panic in IsConcurrencySafe: 42"))
	})

	It("takes a method value", func() {
		t := nameOnly("Read")
		v, err := runtime.Guard("Name", t.Name)
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal("Read"))
	})
})

type nameOnly string

func (n nameOnly) Name() string { return string(n) }
