// Package sdkstart holds the Agent SDK start-up benchmark: from the SDK's
// query() call to the first model request at a fake Messages API on
// loopback, agentcore (pathToClaudeCodeExecutable) against Claude Code,
// measured by first_request.mjs in one node process, the two CLIs'
// runs interleaved. Run
//
//	go test -run '^$' -bench SDKFirstRequest -benchtime 5x -count 3 ./benchmarks/sdkstart/
//
// It needs node, the SDK in AGENTCORE_NPM_DIR (~/.cache/agentcore-npm)
// and Claude Code at AGENTCORE_CLAUDE_CODE (default
// /tmp/ccnpm/node_modules/.bin/claude); it is skipped, saying which is
// missing, without them.
package sdkstart

import "os"

// ClaudeCode is the Claude Code executable the benchmark compares with.
func ClaudeCode() string {
	if p := os.Getenv("AGENTCORE_CLAUDE_CODE"); p != "" {
		return p
	}
	return "/tmp/ccnpm/node_modules/.bin/claude"
}
