package globengine_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestGlobengine(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "globengine")
}

// Every walk starts goroutines; none may outlive the call.
var _ = BeforeEach(func() {
	running := goleak.IgnoreCurrent()
	DeferCleanup(func() { goleak.VerifyNone(GinkgoT(), running) })
})
