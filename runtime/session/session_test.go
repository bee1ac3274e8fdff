package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// echo is a hand-written tool: it returns its text.
func echo() runtime.Tool {
	type in struct{ Text string }
	return runtime.Define(runtime.Definition[in]{
		Name:        "Echo",
		Description: "Echo returns its text.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Decode: func(raw json.RawMessage) (in, error) {
			var v struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || v.Text == nil {
				return in{}, errors.New("text: required string")
			}
			return in{Text: *v.Text}, nil
		},
		Call: func(_ context.Context, i in, _ *runtime.Call) (runtime.Result, error) {
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("echo: " + i.Text)}}, nil
		},
		ReadOnly: true, ConcurrencySafe: true,
		RenderUse: func(i in) string { return i.Text },
	})
}

// sleeper starts a background process owned by the session: the
// process is killed when the session closes, as background shells are.
type sleeper struct{ cmds []*exec.Cmd }

func sleepTool(started chan<- int) runtime.Tool {
	return runtime.Define(runtime.Definition[struct{}]{
		Name:        "Sleeper",
		Description: "Sleeper starts a process in the background.",
		Decode:      func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
		Call: func(_ context.Context, _ struct{}, c *runtime.Call) (runtime.Result, error) {
			bg, err := runtime.SessionValue(c.Context, func() (*sleeper, func()) {
				s := &sleeper{}
				return s, func() {
					for _, cmd := range s.cmds {
						_ = cmd.Process.Kill()
						_ = cmd.Wait()
					}
				}
			})
			if err != nil {
				return runtime.Result{}, err
			}
			cmd := exec.Command("sleep", "60")
			if err := cmd.Start(); err != nil {
				return runtime.Result{}, err
			}
			bg.cmds = append(bg.cmds, cmd)
			started <- cmd.Process.Pid
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("started")}}, nil
		},
	})
}

func openFDs() int {
	entries, err := os.ReadDir("/proc/self/fd")
	Expect(err).NotTo(HaveOccurred())
	return len(entries)
}

