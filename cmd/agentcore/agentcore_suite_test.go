package main_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAgentcore(t *testing.T) {
	// What the commands the specs run leave in $TMPDIR (the output files
	// of background commands and agents, which agentcore keeps as Claude
	// Code does; Claude Code's own claude-0 and cc-socks) goes into the
	// suite's own TMPDIR, removed when it ends, not /tmp.
	t.Setenv("TMPDIR", t.TempDir())
	RegisterFailHandler(Fail)
	RunSpecs(t, "agentcore CLI Suite")
}

// repoRoot is the module root, two levels above this package.
func repoRoot() string {
	wd, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	return filepath.Join(wd, "..", "..")
}
