//go:build !ant

package tooldefs_test

import (
	"context"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// Only the ant variant serves grep and find itself (bash_search_ant_test.go).
var _ = Describe("Bash's grep and find outside the ant variant", func() {
	It("are the system's, on the PATH the session gives", func() {
		sys := tooltest.Need(tooltest.GNUGrep)
		root := GinkgoT().TempDir()
		tc := runtime.NewToolContext(root)
		reg := shell.NewRegistry()
		DeferCleanup(reg.Reset)
		runtime.WithService(tc, reg)
		DeferCleanup(tc.Close)
		out, err := tooldefs.Bash{}.Call(context.Background(), &tooldefs.BashInput{Command: `type -P grep; echo "$PATH"`}, runtime.NewCall("toolu_1", tc, nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Output).To(Equal(sys + "\n" + os.Getenv("PATH")))
	})

	It("point at Glob and Grep in Bash's description", func() {
		d := generated.BashTool().Description()
		Expect(d).To(ContainSubstring("- Glob to find files (not find or ls)\n- Grep to search contents (not grep or rg)\n"))
		Expect(d).NotTo(ContainSubstring("built-in engines"))
	})
})
