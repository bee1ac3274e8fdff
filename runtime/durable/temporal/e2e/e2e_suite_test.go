// Package e2e runs durable sessions against a real Temporal server started
// in process (temporaltest: SQLite in memory, loopback), with workers in
// this process and in processes of their own (this test binary, re-run as
// `agentcore-durable worker`).
package e2e

import (
	"fmt"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.temporal.io/server/temporaltest"

	"github.com/agentcore/agentcore/runtime/durable/temporal/internal/cli"
)

// workerEnv set to 1 makes the test binary run the command line instead
// of the specs: a worker process the specs can SIGKILL.
const workerEnv = "AGENTCORE_DURABLE_E2E_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		if err := cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "agentcore-durable:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "durable/temporal e2e")
}

var server *temporaltest.TestServer

var _ = BeforeSuite(func() {
	server = temporaltest.NewServer()
	DeferCleanup(server.Stop)
})
