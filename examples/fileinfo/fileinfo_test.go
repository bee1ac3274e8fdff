package fileinfo_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/examples/fileinfo/generated"
	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("FileInfo, through its generated wrapper", func() {
	var (
		tool runtime.Tool
		tc   *runtime.ToolContext
		dir  string
	)

	BeforeEach(func() {
		tool = runtime.Lookup(generated.AllBaseTools(), "FileInfo")
		Expect(tool).NotTo(BeNil())
		dir = GinkgoT().TempDir()
		tc = runtime.NewToolContext(dir)
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o640)).To(Succeed())
	})

	var lastInput any
	call := func(raw string) (runtime.Result, error) {
		in, err := tool.Decode(json.RawMessage(raw))
		if err != nil {
			return runtime.Result{}, err
		}
		lastInput = in
		return tool.Call(context.Background(), in, runtime.NewCall("t1", tc, nil))
	}

	It("describes a file", func() {
		res, err := call(`{"path":"a.txt"}`)
		Expect(err).NotTo(HaveOccurred())
		out := res.Data.(fileinfoOutput)
		Expect(out.Kind).To(Equal("file"))
		Expect(out.Size).To(Equal(int64(5)))
		Expect(out.Mode).To(Equal("-rw-r-----"))
		Expect(tool.RenderResult(lastInput, res)).To(Equal("file, 5 bytes"))
	})

	It("describes a directory and a symlink", func() {
		Expect(os.Mkdir(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		Expect(os.Symlink("a.txt", filepath.Join(dir, "link"))).To(Succeed())
		res, err := call(`{"path":"sub"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Data.(fileinfoOutput).Kind).To(Equal("directory"))
		res, err = call(`{"path":"link"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Data.(fileinfoOutput).LinkTarget).To(Equal("a.txt"))
	})

	It("says when the path does not exist", func() {
		_, err := call(`{"path":"nope"}`)
		Expect(err).To(MatchError(ContainSubstring("does not exist")))
	})

	It("refuses a path outside the working directories", func() {
		_, err := call(`{"path":"/etc/hostname"}`)
		Expect(err).To(MatchError(ContainSubstring("outside the working directories")))
	})

	It("is read-only and concurrency-safe, and not destructive", func() {
		in, err := tool.Decode(json.RawMessage(`{"path":"a.txt"}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(tool.IsReadOnly(in)).To(BeTrue())
		Expect(tool.IsConcurrencySafe(in)).To(BeTrue())
		Expect(tool.IsDestructive(in)).To(BeFalse())
		Expect(tool.PermissionTarget(in)).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "a.txt"}))
		Expect(tool.RenderUse(in)).To(Equal("a.txt"))
	})

	DescribeTable("refuses bad input, naming the parameter",
		func(raw, want string) {
			_, err := tool.Decode(json.RawMessage(raw))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("missing path", `{}`, `"path"`),
		Entry("wrong type", `{"path":3}`, `"path"`),
		Entry("empty path", `{"path":""}`, `"path"`),
		Entry("unknown key", `{"path":"a","recursive":true}`, `"recursive"`),
		Entry("not an object", `["a"]`, `object`),
	)
})
