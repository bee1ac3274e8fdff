package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("agentcore exec", func() {
	var stdin string
	var deps execDeps

	BeforeEach(func() {
		deps = execDeps{
			tools: []runtime.Tool{
				&tooltest.Sim{ToolName: "Glob", Safe: true},
				&tooltest.Sim{ToolName: "Grep", Safe: true},
				&tooltest.Sim{ToolName: "Read", Safe: true},
				&tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, Interrupt: runtime.InterruptCancel},
				&tooltest.Sim{ToolName: "Edit"},
			},
			canUseTool: func(context.Context, *runtime.Invocation, *runtime.ToolContext) runtime.PermissionDecision {
				return runtime.PermissionDecision{Behavior: runtime.Allow}
			},
		}
		stdin = ""
	})

	run := func(args ...string) (string, error) {
		cmd := newExecCmd(deps)
		var out bytes.Buffer
		cmd.SetArgs(append([]string{}, args...)) // never nil: cobra would read os.Args
		cmd.SetIn(strings.NewReader(stdin))
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		err := cmd.ExecuteContext(context.Background())
		return out.String(), err
	}

	seedExample := `[
	 {"id":"1","name":"Glob","input":{"summary":"*.ts"}},
	 {"id":"2","name":"Grep","input":{"summary":"pattern"}},
	 {"id":"3","name":"Bash","input":{"summary":"npm test"}},
	 {"id":"4","name":"Read","input":{"summary":"a.ts"}},
	 {"id":"5","name":"Edit","input":{"summary":"a.ts"}},
	 {"id":"6","name":"Glob","input":{"summary":"*.json"}}]`

	It("plans the seed's worked example into 5 batches (--plan --json)", func() {
		stdin = seedExample
		out, err := run("--plan", "--json")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchJSON(`{"batches":[
			{"concurrency_safe":true,"ids":["1","2"]},
			{"concurrency_safe":false,"ids":["3"]},
			{"concurrency_safe":true,"ids":["4"]},
			{"concurrency_safe":false,"ids":["5"]},
			{"concurrency_safe":true,"ids":["6"]}]}`))
	})

	It("prints the plan as text", func() {
		stdin = seedExample
		out, err := run("--plan")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("batch 1, parallel (concurrency-safe): Glob 1, Grep 2\n"))
		Expect(out).To(ContainSubstring("batch 5, parallel (concurrency-safe): Glob 6\n"))
	})

	DescribeTable("prints results as JSON in call order, on both paths",
		func(mode string) {
			stdin = `[{"id":"a","name":"Read","input":{"output":"alpha","sleep_ms":3}},
			          {"id":"b","name":"Read","input":{"output":"beta"}},
			          {"id":"c","name":"Nope","input":{}},
			          {"id":"d","name":"Edit","input":{"fail":"old_string not found"}}]`
			out, err := run("--json", "--mode", mode)
			Expect(err).NotTo(HaveOccurred())
			var got struct {
				Results []struct {
					ID        string  `json:"id"`
					Name      string  `json:"name"`
					IsError   bool    `json:"is_error"`
					Content   string  `json:"content"`
					StartedMS float64 `json:"started_ms"`
					EndedMS   float64 `json:"ended_ms"`
					States    []struct {
						State string  `json:"state"`
						AtMS  float64 `json:"at_ms"`
					} `json:"states"`
				} `json:"results"`
				WallMS *float64 `json:"wall_ms"`
			}
			Expect(json.Unmarshal([]byte(out), &got)).To(Succeed())
			Expect(got.WallMS).NotTo(BeNil())
			Expect(got.Results).To(HaveLen(4))
			r := got.Results
			Expect([]string{r[0].ID, r[1].ID, r[2].ID, r[3].ID}).To(Equal([]string{"a", "b", "c", "d"}))
			Expect(r[0].Content).To(Equal("alpha"))
			Expect(r[0].IsError).To(BeFalse())
			Expect(r[0].States[0].State).To(Equal("queued"))
			Expect(r[0].States[0].AtMS).To(BeNumerically("==", 0))
			Expect(r[0].States[len(r[0].States)-1].State).To(Equal("yielded"))
			Expect(r[0].EndedMS).To(BeNumerically(">=", r[0].StartedMS))
			Expect(r[2].IsError).To(BeTrue())
			Expect(r[2].Content).To(Equal("Error: No such tool available: Nope"))
			Expect(r[3].Content).To(Equal("old_string not found"))
			// the exact key set of a result
			var raw struct {
				Results []map[string]any `json:"results"`
			}
			Expect(json.Unmarshal([]byte(out), &raw)).To(Succeed())
			keys := []string{}
			for k := range raw.Results[0] {
				keys = append(keys, k)
			}
			Expect(keys).To(ConsistOf("id", "name", "is_error", "content", "started_ms", "ended_ms", "states"))
		},
		Entry("streaming", "streaming"),
		Entry("batch", "batch"),
	)

	It("accepts an Anthropic assistant message and its content array", func() {
		stdin = `{"role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_use","id":"t1","name":"Read","input":{"output":"x"}}]}`
		out, err := run("--json")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring(`"id":"t1"`))
	})

	It("reads a file and renders text through the tools' render methods", func() {
		path := filepath.Join(GinkgoT().TempDir(), "calls.json")
		Expect(os.WriteFile(path, []byte(`[{"id":"a","name":"Read","input":{"summary":"a.go","output":"12 lines","progress":1}},
			{"id":"b","name":"Edit","input":{"summary":"b.go","fail":"boom"}}]`), 0o644)).To(Succeed())
		out, err := run(path, "--trace", "--mode", "batch")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("● Read(a.go)\n  ⎿  12 lines\n"))
		Expect(out).To(ContainSubstring("  … a step 1/1\n"))
		Expect(out).To(ContainSubstring("● Edit(b.go)\n  ⎿  Error: boom\n"))
		Expect(out).To(MatchRegexp(`trace: queued 0\.\d+ms → executing \d+\.\d+ms → completed \d+\.\d+ms → yielded \d+\.\d+ms`))
	})

	It("renders a rejection with RenderRejected", func() {
		deps.canUseTool = func(context.Context, *runtime.Invocation, *runtime.ToolContext) runtime.PermissionDecision {
			return runtime.PermissionDecision{Behavior: runtime.Deny, Message: "denied by rule Edit"}
		}
		stdin = `[{"id":"a","name":"Edit","input":{"summary":"x.go"}}]`
		out, err := run()
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ContainSubstring("● Edit(x.go)\n  ⎿  Rejected: denied by rule Edit\n"))
	})

	It("spaces streaming arrivals with --arrival-ms and starts calls as they arrive", func() {
		stdin = `[{"id":"a","name":"Read","input":{}},{"id":"b","name":"Read","input":{}},{"id":"c","name":"Read","input":{}}]`
		out, err := run("--json", "--arrival-ms", "5")
		Expect(err).NotTo(HaveOccurred())
		var got struct {
			Results []struct {
				States []struct {
					State string  `json:"state"`
					AtMS  float64 `json:"at_ms"`
				} `json:"states"`
			} `json:"results"`
			WallMS float64 `json:"wall_ms"`
		}
		Expect(json.Unmarshal([]byte(out), &got)).To(Succeed())
		// Arrivals are scheduled from the start of the stream (5, 10, 15 ms)
		// and reported from the first Add, which a loaded machine may make
		// late: so assert the order of arrivals, and that the wall clock,
		// measured from the stream's start, covers all three.
		Expect(got.Results[0].States[0].AtMS).To(BeNumerically("<=", got.Results[1].States[0].AtMS))
		Expect(got.Results[1].States[0].AtMS).To(BeNumerically("<=", got.Results[2].States[0].AtMS))
		Expect(got.Results[2].States[0].AtMS).To(BeNumerically(">", 0))
		Expect(got.WallMS).To(BeNumerically(">=", 15))
	})

	DescribeTable("rejects bad input with a clear error",
		func(input string, args []string, msg string) {
			stdin = input
			_, err := run(args...)
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("empty", "", nil, "no input"),
		Entry("not JSON", "hello", nil, "parse input"),
		Entry("object without content", `{"a":1}`, nil, `"content" array`),
		Entry("no tool_use", `[{"type":"text","text":"x"}]`, nil, "no tool_use blocks"),
		Entry("missing name", `[{"id":"a"}]`, nil, `missing "name"`),
		Entry("duplicate id", `[{"id":"a","name":"Read"},{"id":"a","name":"Read"}]`, nil, `duplicate id "a"`),
		Entry("bad mode", `[{"id":"a","name":"Read"}]`, []string{"--mode", "fast"}, "use streaming or batch"),
		Entry("negative arrival", `[{"id":"a","name":"Read"}]`, []string{"--arrival-ms", "-1"}, "≥ 0"),
		Entry("missing file", ``, []string{"/nonexistent/calls.json"}, "no such file"),
	)

	It("gives ids to blocks without one", func() {
		stdin = `[{"name":"Read"},{"name":"Read"}]`
		out, err := run("--plan", "--json")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(MatchJSON(`{"batches":[{"concurrency_safe":true,"ids":["toolu_01","toolu_02"]}]}`))
	})

	// The executor's cap comes from AGENTCORE_MAX_TOOL_USE_CONCURRENCY:
	// with 3, five blocking Reads run three at a time (each until
	// --timeout cancels it), and the Edit after them runs alone.
	DescribeTable("is wired to the orchestrator's executor: safe calls at once up to its cap, an unsafe one alone",
		func(mode string) {
			GinkgoT().Setenv(orchestrate.EnvMaxConcurrency, "3")
			mon := tooltest.NewMonitor()
			deps.tools = []runtime.Tool{
				&tooltest.Sim{ToolName: "Read", Safe: true, Monitor: mon},
				&tooltest.Sim{ToolName: "Edit", Monitor: mon},
			}
			stdin = `[{"id":"r1","name":"Read","input":{"block":true}},{"id":"r2","name":"Read","input":{"block":true}},
				{"id":"r3","name":"Read","input":{"block":true}},{"id":"r4","name":"Read","input":{"block":true}},
				{"id":"r5","name":"Read","input":{"block":true}},{"id":"e","name":"Edit","input":{}}]`
			out, err := run("--json", "--mode", mode, "--timeout", "300ms")
			Expect(err).NotTo(HaveOccurred())
			Expect(mon.MaxRunning()).To(Equal(3), "the cap, reached: %s", out)
			Expect(mon.Violations()).To(BeEmpty())
			Expect(mon.Started()).To(HaveLen(6))
			Expect(mon.Started()[5]).To(Equal("e"), "the Edit after every Read")
		},
		Entry("streaming", "streaming"),
		Entry("batch", "batch"),
	)
})

