package tooltest

import (
	"go.uber.org/goleak"
)

// IgnoreGinkgo ignores the goroutine of Ginkgo's output interceptor, which
// `ginkgo -p` starts and stops on its own during a spec.
var IgnoreGinkgo = goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1")

// LeakCheck snapshots the goroutines running now and returns the check to
// run when the spec ends: it fails when a goroutine the spec started is
// still running, waiting a little for ones that are finishing. Use it in a
// BeforeEach:
//
//	BeforeEach(func() { DeferCleanup(tooltest.LeakCheck(GinkgoT())) })
//
// The snapshot must be taken before the spec runs: a snapshot taken at the
// check itself ignores every leak.
func LeakCheck(t goleak.TestingT, opts ...goleak.Option) func() {
	before := goleak.IgnoreCurrent()
	return func() {
		goleak.VerifyNone(t, append([]goleak.Option{before, IgnoreGinkgo}, opts...)...)
	}
}

// IgnoreGinkgoAcrossSpecs ignores the interceptor's own goroutine, which
// `ginkgo -p` restarts between specs: pass it to a LeakCheck whose
// snapshot is taken in a BeforeAll of an Ordered container, so that it
// spans several specs.
var IgnoreGinkgoAcrossSpecs = goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1")
