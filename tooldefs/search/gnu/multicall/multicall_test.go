package multicall

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMulticall(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "multicall")
}

var _ = Describe("NewDir", func() {
	It("refuses to link to a program that has not installed the dispatch, saying what to import", func() {
		// This test binary does not import package dispatch: its links
		// would start the tests again, not grep.
		Expect(installed).To(BeFalse())
		dir, err := NewDir()
		Expect(dir).To(BeEmpty())
		Expect(err).To(MatchError(ContainSubstring(`import _ "github.com/agentcore/agentcore/tooldefs/search/gnu/multicall/dispatch"`)))
	})

	It("leaves os.Args alone until Install runs", func() {
		code, ok := Dispatch([]string{"agentcore", "-p", "hi"})
		Expect(ok).To(BeFalse())
		Expect(code).To(Equal(0))
	})
})
