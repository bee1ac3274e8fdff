package gnu_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	// The suite's binary is also the embedded grep and find: started as
	// grep or find (a link made by multicall.NewDir), its init runs the
	// command and exits before the tests do.
	_ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/dispatch"
)

func TestGNU(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "gnu")
}
