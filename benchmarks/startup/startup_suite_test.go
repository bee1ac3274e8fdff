package startup

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestStartup(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "startup benchmark")
}

// TestMain removes the binary built for the run.
func TestMain(m *testing.M) {
	code := m.Run()
	removeBinary()
	os.Exit(code)
}
