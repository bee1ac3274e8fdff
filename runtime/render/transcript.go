package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// tickEvery is the live region's redraw period.
const tickEvery = 100 * time.Millisecond

func newTicker() *time.Ticker { return time.NewTicker(tickEvery) }

// styles are the transcript's looks; identity functions in plain mode.
type styles struct {
	prompt, name, ok, fail, rejected, running, dim, errText, message func(string) string
	// link makes text a terminal hyperlink to url (OSC 8); plain text in
	// plain mode.
	link func(text, url string) string
	// diff styles one line of a unified diff.
	diff func(string) string
}

func plainStyles() styles {
	id := func(s string) string { return s }
	return styles{id, id, id, id, id, id, id, id, id, func(text, _ string) string { return text }, id}
}

var (
	diffAdd  = lipgloss.NewStyle().Foreground(lipgloss.Color("10"))
	diffDel  = lipgloss.NewStyle().Foreground(lipgloss.Color("9"))
	diffHunk = lipgloss.NewStyle().Foreground(lipgloss.Color("14")).Faint(true)
	diffRest = lipgloss.NewStyle().Faint(true)
)

// DiffLine colours one line of a unified diff: additions green, removals
// red, hunk headers cyan, the rest faint. For terminals with colour; a
// caller that writes plain text leaves the line as it is.
func DiffLine(l string) string {
	switch {
	case strings.HasPrefix(l, "+"):
		return diffAdd.Render(l)
	case strings.HasPrefix(l, "-"):
		return diffDel.Render(l)
	case strings.HasPrefix(l, "@@"):
		return diffHunk.Render(l)
	}
	return diffRest.Render(l)
}

// IsDiff reports whether body, the lines a render method puts under its
// summary, is a unified diff's hunks (tooldefs' filetool.DiffBody).
func IsDiff(body []string) bool {
	return len(body) > 0 && strings.HasPrefix(body[0], "@@ ")
}

func lipglossStyles() styles {
	r := func(s lipgloss.Style) func(string) string { return func(x string) string { return s.Render(x) } }
	return styles{
		prompt:   r(lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))),
		name:     r(lipgloss.NewStyle().Bold(true)),
		ok:       r(lipgloss.NewStyle().Foreground(lipgloss.Color("10"))),
		fail:     r(lipgloss.NewStyle().Foreground(lipgloss.Color("9"))),
		rejected: r(lipgloss.NewStyle().Foreground(lipgloss.Color("11"))),
		running:  r(lipgloss.NewStyle().Foreground(lipgloss.Color("14"))),
		dim:      r(lipgloss.NewStyle().Faint(true)),
		errText:  r(lipgloss.NewStyle().Foreground(lipgloss.Color("9"))),
		message:  r(lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("13"))),
		link: func(text, url string) string {
			return ansi.SetHyperlink(url) + text + ansi.ResetHyperlink()
		},
		diff: DiffLine,
	}
}

// call is what the transcript knows of one tool call.
type call struct {
	id, name string
	tool     runtime.Tool
	raw      json.RawMessage
	input    any
	// inv is the call as the executor bound it; nil when the input did
	// not decode (or the event came without it).
	inv      *runtime.Invocation
	running  bool
	ended    bool
	started  time.Time
	took     time.Duration
	progress []string
}

// section is the kind of the last thing printed, for spacing.
type section int

const (
	secNone section = iota
	secPrompt
	secText
	secTool
	secNote
	secMessage
)

// conv is what the transcript tracks of one conversation's calls: the
// main conversation's or a sub-agent's.
type conv struct {
	calls map[string]*call
	order []string // calls shown in the live region
	group []orchestrate.Event
	sub   *subagent // nil for the main conversation
}

type transcript struct {
	out  io.Writer
	st   styles
	opts Options
	now  func() time.Time

	last        section
	atLineStart bool
	partial     string // TTY: the text line still being streamed
	md          string // Options.Markdown: the text block so far

	conv              // the main conversation
	waiting time.Time // a request is out and nothing came back yet

	nesting // the sub-agents (subagent.go)

	liveLines int
	frame     int
	paused    bool
}

func newTranscript(out io.Writer, opts Options) *transcript {
	st := plainStyles()
	if opts.Styled {
		st = lipglossStyles()
	}
	return &transcript{out: out, st: st, opts: opts, now: time.Now, atLineStart: true,
		conv: conv{calls: map[string]*call{}}, nesting: newNesting()}
}

