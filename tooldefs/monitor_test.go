package tooldefs_test

import (
	"context"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Monitor", func() {
	var dir, home string
	BeforeEach(func() {
		tooltest.Need("bash")
		checkLeaks() // every watch's goroutine ends with the session
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
	})

	// run plays script and returns the outcome, the texts of the
	// monitors' notifications as the model's requests carried them, and
	// every tool result by tool_use id.
	run := func(script string) (*agent.Outcome, string, map[string]provider.Block) {
		GinkgoHelper()
		s := replaySession(dir, home, script, permission.ModeBypass, nil)
		var out *agent.Outcome
		for ev := range s.Run(context.Background(), "watch") {
			if ev.Kind == agent.EventDone && ev.ParentToolUseID == "" {
				out = ev.Outcome
			}
		}
		return out, notices(s), results(s)
	}

	It("sends the matching lines of a background command to the next request, not the others, and says when the command ended", func() {
		out, notes, _ := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"for i in 1 2 3; do echo line$i; sleep 0.2; done","run_in_background":true}}]}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"task_id":"bash_1","pattern":"line[13]"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"sleep 1.5"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(out.Stop).To(Equal(agent.StopEndTurn), "%v", out.Err)
		Expect(notes).To(ContainSubstring("<task-id>monitor_1</task-id>"))
		Expect(notes).To(ContainSubstring("line1"))
		Expect(notes).To(ContainSubstring("line3"))
		Expect(notes).NotTo(ContainSubstring("line2"), "a line the pattern does not match is not sent")
		Expect(notes).To(ContainSubstring("Monitor monitor_1 ended: task bash_1 completed (exit code 0)"))
	})

	It("stops after max_lines lines", func() {
		_, notes, _ := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"for i in 1 2 3 4 5; do echo tick$i; sleep 0.1; done","run_in_background":true}}]}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"task_id":"bash_1","max_lines":2}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"sleep 1.2"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(notes).To(ContainSubstring("tick1"))
		Expect(notes).To(ContainSubstring("tick2"))
		Expect(notes).NotTo(ContainSubstring("tick3"))
		Expect(notes).To(ContainSubstring("Monitor monitor_1 stopped: it sent max_lines (2) lines."))
	})

	It("expires after timeout_ms, leaving the command running", func() {
		_, notes, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"while true; do echo beat; sleep 0.1; done","run_in_background":true}}]}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"task_id":"bash_1","pattern":"^$","timeout_ms":300}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"sleep 1"}}]}
{"blocks":[{"type":"tool_use","id":"o","name":"TaskOutput","input":{"task_id":"bash_1","block":false}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(notes).To(ContainSubstring("Monitor monitor_1 expired after 300ms"))
		Expect(notes).NotTo(ContainSubstring("beat"), "no line matched ^$")
		Expect(text(res["o"])).To(ContainSubstring("<status>running</status>"))
	})

	It("ends when TaskStop stops it, leaving the command running; a second stop says it is not running", func() {
		_, notes, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"while true; do echo beat; sleep 0.1; done","run_in_background":true}}]}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"task_id":"bash_1","pattern":"nothing-matches"}}]}
{"blocks":[{"type":"tool_use","id":"s","name":"TaskStop","input":{"task_id":"monitor_1"}}]}
{"blocks":[{"type":"tool_use","id":"s2","name":"TaskStop","input":{"task_id":"monitor_1"}},{"type":"tool_use","id":"o","name":"TaskOutput","input":{"task_id":"bash_1","block":false}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(text(res["m"])).To(ContainSubstring("Monitor started (task monitor_1"))
		Expect(res["s"].IsError).To(BeFalse(), text(res["s"]))
		Expect(text(res["s"])).To(ContainSubstring("Successfully stopped task: monitor_1"))
		Expect(res["s2"].IsError).To(BeTrue())
		Expect(text(res["s2"])).To(ContainSubstring("not running (status: killed)"))
		Expect(text(res["o"])).To(ContainSubstring("<status>running</status>"), "stopping the monitor leaves its command alone")
		Expect(notes).To(BeEmpty())
	})

	It("starts a command of its own, sends its lines, and ends when the command exits", func() {
		out, notes, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"command":"for i in 1 2 3; do echo step$i; sleep 0.2; done","description":"steps","pattern":"step[23]"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"sleep 1.5"}}]}
{"blocks":[{"type":"tool_use","id":"o","name":"TaskOutput","input":{"task_id":"bash_1","block":false}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(out.Stop).To(Equal(agent.StopEndTurn), "%v", out.Err)
		Expect(res["m"].IsError).To(BeFalse(), text(res["m"]))
		Expect(text(res["m"])).To(ContainSubstring("watching bash_1"))
		Expect(text(res["m"])).To(ContainSubstring("stop it and its command with TaskStop"))
		Expect(notes).To(ContainSubstring("step2"))
		Expect(notes).To(ContainSubstring("step3"))
		Expect(notes).NotTo(ContainSubstring("step1"))
		Expect(notes).To(ContainSubstring("Monitor monitor_1 ended: task bash_1 completed (exit code 0)"))
		Expect(text(res["o"])).To(ContainSubstring("<status>completed</status>"))
	})

	It("stops the command it started when TaskStop ends the watch", func() {
		_, _, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"command":"while true; do echo beat; sleep 0.1; done","persistent":true,"pattern":"nothing-matches"}}]}
{"blocks":[{"type":"tool_use","id":"s","name":"TaskStop","input":{"task_id":"monitor_1"}}]}
{"blocks":[{"type":"tool_use","id":"o","name":"TaskOutput","input":{"task_id":"bash_1","block":false}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(text(res["m"])).To(ContainSubstring("persistent, no timeout"))
		Expect(res["s"].IsError).To(BeFalse(), text(res["s"]))
		Expect(text(res["o"])).NotTo(ContainSubstring("<status>running</status>"), "the watch's own command ends with it")
		Expect(text(res["o"])).To(ContainSubstring("beat"))
	})

	It("runs its command only as the same Bash call would be allowed to run", func() {
		// Default mode and nobody to ask: a Bash call that writes is
		// denied, and so is a Monitor that would start it.
		s := replaySession(dir, home, `{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"command":"touch made-by-monitor; tail -f /dev/null"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeDefault, nil)
		for range s.Run(context.Background(), "watch") {
		}
		res := results(s)
		Expect(res["m"].IsError).To(BeTrue(), text(res["m"]))
		Expect(text(res["m"])).To(ContainSubstring("the command was not started"))
		Expect(filepath.Join(dir, "made-by-monitor")).NotTo(BeAnExistingFile())
	})

	It("refuses both command and task_id, and neither", func() {
		_, _, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"both","name":"Monitor","input":{"task_id":"bash_1","command":"true"}},{"type":"tool_use","id":"none","name":"Monitor","input":{"pattern":"x"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(res["both"].IsError).To(BeTrue())
		Expect(text(res["both"])).To(ContainSubstring("give command or task_id, not both"))
		Expect(res["none"].IsError).To(BeTrue())
		Expect(text(res["none"])).To(ContainSubstring("give command (a shell command to start and watch) or task_id"))
	})

	It("cuts a line longer than 2000 bytes", func() {
		_, notes, _ := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"printf '%3000s' | tr ' ' x; echo; echo short","run_in_background":true}}]}
{"blocks":[{"type":"tool_use","id":"m","name":"Monitor","input":{"task_id":"bash_1"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"sleep 0.5"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(notes).To(ContainSubstring(strings.Repeat("x", 2000) + "… (line cut)"))
		Expect(notes).NotTo(ContainSubstring(strings.Repeat("x", 2001)))
		Expect(notes).To(ContainSubstring("short"))
	})

	It("refuses an unknown task and a pattern that is not RE2", func() {
		_, _, res := run(`{"prompt":"watch"}
{"blocks":[{"type":"tool_use","id":"u","name":"Monitor","input":{"task_id":"bash_9"}},{"type":"tool_use","id":"p","name":"Monitor","input":{"task_id":"bash_1","pattern":"(?<=x)"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		Expect(res["u"].IsError).To(BeTrue())
		Expect(text(res["u"])).To(ContainSubstring(`no background task found with ID "bash_9"`))
		Expect(res["p"].IsError).To(BeTrue())
		Expect(text(res["p"])).To(ContainSubstring("not a valid RE2 regular expression"))
	})
})

// notices joins the monitors' task notifications the requests carried.
func notices(s *session.Session) string {
	var out []string
	for _, m := range s.Messages() {
		if m.Role != provider.User {
			continue
		}
		for _, b := range m.Content {
			if b.Type == provider.TextBlock && strings.Contains(b.Text, "<task-id>monitor_") {
				out = append(out, b.Text)
			}
		}
	}
	return strings.Join(out, "\n")
}

// text is a tool result's text.
func text(b provider.Block) string {
	var parts []string
	for _, c := range b.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

// results are the tool results of s's conversation by tool_use id.
func results(s *session.Session) map[string]provider.Block {
	out := map[string]provider.Block{}
	for _, m := range s.Messages() {
		for _, b := range m.Content {
			if b.Type == provider.ToolResultBlock {
				out[b.ToolUseID] = b
			}
		}
	}
	return out
}
