//go:build unix

package mcp_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/mcp"
)

var _ = Describe("MCP servers that fail mid-call", Label("faults"), func() {
	var m *mcp.Manager
	BeforeEach(func() {
		m = start(map[string]mcp.ServerConfig{"crashy": stdio(bins.Crash), "tools": stdio(bins.Tool)},
			mcp.Options{CallTimeout: 500 * time.Millisecond})
		waitAll(m)
	})

	It("ends the call of a server that dies with an error naming it; another server's tool works at once, and the dead one restarts", func() {
		res := call(find(m, "mcp__crashy__crash"), `{}`)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring(`MCP server "crashy" stopped during the call of tool "crash"`))

		res = call(find(m, "mcp__tools__echo"), `{"text":"still here"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("still here"))

		res = call(find(m, "mcp__crashy__pid"), `{}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
	})

	It("ends the call of a server that stalls (SIGSTOP) within the timeout, naming it; another server's tool works; the server serves again once it wakes", func() {
		pid, err := strconv.Atoi(call(find(m, "mcp__crashy__pid"), `{}`).Text())
		Expect(err).NotTo(HaveOccurred())
		Expect(syscall.Kill(pid, syscall.SIGSTOP)).To(Succeed())
		DeferCleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
		// kill returns before every thread of the process has stopped: a
		// thread already answering could still write.
		Eventually(func() bool { return stopped(pid) }).WithTimeout(5 * time.Second).Should(BeTrue())

		began := time.Now()
		res := call(find(m, "mcp__crashy__pid"), `{}`)
		Expect(time.Since(began)).To(BeNumerically("<", 5*time.Second), "the call ends at its timeout")
		Expect(res.IsError).To(BeTrue(), "pid %d answered while stopped: %s", pid, res.Text())
		Expect(res.Text()).To(ContainSubstring(`MCP server "crashy"`))
		Expect(res.Text()).To(ContainSubstring("timed out after 500ms"))

		res = call(find(m, "mcp__tools__echo"), `{"text":"unaffected"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("unaffected"))

		Expect(syscall.Kill(pid, syscall.SIGCONT)).To(Succeed())
		Eventually(func() string {
			r := call(find(m, "mcp__crashy__pid"), `{}`)
			if r.IsError {
				return r.Text()
			}
			return "ok"
		}).WithTimeout(10 * time.Second).Should(Equal("ok"))
	})
})

// stopped reports whether every thread of process pid is stopped
// (state T in /proc); where there is no /proc it waits a moment and
// says yes.
func stopped(pid int) bool {
	if runtime.GOOS != "linux" {
		time.Sleep(200 * time.Millisecond)
		return true
	}
	tasks, err := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "stat"))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			return false
		}
		// pid (comm) state …: the comm may hold spaces and parentheses.
		rest := string(data[strings.LastIndexByte(string(data), ')')+1:])
		if f := strings.Fields(rest); len(f) == 0 || f[0] != "T" {
			return false
		}
	}
	return true
}
