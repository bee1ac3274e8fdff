package render_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// agentSim stands for the Agent tool: its input is Claude Code's, its
// user-facing name the sub-agent type, and Explore calls run in parallel.
type agentSim struct{ tooltest.Sim }

type agentInput struct {
	Description     string `json:"description"`
	Prompt          string `json:"prompt"`
	SubagentType    string `json:"subagent_type,omitempty"`
	RunInBackground bool   `json:"run_in_background,omitempty"`
}

func (a *agentSim) Decode(raw json.RawMessage) (any, error) {
	var in agentInput
	err := json.Unmarshal(raw, &in)
	return &in, err
}

func (a *agentSim) UserFacingName(in any) string {
	if t := in.(*agentInput).SubagentType; t != "" {
		return t
	}
	return "Agent"
}

func (a *agentSim) RenderUse(in any) string       { return in.(*agentInput).Description }
func (a *agentSim) IsConcurrencySafe(in any) bool { return in.(*agentInput).SubagentType == "Explore" }
func (a *agentSim) RenderGrouped(ins []any) string {
	parts := make([]string, len(ins))
	for i, in := range ins {
		parts[i] = a.RenderUse(in)
	}
	return strings.Join(parts, ", ")
}

var (
	agentTool = &agentSim{Sim: tooltest.Sim{ToolName: "Agent"}}
	globTool  = &tooltest.Sim{ToolName: "Glob", Safe: true, ReadOnly: true}
	grepTool  = &tooltest.Sim{ToolName: "Grep", Safe: true, ReadOnly: true}
)

// in marks ev as an event of the sub-agent started by the Agent call id.
func in(id string, ev agent.Event) agent.Event {
	ev.ParentToolUseID = id
	return ev
}

func started(id string, t runtime.Tool, raw string) agent.Event {
	return agent.Event{Kind: agent.EventToolStart, ID: id, Name: t.Name(), Tool: t, Input: input(t, raw)}
}

func assistant(turn int, usage provider.Usage, blocks ...provider.Block) agent.Event {
	return agent.Event{Kind: agent.EventAssistant, Turn: turn, Usage: usage,
		Message: &provider.Message{Role: provider.Assistant, Content: blocks}}
}

func user(turn int, ids ...string) agent.Event {
	m := provider.Message{Role: provider.User}
	for _, id := range ids {
		m.Content = append(m.Content, provider.ToolResult(id, ok("r")))
	}
	return agent.Event{Kind: agent.EventUser, Turn: turn, Message: &m}
}

func done(turns, calls, errs int, o agent.Outcome) agent.Event {
	o.Turns, o.ToolCalls, o.ToolErrors = turns, calls, errs
	if o.Stop == "" {
		o.Stop = agent.StopEndTurn
	}
	return agent.Event{Kind: agent.EventDone, Turn: turns, Outcome: &o}
}

const (
	findTests = `{"description":"find tests","prompt":"List the test files.","subagent_type":"Explore"}`
	findTodos = `{"description":"find todos","prompt":"List the TODOs.","subagent_type":"Explore"}`
	buildDocs = `{"description":"build docs","prompt":"Build the docs.","run_in_background":true}`
	fixBuild  = `{"description":"fix the build","prompt":"Make go build pass."}`
)

