package session_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gexec"
)

func TestSession(t *testing.T) {
	// Background Bash commands and agents keep their output files in
	// $TMPDIR/agentcore-bash and agentcore-agents after the session ends,
	// as Claude Code keeps its task outputs: the suite's own TMPDIR,
	// removed when it ends, keeps them out of /tmp.
	t.Setenv("TMPDIR", t.TempDir())
	RegisterFailHandler(Fail)
	RunSpecs(t, "session Suite")
}

// toolServer is the path of runtime/mcp's test MCP server, built once.
var toolServer string

var _ = SynchronizedBeforeSuite(func() []byte {
	p, err := gexec.Build("github.com/agentcore/agentcore/runtime/mcp/testdata/toolserver")
	Expect(err).NotTo(HaveOccurred())
	return []byte(p)
}, func(b []byte) {
	toolServer = string(b)
})

var _ = SynchronizedAfterSuite(func() {}, func() {
	gexec.CleanupBuildArtifacts()
})
