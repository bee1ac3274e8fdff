package replay_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestReplay(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Replay Suite")
}

var _ = AfterEach(func() {
	goleak.VerifyNone(GinkgoT(), goleak.IgnoreCurrent())
})
