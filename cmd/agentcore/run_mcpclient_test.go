//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("agentcore run as an MCP client of server-everything", Label("node"), func() {
	var dir, cfg string

	BeforeEach(func() {
		bin := tooltest.NeedNpm("mcp-server-everything")
		d, err := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		dir = d
		Expect(os.WriteFile(filepath.Join(dir, "README"), []byte("hi\n"), 0o644)).To(Succeed())
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "start"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
		}
		b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"everything": map[string]any{"command": bin}}})
		Expect(err).NotTo(HaveOccurred())
		cfg = string(b)
	})

	// play runs a scenario non-interactively and returns stream-json's stdout.
	play := func(scenario string, args ...string) (string, string) {
		GinkgoHelper()
		file := filepath.Join(GinkgoT().TempDir(), "sc.jsonl")
		Expect(os.WriteFile(file, []byte(scenario), 0o644)).To(Succeed())
		stdout, stderr, code := runIn(dir, []string{npmMCPTimeout}, append([]string{"--model", "replay:" + file, "-p", "go",
			"--output-format", "stream-json", "--mcp-config", cfg, "--allowedTools", "mcp__everything"}, args...)...)
		Expect(code).To(Equal(0), stderr)
		return stdout, stderr
	}

	It("moves the roots into a worktree with the session, and samples with the replay model when --allowedTools allows it", func() {
		stdout, _ := play(`{"name":"client"}
{"blocks":[{"type":"tool_use","id":"r1","name":"mcp__everything__get-roots-list","input":{}}]}
{"blocks":[{"type":"tool_use","id":"w1","name":"EnterWorktree","input":{"name":"wt1"}}]}
{"blocks":[{"type":"tool_use","id":"r2","name":"mcp__everything__get-roots-list","input":{}}]}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"what is two and two?"}}]}
{"blocks":[{"type":"text","text":"Four, says the replay model."}]}
{"blocks":[{"type":"text","text":"done"}]}`, "--allowedTools", "McpSampling(everything)")
		wt := filepath.Join(dir, ".agentcore", "worktrees", "wt1")
		Expect(stdout).To(ContainSubstring(`Current MCP Roots (1 total):\n\n1. ` + filepath.Base(dir) + `\n   URI: file://` + dir + `\n`))
		Expect(stdout).To(ContainSubstring(`Current MCP Roots (2 total):\n\n1. ` + filepath.Base(dir) + `\n   URI: file://` + dir + `\n\n2. wt1\n   URI: file://` + wt + `\n`))
		Expect(stdout).To(ContainSubstring(`\"text\": \"Four, says the replay model.\"`))
	})

	It("refuses sampling without a rule, naming the flag that allows it, and declines elicitation with a reason", func() {
		stdout, _ := play(`{"name":"client"}
{"blocks":[{"type":"tool_use","id":"s1","name":"mcp__everything__trigger-sampling-request","input":{"prompt":"hi"}}]}
{"blocks":[{"type":"tool_use","id":"e1","name":"mcp__everything__trigger-elicitation-request","input":{}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(stdout).To(ContainSubstring(`McpSampling (everything) needs the user's approval, and this run is non-interactive, so nobody could give it. To allow it, pass --allowedTools`))
		Expect(stdout).To(ContainSubstring(`McpSampling(everything)`))
		Expect(stdout).To(ContainSubstring("User declined to provide the requested information"))
		Expect(stdout).To(ContainSubstring("nobody can answer it in this run (it is non-interactive)"))
	})
})