func (t *transcript) write(s string) {
	if s == "" {
		return
	}
	io.WriteString(t.out, s)
	t.atLineStart = strings.HasSuffix(s, "\n")
}

// begin starts a new permanent piece of kind sec: clears the live region,
// ends an open line and spaces sections apart.
func (t *transcript) begin(sec section) {
	t.flushMarkdown()
	t.clearLive()
	if t.partial != "" {
		t.write(t.partial + "\n")
		t.partial = ""
	}
	if !t.atLineStart {
		t.write("\n")
	}
	t.flushHeld()
	t.owner = nil // the next sub-agent line needs its header again
	if t.last != secNone && t.last != sec {
		t.write("\n")
	}
	t.last = sec
}

func (t *transcript) prompt(text string) {
	t.begin(secPrompt)
	t.write(t.st.prompt("> ") + text + "\n")
	t.redraw()
}

func (t *transcript) notice(text string) {
	t.begin(secNote)
	t.write(t.st.dim(text) + "\n")
	t.redraw()
}

func (t *transcript) observe(ev agent.Event) {
	if ev.ParentToolUseID != "" {
		t.observeSub(ev)
		return
	}
	switch ev.Kind {
	case agent.EventRequest:
		t.waiting = ev.At
		t.redraw()
	case agent.EventText:
		t.waiting = time.Time{}
		t.text(ev.Text)
	case agent.EventToolQueued:
		t.waiting = time.Time{}
		t.endTextLine()
		t.queue(&t.conv, ev)
		t.rememberAgent(t.calls[ev.ID])
		t.redraw()
	case agent.EventToolStart:
		t.start(&t.conv, ev)
		t.rememberAgent(t.calls[ev.ID])
		t.redraw()
	case agent.EventToolProgress:
		t.progress(&t.conv, ev)
		t.redraw()
	case agent.EventToolEnd:
		t.end(&t.conv, ev)
		t.redraw()
	case agent.EventToolResult:
		t.result(&t.conv, *ev.Call)
	case agent.EventAssistant:
		t.waiting = time.Time{}
		t.endTextLine()
	case agent.EventUser:
		t.flushGroup()
	case agent.EventContext:
		t.flushGroup()
		t.begin(secTool)
		t.write(t.st.dim("  ↳ "+ev.Text) + "\n")
		t.redraw()
	case agent.EventFallback:
		t.flushGroup()
		t.begin(secNote)
		t.write(t.st.dim("⚠ "+ev.Text) + "\n")
		t.redraw()
	case agent.EventRetry:
		t.endTextLine()
		t.flushGroup()
		t.begin(secNote)
		t.write(t.st.dim("⚠ "+ev.Text) + "\n")
		t.redraw()
	case agent.EventCompact:
		if ev.Compact != nil {
			t.endTextLine()
			t.flushGroup()
			t.begin(secNote)
			t.write(t.st.dim(CompactNote(ev.Compact)) + "\n")
			t.redraw()
		}
	case agent.EventHook:
		t.flushGroup()
		t.begin(secNote)
		t.write(t.st.dim("⚑ hook: "+ev.Text) + "\n")
		t.redraw()
	case agent.EventInterrupted:
		t.flushGroup()
		t.begin(secNote)
		t.write(t.st.rejected("⏹ Interrupted") + t.st.dim(" · every started call has its result; the conversation can go on") + "\n")
		t.redraw()
	case agent.EventDone:
		t.waiting = time.Time{}
		t.flushGroup()
		t.done(ev.Outcome)
	}
}

func (cv *conv) lookup(ev agent.Event) *call {
	c, ok := cv.calls[ev.ID]
	if !ok {
		c = &call{id: ev.ID, name: ev.Name, tool: ev.Tool}
		cv.calls[ev.ID] = c
		cv.order = append(cv.order, ev.ID)
	}
	if c.tool == nil {
		c.tool = ev.Tool
	}
	if c.inv == nil && ev.Invocation != nil {
		c.inv, c.input = ev.Invocation, ev.Invocation.Input
	}
	return c
}

// queue records a call of cv whose tool_use block finished streaming.
func (t *transcript) queue(cv *conv, ev agent.Event) {
	cv.calls[ev.ID] = &call{id: ev.ID, name: ev.Name, tool: ev.Tool, raw: ev.RawInput, input: ev.Input, inv: ev.Invocation}
	cv.order = append(cv.order, ev.ID)
}

