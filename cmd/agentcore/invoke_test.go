//go:build !internal && !ant

package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// invocation is where and how a spec runs the external binary.
type invocation struct {
	dir       string   // working directory
	home      string   // HOME
	configDir string   // AGENTCORE_CONFIG_DIR; "" clears it (the store is under HOME)
	stdin     string   // standard input
	env       []string // on top of the clean environment below
}

// invoke runs the external binary with args as inv says, in an
// environment without credentials, model, API address or Claude Code
// config directory (the caller's env may set them), with replays
// unpaced; it returns stdout, stderr and the exit code.
func invoke(inv invocation, args ...string) (string, string, int) {
	cmd := exec.Command(binaries["external"], args...)
	cmd.Dir = inv.dir
	// TMPDIR: the output files of background commands and agents, which
	// agentcore keeps as Claude Code does, go into the spec's temporary
	// directory, removed with it, not /tmp.
	clean := []string{"TMPDIR=" + GinkgoT().TempDir(), "HOME=" + inv.home, "AGENTCORE_CONFIG_DIR=" + inv.configDir, "CLAUDE_CONFIG_DIR=",
		"ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "ANTHROPIC_MODEL=", "ANTHROPIC_BASE_URL=", "AGENTCORE_REPLAY_SPEED=0"}
	cmd.Env = append(append(os.Environ(), clean...), inv.env...)
	cmd.Stdin = strings.NewReader(inv.stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		Expect(err).NotTo(HaveOccurred())
	}
	return stdout.String(), stderr.String(), code
}
