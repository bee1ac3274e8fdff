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

var _ = AfterEach(func() {
	Expect(goleak.Find(goleak.IgnoreCurrent())).To(Succeed())
})
