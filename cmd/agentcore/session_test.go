package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("session", func() {
	It("owns the background shells its tools start: Close kills them", func() {
		dir, err := filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		s, err := (&sessionFlags{}).openSession(context.Background(), openOptions{dir: dir})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)

		ex := &orchestrate.Executor{Tools: s.Tools(), CanUseTool: orchestrate.AllowAll}
		use := orchestrate.ToolUse{ID: "b", Name: "Bash", Input: json.RawMessage(`{"command":"sleep 300 & echo $! > pid; wait","run_in_background":true}`)}
		var res runtime.Result
		for ev := range ex.RunTools(context.Background(), []orchestrate.ToolUse{use}, s.ToolContext()) {
			if ev.Kind == orchestrate.EventResult {
				res = ev.Result
			}
		}
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(ContainSubstring("Command running in background with ID: "))

		var pid int
		Eventually(func() error {
			b, err := os.ReadFile(filepath.Join(dir, "pid"))
			if err == nil {
				pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
			}
			return err
		}).Should(Succeed())
		Expect(tooltest.Alive(pid)).To(BeTrue())

		Expect(s.Close()).To(Succeed())
		Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
	})
})
