// Package tui is agentcore run's interactive session on a terminal: an
// input box with per-directory history, a status line, slash commands and
// Esc to interrupt a running turn. The transcript itself is printed above
// the input box, word-wrapped to the terminal's width, the model's
// markdown rendered (goldmark and lipgloss); on a resize it is printed again, re-flowed
// to the new width. Pickers (Modal: the permission prompt, questions, a
// plan's approval) take the input box's place while they wait; Ctrl+O
// prints the last tool result in full.
package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Status is what the status line shows.
type Status struct {
	Model, Mode, Cwd string
	Tokens           int
	Cost             float64
}

// Backend is what the session drives: the agent session behind it.
type Backend interface {
	// Run runs one turn for prompt; it prints the transcript by sending
	// Print and PrintMarkdown messages with send, and returns when the
	// turn is over.
	Run(ctx context.Context, prompt string, send func(tea.Msg))
	// Interrupt stops the running turn (Esc, or the first Ctrl+C).
	Interrupt()
	Status() Status
	// Commands are the slash commands beyond the built-in ones (/help,
	// /clear, /exit, which win over a command of the same name): name
	// without "/" → handler returning the text to print and the prompt
	// to send (/tools, /mcp, a skill, ...).
	Commands() map[string]Command
	// LastResult is the last tool result in full, with its call's use
	// line; "" before the first.
	LastResult() string
}

// Command is one slash command.
type Command struct {
	Help string
	// Run returns text to print; a non-empty prompt is sent as a turn.
	Run func(args string) (text, prompt string)
	// Slow runs Run off the update loop, for a command that waits on
	// something else (an MCP server's prompts/get); the screen stays live
	// and input waits until it is done.
	Slow bool
}

type (
	turnDone struct{}
	// commandDone is a Slow command's answer.
	commandDone struct{ typed, text, prompt string }
	printMsg    string
	// markdownMsg is a block of the model's text, rendered as markdown.
	markdownMsg string
	exitMsg     struct{}
)

// Print and PrintMarkdown are the messages a turn's goroutine sends (by
// SetSend's function) to add transcript text, plain (word-wrapped) or the
// model's markdown.
func Print(s string) tea.Msg         { return printMsg(s) }
func PrintMarkdown(s string) tea.Msg { return markdownMsg(s) }

// block is one printed piece of the transcript, kept to re-flow it.
type block struct {
	text string
	md   bool
}

// keptLines caps the transcript kept for re-flowing (in lines of source).
const keptLines = 5000

// Model is the bubbletea model of the session.
type Model struct {
	be      Backend
	input   textarea.Model
	hist    *History
	histPos int // len(hist) when editing a new line
	draft   string
	running bool
	width   int
	send    func(tea.Msg)
	quit    bool
	blocks  []block
	kept    int // lines in blocks
	modals  []modalMsg
}

// New returns the session's model; send delivers messages to the program
// (tea.Program.Send) from the turn's goroutine.
func New(be Backend, hist *History) *Model {
	ta := textarea.New()
	ta.Placeholder = "Type a prompt · Shift+Enter or a trailing \\ for a new line · /help"
	ta.ShowLineNumbers = false
	ta.Prompt = "> "
	ta.SetHeight(3)
	ta.Focus()
	m := &Model{be: be, input: ta, hist: hist, width: 80}
	m.histPos = len(hist.Entries())
	return m
}

// SetSend sets how the turn's goroutine reaches the program.
func (m *Model) SetSend(send func(tea.Msg)) { m.send = send }

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return textarea.Blink }

// Running says whether a turn runs.
func (m *Model) Running() bool { return m.running }