// start marks a call of cv running.
func (t *transcript) start(cv *conv, ev agent.Event) *call {
	c := cv.lookup(ev)
	c.running, c.started, c.input = true, ev.At, ev.Input
	if ev.Invocation != nil { // the input a hook or an approver gave it
		c.inv = ev.Invocation
	}
	if c.started.IsZero() {
		c.started = t.now()
	}
	return c
}

// progress keeps the last lines of a call's progress.
func (t *transcript) progress(cv *conv, ev agent.Event) {
	c := cv.lookup(ev)
	c.progress = lastLines(safeString(func() string { return c.tool.RenderProgress(ev.Input, ev.Progress) }), 2)
}

// end marks a call of cv returned; its result comes later.
func (t *transcript) end(cv *conv, ev agent.Event) {
	c := cv.lookup(ev)
	c.ended = true
	at := ev.At
	if at.IsZero() {
		at = t.now()
	}
	c.took = at.Sub(c.started)
}

// text prints streamed text; on a terminal the unfinished line lives in
// the live region.
func (t *transcript) text(s string) {
	if t.last != secText {
		t.flushGroup()
		t.begin(secText)
	}
	if t.opts.Markdown != nil && !t.opts.Live {
		t.md += s
		return
	}
	if !t.opts.Live {
		t.write(s)
		t.owner = nil
		if t.atLineStart {
			t.flushHeld()
		}
		return
	}
	t.clearLive()
	t.partial += s
	if i := strings.LastIndexByte(t.partial, '\n'); i >= 0 {
		t.write(t.partial[:i+1])
		t.partial = t.partial[i+1:]
		t.owner = nil
	}
	t.redraw()
}

// result takes a call's result in cv; consecutive concurrency-safe
// results of one tool are grouped.
func (t *transcript) result(cv *conv, ev orchestrate.Event) {
	cv.dropLive(ev.ID)
	if n := len(cv.group); n > 0 {
		prev := cv.group[n-1]
		if !(prev.Name == ev.Name && groupable(prev) && groupable(ev)) {
			t.flush(cv)
		}
	}
	cv.group = append(cv.group, ev)
	if !groupable(ev) {
		t.flush(cv)
	}
}

// groupable: a concurrency-safe call of a known tool, which ran in
// parallel with its same-tool neighbours.
func groupable(ev orchestrate.Event) bool {
	if ev.Tool == nil || ev.Input == nil {
		return false
	}
	safe, _ := runtime.Guard("IsConcurrencySafe", func() bool { return ev.Tool.IsConcurrencySafe(ev.Input) })
	return safe
}

func (cv *conv) dropLive(id string) {
	for i, o := range cv.order {
		if o == id {
			cv.order = append(cv.order[:i], cv.order[i+1:]...)
			break
		}
	}
}

// flushGroup draws the main conversation's pending results.
func (t *transcript) flushGroup() { t.flush(&t.conv) }

// flush draws cv's pending results: the main conversation's as blocks,
// a sub-agent's nested under its Agent call.
func (t *transcript) flush(cv *conv) {
	if len(cv.group) == 0 {
		return
	}
	g := cv.group
	cv.group = nil
	if cv.sub != nil {
		t.drawNested(cv.sub, g)
		return
	}
	t.draw(g, false)
}

// call draws one event of a run no agent drives: a result at once, as its
// own block, with the reason of a rejection (nothing else there says why);
// progress as a permanent line under the calls drawn so far.
func (t *transcript) call(ev orchestrate.Event) {
	if ev.Kind == orchestrate.EventProgress {
		text := ""
		if ev.Tool != nil {
			text = safeString(func() string { return ev.Tool.RenderProgress(ev.Input, ev.Progress) })
		}
		t.begin(secTool)
		t.write(t.st.dim("  … "+ev.ID+" "+text) + "\n")
		t.redraw()
		return
	}
	t.flushGroup()
	t.dropLive(ev.ID)
	t.draw([]orchestrate.Event{ev}, true)
}

// detail prints an indented line under the call drawn last.
func (t *transcript) detail(text string) {
	t.begin(secTool)
	t.write(t.st.dim("     "+text) + "\n")
	t.redraw()
}

