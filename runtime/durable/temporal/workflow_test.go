package temporal_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/agentcore/agentcore/generated"
	durable "github.com/agentcore/agentcore/runtime/durable/temporal"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// scenario parses a JSONL replay script, failing the spec when it is bad.
func scenario(lines ...string) *replay.Scenario {
	sc, err := replay.Parse([]byte(strings.Join(lines, "\n")))
	Expect(err).NotTo(HaveOccurred())
	return sc
}

// answeredOnce checks that every tool_use of msgs has exactly one
// tool_result, in the next message.
func answeredOnce(msgs []provider.Message) {
	for i, m := range msgs {
		uses := m.ToolUses()
		if len(uses) == 0 {
			continue
		}
		Expect(i+1).To(BeNumerically("<", len(msgs)), "the last tool_use message has no answer")
		got := map[string]int{}
		for _, b := range msgs[i+1].Content {
			if b.Type == provider.ToolResultBlock {
				got[b.ToolUseID]++
			}
		}
		for _, u := range uses {
			Expect(got[u.ID]).To(Equal(1), "tool_use %s", u.ID)
		}
	}
}

// resultText returns the text of the tool_result for id.
func resultText(msgs []provider.Message, id string) (string, bool) {
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == provider.ToolResultBlock && b.ToolUseID == id {
				var sb strings.Builder
				for _, c := range b.Content {
					sb.WriteString(c.Text)
				}
				return sb.String(), b.IsError
			}
		}
	}
	Fail("no result for " + id)
	return "", false
}

