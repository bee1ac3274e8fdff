package web_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestWeb(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Web Suite")
}

var _ = BeforeEach(func() {
	// The test servers' and clients' idle keep-alive connections close
	// with them; anything else left running is a leak.
	DeferCleanup(tooltest.LeakCheck(GinkgoT(), goleak.IgnoreTopFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreTopFunction("net/http.(*persistConn).writeLoop")))
})
