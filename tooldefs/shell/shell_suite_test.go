package shell_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestShell(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Shell Suite")
}

// Every spec must leave no goroutine behind: pollers, waiters and
// background-task goroutines all end.
var _ = BeforeEach(func() {
	ignore := goleak.IgnoreCurrent()
	DeferCleanup(func() { goleak.VerifyNone(GinkgoT(), ignore) })
})
