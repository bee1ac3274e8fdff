package atomicfile_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// faultChildEnv names the fault a child run of this test binary writes
// under (see faults_test.go).
const faultChildEnv = "ATOMICFILE_FAULT"

// faultChildMain is the fault child's main; only the Linux fault specs
// set it.
var faultChildMain func(mode string) int

// TestMain lets the fault specs run this test binary as a child process
// that writes under a fault (faultChild); otherwise it runs the suite.
func TestMain(m *testing.M) {
	if mode := os.Getenv(faultChildEnv); mode != "" && faultChildMain != nil {
		os.Exit(faultChildMain(mode))
	}
	os.Exit(m.Run())
}

func TestAtomicfile(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "atomicfile")
}