var _ = Describe("agentcore exec with the variant's tools", func() {
	It("plans the seed's worked example with the real tools into 5 batches", func() {
		names := map[string]bool{}
		for _, t := range generated.AllBaseTools() {
			names[t.Name()] = true
		}
		for _, n := range []string{"Glob", "Grep", "Bash", "Read", "Edit"} {
			if !names[n] {
				Skip(n + " is not in this variant")
			}
		}
		cmd := newRootCmd()
		var out bytes.Buffer
		cmd.SetArgs([]string{"exec", "--plan", "--json"})
		cmd.SetIn(strings.NewReader(`[
		 {"id":"1","name":"Glob","input":{"pattern":"*.ts"}},
		 {"id":"2","name":"Grep","input":{"pattern":"pattern"}},
		 {"id":"3","name":"Bash","input":{"command":"npm test"}},
		 {"id":"4","name":"Read","input":{"file_path":"a.ts"}},
		 {"id":"5","name":"Edit","input":{"file_path":"a.ts","old_string":"a","new_string":"b"}},
		 {"id":"6","name":"Glob","input":{"pattern":"*.json"}}]`))
		cmd.SetOut(&out)
		Expect(cmd.Execute()).To(Succeed())
		// The seed labels the Read batch unsafe; the algorithm makes it safe.
		Expect(out.String()).To(MatchJSON(`{"batches":[
			{"concurrency_safe":true,"ids":["1","2"]},
			{"concurrency_safe":false,"ids":["3"]},
			{"concurrency_safe":true,"ids":["4"]},
			{"concurrency_safe":false,"ids":["5"]},
			{"concurrency_safe":true,"ids":["6"]}]}`))
	})

	It("runs real tools on both paths with one result per call", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644)).To(Succeed())
		for _, mode := range []string{"streaming", "batch"} {
			cmd := newRootCmd()
			var out bytes.Buffer
			cmd.SetArgs([]string{"exec", "--json", "--mode", mode, "--cwd", dir})
			cmd.SetIn(strings.NewReader(`[{"id":"r","name":"Read","input":{"file_path":"a.txt"}},{"id":"x","name":"NoSuchTool","input":{}}]`))
			cmd.SetOut(&out)
			Expect(cmd.Execute()).To(Succeed())
			var got struct {
				Results []struct {
					ID      string `json:"id"`
					IsError bool   `json:"is_error"`
					Content string `json:"content"`
				} `json:"results"`
			}
			Expect(json.Unmarshal(out.Bytes(), &got)).To(Succeed())
			Expect(got.Results).To(HaveLen(2))
			Expect(got.Results[0].ID).To(Equal("r"))
			Expect(got.Results[1].IsError).To(BeTrue())
		}
	})
})