// twoExplorers: two Explore agents in parallel whose events interleave
// (both name their first call g1), then the main answer.
func twoExplorers() (string, []agent.Event) {
	return "find the tests and the todos", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		text("I'll send two explorers."),
		queued("a1", agentTool, findTests),
		queued("a2", agentTool, findTodos),
		started("a1", agentTool, findTests),
		started("a2", agentTool, findTodos),
		in("a1", agent.Event{Kind: agent.EventRequest, Turn: 1}),
		in("a2", agent.Event{Kind: agent.EventRequest, Turn: 1}),
		in("a1", text("Looking for ")),
		in("a1", text("the test files.\n\nStarting with a glob.")),
		in("a1", queued("g1", globTool, `{"summary":"**/*_test.go"}`)),
		in("a2", queued("g1", grepTool, `{"summary":"TODO"}`)),
		in("a2", started("g1", grepTool, `{"summary":"TODO"}`)),
		in("a1", started("g1", globTool, `{"summary":"**/*_test.go"}`)),
		in("a2", result("g1", grepTool, `{"summary":"TODO"}`, ok("Found 2 matches"), orchestrate.OutcomeOK, nil)),
		in("a1", result("g1", globTool, `{"summary":"**/*_test.go"}`, ok("Found 4 files\na_test.go\nb_test.go\nc_test.go\nd_test.go"), orchestrate.OutcomeOK, nil)),
		in("a1", assistant(1, provider.Usage{InputTokens: 900, OutputTokens: 40}, provider.Text("Looking for the test files.\n\nStarting with a glob."),
			provider.ToolUse("g1", "Glob", json.RawMessage(`{"summary":"**/*_test.go"}`)))),
		in("a2", assistant(1, provider.Usage{InputTokens: 800, OutputTokens: 20}, provider.ToolUse("g1", "Grep", json.RawMessage(`{"summary":"TODO"}`)))),
		in("a1", user(1, "g1")),
		in("a2", user(1, "g1")),
		in("a1", agent.Event{Kind: agent.EventRequest, Turn: 2}),
		in("a2", agent.Event{Kind: agent.EventRequest, Turn: 2}),
		in("a2", text("Two TODOs, both in render.")),
		in("a1", text("Four test files.")),
		in("a1", assistant(2, provider.Usage{InputTokens: 1000, OutputTokens: 30}, provider.Text("Four test files."))),
		in("a1", done(2, 1, 0, agent.Outcome{Text: "Four test files.", Usage: provider.Usage{InputTokens: 1900, OutputTokens: 70}, Duration: 2100 * time.Millisecond})),
		in("a2", assistant(2, provider.Usage{InputTokens: 850, OutputTokens: 25}, provider.Text("Two TODOs, both in render."))),
		in("a2", done(2, 1, 0, agent.Outcome{Text: "Two TODOs, both in render.", Usage: provider.Usage{InputTokens: 1650, OutputTokens: 45}, Duration: 1500 * time.Millisecond})),
		{Kind: agent.EventToolEnd, ID: "a1", Name: "Agent", Tool: agentTool},
		{Kind: agent.EventToolEnd, ID: "a2", Name: "Agent", Tool: agentTool},
		result("a1", agentTool, findTests, ok("Four test files.\n(2 turns · 1.9k tokens)"), orchestrate.OutcomeOK, nil),
		result("a2", agentTool, findTodos, ok("Two TODOs, both in render."), orchestrate.OutcomeOK, nil),
		assistant(1, provider.Usage{}, provider.Text("I'll send two explorers."),
			provider.ToolUse("a1", "Agent", json.RawMessage(findTests)), provider.ToolUse("a2", "Agent", json.RawMessage(findTodos))),
		user(1, "a1", "a2"),
		{Kind: agent.EventRequest, Turn: 2},
		text("Four test files and two TODOs."),
		done(2, 2, 0, agent.Outcome{Text: "Four test files and two TODOs.", Usage: provider.Usage{InputTokens: 5000, OutputTokens: 300}, Duration: 4 * time.Second}),
	}
}

// background: an agent started with run_in_background reports after its
// call's result, while the main conversation streams its next turn.
func background() (string, []agent.Event) {
	return "build the docs and go on", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		queued("b1", agentTool, buildDocs),
		started("b1", agentTool, buildDocs),
		{Kind: agent.EventToolEnd, ID: "b1", Name: "Agent", Tool: agentTool},
		result("b1", agentTool, buildDocs, ok("Started agent-1 in the background."), orchestrate.OutcomeOK, nil),
		assistant(1, provider.Usage{}, provider.ToolUse("b1", "Agent", json.RawMessage(buildDocs))),
		user(1, "b1"),
		{Kind: agent.EventRequest, Turn: 2},
		in("b1", agent.Event{Kind: agent.EventRequest, Turn: 1}),
		text("While the docs build, "),
		in("b1", queued("r1", readTool, `{"summary":"docs/index.md"}`)),
		in("b1", started("r1", readTool, `{"summary":"docs/index.md"}`)),
		in("b1", result("r1", readTool, `{"summary":"docs/index.md"}`, ok("Read 40 lines"), orchestrate.OutcomeOK, nil)),
		text("I read the README.\n"),
		in("b1", assistant(1, provider.Usage{InputTokens: 400, OutputTokens: 10}, provider.ToolUse("r1", "Read", json.RawMessage(`{"summary":"docs/index.md"}`)))),
		in("b1", user(1, "r1")),
		queued("r2", readTool, `{"summary":"README.md"}`),
		result("r2", readTool, `{"summary":"README.md"}`, ok("Read 12 lines"), orchestrate.OutcomeOK, nil),
		assistant(2, provider.Usage{}, provider.Text("While the docs build, I read the README.\n"),
			provider.ToolUse("r2", "Read", json.RawMessage(`{"summary":"README.md"}`))),
		user(2, "r2"),
		{Kind: agent.EventRequest, Turn: 3},
		in("b1", agent.Event{Kind: agent.EventRequest, Turn: 2}),
		in("b1", text("The docs are built.")),
		in("b1", assistant(2, provider.Usage{InputTokens: 500, OutputTokens: 12}, provider.Text("The docs are built."))),
		text("The README is short."),
		in("b1", done(2, 1, 0, agent.Outcome{Text: "The docs are built.", Usage: provider.Usage{InputTokens: 900, OutputTokens: 22}, Duration: 3 * time.Second})),
		done(3, 2, 0, agent.Outcome{Text: "The README is short.", Duration: 5 * time.Second}),
	}
}

