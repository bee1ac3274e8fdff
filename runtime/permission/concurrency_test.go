package permission_test

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

var _ = Describe("CanUseTool under concurrency", func() {
	BeforeEach(func() { DeferCleanup(tooltest.LeakCheck(GinkgoT())) })

	It("asks one call at a time, and an 'always' answer settles the waiting calls", func() {
		dir := GinkgoT().TempDir()
		e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: dir})
		Expect(err).NotTo(HaveOccurred())
		var out strings.Builder
		// One answer only: if a second prompt appeared it would read EOF and deny.
		e.SetAsker(ask.NewPrompt(strings.NewReader("2\n"), &out))
		tc := runtime.NewToolContext(dir)
		var wg sync.WaitGroup
		results := make([]runtime.Behavior, 16)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = e.CanUseTool(context.Background(), bashTool(), "make build", tc).Behavior
			}()
		}
		wg.Wait()
		for _, b := range results {
			Expect(b).To(Equal(runtime.Allow))
		}
		Expect(strings.Count(out.String(), "Allow? [")).To(Equal(1))
	})

	It("talks to a prompt over real pipes, like a terminal", func() {
		dir := GinkgoT().TempDir()
		e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: dir})
		Expect(err).NotTo(HaveOccurred())
		inR, inW, err := os.Pipe()
		Expect(err).NotTo(HaveOccurred())
		outR, outW, err := os.Pipe()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(func() { inR.Close(); inW.Close(); outR.Close(); outW.Close() })
		e.SetAsker(ask.NewPrompt(inR, outW))

		// The "user": waits for the question, then answers no.
		done := make(chan struct{})
		go func() {
			defer close(done)
			r := bufio.NewReader(outR)
			for {
				s, err := r.ReadString(':')
				if err != nil || strings.HasSuffix(s, "[1/2/3]:") {
					break
				}
			}
			_, _ = io.WriteString(inW, "3\n")
		}()
		d := e.CanUseTool(context.Background(), bashTool(), "git push", runtime.NewToolContext(dir))
		outW.Close()
		<-done
		Expect(d.Behavior).To(Equal(runtime.Deny))
		Expect(d.Message).To(ContainSubstring("The user denied Bash"))
	})
})