// Input is the text in the input box.
func (m *Model) Input() string { return m.input.Value() }

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		changed := m.width != msg.Width
		m.width = msg.Width
		m.input.SetWidth(msg.Width)
		if changed && len(m.blocks) > 0 {
			return m, m.reflow()
		}
		return m, nil
	case printMsg:
		return m, m.print(string(msg), false)
	case markdownMsg:
		return m, m.print(string(msg), true)
	case modalMsg:
		m.modals = append(m.modals, msg)
		return m, nil
	case modalCancel:
		m.dropModal(msg.m)
		return m, nil
	case turnDone:
		m.running = false
		return m, nil
	case commandDone:
		m.running = false
		return m, m.commandResult(msg.typed, msg.text, msg.prompt)
	case exitMsg:
		m.quit = true
		return m, tea.Quit
	case tea.PasteMsg:
		if len(m.modals) > 0 {
			return m, nil
		}
		m.input.InsertString(msg.Content)
		return m, nil
	case tea.KeyPressMsg:
		if len(m.modals) > 0 {
			return m, m.modalKey(msg)
		}
		switch msg.String() {
		case "ctrl+o":
			if r := m.be.LastResult(); r != "" {
				return m, m.print(r, false)
			}
			return m, m.print("No tool result yet.", false)
		case "ctrl+c":
			if m.running {
				m.be.Interrupt()
				return m, tea.Println("⏹ Interrupting: cancellable calls stop, the others finish.")
			}
			m.quit = true
			return m, tea.Quit
		case "esc":
			if m.running {
				m.be.Interrupt()
				return m, tea.Println("⏹ Interrupted (Esc).")
			}
			return m, nil
		case "ctrl+d":
			if m.input.Value() == "" {
				m.quit = true
				return m, tea.Quit
			}
		case "shift+enter", "ctrl+j":
			m.input.InsertString("\n")
			return m, nil
		case "enter":
			v := m.input.Value()
			if strings.HasSuffix(v, "\\") {
				m.input.SetValue(strings.TrimSuffix(v, "\\") + "\n")
				return m, nil
			}
			return m, m.submit(strings.TrimSpace(v))
		case "up":
			if m.input.Line() == 0 {
				m.historyMove(-1)
				return m, nil
			}
		case "down":
			if m.input.Line() == m.input.LineCount()-1 {
				m.historyMove(+1)
				return m, nil
			}
		}
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

func (m *Model) historyMove(d int) {
	es := m.hist.Entries()
	if m.histPos == len(es) {
		m.draft = m.input.Value()
	}
	p := m.histPos + d
	if p < 0 || p > len(es) {
		return
	}
	m.histPos = p
	if p == len(es) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(es[p])
	}
}

// submit handles an entered line: a slash command or a prompt.
func (m *Model) submit(v string) tea.Cmd {
	if v == "" || m.running {
		return nil
	}
	m.input.Reset()
	m.hist.Add(v)
	m.histPos = len(m.hist.Entries())
	if strings.HasPrefix(v, "/") {
		name, args, _ := strings.Cut(strings.TrimPrefix(v, "/"), " ")
		switch name {
		case "exit", "quit":
			m.quit = true
			return tea.Quit
		case "clear":
			m.blocks, m.kept = nil, 0
			return tea.Sequence(tea.Raw(clearScrollback), tea.ClearScreen)
		case "help":
			return m.print(m.help(), false)
		}
		c, ok := m.be.Commands()[name]
		if !ok {
			return m.print(fmt.Sprintf("Unknown command /%s; /help lists them.", name), false)
		}
		args = strings.TrimSpace(args)
		if c.Slow {
			m.running = true
			return func() tea.Msg {
				text, prompt := c.Run(args)
				return commandDone{typed: v, text: text, prompt: prompt}
			}
		}
		text, prompt := c.Run(args)
		return m.commandResult(v, text, prompt)
	}
	return m.startTurn(v, v)
}

// commandResult prints a command's text and runs its prompt as a turn.
func (m *Model) commandResult(typed, text, prompt string) tea.Cmd {
	var cmds []tea.Cmd
	if text != "" {
		cmds = append(cmds, m.print(text, false))
	}
	if prompt != "" {
		cmds = append(cmds, m.startTurn(typed, prompt))
	}
	return tea.Sequence(cmds...)
}

// startTurn runs a turn for prompt, echoing the line the user typed (a
// slash command's prompt, e.g. a skill's instructions, is not repeated).
func (m *Model) startTurn(typed, p string) tea.Cmd {
	m.running = true
	send := m.send
	be := m.be
	return tea.Sequence(m.print("> "+typed, false), func() tea.Msg {
		be.Run(context.Background(), p, func(msg tea.Msg) {
			if send != nil {
				send(msg)
			}
		})
		return turnDone{}
	})
}

