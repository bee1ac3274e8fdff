//go:build !internal && !ant

// The description specs run each variant's binary (built by
// variants_test.go), once, in the default pass of `make test`.

package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// pooledTool is an entry of `tools --json` with its description as sent.
type pooledTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// pooled returns the pool `agentcore-<variant> tools --json args…` lists.
func pooled(variant string, env []string, args ...string) []pooledTool {
	GinkgoHelper()
	cmd := exec.Command(binaries[variant], append([]string{"tools", "--json"}, args...)...)
	cmd.Dir = GinkgoT().TempDir()
	cmd.Env = append(os.Environ(), append([]string{"HOME=" + cmd.Dir, "AGENTCORE_CONFIG_DIR=" + cmd.Dir}, env...)...)
	out, err := cmd.Output()
	Expect(err).NotTo(HaveOccurred(), "agentcore-%s tools --json %v", variant, args)
	var tools []pooledTool
	Expect(json.Unmarshal(out, &tools)).To(Succeed())
	return tools
}

// everyToolName is every built-in tool of every variant.
func everyToolName() []string {
	var names []string
	for _, v := range gating.Variants {
		for _, n := range v.Tools {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

var _ = Describe("tool descriptions", Label("gating"), func() {
	// The pools of every variant in every mode that changes which tools
	// are sent: the default, the Task tools instead of TodoWrite, simple
	// mode, deny rules that take out Agent and the background-task tools,
	// and MCP tools behind ToolSearch.
	type pool struct {
		name string
		env  []string
		args []string
	}
	pools := func(variant string) []pool {
		mcp := fmt.Sprintf(`{"mcpServers":{"self":{"command":%q,"args":["mcp","serve"]}}}`, binaries[variant])
		return []pool{
			{name: "default"},
			{name: "tasks", env: []string{"AGENTCORE_ENABLE_TASKS=1"}},
			{name: "simple", args: []string{"--simple"}},
			{name: "simple with MCP", args: []string{"--simple", "--mcp-config", mcp}},
			{name: "without Agent", args: []string{"--disallowedTools", "Agent"}},
			{name: "without background tasks", args: []string{"--disallowedTools", "TaskOutput", "--disallowedTools", "TaskStop"}},
			{name: "with MCP", args: []string{"--mcp-config", mcp}},
		}
	}

	It("name no tool absent from the pool they are sent with, in every variant and mode", func() {
		all := everyToolName()
		Expect(all).To(ContainElements("Glob", "Grep", "Agent", "Config"))
		checked := 0
		var wrong []string
		for _, v := range gating.Variants {
			for _, p := range pools(v.Name) {
				tools := pooled(v.Name, p.env, p.args...)
				Expect(tools).NotTo(BeEmpty())
				var present []string
				for _, t := range tools {
					present = append(present, t.Name)
				}
				for _, t := range tools {
					for _, n := range all {
						if slices.Contains(present, n) {
							continue
						}
						if regexp.MustCompile(`\b` + n + `\b`).MatchString(t.Description) {
							wrong = append(wrong, fmt.Sprintf("%s, %s pool: %s's description names %s, which the pool lacks", v.Name, p.name, t.Name, n))
						}
					}
					checked++
				}
			}
		}
		Expect(wrong).To(BeEmpty())
		GinkgoWriter.Printf("checked %d descriptions\n", checked)
	})

	It("keep their pointers to other tools when those are in the pool", func() {
		for _, t := range pooled("external", nil) {
			if t.Name == "Bash" {
				Expect(t.Description).To(ContainSubstring("- Glob to find files (not find or ls)"))
				Expect(t.Description).To(ContainSubstring("Read new output with TaskOutput"))
			}
		}
		for _, t := range pooled("external", nil, "--simple") {
			if t.Name == "Bash" {
				Expect(t.Description).To(ContainSubstring("- Read to read files (not cat, head or tail)"))
				Expect(t.Description).To(ContainSubstring("- Edit to change files (not sed or awk)"))
				Expect(t.Description).To(ContainSubstring("run_in_background starts the command"))
			}
		}
	})
})
