package grepengine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestGrepengine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "grepengine")
}

// Every walk starts goroutines; none may outlive the call.
var _ = BeforeEach(func() {
	DeferCleanup(tooltest.LeakCheck(GinkgoT()))
})