// draw prints the main conversation's calls g, one tool's consecutive
// results, as one block; reason adds a rejection's reason to its
// RenderRejected line.
func (t *transcript) draw(g []orchestrate.Event, reason bool) {
	if len(g) == 1 {
		if m, ok := runtime.UserMessageOf(g[0].Result); ok {
			t.message(m)
			delete(t.conv.calls, g[0].ID)
			t.agentDrawn(g[0].ID)
			return
		}
	}
	t.begin(secTool)
	t.write(t.block(&t.conv, g, reason, resultLinesMax))
	for _, ev := range g {
		t.agentDrawn(ev.ID)
	}
	t.redraw()
}

// resultLinesMax caps a result drawn in the main conversation; render
// methods cap what they show under their summary themselves (an edit's
// diff, a command's first lines), so this is a backstop.
const resultLinesMax = 16

// block is the text of cv's calls g, drawn as one block, each result cut
// to maxLines lines; the calls are forgotten.
func (t *transcript) block(cv *conv, g []orchestrate.Event, reason bool, maxLines int) string {
	var b strings.Builder
	if len(g) == 1 {
		ev := g[0]
		b.WriteString(t.bullet(g) + " " + t.useLine(cv, ev) + "\n")
		b.WriteString(t.resultLines(ev, "", reason, maxLines))
	} else {
		inputs := make([]any, len(g))
		for i, ev := range g {
			inputs[i] = ev.Input
		}
		name := t.displayName(g[0])
		head := oneLine(safeString(func() string { return g[0].Tool.RenderGrouped(inputs) }))
		switch {
		case head == "":
			head = t.st.name(name) + fmt.Sprintf(" × %d", len(g))
		case strings.HasPrefix(head, name):
			head = t.st.name(name) + head[len(name):]
		default:
			head = t.st.name(name) + " " + head
		}
		b.WriteString(t.bullet(g) + " " + head + t.st.dim(" · in parallel") + "\n")
		for _, ev := range g {
			b.WriteString(t.resultLines(ev, oneLine(t.useArg(cv, ev)), reason, maxLines))
		}
	}
	for _, ev := range g {
		delete(cv.calls, ev.ID)
	}
	return b.String()
}

func (t *transcript) bullet(g []orchestrate.Event) string {
	state := 0
	for _, ev := range g {
		switch {
		case ev.Rejected() && state < 1:
			state = 1
		case ev.IsError():
			state = 2
		}
	}
	switch state {
	case 2:
		return t.st.fail("●")
	case 1:
		return t.st.rejected("●")
	}
	return t.st.ok("●")
}

func (t *transcript) displayName(ev orchestrate.Event) string {
	if ev.Invocation != nil {
		return ev.Invocation.UserFacingName
	}
	if ev.Tool == nil {
		return ev.Name
	}
	if ev.Input != nil {
		if n := safeString(func() string { return ev.Tool.UserFacingName(ev.Input) }); n != "" {
			return n
		}
	}
	return ev.Tool.Name()
}

// useArg is the call's RenderUse, or its raw input when the input never
// decoded.
func (t *transcript) useArg(cv *conv, ev orchestrate.Event) string {
	if ev.Invocation != nil {
		return ev.Invocation.Use
	}
	if ev.Tool != nil && ev.Input != nil {
		return safeString(func() string { return ev.Tool.RenderUse(ev.Input) })
	}
	if c, ok := cv.calls[ev.ID]; ok && len(c.raw) > 0 {
		return compactJSON(c.raw, 60)
	}
	return ""
}

func (t *transcript) useLine(cv *conv, ev orchestrate.Event) string {
	arg := oneLine(t.useArg(cv, ev))
	name := t.st.name(t.displayName(ev))
	if arg == "" {
		return name
	}
	return name + "(" + arg + ")"
}

