package agent_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestAgent(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Agent Suite")
}

var _ = BeforeEach(func() {
	// Every run must leave no goroutine behind: stream readers, calls,
	// executors, HTTP handlers. The SDK's idle keep-alive connections are
	// not ours.
	DeferCleanup(tooltest.LeakCheck(GinkgoT(),
		goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop"),
	))
})
