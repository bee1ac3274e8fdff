package runtime_test

import (
	"context"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

// client stands for a shared service a tool finds by its type.
type client struct{ name string }

var _ = Describe("ToolContext", func() {
	Describe("NewToolContext", func() {
		It("roots Cwd and the first working dir at the absolute dir, with an empty cache", func() {
			tc := runtime.NewToolContext(".")
			abs, err := filepath.Abs(".")
			Expect(err).NotTo(HaveOccurred())
			Expect(tc.Cwd).To(Equal(abs))
			Expect(tc.WorkingDirs).To(Equal([]string{abs}))
			Expect(tc.FileState).NotTo(BeNil())
			_, ok := tc.FileState.Get(filepath.Join(abs, "x"))
			Expect(ok).To(BeFalse())
		})
	})

	Describe("Clone", func() {
		var (
			orig  *runtime.ToolContext
			clone *runtime.ToolContext
			svc   *client
		)

		BeforeEach(func() {
			orig = runtime.NewToolContext(GinkgoT().TempDir())
			orig.WorkingDirs = append(orig.WorkingDirs, "/extra")
			orig.Env = map[string]string{"A": "1"}
			svc = &client{name: "model"}
			runtime.WithService(orig, svc)
			clone = orig.Clone()
		})

		It("copies the scalar fields", func() {
			Expect(clone).NotTo(BeIdenticalTo(orig))
			Expect(clone.Cwd).To(Equal(orig.Cwd))
			clone.Cwd = "/elsewhere"
			Expect(orig.Cwd).NotTo(Equal("/elsewhere"))
		})

		It("copies WorkingDirs: writing or appending to the clone's leaves the original alone", func() {
			first := orig.WorkingDirs[0]
			clone.WorkingDirs[0] = "/changed"
			clone.WorkingDirs = append(clone.WorkingDirs, "/more")
			Expect(orig.WorkingDirs).To(Equal([]string{first, "/extra"}))
		})

		It("copies Env", func() {
			clone.Env["A"] = "2"
			clone.Env["B"] = "3"
			Expect(orig.Env).To(Equal(map[string]string{"A": "1"}))
		})

		It("copies the Services map but shares the services in it", func() {
			got, ok := runtime.Service[*client](clone)
			Expect(ok).To(BeTrue())
			Expect(got).To(BeIdenticalTo(svc))

			runtime.WithService(clone, &client{name: "other"})
			runtime.WithService(clone, "a string service")
			got, _ = runtime.Service[*client](orig)
			Expect(got).To(BeIdenticalTo(svc))
			_, ok = runtime.Service[string](orig)
			Expect(ok).To(BeFalse())
		})

		It("shares the file-state cache: what the clone records, the original sees", func() {
			Expect(clone.FileState).To(BeIdenticalTo(orig.FileState))
			clone.FileState.Set("/f", runtime.FileState{Hash: "h"})
			s, ok := orig.FileState.Get("/f")
			Expect(ok).To(BeTrue())
			Expect(s.Hash).To(Equal("h"))
		})

		It("keeps absent maps absent", func() {
			c := (&runtime.ToolContext{Cwd: "/"}).Clone()
			Expect(c.Services).To(BeNil())
			Expect(c.Env).To(BeNil())
			Expect(c.WorkingDirs).To(BeNil())
		})
	})

	Describe("services", func() {
		It("finds a service by its type and nothing under another type", func() {
			tc := &runtime.ToolContext{}
			runtime.WithService(tc, &client{name: "a"})
			got, ok := runtime.Service[*client](tc)
			Expect(ok).To(BeTrue())
			Expect(got.name).To(Equal("a"))
			_, ok = runtime.Service[client](tc)
			Expect(ok).To(BeFalse())
		})

		It("answers false for a nil context or one without services", func() {
			_, ok := runtime.Service[*client](nil)
			Expect(ok).To(BeFalse())
			_, ok = runtime.Service[*client](&runtime.ToolContext{})
			Expect(ok).To(BeFalse())
		})

		It("replaces a service registered again under the same type", func() {
			tc := &runtime.ToolContext{}
			runtime.WithService(tc, &client{name: "a"})
			runtime.WithService(tc, &client{name: "b"})
			got, _ := runtime.Service[*client](tc)
			Expect(got.name).To(Equal("b"))
		})
	})

	DescribeTable("Resolve",
		func(p, want string) {
			tc := &runtime.ToolContext{Cwd: "/work/repo"}
			Expect(tc.Resolve(p)).To(Equal(want))
		},
		Entry("a relative path joins Cwd", "src/a.go", "/work/repo/src/a.go"),
		Entry("dot-dot is cleaned", "../other/b", "/work/other/b"),
		Entry("an absolute path is only cleaned", "/etc//x/../hosts", "/etc/hosts"),
	)

	It("travels in a context.Context", func() {
		tc := &runtime.ToolContext{Cwd: "/"}
		ctx := runtime.WithToolContext(context.Background(), tc)
		Expect(runtime.FromContext(ctx)).To(BeIdenticalTo(tc))
		Expect(runtime.FromContext(context.Background())).To(BeNil())
	})
})
