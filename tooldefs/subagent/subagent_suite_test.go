package subagent_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestSubagent(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "subagent")
}
