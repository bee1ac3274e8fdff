package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var (
	readTool = &tooltest.Sim{ToolName: "Read", Safe: true, ReadOnly: true}
	bashTool = &tooltest.Sim{ToolName: "Bash", CancelsSiblings: true, Safe: true}
	editTool = &tooltest.Sim{ToolName: "Edit"}
)

func input(t runtime.Tool, raw string) any {
	in, err := t.Decode(json.RawMessage(raw))
	Expect(err).NotTo(HaveOccurred())
	return in
}

func queued(id string, t runtime.Tool, raw string) agent.Event {
	return agent.Event{Kind: agent.EventToolQueued, ID: id, Name: t.Name(), Tool: t, RawInput: json.RawMessage(raw)}
}

func result(id string, t runtime.Tool, raw string, res runtime.Result, outcome orchestrate.Outcome, err error) agent.Event {
	ev := orchestrate.Event{Kind: orchestrate.EventResult, ID: id, Name: t.Name(), Tool: t, Input: input(t, raw),
		Result: res, Outcome: outcome, Err: err}
	return agent.Event{Kind: agent.EventToolResult, ID: id, Name: t.Name(), Tool: t, Call: &ev}
}

func ok(text string) runtime.Result {
	return runtime.Result{Content: []runtime.Block{runtime.TextBlock(text)}}
}

func text(s string) agent.Event { return agent.Event{Kind: agent.EventText, Text: s} }

// session is a run with every form the transcript has: streamed text, a
// parallel group, a serial call, a rejected call, an unknown tool, a
// sibling cancellation, a context change and the summary.
func session() (string, []agent.Event) {
	sibling := &orchestrate.SiblingError{Desc: "Bash(false)"}
	asst := provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("Reading.")}}
	user := provider.Message{Role: provider.User, Content: []provider.Block{provider.ToolResult("r1", ok("alpha"))}}
	return "tour the repo", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		text("Reading "), text("both files."),
		queued("r1", readTool, `{"summary":"a.go"}`),
		queued("r2", readTool, `{"summary":"b.go"}`),
		{Kind: agent.EventToolStart, ID: "r1", Name: "Read", Tool: readTool, Input: input(readTool, `{"summary":"a.go"}`)},
		{Kind: agent.EventToolProgress, ID: "r1", Name: "Read", Tool: readTool, Input: input(readTool, `{"summary":"a.go"}`), Progress: "step 1/1"},
		result("r1", readTool, `{"summary":"a.go"}`, ok("Read 10 lines"), orchestrate.OutcomeOK, nil),
		result("r2", readTool, `{"summary":"b.go"}`, ok("Read 20 lines\nsecond line"), orchestrate.OutcomeOK, nil),
		{Kind: agent.EventAssistant, Turn: 1, Message: &asst},
		{Kind: agent.EventUser, Turn: 1, Message: &user},
		{Kind: agent.EventRequest, Turn: 2},
		text("Editing, then checking.\n"),
		result("e1", editTool, `{"summary":"a.go"}`, runtime.ErrorResult("denied by rule Edit"), orchestrate.OutcomeRejected, errors.New("denied")),
		result("x1", &tooltest.Sim{ToolName: "Nope"}, `{}`, runtime.ErrorResult("Error: No such tool available: Nope"), orchestrate.OutcomeUnknownTool, nil),
		result("b1", bashTool, `{"summary":"sleep 2"}`, runtime.ErrorResult(sibling.Error()), orchestrate.OutcomeSiblingError, sibling),
		result("b2", bashTool, `{"summary":"false"}`, runtime.ErrorResult("Exit code 1"), orchestrate.OutcomeToolError, errors.New("Exit code 1")),
		{Kind: agent.EventUser, Turn: 2, Message: &user},
		{Kind: agent.EventContext, Turn: 2, Text: "working directory is now /repo/runtime"},
		{Kind: agent.EventRequest, Turn: 3},
		text("All done."),
		{Kind: agent.EventDone, Turn: 3, Outcome: &agent.Outcome{Stop: agent.StopEndTurn, Turns: 3, Text: "All done.", ToolCalls: 6, ToolErrors: 4,
			Usage: provider.Usage{InputTokens: 12345, OutputTokens: 678}, Duration: 2345 * time.Millisecond}},
	}
}

