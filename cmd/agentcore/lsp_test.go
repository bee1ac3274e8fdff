//go:build !internal && !ant

package main_test

import (
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("the LSP tool in the pool", func() {
	names := func(env ...string) []string {
		GinkgoHelper()
		var out []string
		for _, t := range pooled("external", env) {
			out = append(out, t.Name)
		}
		return out
	}

	It("is listed when gopls is on PATH, and left out when no language server is configured", func() {
		gopls := tooltest.Need(tooltest.Gopls)
		gobin, err := exec.LookPath("go")
		Expect(err).NotTo(HaveOccurred())
		// PATH keeps go (gopls runs it) and, in the first run only, gopls.
		without := filepath.Dir(gobin) + ":/usr/bin:/bin"
		Expect(strings.Split(without, ":")).NotTo(ContainElement(filepath.Dir(gopls)), "gopls must not sit next to go or in /usr/bin or /bin for this spec")
		Expect(names("PATH=" + filepath.Dir(gopls) + ":" + without)).To(ContainElement("LSP"))
		Expect(names("PATH=" + without)).NotTo(ContainElement("LSP"))
	})
})
