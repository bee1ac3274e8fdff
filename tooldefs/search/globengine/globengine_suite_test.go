package globengine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestGlobengine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "globengine")
}

// Every walk starts goroutines; none may outlive the call.
var _ = BeforeEach(func() {
	DeferCleanup(tooltest.LeakCheck(GinkgoT()))
})
