package filetool_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestMain lets the fault specs run this test binary as a child process
// that writes under a fault (faultChild); otherwise it runs the suite.
func TestMain(m *testing.M) {
	if mode := os.Getenv(faultChildEnv); mode != "" {
		os.Exit(faultChild(mode))
	}
	os.Exit(m.Run())
}

func TestFiletool(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "filetool")
}
