//go:build windows

package procgroup_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// childEnv makes this test binary a child: "tree" starts a grandchild
// (itself as "sleep"), prints the grandchild's pid and sleeps; "sleep"
// sleeps.
const childEnv = "PROCGROUP_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "tree":
		gc := exec.Command(os.Args[0])
		gc.Env = append(os.Environ(), childEnv+"=sleep")
		if err := gc.Start(); err != nil {
			os.Exit(3)
		}
		fmt.Println(gc.Process.Pid)
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	case "sleep":
		time.Sleep(5 * time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startTree starts a "tree" child with Start and returns it and its
// grandchild's pid.
func startTree() (*exec.Cmd, int) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=tree")
	out, err := cmd.StdoutPipe()
	Expect(err).NotTo(HaveOccurred())
	Expect(procgroup.Start(cmd)).To(Succeed())
	line, err := bufio.NewReader(out).ReadString('\n')
	Expect(err).NotTo(HaveOccurred())
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	Expect(err).NotTo(HaveOccurred())
	return cmd, grandchild
}

var _ = Describe("a command started in a Job object", func() {
	It("is killed whole, a grandchild included", func() {
		cmd, grandchild := startTree()
		pid := cmd.Process.Pid
		Expect(procgroup.Alive(grandchild)).To(BeTrue())
		Expect(procgroup.Exists(pid)).To(BeTrue())

		Expect(procgroup.Kill(pid)).To(Succeed())
		Expect(cmd.Wait()).To(HaveOccurred())
		Eventually(func() bool { return procgroup.Alive(grandchild) }, time.Minute).Should(BeFalse(), "the grandchild outlived the kill")
		Eventually(func() bool { return procgroup.Exists(pid) }, time.Minute).Should(BeFalse())
		Expect(procgroup.Kill(pid)).To(Succeed(), "a second kill of an ended group")
	})

	It("keeps the group while a grandchild outlives the leader", func() {
		cmd, grandchild := startTree()
		pid := cmd.Process.Pid
		Expect(cmd.Process.Kill()).To(Succeed()) // the leader alone
		_ = cmd.Wait()
		Expect(procgroup.Alive(grandchild)).To(BeTrue())
		Expect(procgroup.Exists(pid)).To(BeTrue(), "the grandchild still runs in the job")
		Expect(procgroup.Kill(pid)).To(Succeed())
		Eventually(func() bool { return procgroup.Alive(grandchild) }, time.Minute).Should(BeFalse())
	})

	It("starts nothing for a missing program", func() {
		cmd := exec.Command(`C:\agentcore-missing\missing.exe`)
		Expect(procgroup.Start(cmd)).To(HaveOccurred())
	})
})
