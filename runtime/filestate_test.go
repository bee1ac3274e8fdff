package runtime_test

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("FileStateCache", func() {
	var c *runtime.FileStateCache

	BeforeEach(func() {
		c = runtime.NewFileStateCache()
	})

	It("returns what was set for a path, and nothing for another", func() {
		s := runtime.FileState{Hash: "abc", ModTime: time.Unix(100, 0), Offset: 10, Limit: 5, Partial: true}
		c.Set("/a", s)
		got, ok := c.Get("/a")
		Expect(ok).To(BeTrue())
		Expect(got).To(Equal(s))
		_, ok = c.Get("/b")
		Expect(ok).To(BeFalse())
	})

	It("lists the most recently set paths first, and forgets a deleted one", func() {
		for _, p := range []string{"/a", "/b", "/c", "/d"} {
			c.Set(p, runtime.FileState{Hash: p})
		}
		c.Set("/b", runtime.FileState{Hash: "again"})
		c.Delete("/d")
		Expect(c.Recent(2)).To(Equal([]string{"/b", "/c"}))
		Expect(c.Recent(10)).To(Equal([]string{"/b", "/c", "/a"}))
		Expect(c.Paths()).To(ConsistOf("/a", "/b", "/c"))
		var none *runtime.FileStateCache
		Expect(none.Recent(3)).To(BeEmpty())
	})

	It("after Unshow keeps the hash but no longer the range shown", func() {
		c.Set("/a", runtime.FileState{Hash: "h", Offset: 1, Limit: 20, Partial: true})
		c.Unshow("/a")
		c.Unshow("/unknown")
		got, _ := c.Get("/a")
		Expect(got).To(Equal(runtime.FileState{Hash: "h", Partial: true}))
		_, ok := c.Get("/unknown")
		Expect(ok).To(BeFalse())
	})

	It("keeps the last state set for a path", func() {
		c.Set("/a", runtime.FileState{Hash: "old", Partial: true})
		c.Set("/a", runtime.FileState{Hash: "new"})
		got, _ := c.Get("/a")
		Expect(got).To(Equal(runtime.FileState{Hash: "new"}))
	})

	It("forgets a deleted path, and deleting an unknown one is harmless", func() {
		c.Set("/a", runtime.FileState{Hash: "h"})
		c.Delete("/a")
		c.Delete("/never")
		_, ok := c.Get("/a")
		Expect(ok).To(BeFalse())
	})

	It("answers Get on a nil cache with nothing", func() {
		var none *runtime.FileStateCache
		_, ok := none.Get("/a")
		Expect(ok).To(BeFalse())
	})

	It("is safe for concurrent use", func() {
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := fmt.Sprintf("/f%d", i)
				c.Set(p, runtime.FileState{Hash: p})
				c.Get(p)
				c.Get("/f0")
			}()
		}
		wg.Wait()
		for i := 0; i < 20; i++ {
			p := fmt.Sprintf("/f%d", i)
			got, ok := c.Get(p)
			Expect(ok).To(BeTrue())
			Expect(got.Hash).To(Equal(p))
		}
	})
	It("works as a zero value, and remembers nothing when nil", func() {
		var zero runtime.FileStateCache
		zero.Set("/a", runtime.FileState{Hash: "x"})
		got, ok := zero.Get("/a")
		Expect(ok).To(BeTrue())
		Expect(got.Hash).To(Equal("x"))
		zero.Delete("/a")
		_, ok = zero.Get("/a")
		Expect(ok).To(BeFalse())

		var none *runtime.FileStateCache
		Expect(func() { none.Set("/a", runtime.FileState{}); none.Delete("/a") }).NotTo(Panic())
		_, ok = none.Get("/a")
		Expect(ok).To(BeFalse())
	})
})
