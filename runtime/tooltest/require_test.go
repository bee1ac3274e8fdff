package tooltest_test

import (
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Missing's reason", func() {
	setRequire := func(v string) {
		old, had := os.LookupEnv(tooltest.RequireEnv)
		Expect(os.Setenv(tooltest.RequireEnv, v)).To(Succeed())
		DeferCleanup(func() {
			if had {
				_ = os.Setenv(tooltest.RequireEnv, old)
			} else {
				_ = os.Unsetenv(tooltest.RequireEnv)
			}
		})
	}

	It("skips, naming the tool, when AGENTCORE_REQUIRE does not name it", func() {
		setRequire("node, rg")
		reason, fail := tooltest.MissingReason(tooltest.Tmux, "tmux is not on PATH")
		Expect(fail).To(BeFalse())
		Expect(reason).To(Equal("needs tmux: tmux is not on PATH"))
	})

	It("fails, saying the run requires it, when AGENTCORE_REQUIRE names it", func() {
		setRequire("node, tmux")
		reason, fail := tooltest.MissingReason(tooltest.Tmux, "tmux is not on PATH")
		Expect(fail).To(BeTrue())
		Expect(reason).To(Equal("needs tmux: tmux is not on PATH (AGENTCORE_REQUIRE names tmux: this run must have it)"))
		Expect(tooltest.Required("node")).To(BeTrue())
		Expect(tooltest.Required("no")).To(BeFalse())
	})

	It("fails for every tool when AGENTCORE_REQUIRE is all", func() {
		setRequire("all")
		_, fail := tooltest.MissingReason(tooltest.Userns, "no")
		Expect(fail).To(BeTrue())
	})

	It("finds a tool that is there without ending the spec", func() {
		Expect(tooltest.Need(tooltest.Bash)).To(HaveSuffix("/bash"))
	})
})