// resultLines is the "⎿ summary" line(s) of a result, at most maxLines
// and a "more" line; label prefixes it in a group, and reason appends the
// result text to RenderRejected's line.
func (t *transcript) resultLines(ev orchestrate.Event, label string, reason bool, maxLines int) string {
	var text string
	style := t.st.dim
	switch {
	case ev.Rejected():
		style = t.st.rejected
		text = t.render(ev, func() string {
			s := ev.Tool.RenderRejected(ev.Input)
			if reason && strings.TrimSpace(s) != "" {
				s += ": " + ev.Result.Text()
			}
			return s
		})
	case ev.IsError():
		style = t.st.errText
		err := ev.Err
		if err == nil {
			err = errors.New(ev.Result.Text())
		}
		text = t.render(ev, func() string { return ev.Tool.RenderError(ev.Input, err) })
	default:
		text = t.render(ev, func() string { return ev.Tool.RenderResult(ev.Input, ev.Result) })
	}
	if label != "" {
		text = label + " · " + text
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > maxLines {
		more := len(lines) - maxLines
		lines = append(lines[:maxLines], fmt.Sprintf("… %d more lines", more))
	}
	// A diff under the summary (an edit's, a write's) is coloured.
	diff := !ev.Rejected() && !ev.IsError() && IsDiff(lines[1:])
	var b strings.Builder
	for i, l := range lines {
		prefix, st := "     ", style
		if i == 0 {
			prefix = "  ⎿  "
		} else if diff && !strings.HasPrefix(l, "… +") {
			st = t.st.diff
		}
		b.WriteString(t.st.dim(prefix) + st(l) + "\n")
	}
	return b.String()
}

// render calls one render method, falling back to the result text when
// the tool is unknown, the input never decoded, or the method gives
// nothing or panics.
func (t *transcript) render(ev orchestrate.Event, f func() string) string {
	if ev.Tool != nil && ev.Input != nil {
		if s := safeString(f); strings.TrimSpace(s) != "" {
			return s
		}
	}
	if s := strings.TrimSpace(ev.Result.Text()); s != "" {
		return s
	}
	if ev.IsError() {
		return "Error"
	}
	return "Done"
}

func (t *transcript) done(o *agent.Outcome) {
	if o == nil {
		return
	}
	t.begin(secNote)
	var parts []string
	parts = append(parts, plural(o.Turns, "turn"))
	calls := plural(o.ToolCalls, "tool call")
	if o.ToolErrors > 0 {
		calls += fmt.Sprintf(" (%d failed)", o.ToolErrors)
	}
	parts = append(parts, calls)
	if o.Usage.InputTokens+o.Usage.OutputTokens > 0 {
		parts = append(parts, fmt.Sprintf("%s in / %s out tokens", tokens(o.Usage.InputTokens), tokens(o.Usage.OutputTokens)))
	}
	parts = append(parts, o.Duration.Round(10*time.Millisecond).String())
	line := "─ " + strings.Join(parts, " · ")
	switch o.Stop {
	case agent.StopMaxTurns:
		line += " · stopped: max turns reached"
	case agent.StopInterrupted:
		line += " · stopped: interrupted"
	case agent.StopError:
		t.write(t.st.errText("✗ "+errString(o.Err)) + "\n")
	}
	t.write(t.st.dim(line) + "\n")
	t.redraw()
}

// flushMarkdown hands the text block so far to Options.Markdown.
func (t *transcript) flushMarkdown() {
	if t.md == "" {
		return
	}
	md := t.md
	t.md = ""
	if !t.atLineStart {
		t.write("\n")
	}
	t.opts.Markdown(md)
	t.atLineStart = true
	t.owner = nil
	t.flushHeld()
}

func (t *transcript) close() {
	t.flushMarkdown()
	t.clearLive()
	if t.partial != "" {
		t.write(t.partial + "\n")
		t.partial = ""
	}
	if !t.atLineStart {
		t.write("\n")
	}
	t.flushHeld()
}

func (t *transcript) hasLive() bool {
	return t.opts.Live && (len(t.order) > 0 || !t.waiting.IsZero() || t.subsRunning())
}

// liveView is the live region: the unfinished text line, a waiting line,
// one line per call not yet printed (running with spinner, elapsed time
// and its last output lines; queued dimmed), under a running Agent call
// its sub-agent's progress line, and last the sub-agents running in the
// background.
func (t *transcript) liveView() []string {
	var lines []string
	if t.partial != "" {
		lines = append(lines, t.partial)
	}
	now := t.now()
	spin := t.st.running(spinner[t.frame%len(spinner)])
	if len(t.order) == 0 && !t.waiting.IsZero() && t.partial == "" {
		lines = append(lines, spin+t.st.dim(" waiting for the model · "+elapsed(now.Sub(t.waiting))))
	}
	var live []*call
	for _, id := range t.order {
		if c := t.calls[id]; c != nil {
			if c.input == nil && c.inv == nil && c.tool != nil && len(c.raw) > 0 {
				// An event without the bound call (built by hand).
				if in, err := decodeQuiet(c.tool, c.raw); err == nil {
					c.input = in
				}
			}
			live = append(live, c)
		}
	}
	for i := 0; i < len(live); {
		c := live[i]
		ev := orchestrate.Event{ID: c.id, Name: c.name, Tool: c.tool, Input: c.input, Invocation: c.inv}
		use := t.useLine(&t.conv, ev)
		switch {
		case !c.running:
			lines = append(lines, t.st.dim("○ ")+use+t.st.dim(" · queued"))
			i++
			continue
		case c.ended:
			lines = append(lines, t.st.dim("● ")+use+t.st.dim(" · finished in "+elapsed(c.took)+", its result follows the earlier calls'"))
			i++
			continue
		}
		// Parallel running calls of one tool share a line (RenderGrouped).
		j := i + 1
		for j < len(live) && live[j].running && !live[j].ended && live[j].name == c.name && groupable(ev) &&
			groupable(orchestrate.Event{Tool: live[j].tool, Input: live[j].input}) {
			j++
		}
		if j-i == 1 {
			lines = append(lines, spin+" "+use+t.st.dim(" · "+elapsed(now.Sub(c.started))))
			for _, p := range c.progress {
				lines = append(lines, t.st.dim("  │ "+p))
			}
			lines = append(lines, t.subLines(c.id)...)
			i++
			continue
		}
		group := live[i:j]
		inputs := make([]any, len(group))
		oldest := c.started
		var progress []string
		for k, g := range group {
			inputs[k] = g.input
			if g.started.Before(oldest) {
				oldest = g.started
			}
			progress = append(progress, g.progress...)
		}
		name := t.displayName(ev)
		head := oneLine(safeString(func() string { return c.tool.RenderGrouped(inputs) }))
		switch {
		case head == "":
			head = fmt.Sprintf("%d calls", len(group))
		case strings.HasPrefix(head, name):
			head = strings.TrimSpace(head[len(name):])
		}
		lines = append(lines, spin+" "+t.st.name(name)+" "+head+t.st.dim(fmt.Sprintf(" · %d in parallel · %s", len(group), elapsed(now.Sub(oldest)))))
		if len(progress) > 2 {
			progress = progress[len(progress)-2:]
		}
		for _, p := range progress {
			lines = append(lines, t.st.dim("  │ "+p))
		}
		for _, g := range group {
			lines = append(lines, t.subLines(g.id)...)
		}
		i = j
	}
	lines = append(lines, t.backgroundLines(live, spin)...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, t.opts.Width-1, "…")
	}
	return lines
}

