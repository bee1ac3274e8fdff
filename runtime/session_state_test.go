package runtime_test

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

type counter struct{ n int }

var _ = Describe("ToolContext session", func() {
	var tc *runtime.ToolContext
	BeforeEach(func() {
		tc = runtime.NewToolContext(GinkgoT().TempDir())
		DeferCleanup(tc.Close)
	})

	It("makes a session value once, on first use, even under concurrent first uses", func() {
		made := 0
		var wg sync.WaitGroup
		got := make([]*counter, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				v, err := runtime.SessionValue(tc, func() (*counter, func()) {
					made++
					return &counter{}, nil
				})
				Expect(err).NotTo(HaveOccurred())
				got[i] = v
			}()
		}
		wg.Wait()
		Expect(made).To(Equal(1))
		for _, v := range got {
			Expect(v).To(BeIdenticalTo(got[0]))
		}
	})

	It("keys values by type", func() {
		c, _ := runtime.SessionValue(tc, func() (*counter, func()) { return &counter{n: 1}, nil })
		s, _ := runtime.SessionValue(tc, func() (string, func()) { return "text", nil })
		Expect(c.n).To(Equal(1))
		Expect(s).To(Equal("text"))
	})

	It("shares the session with clones, not a copy of it", func() {
		clone := tc.Clone()
		v, err := runtime.SessionValue(clone, func() (*counter, func()) { return &counter{n: 7}, nil })
		Expect(err).NotTo(HaveOccurred())
		w, err := runtime.SessionValue(tc, func() (*counter, func()) { return &counter{}, nil })
		Expect(err).NotTo(HaveOccurred())
		Expect(w).To(BeIdenticalTo(v))

		closed := false
		Expect(tc.OnClose(func() { closed = true })).To(Succeed())
		clone.Close()
		Expect(closed).To(BeTrue(), "Close on a clone ends the session of the original")
	})

	It("keeps each NewToolContext's session apart", func() {
		other := runtime.NewToolContext(GinkgoT().TempDir())
		DeferCleanup(other.Close)
		v, _ := runtime.SessionValue(tc, func() (*counter, func()) { return &counter{n: 1}, nil })
		w, _ := runtime.SessionValue(other, func() (*counter, func()) { return &counter{n: 2}, nil })
		Expect(v.n).To(Equal(1))
		Expect(w.n).To(Equal(2))
	})

	It("runs the cleanups once, last registered first, and refuses new values afterwards", func() {
		var order []string
		_, err := runtime.SessionValue(tc, func() (*counter, func()) {
			return &counter{}, func() { order = append(order, "value") }
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(tc.OnClose(func() { order = append(order, "later") })).To(Succeed())
		tc.Close()
		tc.Close()
		Expect(order).To(Equal([]string{"later", "value"}))

		_, err = runtime.SessionValue(tc, func() (*counter, func()) { return &counter{}, nil })
		Expect(err).To(MatchError(runtime.ErrSessionClosed))
		Expect(tc.OnClose(func() {})).To(MatchError(runtime.ErrSessionClosed))
	})

	It("has no session in a context built as a literal, and says how to get one", func() {
		lit := &runtime.ToolContext{Cwd: "/"}
		_, err := runtime.SessionValue(lit, func() (*counter, func()) { return &counter{}, nil })
		Expect(err).To(MatchError(runtime.ErrNoSession))
		Expect(err.Error()).To(ContainSubstring("runtime.NewToolContext"))
		Expect(lit.OnClose(func() {})).To(MatchError(runtime.ErrNoSession))
		lit.Close()
		var none *runtime.ToolContext
		_, err = runtime.SessionValue(none, func() (*counter, func()) { return &counter{}, nil })
		Expect(err).To(MatchError(runtime.ErrNoSession))
	})
})
