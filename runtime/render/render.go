// Package render shows an agent run to a person or a script.
//
// The text format is a transcript: the model's text as it streams, and
// every tool call drawn with the tool's own render methods (the fifth
// element of the tool protocol): the use line, a live progress line while
// it runs (spinner, elapsed time, the last output lines), a result
// summary, and the rejected and error forms; consecutive parallel calls of
// one tool are grouped with RenderGrouped. On a terminal it is styled with
// lipgloss and the running calls are redrawn in place; when the output is
// not a terminal, or NO_COLOR is set, it is plain text, and the live
// region is left out so the output is stable (results are printed in call
// order when they are yielded).
//
// A sub-agent's events (agent.Event.ParentToolUseID set) draw nested
// under the Agent call that started it, with one live progress line per
// running sub-agent; see subagent.go.
//
// ObserveCall draws the events of an orchestrate run that no agent drives
// (agentcore exec) with the same methods, one block per result.
//
// The json format prints one object when the run ends; stream-json prints
// one JSON event per line as Claude Code's does (stream.go): a system init
// line, an assistant event per content block, a user event per tool
// result (parent_tool_use_id null, or the Agent call's id for a
// sub-agent's), and the result with cost and usage. A sub-agent's end
// gives no result line or object: only the main run's does.
package render

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/colorprofile"
	"golang.org/x/term"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// Format is an output format.
type Format string

const (
	// Text is the human transcript.
	Text Format = "text"
	// JSON is one result object at the end.
	JSON Format = "json"
	// StreamJSON is one JSON event per line.
	StreamJSON Format = "stream-json"
)

// ParseFormat checks a --output-format value.
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case Text, JSON, StreamJSON:
		return Format(s), nil
	case "":
		return Text, nil
	}
	return "", fmt.Errorf("unknown output format %q: use text, json or stream-json", s)
}

// Options configure a Renderer.
type Options struct {
	// Format is the output format; default Text.
	Format Format
	// Styled turns on lipgloss styles (Text only).
	Styled bool
	// Live turns on the live region: running calls redrawn in place with a
	// spinner (Text only; needs a terminal).
	Live bool
	// Width is the terminal width for the live region; default 100.
	Width int
	// Env is the environment the terminal is judged by ("KEY=value":
	// TERM, NO_COLOR, COLORTERM; os.Environ() in a program): Detect reads
	// TERM and NO_COLOR from it, and a styled writer that is a terminal
	// has its colours fitted to what Env says the terminal supports.
	// Nil is an empty environment.
	Env []string
	// Markdown, when set (Text only, without Live), takes the model's text
	// one whole text block at a time instead of the writer, so a terminal
	// session can render it as markdown; it is called in order with the
	// writes, after those before the text.
	Markdown func(text string)
	// Session fills session_id in the JSON formats.
	Session string
	// Init fills the stream-json init line.
	Init Init
	// PartialMessages adds stream-json's stream_event lines (the API's
	// own events, from agent.EventStream) and a system/status line before
	// each request, as Claude Code's --include-partial-messages.
	PartialMessages bool
	// NewUUID and Now make the JSON formats' uuids and timestamps
	// (default: random UUIDs, time.Now); specs pin them.
	NewUUID func() string
	Now     func() time.Time
}

// Init describes the session in stream-json's first line, with Claude
// Code's keys.
type Init struct {
	Cwd            string      `json:"cwd"`
	Tools          []string    `json:"tools"`
	MCPServers     []MCPServer `json:"mcp_servers"`
	Model          string      `json:"model"`
	PermissionMode string      `json:"permissionMode"`
	SlashCommands  []string    `json:"slash_commands"`
	APIKeySource   string      `json:"apiKeySource"`
	OutputStyle    string      `json:"output_style"`
	Agents         []string    `json:"agents"`
	Skills         []string    `json:"skills"`
	Plugins        []string    `json:"plugins"`
	// Version is agentcore's version (agentcore_version).
	Version string `json:"agentcore_version"`
}

