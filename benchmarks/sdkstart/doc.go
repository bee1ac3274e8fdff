// Package sdkstart holds the Agent SDK start-up benchmark: from the SDK's
// query() call to the first model request at a fake Messages API on
// loopback, agentcore (pathToClaudeCodeExecutable) against Claude Code,
// measured by first_request.mjs in one node process, the two CLIs'
// runs interleaved. Run
//
//	go test -run '^$' -bench SDKFirstRequest -benchtime 5x -count 3 ./benchmarks/sdkstart/
//
// It needs node, the SDK (@anthropic-ai/claude-agent-sdk, pinned in
// .ci/npm/package.json) installed in AGENTCORE_NPM_DIR
// (~/.cache/agentcore-npm), and a Claude Code: by default the native
// binary the SDK bundles (its platform package,
// @anthropic-ai/claude-agent-sdk-linux-x64 and the like), or the one at
// AGENTCORE_CLAUDE_CODE. It is skipped, saying which is missing, without
// them.
package sdkstart

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// ClaudeCode is the Claude Code executable the benchmark compares with:
// AGENTCORE_CLAUDE_CODE when set, else the binary bundled with the Agent
// SDK in tooltest.NpmDir.
func ClaudeCode() string {
	if p := os.Getenv("AGENTCORE_CLAUDE_CODE"); p != "" {
		return p
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	return filepath.Join(tooltest.NpmDir(), "node_modules", "@anthropic-ai",
		"claude-agent-sdk-"+runtime.GOOS+"-"+arch, "claude")
}

// SDKEntry is the Agent SDK's module entry point in tooltest.NpmDir.
func SDKEntry() string {
	return filepath.Join(tooltest.NpmDir(), "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs")
}

// SDKVersion is the version of the Agent SDK installed in
// tooltest.NpmDir, read from its package.json, or "" when it is not
// installed.
func SDKVersion() string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(SDKEntry()), "package.json"))
	if err != nil {
		return ""
	}
	var pkg struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	return pkg.Version
}
