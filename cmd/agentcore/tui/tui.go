// Package tui is agentcore run's interactive session on a terminal: an
// input box with per-directory history, a status line, slash commands and
// Esc to interrupt a running turn. The transcript itself is printed above
// the input box, word-wrapped to the terminal's width.
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
	// Run runs one turn for prompt; it prints the transcript with print
	// and returns when the turn is over.
	Run(ctx context.Context, prompt string, print func(string))
	// Interrupt stops the running turn (Esc, or the first Ctrl+C).
	Interrupt()
	Status() Status
	// Commands are the slash commands beyond the built-in ones (skills,
	// MCP prompts, /tools, /mcp, ...): name without "/" → handler
	// returning the text to print.
	Commands() map[string]Command
}

// Command is one slash command.
type Command struct {
	Help string
	// Run returns text to print; a non-empty prompt is sent as a turn.
	Run func(args string) (text, prompt string)
}

type (
	turnDone struct{}
	printMsg string
	exitMsg  struct{}
)

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
		m.width = msg.Width
		m.input.SetWidth(msg.Width)
		return m, nil
	case printMsg:
		return m, tea.Println(Wrap(string(msg), m.width))
	case turnDone:
		m.running = false
		return m, nil
	case exitMsg:
		m.quit = true
		return m, tea.Quit
	case tea.PasteMsg:
		m.input.InsertString(msg.Content)
		return m, nil
	case tea.KeyPressMsg:
		switch msg.String() {
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
			return tea.ClearScreen
		case "help":
			return tea.Println(Wrap(m.help(), m.width))
		}
		c, ok := m.be.Commands()[name]
		if !ok {
			return tea.Println(fmt.Sprintf("Unknown command /%s; /help lists them.", name))
		}
		text, prompt := c.Run(strings.TrimSpace(args))
		var cmds []tea.Cmd
		if text != "" {
			cmds = append(cmds, tea.Println(Wrap(text, m.width)))
		}
		if prompt != "" {
			cmds = append(cmds, m.startTurn(prompt))
		}
		return tea.Sequence(cmds...)
	}
	return m.startTurn(v)
}

func (m *Model) startTurn(p string) tea.Cmd {
	m.running = true
	send := m.send
	be := m.be
	return tea.Sequence(tea.Println(Wrap("> "+p, m.width)), func() tea.Msg {
		be.Run(context.Background(), p, func(s string) {
			if send != nil {
				send(printMsg(s))
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
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		lines = append(lines, fmt.Sprintf("  %-14s %s", "/"+n, cs[n].Help))
	}
	lines = append(lines, "Keys: Enter sends · Shift+Enter or a trailing \\ adds a line · ↑/↓ history · Esc interrupts a turn · Ctrl+C interrupts, or exits when idle")
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
	return tea.NewView(m.input.View() + "\n" + line)
}

// Wrap wraps s at word boundaries to width (ANSI-aware).
func Wrap(s string, width int) string {
	if width <= 0 {
		return s
	}
	return ansi.Wrap(s, width, "")
}
