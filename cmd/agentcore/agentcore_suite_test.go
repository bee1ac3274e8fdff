package main_test

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAgentcore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "agentcore CLI Suite")
}

// repoRoot is the module root, two levels above this package.
func repoRoot() string {
	wd, err := os.Getwd()
	Expect(err).NotTo(HaveOccurred())
	return filepath.Join(wd, "..", "..")
}
