package tooldefs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTooldefs(t *testing.T) {
	// Background Bash commands and agents keep their output files in
	// $TMPDIR/agentcore-bash and agentcore-agents after the session ends,
	// as Claude Code keeps its task outputs: the suite's own TMPDIR,
	// removed when it ends, keeps them out of /tmp.
	t.Setenv("TMPDIR", t.TempDir())
	RegisterFailHandler(Fail)
	RunSpecs(t, "tooldefs")
}