var _ = Describe("Session", func() {
	var (
		dir string
		ctx context.Context
	)

	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})

	open := func(o session.Options) *session.Session {
		if o.Dir == "" {
			o.Dir = dir
		}
		if o.Home == "" {
			o.Home = dir
		}
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	scenario := func(text string) *replay.Provider {
		sc, err := replay.Parse([]byte(text))
		Expect(err).NotTo(HaveOccurred())
		return replay.New(sc, replay.Options{})
	}

	It("refuses a working directory that is not one", func() {
		_, err := session.Open(ctx, session.Options{Dir: dir + "/missing"})
		Expect(err).To(MatchError(ContainSubstring("is not a directory")))
	})

	It("runs tool calls directly through the permission pipeline, in the calls' order", func() {
		deny, err := permission.ParseRules([]string{"Echo(secret)"}, runtime.Deny, permission.SourceFlag, "test")
		Expect(err).NotTo(HaveOccurred())
		s := open(session.Options{Tools: []runtime.Tool{echo()}, Permissions: permission.Sources{Rules: deny}})
		Expect(s.Tools()).To(HaveLen(1))
		var texts []string
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{
			{ID: "a", Name: "Echo", Input: json.RawMessage(`{"text":"one"}`)},
			{ID: "b", Name: "Echo", Input: json.RawMessage(`{"text":"two"}`)},
			{ID: "c", Name: "Echo", Input: json.RawMessage(`{"txt":"x"}`)},
			{ID: "d", Name: "Nope", Input: json.RawMessage(`{}`)},
		}) {
			if ev.Kind == orchestrate.EventResult {
				texts = append(texts, ev.ID+": "+ev.Result.Text())
			}
		}
		Expect(texts).To(HaveLen(4))
		Expect(texts[0]).To(Equal("a: echo: one"))
		Expect(texts[1]).To(Equal("b: echo: two"))
		Expect(texts[2]).To(ContainSubstring("text: required string"))
		Expect(texts[3]).To(ContainSubstring("No such tool available: Nope"))
	})

	It("runs a prompt through the agent loop and yields its events in order, the outcome last", func() {
		prov := scenario(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Echoing."},{"type":"tool_use","id":"t1","name":"Echo","input":{"text":"hi"}}]}
{"blocks":[{"type":"text","text":"It said hi."}]}`)
		s := open(session.Options{Tools: []runtime.Tool{echo()}, Provider: prov, System: "be brief"})
		var kinds []agent.EventKind
		var last agent.Event
		for ev := range s.Run(ctx, "go") {
			kinds = append(kinds, ev.Kind)
			last = ev
		}
		Expect(kinds).To(ContainElements(agent.EventRequest, agent.EventToolStart, agent.EventToolResult, agent.EventDone))
		Expect(last.Kind).To(Equal(agent.EventDone))
		Expect(last.Outcome.Stop).To(Equal(agent.StopEndTurn))
		Expect(last.Outcome.Text).To(Equal("It said hi."))
		Expect(last.Outcome.ToolCalls).To(Equal(1))
		msgs := s.Messages()
		Expect(msgs).To(HaveLen(4))
		Expect(msgs[2].Content[0].Content[0].Text).To(Equal("echo: hi"))
	})

	It("waits for the caller to handle each event before the loop goes on", func() {
		prov := scenario(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Echo","input":{"text":"1"}},{"type":"tool_use","id":"b","name":"Echo","input":{"text":"2"}}]}
{"blocks":[{"type":"text","text":"done"}]}`)
		s := open(session.Options{Tools: []runtime.Tool{echo()}, Provider: prov})
		handling := false
		for range s.Run(ctx, "go") {
			Expect(handling).To(BeFalse(), "two events handled at once")
			handling = true
			time.Sleep(2 * time.Millisecond)
			handling = false
		}
	})

	It("asks about calls the rules do not allow, and denies them with no one to ask", func() {
		prov := scenario(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Block","input":{}}]}
{"blocks":[{"type":"text","text":"ok"}]}`)
		s := open(session.Options{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Block"}}, Provider: prov})
		var result string
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventToolResult {
				result = ev.Call.Result.Text()
			}
		}
		Expect(result).To(ContainSubstring("needs approval. This run is non-interactive, so the call was denied."))
	})

	It("cancels the run when the caller stops ranging, and leaks nothing", func() {
		prov := scenario(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"Waiting."},{"type":"tool_use","id":"a","name":"Block","input":{"block":true}}]}
{"blocks":[{"type":"text","text":"never"}]}`)
		blocker := &tooltest.Sim{ToolName: "Block", Interrupt: runtime.InterruptCancel}
		s := open(session.Options{Tools: []runtime.Tool{blocker}, Provider: prov, Permissions: permission.Sources{Mode: permission.ModeBypass}})
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventToolStart {
				break
			}
		}
		// The next run starts only once the first is over.
		prov2 := 0
		for ev := range s.Run(ctx, "") {
			prov2++
			_ = ev
		}
		Expect(prov2).To(BeNumerically(">", 0))
	})

	It("interrupts a running turn from another goroutine", func() {
		prov := scenario(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"a","name":"Block","input":{"block":true}}]}
{"blocks":[{"type":"text","text":"never"}]}`)
		s := open(session.Options{Tools: []runtime.Tool{&tooltest.Sim{ToolName: "Block", Interrupt: runtime.InterruptCancel}}, Provider: prov,
			Permissions: permission.Sources{Mode: permission.ModeBypass}})
		var out *agent.Outcome
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventToolStart {
				go s.Interrupt()
			}
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		Expect(out.Stop).To(Equal(agent.StopInterrupted))
	})

	It("says so when it has no model", func() {
		s := open(session.Options{})
		var out *agent.Outcome
		for ev := range s.Run(ctx, "hi") {
			out = ev.Outcome
		}
		Expect(out.Err).To(MatchError(session.ErrNoProvider))
	})

	It("awaits MCP servers, defers their tools behind the search tool, and stops them and the session's processes on Close", func() {
		fds := openFDs()
		cfg, err := mcp.ParseConfig([]byte(`{"mcpServers":{"t":{"command":"`+toolServer+`"}}}`), "test")
		Expect(err).NotTo(HaveOccurred())
		started := make(chan int, 1)
		search := &tooltest.Sim{ToolName: "Find", Safe: true}
		s, err := session.Open(ctx, session.Options{
			Dir: dir, Home: dir,
			Tools:   []runtime.Tool{echo(), sleepTool(started), search},
			MCP:     cfg,
			MCPWait: 20 * time.Second,
			Pool:    pool.Options{SearchTool: "Find"},
			System:  "be brief",
			// Sleeper is not read-only: without a rule it would be asked
			// about, and denied with no one to ask.
			Permissions: permission.Sources{Mode: permission.ModeBypass},
		})
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, t := range s.Tools() {
			names = append(names, t.Name())
		}
		Expect(names).To(ContainElements("Echo", "Sleeper", "Find", "mcp__t__echo"))
		Expect(s.Pool().IsDeferred("mcp__t__echo")).To(BeTrue())
		var sent []string
		for _, t := range s.Definitions() {
			sent = append(sent, t.Name())
		}
		Expect(sent).NotTo(ContainElement("mcp__t__echo"))
		Expect(s.System()).To(HavePrefix("be brief\n\n<available-deferred-tools>"))
		Expect(s.System()).To(ContainSubstring("mcp__t__echo\n"))

		for ev := range s.Exec(ctx, []orchestrate.ToolUse{
			{ID: "m", Name: "mcp__t__echo", Input: json.RawMessage(`{"text":"via mcp"}`)},
			{ID: "s", Name: "Sleeper", Input: json.RawMessage(`{}`)},
		}) {
			if ev.Kind == orchestrate.EventResult {
				Expect(ev.Result.IsError).To(BeFalse(), ev.Result.Text())
			}
		}
		pid := <-started
		Expect(tooltest.Alive(pid)).To(BeTrue())
		servers := s.MCP().Servers()
		Expect(servers).To(HaveLen(1))

		Expect(s.Close()).To(Succeed())
		Expect(s.Close()).To(Succeed(), "Close twice is fine")
		Eventually(func() bool { return tooltest.Alive(pid) }, 5*time.Second).Should(BeFalse(), "the session's process is killed")
		Eventually(openFDs, 5*time.Second).Should(BeNumerically("<=", fds), "no file descriptor left open")
		Expect(strings.Join(names, ",")).NotTo(BeEmpty())
	})
})
