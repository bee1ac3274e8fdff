package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
)

// A sub-agent's events carry the id of the Agent call that started it
// (agent.Event.ParentToolUseID). The transcript draws them nested under
// that call, each line behind "  │ ":
//
//	▸ Explore(find tests)
//	  │ Looking for the test files.
//	  │ ● Glob(**/*_test.go)
//	  │   ⎿  Found 3 files
//	  │ Done (2 turns · 1 tool use · 1.2k tokens · 2.1s)
//
// The "▸" header names the sub-agent (the Agent call's name and
// description) and is printed again whenever something else was printed
// since its last line, so two sub-agents running at once stay readable;
// "· background" marks a sub-agent whose Agent call's result is shown
// already. A sub-agent's text is one line per run of text, its whitespace
// squeezed and cut to the width; its calls are blocks as the main
// conversation's, with shorter results. In the live region a running
// sub-agent has one progress line under its Agent call, and a background
// one its own line at the bottom.

// nestedResultLines caps a sub-agent's result summaries.
const nestedResultLines = 3

// subagent is what the transcript knows of one sub-agent.
type subagent struct {
	conv
	id         string // the Agent call's tool_use id
	name, desc string // the Agent call's display name and description

	text     string // text of the current message not yet printed
	sawText  bool   // the current message streamed text
	activity string // what it does now, for the progress line
	toolUses int
	tokens   int64 // input and output tokens of its responses so far
	started  time.Time

	done     bool // its own EventDone came
	callDone bool // its Agent call's result is drawn: it runs in the background
}

// agentHead names an Agent call for the headers of its sub-agent.
type agentHead struct{ name, desc string }

// heldLines are a sub-agent's lines waiting for the main text's line to
// end (plain output).
type heldLines struct {
	sub   *subagent
	lines []string
}

// nesting is the transcript's sub-agent state.
type nesting struct {
	subs     map[string]*subagent // by Agent call id
	subOrder []string
	heads    map[string]agentHead // the main conversation's calls, by id: any may be a sub-agent's Agent call
	owner    *subagent            // whose nested line was printed last
	held     []heldLines
}

func newNesting() nesting {
	return nesting{subs: map[string]*subagent{}, heads: map[string]agentHead{}}
}

// rememberAgent keeps a call of the main conversation for the headers of
// a sub-agent that outlives it. The renderer knows no tool by name: a
// call is an Agent call when events name it as their ParentToolUseID.
func (t *transcript) rememberAgent(c *call) {
	if c == nil {
		return
	}
	t.heads[c.id] = t.headOf(c)
}

// headOf is the name and description of the call c.
func (t *transcript) headOf(c *call) agentHead {
	if c.input == nil && c.inv == nil && c.tool != nil && len(c.raw) > 0 {
		if in, err := decodeQuiet(c.tool, c.raw); err == nil {
			c.input = in
		}
	}
	ev := orchestrate.Event{ID: c.id, Name: c.name, Tool: c.tool, Input: c.input, Invocation: c.inv}
	h := agentHead{name: t.displayName(ev)}
	var in struct {
		Description string `json:"description"`
	}
	if json.Unmarshal(c.raw, &in) == nil {
		h.desc = oneLine(in.Description)
	}
	if h.desc == "" {
		h.desc = oneLine(t.useArg(&t.conv, ev))
	}
	return h
}

// sub returns the sub-agent of ev, met for the first time or not.
func (t *transcript) sub(ev agent.Event) *subagent {
	id := ev.ParentToolUseID
	if s := t.subs[id]; s != nil {
		return s
	}
	s := &subagent{id: id, started: ev.At}
	s.conv = conv{calls: map[string]*call{}, sub: s}
	if s.started.IsZero() {
		s.started = t.now()
	}
	c, running := t.calls[id]
	var h agentHead
	switch ended, ok := t.heads[id]; {
	case running:
		h = t.headOf(c)
	case ok:
		h = ended
	default:
		h = agentHead{name: "sub-agent", desc: id}
	}
	s.name, s.desc = h.name, h.desc
	s.callDone = !running
	t.subs[id] = s
	t.subOrder = append(t.subOrder, id)
	return s
}

