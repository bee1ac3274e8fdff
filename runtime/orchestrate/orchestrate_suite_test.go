package orchestrate_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestOrchestrate(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Orchestrate Suite")
}

// Every spec must end with no goroutine it started still running.
var _ = BeforeEach(func() {
	before := goleak.IgnoreCurrent()
	DeferCleanup(func() {
		Expect(goleak.Find(before)).To(Succeed())
	})
})