func interrupted() (string, []agent.Event) {
	return "wait", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		text("Sleeping"),
		result("s1", bashTool, `{"summary":"sleep 60"}`, runtime.ErrorResult("interrupted by the user"), orchestrate.OutcomeInterrupted, orchestrate.ErrInterrupted),
		{Kind: agent.EventInterrupted, Turn: 1},
		{Kind: agent.EventDone, Turn: 1, Outcome: &agent.Outcome{Stop: agent.StopInterrupted, Turns: 1, ToolCalls: 1, ToolErrors: 1, Duration: time.Second}},
	}
}

func failed() (string, []agent.Event) {
	return "hello", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		{Kind: agent.EventDone, Turn: 1, Outcome: &agent.Outcome{Stop: agent.StopError, Turns: 1, Err: errors.New("anthropic: 401 Unauthorized"), Duration: 30 * time.Millisecond}},
	}
}

func play(opts render.Options, prompt string, events []agent.Event) string {
	var buf bytes.Buffer
	r := render.New(&buf, opts)
	r.Prompt(prompt)
	for _, ev := range events {
		r.Observe(ev)
	}
	r.Close()
	return buf.String()
}

func golden(name, got string) {
	path := filepath.Join("testdata", name)
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		Expect(os.WriteFile(path, []byte(got), 0o644)).To(Succeed())
	}
	want, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred(), "run with UPDATE_GOLDEN=1 to create %s", path)
	Expect(cmp.Diff(string(want), got)).To(BeEmpty(), "%s differs (UPDATE_GOLDEN=1 refreshes it)", path)
}

var _ = Describe("plain text output", func() {
	DescribeTable("matches the golden transcript",
		func(name string, run func() (string, []agent.Event), format render.Format) {
			p, evs := run()
			n := 0
			golden(name, play(render.Options{Format: format, Session: "s-1",
				Init:    render.Init{Model: "replay:test", Cwd: "/repo", Tools: []string{"Bash", "Edit", "Read"}, PermissionMode: "default"},
				NewUUID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) },
				Now:     func() time.Time { return time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) }}, p, evs))
		},
		Entry("a full session", "session.txt", session, render.Text),
		Entry("an interrupted turn", "interrupted.txt", interrupted, render.Text),
		Entry("a failed request", "error.txt", failed, render.Text),
		Entry("a session as json", "session.json", session, render.JSON),
		Entry("a session as stream-json", "session.stream.jsonl", session, render.StreamJSON),
	)

	It("never styles plain output", func() {
		p, evs := session()
		Expect(play(render.Options{}, p, evs)).NotTo(ContainSubstring("\x1b["))
	})

	It("keeps working when a tool's render method panics", func() {
		bad := &panicky{Sim: tooltest.Sim{ToolName: "Bad"}}
		out := play(render.Options{}, "x", []agent.Event{result("p1", bad, `{"summary":"s"}`, ok("fine"), orchestrate.OutcomeOK, nil)})
		Expect(out).To(ContainSubstring("● Bad"))
		Expect(out).To(ContainSubstring("⎿  fine"))
	})
})

var _ = Describe("styled, live output", func() {
	It("draws running calls with their progress in a live region, then the result in place", func() {
		p, evs := session()
		out := play(render.Options{Styled: true, Live: true, Width: 80}, p, evs)
		Expect(out).To(ContainSubstring("\x1b[2K"), "the live region is cleared before permanent output")
		Expect(out).To(ContainSubstring("\x1b[1m"), "styles are on")
		plain := stripANSI(out)
		Expect(plain).To(ContainSubstring("│ step 1/1"), "the last progress line shows under the running call")
		Expect(plain).To(ContainSubstring("○ Read(b.go) · queued"))
		Expect(plain).To(ContainSubstring("● Read a.go, b.go · in parallel"), "the grouped head comes from RenderGrouped")
	})
})

