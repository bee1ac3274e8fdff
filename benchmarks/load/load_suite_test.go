package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestLoad(t *testing.T) {
	// Bash keeps its output files in $TMPDIR/agentcore-bash, which it
	// makes and never removes: the suite's own TMPDIR, removed when it
	// ends, keeps it out of /tmp.
	t.Setenv("TMPDIR", t.TempDir())
	RegisterFailHandler(Fail)
	RunSpecs(t, "load")
}
