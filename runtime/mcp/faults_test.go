//go:build unix

package mcp_test

import (
	"strconv"
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

		began := time.Now()
		res := call(find(m, "mcp__crashy__pid"), `{}`)
		Expect(time.Since(began)).To(BeNumerically("<", 5*time.Second), "the call ends at its timeout")
		Expect(res.IsError).To(BeTrue())
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