var _ = Describe("a diff under a result's summary", func() {
	diff := ok("Updated a.go with 1 addition and 1 removal\n@@ -1,2 +1,2 @@\n-old\n+new\n same")
	evs := []agent.Event{result("e1", editTool, `{"summary":"a.go"}`, diff, orchestrate.OutcomeOK, nil)}

	It("is coloured on a terminal: additions green, removals red", func() {
		out := play(render.Options{Styled: true}, "edit", evs)
		Expect(out).To(ContainSubstring(render.DiffLine("+new")))
		Expect(out).To(ContainSubstring(render.DiffLine("-old")))
		Expect(render.DiffLine("+new")).NotTo(Equal(render.DiffLine("-old")))
		Expect(stripANSI(out)).To(ContainSubstring("⎿  Updated a.go with 1 addition and 1 removal\n     @@ -1,2 +1,2 @@\n     -old\n     +new\n      same\n"))
	})

	It("is plain text otherwise", func() {
		out := play(render.Options{}, "edit", evs)
		Expect(out).NotTo(ContainSubstring("\x1b["))
		Expect(out).To(ContainSubstring("⎿  Updated a.go with 1 addition and 1 removal\n     @@ -1,2 +1,2 @@\n     -old\n     +new\n      same\n"))
	})
})

var _ = Describe("the live region", func() {
	It("draws parallel running calls of one tool on one line, with RenderGrouped", func() {
		start := func(id, raw string) agent.Event {
			return agent.Event{Kind: agent.EventToolStart, ID: id, Name: "Bash", Tool: bashTool, Input: input(bashTool, raw), At: time.Now()}
		}
		out := play(render.Options{Live: true, Width: 100}, "go", []agent.Event{
			queued("b1", bashTool, `{"summary":"sleep 1"}`),
			queued("b2", bashTool, `{"summary":"sleep 2"}`),
			queued("e1", editTool, `{"summary":"a.go"}`),
			start("b1", `{"summary":"sleep 1"}`),
			start("b2", `{"summary":"sleep 2"}`),
		})
		Expect(out).To(ContainSubstring("Bash sleep 1, sleep 2 · 2 in parallel"))
		Expect(out).To(ContainSubstring("○ Edit(a.go) · queued"))
	})
})

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

type panicky struct{ tooltest.Sim }

func (p *panicky) RenderUse(any) string                    { panic("boom") }
func (p *panicky) RenderResult(any, runtime.Result) string { panic("boom") }

