package walk_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestWalk(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "walk")
}

// Every walk starts goroutines; none may outlive the call.
var _ = BeforeEach(func() {
	DeferCleanup(tooltest.LeakCheck(GinkgoT()))
})
