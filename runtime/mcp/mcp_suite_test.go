package mcp_test

import (
	"encoding/json"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
	"go.uber.org/goleak"
)

func TestMCP(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "MCP Suite")
}

// bins holds the paths of the test servers, built once per suite.
var bins struct {
	Tool, Resource, Slow, Crash, Ask, Bad string
}

var _ = SynchronizedBeforeSuite(func() []byte {
	build := func(name string) string {
		p, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/" + name)
		Expect(err).NotTo(HaveOccurred(), "build test server "+name)
		return p
	}
	bins.Tool = build("toolserver")
	bins.Resource = build("resourceserver")
	bins.Slow = build("slowserver")
	bins.Crash = build("crashserver")
	bins.Ask = build("askserver")
	bins.Bad = build("badserver")
	b, err := json.Marshal(bins)
	Expect(err).NotTo(HaveOccurred())
	return b
}, func(b []byte) {
	Expect(json.Unmarshal(b, &bins)).To(Succeed())
})

var _ = SynchronizedAfterSuite(func() {}, func() {
	gexec.CleanupBuildArtifacts()
})

// ginkgoInterceptor is Ginkgo's own output-forwarding goroutine in
// parallel runs, restarted between specs.
var ginkgoInterceptor = goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1")

// Every spec must leave no goroutine behind: the snapshot is taken before
// the spec, the check runs after all of the spec's own cleanups.
var _ = BeforeEach(func() {
	before := goleak.IgnoreCurrent()
	DeferCleanup(func() {
		Eventually(func() error { return goleak.Find(before, ginkgoInterceptor) }).
			WithTimeout(15 * time.Second).WithPolling(100 * time.Millisecond).Should(Succeed())
	})
})