var _ = Describe("an orchestrate run without an agent (ObserveCall)", func() {
	call := func(id string, t runtime.Tool, raw string, res runtime.Result, outcome orchestrate.Outcome, err error) orchestrate.Event {
		return *result(id, t, raw, res, outcome, err).Call
	}

	It("draws each result as its own block, progress and details as lines, in the text format", func() {
		var buf bytes.Buffer
		r := render.New(&buf, render.Options{})
		r.ObserveCall(orchestrate.Event{Kind: orchestrate.EventProgress, ID: "r1", Name: "Read", Tool: readTool,
			Input: input(readTool, `{"summary":"a.go"}`), Progress: "step 1/1"})
		r.ObserveCall(call("r1", readTool, `{"summary":"a.go"}`, ok("Read 10 lines"), orchestrate.OutcomeOK, nil))
		r.Detail("trace: queued 0.000ms → yielded 1.000ms")
		// Two safe calls of one tool stay two blocks: every call shows on its own.
		r.ObserveCall(call("r2", readTool, `{"summary":"b.go"}`, ok("Read 20 lines"), orchestrate.OutcomeOK, nil))
		r.ObserveCall(call("e1", editTool, `{"summary":"x.go"}`, runtime.ErrorResult("denied by rule Edit"), orchestrate.OutcomeRejected, errors.New("denied by rule Edit")))
		r.ObserveCall(orchestrate.Event{Kind: orchestrate.EventResult, ID: "n1", Name: "Nope",
			Result: runtime.ErrorResult("Error: No such tool available: Nope"), Outcome: orchestrate.OutcomeUnknownTool})
		r.ObserveCall(call("b1", bashTool, `{"summary":"false"}`, runtime.ErrorResult("Exit code 1"), orchestrate.OutcomeToolError, errors.New("Exit code 1")))
		r.Close()
		Expect(buf.String()).To(Equal("" +
			"  … r1 step 1/1\n" +
			"● Read(a.go)\n  ⎿  Read 10 lines\n" +
			"     trace: queued 0.000ms → yielded 1.000ms\n" +
			"● Read(b.go)\n  ⎿  Read 20 lines\n" +
			"● Edit(x.go)\n  ⎿  Rejected: denied by rule Edit\n" +
			"● Nope\n  ⎿  Error: No such tool available: Nope\n" +
			"● Bash(false)\n  ⎿  Error: Exit code 1\n"))
	})

	It("falls back to the result text when a render method panics", func() {
		var buf bytes.Buffer
		r := render.New(&buf, render.Options{})
		bad := &panicky{Sim: tooltest.Sim{ToolName: "Bad"}}
		r.ObserveCall(call("p1", bad, `{"summary":"s"}`, ok("fine"), orchestrate.OutcomeOK, nil))
		r.Close()
		Expect(buf.String()).To(Equal("● Bad\n  ⎿  fine\n"))
	})

	It("is silent in the JSON formats", func() {
		var buf bytes.Buffer
		r := render.New(&buf, render.Options{Format: render.JSON})
		r.ObserveCall(call("r1", readTool, `{"summary":"a.go"}`, ok("Read 10 lines"), orchestrate.OutcomeOK, nil))
		r.Detail("trace")
		Expect(buf.String()).To(BeEmpty())
	})
})

var _ = Describe("the result of an interrupted run", func() {
	// terminalReason plays events as json and returns the result's
	// terminal_reason.
	terminalReason := func(events []agent.Event) any {
		var r map[string]any
		Expect(json.Unmarshal([]byte(play(render.Options{Format: render.JSON}, "wait", events)), &r)).To(Succeed())
		Expect(r).To(HaveKeyWithValue("subtype", "error_during_execution"))
		return r["terminal_reason"]
	}
	done := agent.Event{Kind: agent.EventDone, Turn: 1, Outcome: &agent.Outcome{Stop: agent.StopInterrupted, Turns: 1}}

	It("ends in aborted_tools, as the Agent SDK names it, once a call of the turn ran", func() {
		Expect(terminalReason([]agent.Event{{Kind: agent.EventRequest, Turn: 1}, text("Sleeping"),
			{Kind: agent.EventToolStart, Turn: 1, ID: "s1", Name: "Bash"},
			result("s1", bashTool, `{"summary":"sleep 60"}`, runtime.ErrorResult("interrupted"), orchestrate.OutcomeInterrupted, orchestrate.ErrInterrupted),
			{Kind: agent.EventInterrupted, Turn: 1}, done})).To(Equal("aborted_tools"))
	})

	It("ends in aborted_streaming when the model's response was cut", func() {
		Expect(terminalReason([]agent.Event{{Kind: agent.EventRequest, Turn: 1},
			{Kind: agent.EventToolStart, Turn: 1, ID: "s0", Name: "Bash"}, {Kind: agent.EventRequest, Turn: 2}, text("Sleep"),
			{Kind: agent.EventInterrupted, Turn: 2}, done})).To(Equal("aborted_streaming"))
	})
})
