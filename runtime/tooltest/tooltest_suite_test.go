package tooltest_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTooltest(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "tooltest Suite")
}
