package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
	"go.uber.org/goleak"
)

var _ = Describe("sessions under load", Label("load"), func() {
	// NoGC: with the collector running, the finalizer of an *os.File a
	// tool never closed closes it before the count, and a leak of one
	// descriptor per call passes unseen.
	It("runs 20 sessions × 5 mixed tool turns at once, every call answered, and leaves no goroutine or file descriptor behind, with no finalizer to close one", func() {
		rep, err := Run(Config{
			Sessions: 20, Turns: 5, Timeout: 2 * time.Minute, Root: GinkgoT().TempDir(),
			GoleakOptions: []goleak.Option{tooltest.IgnoreGinkgo}, NoGC: true,
		})
		Expect(err).NotTo(HaveOccurred())
		GinkgoWriter.Print(rep.Markdown())
		Expect(rep.Problems()).To(BeEmpty())
		Expect(rep.Calls).To(Equal(100))
		Expect(rep.PeakGoroutines).To(BeNumerically(">", rep.BaseGoroutines), "the sessions ran at once")
		Expect(rep.OverheadP50).To(BeNumerically(">", 0))
	})

	It("finds what a run leaves behind", func() {
		rep := &LoadReport{Sessions: 1, Turns: 1, Calls: 1, Leaked: "found unexpected goroutines", BaseFDs: 3, LeakedFDs: []string{"9 -> pipe:[1]"}}
		Expect(rep.Problems()).To(ConsistOf(
			"leaked goroutines: found unexpected goroutines",
			"1 file descriptors beyond the 3 before the run: 9 -> pipe:[1]"))
	})

	It("writes the figures between the markers, and says how to add them", func() {
		doc := "# R\n\n## Load\n\n" + beginMarker + "\nold\n" + endMarker + "\nafter\n"
		Expect(splice(doc, "new\n")).To(Equal("# R\n\n## Load\n\n" + beginMarker + "\nnew\n" + endMarker + "\nafter\n"))
		_, err := splice("# R\n", "new\n")
		Expect(err).To(MatchError(ContainSubstring(beginMarker)))
	})
})