func (t *transcript) clearLive() {
	if t.liveLines == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("\r\x1b[2K")
	for i := 1; i < t.liveLines; i++ {
		b.WriteString("\x1b[1A\x1b[2K")
	}
	io.WriteString(t.out, b.String())
	t.liveLines = 0
}

func (t *transcript) redraw() {
	if !t.opts.Live || t.paused {
		return
	}
	t.clearLive()
	lines := t.liveView()
	if len(lines) == 0 {
		return
	}
	io.WriteString(t.out, strings.Join(lines, "\n"))
	t.liveLines = len(lines)
}

// decodeQuiet is Decode; a panic is an error.
func decodeQuiet(tool runtime.Tool, raw json.RawMessage) (any, error) {
	var in any
	var err error
	if crash := runtime.Try("Decode", func() { in, err = tool.Decode(raw) }); crash != nil {
		return nil, crash
	}
	return in, err
}

// safeString runs a render method; a panic gives "".
func safeString(f func() string) string {
	s, _ := runtime.Guard("render method", f)
	return s
}

func lastLines(s string, n int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

func compactJSON(raw json.RawMessage, max int) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return ""
	}
	s := b.String()
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func tokens(n int64) string {
	if n >= 10000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

func errString(err error) string {
	if err == nil {
		return "error"
	}
	return "Error: " + err.Error()
}

// CompactNote is the line shown for a compaction.
func CompactNote(c *agent.CompactInfo) string {
	return fmt.Sprintf("✻ Conversation compacted (%s): %d messages summarised, %d kept; about %d → %d tokens",
		c.Trigger, c.Summarized, c.Kept, c.PreTokens, c.PostTokens)
}
