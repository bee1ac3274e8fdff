package hooks_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/hooks"
)

var _ = Describe("reading a settings file's hooks", func() {
	It("reads every handler type with its fields", func() {
		var c hooks.Config
		Expect(json.Unmarshal([]byte(`{
			"PreToolUse": [{"matcher": "Bash", "hooks": [
				{"type": "command", "command": "./check.sh", "if": "Bash(git *)", "timeout": 5, "statusMessage": "checking"},
				{"type": "command", "command": "./bg.sh", "async": true},
				{"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"A": "$T"}, "allowedEnvVars": ["T"]},
				{"type": "prompt", "prompt": "Safe? $ARGUMENTS", "model": "haiku"},
				{"type": "agent", "prompt": "Verify $ARGUMENTS", "timeout": 120},
				{"type": "mcp_tool", "server": "scan", "tool": "check", "input": {"file": "${tool_input.file_path}"}}]}],
			"PostToolUse": [{"hooks": [{"type": "prompt", "prompt": "ok?", "continueOnBlock": true}]}]}`), &c)).To(Succeed())
		hs := c[hooks.PreToolUse][0].Hooks
		Expect(hs).To(HaveLen(6))
		Expect(hs[0]).To(Equal(hooks.Hook{Type: "command", Command: "./check.sh", If: "Bash(git *)", Timeout: 5, StatusMessage: "checking"}))
		Expect(hs[1].Async).To(BeTrue())
		Expect(hs[3]).To(Equal(hooks.Hook{Type: "prompt", Prompt: "Safe? $ARGUMENTS", Model: "haiku"}))
		Expect(hs[4].Timeout).To(Equal(120.0))
		Expect(hs[5]).To(Equal(hooks.Hook{Type: "mcp_tool", Server: "scan", Tool: "check", Input: map[string]any{"file": "${tool_input.file_path}"}}))
		Expect(c[hooks.PostToolUse][0].Hooks[0].ContinueOnBlock).To(BeTrue())
	})

	DescribeTable("refuses a hook it would misread, naming it and saying what to write",
		func(hook, want string) {
			var c hooks.Config
			err := json.Unmarshal([]byte(`{"Stop": [{"hooks": [{"type": "command", "command": "true"}, `+hook+`]}]}`), &c)
			Expect(err).To(MatchError(And(ContainSubstring("hooks.Stop[0].hooks[1]: "), ContainSubstring(want))))
		},
		Entry("an unknown type", `{"type": "promt", "prompt": "x"}`, `unknown hook type "promt"; use "command", "http", "prompt", "agent" or "mcp_tool"`),
		Entry("no type", `{"prompt": "x"}`, `has no "type"`),
		Entry("the SDK's callback type", `{"type": "callback"}`, `unknown hook type "callback"`),
		Entry("a command without command", `{"type": "command"}`, `needs "command"`),
		Entry("a prompt without prompt", `{"type": "prompt"}`, `needs "prompt"`),
		Entry("an agent without prompt", `{"type": "agent", "model": "haiku"}`, `needs "prompt"`),
		Entry("an http hook without a usable URL", `{"type": "http", "url": "localhost:8080"}`, `an http:// or https:// URL`),
		Entry("an mcp_tool without tool", `{"type": "mcp_tool", "server": "s"}`, `needs "server"`),
		Entry("async on a prompt hook", `{"type": "prompt", "prompt": "x", "async": true}`, `"async" is a field of command hooks, not of prompt hooks`),
		Entry("continueOnBlock on an agent hook", `{"type": "agent", "prompt": "x", "continueOnBlock": true}`, `"continueOnBlock" is a field of prompt hooks, not of agent hooks`),
		Entry("a misspelt field", `{"type": "command", "command": "x", "timout": 3}`, `unknown field "timout" in a command hook`),
		Entry("a field of the wrong type", `{"type": "command", "command": "x", "timeout": "3"}`, `timeout`),
		Entry("a negative timeout", `{"type": "command", "command": "x", "timeout": -1}`, `above 0`),
		Entry("exec form", `{"type": "command", "command": "node", "args": ["a.js"]}`, `"args" (exec form) is not supported`),
		Entry("another shell", `{"type": "command", "command": "x", "shell": "powershell"}`, `bash only`),
	)

	It("reports every bad hook, not only the first", func() {
		var c hooks.Config
		err := json.Unmarshal([]byte(`{"PreToolUse": [{"hooks": [{"type": "nope"}]}], "Stop": [{"hooks": [{"type": "prompt"}]}]}`), &c)
		Expect(err).To(MatchError(And(ContainSubstring("hooks.PreToolUse[0].hooks[0]"), ContainSubstring("hooks.Stop[0].hooks[0]"))))
	})
})
