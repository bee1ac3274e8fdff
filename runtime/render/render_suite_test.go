package render_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestRender(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Render Suite")
}

var _ = AfterEach(func() {
	goleak.VerifyNone(GinkgoT(), goleak.IgnoreCurrent())
})