func (m *Model) help() string {
	lines := []string{"Commands:",
		"  /help          this list",
		"  /clear         clear the screen",
		"  /exit          end the session (also Ctrl+D on an empty line)"}
	cs := m.be.Commands()
	names := make([]string, 0, len(cs))
	for n := range cs {
		if !builtin[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		lines = append(lines, fmt.Sprintf("  %-14s %s", "/"+n, cs[n].Help))
	}
	lines = append(lines, "Keys: Enter sends · Shift+Enter or a trailing \\ adds a line · ↑/↓ history · Ctrl+O shows the last tool result in full · Esc interrupts a turn · Ctrl+C interrupts, or exits when idle")
	return strings.Join(lines, "\n")
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	if m.quit {
		return tea.NewView("")
	}
	st := m.be.Status()
	state := "ready"
	if m.running {
		state = "working… (Esc interrupts)"
	}
	line := fmt.Sprintf("%s · %s · %d tokens · $%.4f · %s · %s", st.Model, st.Mode, st.Tokens, st.Cost, st.Cwd, state)
	line = ansi.Truncate(line, m.width, "…")
	if len(m.modals) > 0 {
		return tea.NewView(Wrap(m.modals[0].m.View(), m.width) + "\n" + line)
	}
	return tea.NewView(m.input.View() + "\n" + line)
}

// builtin are the commands the model itself answers.
var builtin = map[string]bool{"help": true, "clear": true, "exit": true, "quit": true}

// clearScrollback clears the screen and the terminal's scrollback (ED 3).
const clearScrollback = "\x1b[H\x1b[2J\x1b[3J"

// print prints text above the input box (markdown rendered when md) and
// keeps it to re-flow on a resize.
func (m *Model) print(text string, md bool) tea.Cmd {
	m.blocks = append(m.blocks, block{text: text, md: md})
	m.kept += strings.Count(text, "\n") + 1
	for len(m.blocks) > 1 && m.kept > keptLines {
		m.kept -= strings.Count(m.blocks[0].text, "\n") + 1
		m.blocks = m.blocks[1:]
	}
	return tea.Println(m.format(block{text, md}))
}

func (m *Model) format(b block) string {
	if b.md {
		return Markdown(b.text, m.width)
	}
	return Wrap(b.text, m.width)
}

// reflow clears the screen and its scrollback and prints the kept
// transcript again at the new width. The clearing goes in front of the
// printed text, not in a tea.Raw: bubbletea writes a Raw sequence at its
// next frame but printed lines at once, so a Raw clear would land after
// the reprint and wipe it. ClearScreen then redraws the input box below.
func (m *Model) reflow() tea.Cmd {
	parts := make([]string, len(m.blocks))
	for i, b := range m.blocks {
		parts[i] = m.format(b)
	}
	return tea.Sequence(tea.Println(clearScrollback+strings.Join(parts, "\n")), tea.ClearScreen)
}

// Wrap wraps s at word boundaries to width (ANSI-aware). A line's
// continuation keeps its indentation — its leading spaces and a result's
// "⎿  " or a picker's "│ " — so a wrapped result stays under its call.
func Wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = wrapLine(l, width)
	}
	return strings.Join(lines, "\n")
}

func wrapLine(l string, width int) string {
	if ansi.StringWidth(l) <= width {
		return l
	}
	plain := ansi.Strip(l)
	body := strings.TrimLeft(plain, " ")
	for _, mark := range []string{"⎿  ", "│ ", "● ", "- ", "• "} {
		if strings.HasPrefix(body, mark) {
			body = body[len(mark):]
			break
		}
	}
	indent := ansi.StringWidth(plain) - ansi.StringWidth(body)
	if indent == 0 || indent > width/2 {
		return ansi.Wrap(l, width, "")
	}
	head, rest := ansi.Cut(l, 0, indent), ansi.Cut(l, indent, ansi.StringWidth(l))
	wrapped := strings.Split(ansi.Wrap(rest, width-indent, ""), "\n")
	pad := strings.Repeat(" ", indent)
	for i := range wrapped {
		if i == 0 {
			wrapped[i] = head + wrapped[i]
		} else {
			wrapped[i] = pad + wrapped[i]
		}
	}
	return strings.Join(wrapped, "\n")
}