// subError: a general-purpose agent whose call fails and whose model
// request then fails; the Agent call's result is an error.
func subError() (string, []agent.Event) {
	failure := errors.New("anthropic: 529 Overloaded")
	return "fix the build", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		queued("f1", agentTool, fixBuild),
		started("f1", agentTool, fixBuild),
		in("f1", agent.Event{Kind: agent.EventRequest, Turn: 1}),
		in("f1", text("Building first.")),
		in("f1", queued("x1", bashTool, `{"summary":"go build ./..."}`)),
		in("f1", started("x1", bashTool, `{"summary":"go build ./..."}`)),
		in("f1", result("x1", bashTool, `{"summary":"go build ./..."}`, runtime.ErrorResult("Exit code 1"), orchestrate.OutcomeToolError, errors.New("Exit code 1"))),
		in("f1", assistant(1, provider.Usage{InputTokens: 300, OutputTokens: 15}, provider.Text("Building first."),
			provider.ToolUse("x1", "Bash", json.RawMessage(`{"summary":"go build ./..."}`)))),
		in("f1", user(1, "x1")),
		in("f1", agent.Event{Kind: agent.EventRequest, Turn: 2}),
		in("f1", done(2, 1, 1, agent.Outcome{Stop: agent.StopError, Err: failure, Usage: provider.Usage{InputTokens: 300, OutputTokens: 15}, Duration: 800 * time.Millisecond})),
		{Kind: agent.EventToolEnd, ID: "f1", Name: "Agent", Tool: agentTool},
		result("f1", agentTool, fixBuild, runtime.ErrorResult("the sub-agent failed: "+failure.Error()), orchestrate.OutcomeToolError, errors.New("the sub-agent failed: "+failure.Error())),
		assistant(1, provider.Usage{}, provider.ToolUse("f1", "Agent", json.RawMessage(fixBuild))),
		user(1, "f1"),
		{Kind: agent.EventRequest, Turn: 2},
		text("The sub-agent failed."),
		done(2, 1, 1, agent.Outcome{Text: "The sub-agent failed.", Duration: time.Second}),
	}
}

func streamLines(out string) []map[string]any {
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var m map[string]any
		Expect(json.Unmarshal(sc.Bytes(), &m)).To(Succeed(), sc.Text())
		lines = append(lines, m)
	}
	return lines
}

