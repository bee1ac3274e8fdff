//go:build !ant

package tooldefs_test

import (
	"context"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/tooldefs"
)

// A Read deny rule holds for Grep and Glob over a parent directory: the
// walk leaves out what it covers and the result says so.
var _ = Describe("Grep and Glob under a Read deny rule", func() {
	var e *searchEnv

	BeforeEach(func() {
		e = newSearchEnv()
		e.put("src/a.go", "TOKEN = public\n", 0)
		e.put("secrets/key", "TOKEN = hunter2\n", 0)
		e.put("secrets/deep/more.key", "TOKEN = hunter3\n", 0)
		e.put("conf/prod.env", "TOKEN = hunter4\n", 0)
		rules, err := permission.ParseRules([]string{"Read(./secrets/**)", "Read(*.env)"}, runtime.Deny, permission.SourceFlag, "")
		Expect(err).NotTo(HaveOccurred())
		eng, err := permission.NewEngine(permission.Config{Cwd: e.dir, Home: e.outside, Rules: rules, Tools: generated.AllBaseTools()})
		Expect(err).NotTo(HaveOccurred())
		runtime.WithService[runtime.ReadGuard](e.tc, eng)
	})

	It("Grep neither lists nor quotes the denied files and says it left some out", func() {
		out, text, err := e.grep(tooldefs.GrepInput{Pattern: "TOKEN", OutputMode: "content"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(ContainSubstring("public"))
		Expect(text).NotTo(ContainSubstring("hunter"))
		Expect(out.Denied).To(Equal(2)) // secrets/ and conf/prod.env
		Expect(text).To(ContainSubstring("2 paths were left out: a permission rule denies reading them."))

		_, text, err = e.grep(tooldefs.GrepInput{Pattern: "TOKEN"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(ContainSubstring("src/a.go"))
		Expect(text).NotTo(ContainSubstring("secrets"))
		Expect(text).NotTo(ContainSubstring("prod.env"))
	})

	It("Glob leaves the denied files out of its listing", func() {
		out, text, err := e.glob(tooldefs.GlobInput{Pattern: "**/*"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(ConsistOf(filepath.Join("src", "a.go")))
		Expect(text).To(ContainSubstring("left out"))

		out, text, err = e.glob(tooldefs.GlobInput{Pattern: "**/*.key"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Filenames).To(BeEmpty())
		Expect(text).To(HavePrefix("No files found"))
		Expect(text).To(ContainSubstring("2 paths were left out")) // the walk counts what it skipped, not what would have matched
	})

	It("says nothing when nothing was left out", func() {
		_, text, err := e.grep(tooldefs.GrepInput{Pattern: "TOKEN", Path: "src"})
		Expect(err).NotTo(HaveOccurred())
		Expect(text).NotTo(ContainSubstring("left out"))
	})

	It("is judged by the engine too: a search of the denied folder itself is denied", func() {
		eng, _ := runtime.Service[runtime.ReadGuard](e.tc)
		d := eng.(*permission.Engine).Check(context.Background(), generated.GrepTool(), &tooldefs.GrepInput{Pattern: "x", Path: "secrets"}, e.tc)
		Expect(d.Behavior).To(Equal(runtime.Deny))
	})
})
