package shell_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"
)

func TestShell(t *testing.T) {
	// Bash keeps its output files in $TMPDIR/agentcore-bash, which it
	// makes and never removes: the suite's own TMPDIR, removed when it
	// ends, keeps it out of /tmp.
	t.Setenv("TMPDIR", t.TempDir())
	RegisterFailHandler(Fail)
	RunSpecs(t, "Shell Suite")
}

// Every spec must leave no goroutine behind: pollers, waiters and
// background-task goroutines all end.
var _ = BeforeEach(func() {
	ignore := goleak.IgnoreCurrent()
	DeferCleanup(func() {
		// Ginkgo's output interceptor (ginkgo -p) comes and goes on its own.
		goleak.VerifyNone(GinkgoT(), ignore,
			goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1"))
	})
})