// Detect fills Styled, Live and Width for w: styled and live on a
// terminal, plain when w is not one, when opts.Env sets NO_COLOR (no
// styles) or TERM is dumb.
func Detect(w io.Writer, opts Options) Options {
	f, ok := w.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd())) && getenv(opts.Env, "TERM") != "dumb"
	opts.Live = tty
	opts.Styled = tty && getenv(opts.Env, "NO_COLOR") == ""
	if tty {
		if wd, _, err := term.GetSize(int(f.Fd())); err == nil && wd > 20 {
			opts.Width = wd
		}
	}
	return opts
}

// Renderer turns agent events into output. Observe is safe for concurrent
// use; pass it as agent.Config.Observer.
type Renderer struct {
	mu   sync.Mutex
	w    io.Writer
	opts Options
	tx   *transcript
	js   *jsonOut

	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// New returns a renderer writing to w. Call Close when the run is over.
func New(w io.Writer, opts Options) *Renderer {
	if opts.Format == "" {
		opts.Format = Text
	}
	if opts.Width <= 0 {
		opts.Width = 100
	}
	r := &Renderer{opts: opts, w: w}
	switch opts.Format {
	case Text:
		out := w
		if f, ok := w.(*os.File); ok && opts.Styled {
			// Downsample colours to what the terminal supports.
			out = colorprofile.NewWriter(f, opts.Env)
		}
		r.tx = newTranscript(out, opts)
		if opts.Live {
			r.stop, r.done = make(chan struct{}), make(chan struct{})
			go r.tick()
		}
	default:
		r.js = newJSON(w, opts)
	}
	return r
}

// Prompt shows the user's prompt.
func (r *Renderer) Prompt(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tx != nil {
		r.tx.prompt(text)
	}
	if r.js != nil {
		r.js.prompt(text)
	}
}

// Notice shows a line of information to the person (text format only;
// scripts get it nowhere).
func (r *Renderer) Notice(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tx != nil {
		r.tx.notice(text)
	}
}

// Observe renders one event.
func (r *Renderer) Observe(ev agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tx != nil {
		r.tx.observe(ev)
	}
	if r.js != nil {
		r.js.observe(ev)
	}
}

// ObserveCall renders one event of an orchestrate run that no agent
// drives, such as agentcore exec's: a result is drawn at once as its own
// block, with the tool's render methods as in the transcript, and a
// rejection also gives its reason; a progress event is a line
// "  … <id> <RenderProgress>". Text format only: the JSON formats describe
// agent runs and ignore it.
func (r *Renderer) ObserveCall(ev orchestrate.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tx != nil {
		r.tx.call(ev)
	}
}

// Detail prints text as an indented line under the call drawn last, such
// as a call's state trace (text format only).
func (r *Renderer) Detail(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tx != nil {
		r.tx.detail(text)
	}
}

// Pause clears the live region and stops redrawing it until Resume, so
// something else (a permission prompt) can use the terminal. It returns
// with the renderer locked against output.
func (r *Renderer) Pause() {
	r.mu.Lock()
	if r.tx != nil {
		r.tx.flushMarkdown() // what the model said comes before the prompt
		r.tx.clearLive()
		r.tx.paused = true
	}
}

// Resume undoes Pause.
func (r *Renderer) Resume() {
	if r.tx != nil {
		r.tx.paused = false
		r.tx.redraw()
	}
	r.mu.Unlock()
}

// Close stops the live region and finishes the output.
func (r *Renderer) Close() {
	r.closeOnce.Do(func() {
		if r.stop != nil {
			close(r.stop)
			<-r.done
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.tx != nil {
			r.tx.close()
		}
	})
}

func (r *Renderer) tick() {
	defer close(r.done)
	t := newTicker()
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case <-t.C:
			r.mu.Lock()
			if r.tx.hasLive() && !r.tx.paused {
				r.tx.frame++
				r.tx.redraw()
			}
			r.mu.Unlock()
		}
	}
}

// oneLine squeezes s onto one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return s
}

// getenv is key's value in env ("KEY=value" entries; the last wins).
func getenv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