var _ = Describe("SessionWorkflow (testsuite)", func() {
	var (
		env  *testsuite.TestWorkflowEnvironment
		dir  string
		mode permission.Mode
	)
	BeforeEach(func() {
		var s testsuite.WorkflowTestSuite
		env = s.NewTestWorkflowEnvironment()
		// The first activity hashes the test binary inside a workflow task
		// (slow on a busy machine): more than the deadlock detector allows.
		env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
		dir = GinkgoT().TempDir()
		mode = permission.ModeBypass
	})
	var sc *replay.Scenario
	start := func(sc *replay.Scenario, in durable.Input) {
		acts, err := durable.NewActivities(durable.WorkerOptions{
			TaskQueue: "q", Workspace: "w1", StateDir: GinkgoT().TempDir(),
			Tools:       generated.AllBaseTools(),
			Provider:    durable.NewScript(sc, replay.Options{Cwd: dir}),
			Permissions: permission.Sources{Mode: mode, ConfigDir: GinkgoT().TempDir()},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(acts.CloseAll)
		acts.RegisterShared(env)
		acts.RegisterWorkspace(env)
		in.Options.TaskQueue = "q"
		in.Options.Dir = dir
		env.ExecuteWorkflow(durable.WorkflowSession, in)
	}
	outcome := func() *durable.Outcome {
		Expect(env.IsWorkflowCompleted()).To(BeTrue())
		Expect(env.GetWorkflowError()).NotTo(HaveOccurred())
		var out durable.Outcome
		Expect(env.GetWorkflowResult(&out)).To(Succeed())
		return &out
	}

	It("completes a session of several turns, every tool_use answered once, three Reads in one batch", func() {
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta\n"), 0o644)).To(Succeed())
		sc := scenario(
			`{"name":"turns"}`,
			`{"blocks":[{"type":"text","text":"Writing."},{"type":"tool_use","id":"w1","name":"Bash","input":{"command":"echo gamma > c.txt","description":"write c"}}]}`,
			`{"blocks":[{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"${CWD}/a.txt"}},{"type":"tool_use","id":"r2","name":"Read","input":{"file_path":"${CWD}/b.txt"}},{"type":"tool_use","id":"r3","name":"Read","input":{"file_path":"${CWD}/c.txt"}}]}`,
			`{"blocks":[{"type":"text","text":"All three read."}]}`,
		)
		start(sc, durable.Input{Prompt: "read the files"})
		out := outcome()
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(out.Turns).To(Equal(3))
		Expect(out.Text).To(Equal("All three read."))
		answeredOnce(out.Messages)
		for id, want := range map[string]string{"r1": "alpha", "r2": "beta", "r3": "gamma"} {
			text, isErr := resultText(out.Messages, id)
			Expect(isErr).To(BeFalse(), text)
			Expect(text).To(ContainSubstring(want))
		}

		v, err := env.QueryWorkflow(durable.QueryEvents)
		Expect(err).NotTo(HaveOccurred())
		var lines []string
		Expect(v.Get(&lines)).To(Succeed())
		Expect(lines).To(HaveLen(1 + len(out.Messages) + 1))
		var first, last map[string]any
		Expect(json.Unmarshal([]byte(lines[0]), &first)).To(Succeed())
		Expect(first).To(HaveKeyWithValue("subtype", "init"))
		Expect(json.Unmarshal([]byte(lines[len(lines)-1]), &last)).To(Succeed())
		Expect(last).To(HaveKeyWithValue("type", "result"))
		Expect(last).To(HaveKeyWithValue("result", "All three read."))
	})

	It("waits a simulated day for a permission answer given as an update with canUseTool's payload", func() {
		mode = permission.ModeDefault
		sc := scenario(
			`{"name":"ask"}`,
			`{"blocks":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"touch approved.txt","description":"make a file"}}]}`,
			`{"blocks":[{"type":"text","text":"Made it."}]}`,
		)
		var asks []durable.Ask
		var startedAt time.Time
		env.RegisterDelayedCallback(func() {
			v, err := env.QueryWorkflow(durable.QueryPending)
			Expect(err).NotTo(HaveOccurred())
			Expect(v.Get(&asks)).To(Succeed())
			Expect(asks).To(HaveLen(1))
			Expect(filepath.Join(dir, "approved.txt")).NotTo(BeAnExistingFile())
			env.UpdateWorkflowNoRejection(durable.UpdateAnswer, "a1", GinkgoT(),
				durable.Answer{ToolUseID: asks[0].ToolUseID, Behavior: "allow"})
		}, 24*time.Hour)
		startedAt = env.Now()
		start(sc, durable.Input{Prompt: "make a file"})
		out := outcome()
		Expect(env.Now().Sub(startedAt)).To(BeNumerically(">=", 24*time.Hour))
		Expect(asks[0].ToolName).To(Equal("Bash"))
		Expect(asks[0].ToolUseID).To(Equal("b1"))
		Expect(string(asks[0].Input)).To(ContainSubstring("touch approved.txt"))
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(filepath.Join(dir, "approved.txt")).To(BeAnExistingFile())
		answeredOnce(out.Messages)
	})

	It("rejects an answer for no pending ask, and a deny reaches the model with its message", func() {
		mode = permission.ModeDefault
		sc := scenario(
			`{"name":"deny"}`,
			`{"blocks":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"touch denied.txt","description":"make a file"}}]}`,
			`{"blocks":[{"type":"text","text":"Understood."}]}`,
		)
		var rejected error
		env.RegisterDelayedCallback(func() {
			env.UpdateWorkflow(durable.UpdateAnswer, "bad", &testsuite.TestUpdateCallback{
				OnReject: func(err error) { rejected = err }, OnAccept: func() {}, OnComplete: func(any, error) {},
			}, durable.Answer{ToolUseID: "nope", Behavior: "allow"})
			env.UpdateWorkflowNoRejection(durable.UpdateAnswer, "a1", GinkgoT(),
				durable.Answer{ToolUseID: "b1", Behavior: "deny", Message: "not on a Friday"})
		}, time.Hour)
		start(sc, durable.Input{Prompt: "make a file"})
		out := outcome()
		Expect(rejected).To(MatchError(ContainSubstring("no ask of this session waits for it")))
		text, isErr := resultText(out.Messages, "b1")
		Expect(isErr).To(BeTrue())
		Expect(text).To(ContainSubstring("not on a Friday"))
		Expect(filepath.Join(dir, "denied.txt")).NotTo(BeAnExistingFile())
	})

	It("stops the turn on an interrupt signal while an ask waits, answering every call", func() {
		mode = permission.ModeDefault
		sc := scenario(
			`{"name":"interrupt"}`,
			`{"blocks":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"touch never.txt","description":"make a file"}}]}`,
			`{"blocks":[{"type":"text","text":"unreachable"}]}`,
		)
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(durable.SignalInterrupt, nil) }, 2*time.Hour)
		start(sc, durable.Input{Prompt: "make a file"})
		out := outcome()
		Expect(out.Stop).To(Equal("interrupted"))
		Expect(out.Turns).To(Equal(1))
		answeredOnce(out.Messages)
		last := out.Messages[len(out.Messages)-1]
		Expect(last.Content[len(last.Content)-1].Text).To(Equal("[Request interrupted by user]"))
		Expect(filepath.Join(dir, "never.txt")).NotTo(BeAnExistingFile())
	})

	It("continues as new with the transcript when the history grows past the limit, and the next run finishes it", func() {
		lines := []string{`{"name":"long"}`}
		for i := 0; i < 3; i++ {
			lines = append(lines, `{"blocks":[{"type":"tool_use","id":"g`+string(rune('a'+i))+`","name":"Glob","input":{"pattern":"*"}}]}`)
		}
		lines = append(lines, `{"blocks":[{"type":"text","text":"Looked three times."}]}`)
		sc = scenario(lines...)
		env.SetCurrentHistoryLength(50)
		start(sc, durable.Input{Prompt: "look", Options: durable.Options{HistoryLimit: 20}})
		Expect(env.IsWorkflowCompleted()).To(BeTrue())
		var can *workflow.ContinueAsNewError
		Expect(errors.As(env.GetWorkflowError(), &can)).To(BeTrue(), "%v", env.GetWorkflowError())
		var next durable.Input
		Expect(converter.GetDefaultDataConverter().FromPayloads(can.Input, &next)).To(Succeed())
		Expect(next.Snapshot).NotTo(BeNil())
		Expect(next.Snapshot.MidPrompt).To(BeTrue())
		Expect(next.Snapshot.Messages).To(HaveLen(3)) // prompt, one turn, its results
		Expect(next.Snapshot.Workspace).To(Equal("q@w1"))

		var s testsuite.WorkflowTestSuite
		env = s.NewTestWorkflowEnvironment()
		env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
		start(sc, next)
		out := outcome()
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(out.Runs).To(Equal(2))
		Expect(out.Turns).To(Equal(4))
		Expect(out.Text).To(Equal("Looked three times."))
		answeredOnce(out.Messages)
	})
})