// observeSub renders one event of a sub-agent.
func (t *transcript) observeSub(ev agent.Event) {
	s := t.sub(ev)
	switch ev.Kind {
	case agent.EventRequest:
		s.activity = ""
	case agent.EventText:
		s.text += ev.Text
		s.sawText = true
		if l := lastLines(s.text, 1); len(l) > 0 {
			s.activity = strings.TrimSpace(l[0])
		}
	case agent.EventToolQueued:
		t.subText(s)
		t.queue(&s.conv, ev)
		s.toolUses++
		s.activity = t.subUse(s, ev.ID)
	case agent.EventToolStart:
		if _, ok := s.calls[ev.ID]; !ok {
			s.toolUses++
		}
		t.start(&s.conv, ev)
		s.activity = t.subUse(s, ev.ID)
	case agent.EventToolProgress:
		t.progress(&s.conv, ev)
	case agent.EventToolEnd:
		t.end(&s.conv, ev)
	case agent.EventToolResult:
		if _, ok := s.calls[ev.ID]; !ok {
			s.toolUses++
		}
		t.result(&s.conv, *ev.Call)
	case agent.EventAssistant:
		if !s.sawText && ev.Message != nil {
			s.text = messageText(ev.Message)
		}
		t.subText(s)
		s.sawText = false
		s.tokens += ev.Usage.InputTokens + ev.Usage.OutputTokens
	case agent.EventUser:
		t.flush(&s.conv)
	case agent.EventContext:
		t.flush(&s.conv)
		t.nested(s, []string{t.st.dim("↳ " + ev.Text)})
	case agent.EventInterrupted:
		t.flush(&s.conv)
		t.nested(s, []string{t.st.rejected("⏹ Interrupted")})
	case agent.EventDone:
		t.subText(s)
		t.flush(&s.conv)
		s.done = true
		t.nested(s, t.subDone(ev.Outcome))
		if s.callDone {
			t.forget(s)
		}
	}
	t.redraw()
}

// subText prints the sub-agent's pending text as one line.
func (t *transcript) subText(s *subagent) {
	text := strings.Join(strings.Fields(s.text), " ")
	s.text = ""
	if text == "" {
		return
	}
	text = ansi.Truncate(text, max(t.opts.Width-5, 20), "…")
	t.nested(s, []string{t.st.dim(text)})
}

// subUse is the use line of the sub-agent's call id.
func (t *transcript) subUse(s *subagent, id string) string {
	c := s.calls[id]
	if c == nil {
		return ""
	}
	if c.input == nil && c.inv == nil && c.tool != nil && len(c.raw) > 0 {
		if in, err := decodeQuiet(c.tool, c.raw); err == nil {
			c.input = in
		}
	}
	return t.useLine(&s.conv, orchestrate.Event{ID: c.id, Name: c.name, Tool: c.tool, Input: c.input, Invocation: c.inv})
}

// subDone is the last line(s) of a sub-agent: how it ended, not the
// main run's summary.
func (t *transcript) subDone(o *agent.Outcome) []string {
	if o == nil {
		return []string{t.st.dim("Done")}
	}
	parts := []string{plural(o.Turns, "turn"), plural(o.ToolCalls, "tool use")}
	if o.ToolErrors > 0 {
		parts[1] += fmt.Sprintf(" (%d failed)", o.ToolErrors)
	}
	if n := o.Usage.InputTokens + o.Usage.OutputTokens; n > 0 {
		parts = append(parts, shortTokens(n)+" tokens")
	}
	parts = append(parts, o.Duration.Round(10*time.Millisecond).String())
	sum := " (" + strings.Join(parts, " · ") + ")"
	switch o.Stop {
	case agent.StopMaxTurns:
		return []string{t.st.rejected("Stopped: max turns reached") + t.st.dim(sum)}
	case agent.StopInterrupted:
		return []string{t.st.rejected("Stopped: interrupted") + t.st.dim(sum)}
	case agent.StopError:
		return []string{t.st.errText("✗ " + errString(o.Err)), t.st.errText("Failed") + t.st.dim(sum)}
	}
	return []string{t.st.ok("Done") + t.st.dim(sum)}
}

// drawNested prints a sub-agent's calls g as one block nested under its
// Agent call.
func (t *transcript) drawNested(s *subagent, g []orchestrate.Event) {
	block := t.block(&s.conv, g, false, nestedResultLines)
	t.nested(s, strings.Split(strings.TrimSuffix(block, "\n"), "\n"))
}

