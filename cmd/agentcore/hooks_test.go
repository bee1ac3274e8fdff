//go:build !internal && !ant

package main_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("agentcore run with Claude Code's hooks", func() {
	var dir string

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".claude", "hooks"), 0o755)).To(Succeed())
	})
	write := func(rel, body string, mode os.FileMode) {
		Expect(os.WriteFile(filepath.Join(dir, rel), []byte(body), mode)).To(Succeed())
	}

	It("blocks a Bash call from a .claude/settings.json PreToolUse hook, even in bypassPermissions, and the model reads why", func() {
		write(".claude/hooks/no-touch.sh", `#!/bin/bash
input=$(cat)
if grep -q '"command":"touch' <<<"$input"; then
  echo "touch is blocked by the project's hook; use Write" >&2
  exit 2
fi
`, 0o755)
		write(".claude/settings.json", `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/no-touch.sh"}]}]}}`, 0o644)
		write("scn.jsonl", `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch blocked.txt"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"echo still-works"}}]}
{"when":{"errors":["t1"]},"blocks":[{"type":"text","text":"The hook said no."}]}`, 0o644)
		stdout, stderr, code := runIn(dir, nil, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions", "--output-format", "stream-json")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("PreToolUse:Bash hook blocked this call: touch is blocked by the project's hook; use Write"))
		Expect(stdout).To(ContainSubstring("still-works"))
		Expect(stdout).To(ContainSubstring("The hook said no."))
		Expect(filepath.Join(dir, "blocked.txt")).NotTo(BeAnExistingFile())
	})

	It("rewrites a Bash command with updatedInput and adds PostToolUse context", func() {
		write(".claude/hooks/rewrite.sh", `#!/bin/bash
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > out.txt"}}}'
`, 0o755)
		write(".claude/hooks/post.sh", `#!/bin/bash
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post hook saw it"}}'
`, 0o755)
		write(".claude/settings.json", `{"hooks":{
  "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":".claude/hooks/rewrite.sh"}]}],
  "PostToolUse":[{"matcher":"Bash|Edit","hooks":[{"type":"command","command":".claude/hooks/post.sh"}]}]}}`, 0o644)
		write("scn.jsonl", `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch original.txt"}}]}
{"blocks":[{"type":"text","text":"ok"}]}`, 0o644)
		stdout, stderr, code := runIn(dir, nil, "--model", "replay:scn.jsonl", "--output-format", "stream-json")
		Expect(code).To(Equal(0), stderr)
		Expect(filepath.Join(dir, "original.txt")).NotTo(BeAnExistingFile())
		data, err := os.ReadFile(filepath.Join(dir, "out.txt"))
		Expect(err).NotTo(HaveOccurred(), "the hook's allow let the rewritten (writing) command run in default mode")
		Expect(string(data)).To(Equal("rewritten\n"))
		Expect(stdout).To(ContainSubstring("post hook saw it"))
	})
})
