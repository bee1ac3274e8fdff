package sdkstart

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func TestSDKStart(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "sdkstart")
}

// The benchmark's script is checked in make test with one run of
// agentcore alone, so a change that breaks it shows before `make bench`.
var _ = Describe("first_request.mjs", Label("node"), func() {
	It("times the real Agent SDK's query() through agentcore to the fake API's first request", func() {
		entry := tooltest.NeedNpmFile("@anthropic-ai/claude-agent-sdk/sdk.mjs")
		bin := filepath.Join(GinkgoT().TempDir(), "agentcore")
		build := exec.Command("go", "build", "-o", bin, "./cmd/agentcore")
		build.Dir = "../.."
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))

		cmd := exec.Command("node", "first_request.mjs", entry, "1", "agentcore="+bin)
		cmd.Stderr = GinkgoWriter
		out, err = cmd.Output()
		Expect(err).NotTo(HaveOccurred(), string(out))
		var ms map[string][]float64
		Expect(json.Unmarshal(out, &ms)).To(Succeed(), string(out))
		Expect(ms).To(HaveKey("agentcore"))
		Expect(ms["agentcore"]).To(HaveLen(1))
		Expect(ms["agentcore"][0]).To(BeNumerically(">", 0))
	})
})
