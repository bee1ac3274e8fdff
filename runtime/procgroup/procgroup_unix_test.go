//go:build unix

package procgroup_test

import (
	"os/exec"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("a command in a group of its own", func() {
	It("is killed whole, a background grandchild included", func() {
		cmd := exec.Command("sh", "-c", "sleep 300 & sleep 300")
		procgroup.Own(cmd)
		Expect(cmd.Start()).To(Succeed())
		pid := cmd.Process.Pid
		Expect(procgroup.Alive(pid)).To(BeTrue())
		Expect(procgroup.Exists(pid)).To(BeTrue())
		Expect(procgroup.Kill(pid)).To(Succeed())
		_ = cmd.Wait()
		// A killed orphan may stay a zombie (PID 1 of a container may not
		// reap): what counts is that nothing of the group still runs.
		Eventually(func() []int { return tooltest.GroupMembers(pid) }).Should(BeEmpty(), "the backgrounded sleep outlived the kill")
		Expect(procgroup.Alive(pid)).To(BeFalse())
	})

	It("is asked to end with Terminate", func() {
		cmd := exec.Command("sleep", "300")
		procgroup.Own(cmd)
		Expect(cmd.Start()).To(Succeed())
		Expect(procgroup.Terminate(cmd.Process.Pid)).To(Succeed())
		err := cmd.Wait()
		Expect(err).To(MatchError(ContainSubstring("terminated")))
	})
})