// nested prints lines of the sub-agent s behind its marker, with its
// header first if another piece of output came since its last line. In
// plain output a main text line still open holds them until it ends; on
// a terminal that line lives in the live region and stays open.
func (t *transcript) nested(s *subagent, lines []string) {
	if len(lines) == 0 {
		return
	}
	if !t.atLineStart {
		t.held = append(t.held, heldLines{s, lines})
		return
	}
	t.clearLive()
	t.printNested(s, lines)
	t.redraw()
}

func (t *transcript) printNested(s *subagent, lines []string) {
	open := t.partial != ""
	if t.owner != s {
		if !open && t.last != secNone && t.last != secTool {
			t.write("\n")
		}
		t.write(t.subHead(s) + "\n")
		t.owner = s
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(t.st.dim("  │ ") + l + "\n")
	}
	t.write(b.String())
	if !open {
		t.last = secTool
	}
}

// flushHeld prints the held sub-agent lines; the output is at a line's
// start.
func (t *transcript) flushHeld() {
	h := t.held
	t.held = nil
	for _, b := range h {
		t.printNested(b.sub, b.lines)
	}
}

// endTextLine ends the main text's open line when the model's message
// moves on (a tool_use block, the message's end): in plain output held
// sub-agent lines follow it; on a terminal the unfinished line leaves the
// live region, so what sub-agents print next comes below it.
func (t *transcript) endTextLine() {
	t.flushMarkdown()
	switch {
	case t.partial != "":
		t.clearLive()
		t.write(t.partial + "\n")
		t.partial = ""
		t.owner = nil
		t.redraw()
	case !t.opts.Live && !t.atLineStart:
		t.write("\n")
		t.owner = nil
		t.flushHeld()
	}
}

func (t *transcript) subHead(s *subagent) string {
	head := t.st.running("▸") + " " + t.st.name(s.name)
	if s.desc != "" {
		head += "(" + s.desc + ")"
	}
	if s.callDone {
		head += t.st.dim(" · background")
	}
	return head
}

// agentDrawn: the main conversation's call id was drawn; if a sub-agent
// runs for it, it now runs in the background.
func (t *transcript) agentDrawn(id string) {
	s := t.subs[id]
	if s == nil {
		return
	}
	if s.done {
		t.forget(s)
		return
	}
	s.callDone = true
}

func (t *transcript) forget(s *subagent) {
	delete(t.subs, s.id)
	for i, id := range t.subOrder {
		if id == s.id {
			t.subOrder = append(t.subOrder[:i], t.subOrder[i+1:]...)
			break
		}
	}
	if t.owner == s {
		t.owner = nil
	}
}

func (t *transcript) subsRunning() bool {
	for _, s := range t.subs {
		if !s.done {
			return true
		}
	}
	return false
}

// progressLine is a running sub-agent's state: name, tool uses, tokens
// and what it does now.
func (t *transcript) progressLine(s *subagent) string {
	line := t.st.name(s.name)
	if s.desc != "" {
		line += "(" + s.desc + ")"
	}
	info := " · " + plural(s.toolUses, "tool use")
	if s.tokens > 0 {
		info += " · " + shortTokens(s.tokens) + " tokens"
	}
	line += t.st.dim(info)
	if s.activity != "" {
		line += t.st.dim(" · ") + s.activity
	}
	return line
}

// subLines is the live progress line of the sub-agent of the Agent call
// id, if one runs.
func (t *transcript) subLines(id string) []string {
	s := t.subs[id]
	if s == nil || s.done {
		return nil
	}
	return []string{t.st.dim("  ⎿  ") + t.progressLine(s)}
}

// backgroundLines are the live lines of the running sub-agents whose Agent
// call is not among the live calls.
func (t *transcript) backgroundLines(live []*call, spin string) []string {
	shown := map[string]bool{}
	for _, c := range live {
		shown[c.id] = true
	}
	var lines []string
	now := t.now()
	for _, id := range t.subOrder {
		s := t.subs[id]
		if s == nil || s.done || shown[id] {
			continue
		}
		line := t.progressLine(s)
		lines = append(lines, spin+" "+line+t.st.dim(" · background · "+elapsed(now.Sub(s.started))))
	}
	return lines
}

// messageText is the text blocks of m.
func messageText(m *provider.Message) string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == provider.TextBlock {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, " ")
}

// shortTokens is a token count as "850" or "1.2k".
func shortTokens(n int64) string {
	if n >= 1000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}
