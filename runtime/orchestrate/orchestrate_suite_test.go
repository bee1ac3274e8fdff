package orchestrate_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestOrchestrate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Orchestrate Suite")
}

// Every spec must end with no goroutine it started still running.
var _ = BeforeEach(func() { DeferCleanup(tooltest.LeakCheck(GinkgoT())) })