var _ = Describe("sub-agents", func() {
	opts := render.Options{Session: "s-1"}

	DescribeTable("draw their events nested under the Agent call (golden)",
		func(name string, run func() (string, []agent.Event), format render.Format) {
			p, evs := run()
			o := opts
			o.Format = format
			n := 0
			o.NewUUID = func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }
			o.Now = func() time.Time { return time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) }
			golden(name, play(o, p, evs))
		},
		Entry("two interleaved Explore agents", "subagents.txt", twoExplorers, render.Text),
		Entry("a background agent after its call ended", "subagents-background.txt", background, render.Text),
		Entry("an error inside a sub-agent", "subagents-error.txt", subError, render.Text),
		Entry("two interleaved Explore agents as stream-json", "subagents.stream.jsonl", twoExplorers, render.StreamJSON),
	)

	It("indents every line of a sub-agent and prints the run's summary once, for the main run", func() {
		p, evs := twoExplorers()
		out := play(opts, p, evs)
		Expect(strings.Count(out, "─ ")).To(Equal(1), out)
		Expect(out).To(HaveSuffix("─ 2 turns · 2 tool calls · 5000 in / 300 out tokens · 4s\n"))
		Expect(out).To(ContainSubstring("▸ Explore(find tests)\n  │ Looking for the test files. Starting with a glob.\n  │ ● Glob(**/*_test.go)\n"))
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Glob") || strings.Contains(l, "Grep") || strings.Contains(l, "Done (") {
				Expect(l).To(HavePrefix("  │ "), "a sub-agent's line is nested: %q", l)
			}
		}
		Expect(out).NotTo(ContainSubstring("d_test.go"), "a nested result is cut shorter")
		Expect(out).To(ContainSubstring("… 2 more lines"))
	})

	It("names a background agent in the header of the lines it prints after its call's result", func() {
		p, evs := background()
		out := play(opts, p, evs)
		Expect(out).To(ContainSubstring("▸ Agent(build docs) · background\n  │ ● Read(docs/index.md)\n"))
		Expect(out).To(ContainSubstring("While the docs build, I read the README.\n"), "the main text line is not broken by the sub-agent's lines")
		Expect(strings.Count(out, "─ ")).To(Equal(1), out)
	})

	It("shows an error inside a sub-agent nested, and the Agent call's error under the call", func() {
		p, evs := subError()
		out := play(opts, p, evs)
		Expect(out).To(ContainSubstring("  │ ● Bash(go build ./...)\n  │   ⎿  Error: Exit code 1\n"))
		Expect(out).To(ContainSubstring("  │ ✗ Error: anthropic: 529 Overloaded\n  │ Failed (2 turns · 1 tool use (1 failed) · 315 tokens · 800ms)\n"))
		Expect(out).To(ContainSubstring("● Agent(fix the build)\n  ⎿  Error: the sub-agent failed"))
		Expect(out).NotTo(ContainSubstring("\n✗ "), "the sub-agent's failure is not the run's")
	})

	It("marks stream-json messages with parent_tool_use_id and prints the main run's result only", func() {
		for _, run := range []func() (string, []agent.Event){twoExplorers, background, subError} {
			p, evs := run()
			o := opts
			o.Format = render.StreamJSON
			lines := streamLines(play(o, p, evs))
			var results int
			parents := map[any]int{}
			for _, l := range lines {
				switch l["type"] {
				case "result":
					results++
					Expect(l).NotTo(HaveKey("parent_tool_use_id"))
				case "assistant", "user":
					Expect(l).To(HaveKey("parent_tool_use_id"))
					parents[l["parent_tool_use_id"]]++
				}
			}
			Expect(results).To(Equal(1))
			Expect(lines[len(lines)-1]).To(HaveKeyWithValue("type", "result"))
			Expect(parents[nil]).To(BeNumerically(">", 0), "the main conversation's messages have null")
			Expect(len(parents)).To(BeNumerically(">", 1), "a sub-agent's messages have its Agent call's id")
		}
	})

	It("never styles plain output", func() {
		for _, run := range []func() (string, []agent.Event){twoExplorers, background, subError} {
			p, evs := run()
			Expect(play(opts, p, evs)).NotTo(ContainSubstring("\x1b["))
		}
	})

	It("prints one json result, the main run's", func() {
		p, evs := twoExplorers()
		o := opts
		o.Format = render.JSON
		lines := streamLines(play(o, p, evs))
		Expect(lines).To(HaveLen(1))
		Expect(lines[0]).To(HaveKeyWithValue("result", "Four test files and two TODOs."))
	})

	It("gives each running sub-agent a progress line under its Agent call in the live region", func() {
		p, evs := twoExplorers()
		var cut int
		for i, ev := range evs {
			if ev.ParentToolUseID == "a1" && ev.Kind == agent.EventToolStart {
				cut = i + 1
			}
		}
		out := stripANSI(play(render.Options{Live: true, Width: 120}, p, evs[:cut]))
		Expect(out).To(ContainSubstring("Explore find tests, find todos · 2 in parallel"))
		Expect(out).To(ContainSubstring("  ⎿  Explore(find tests) · 1 tool use · Glob(**/*_test.go)"))
		Expect(out).To(ContainSubstring("  ⎿  Explore(find todos) · 1 tool use · Grep(TODO)"))
	})

	It("on a terminal, prints the main text the model said before its Agent calls above the sub-agents' lines", func() {
		p, evs := twoExplorers()
		out := stripANSI(play(render.Options{Live: true, Width: 120}, p, evs))
		Expect(strings.Index(out, "I'll send two explorers.\n")).To(BeNumerically("<", strings.Index(out, "▸ Explore(find tests)")))
		Expect(strings.Count(out, "─ ")).To(Equal(1))
	})

	It("gives a background agent its own live line once its call's result is shown", func() {
		p, evs := background()
		var cut int
		for i, ev := range evs {
			if ev.ParentToolUseID == "b1" && ev.Kind == agent.EventToolStart {
				cut = i + 1
			}
		}
		out := stripANSI(play(render.Options{Live: true, Width: 120}, p, evs[:cut]))
		Expect(out).To(ContainSubstring("Agent(build docs) · 1 tool use · Read(docs/index.md) · background · "))
	})

	It("keeps the main text's open line open on a terminal while a sub-agent prints", func() {
		p, evs := background()
		out := stripANSI(play(render.Options{Live: true, Width: 120}, p, evs))
		Expect(out).To(ContainSubstring("▸ Agent(build docs) · background"))
		Expect(out).To(ContainSubstring("While the docs build, I read the README.\n"))
	})
})
