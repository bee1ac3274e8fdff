package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/agentcore/agentcore/runtime/ask"
)

// askQuestions shows AskUserQuestion's questions on the terminal as a
// picker, one question after the other: ↑/↓ (or k/j) move, a number picks
// its option, Space toggles one of a multi-select question, Enter picks
// (or submits the toggled ones), the last row "Other" takes the user's own
// words, and Esc or Ctrl+C dismisses the questions (ErrNotAnswered).
func askQuestions(ctx context.Context, in *os.File, out io.Writer, agent string, qs []ask.Question) ([]ask.QuestionAnswer, error) {
	m := &questionPicker{qs: qs, agent: agent, toggled: map[int]bool{}}
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler())
	if _, err := p.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("show the questions: %w", err)
	}
	return m.result()
}

// result is the answers, once the picker is over.
func (m *questionPicker) result() ([]ask.QuestionAnswer, error) {
	if m.dismissed {
		return nil, ask.ErrNotAnswered
	}
	if len(m.answers) != len(m.qs) {
		return nil, errors.New("the question picker ended before every question was answered")
	}
	return m.answers, nil
}

// questionPicker is the bubbletea model of askQuestions.
type questionPicker struct {
	qs      []ask.Question
	agent   string
	q       int          // the question shown
	cursor  int          // the row under the cursor; len(options) is "Other"
	toggled map[int]bool // a multi-select question's toggled rows
	typing  bool         // the user is typing their own answer
	text    []rune
	answers []ask.QuestionAnswer
	// dismissed is set by Esc or Ctrl+C outside typing.
	dismissed bool
}

var (
	pickerHeader = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))
	pickerCursor = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("14"))
	pickerFaint  = lipgloss.NewStyle().Faint(true)
)

func (m *questionPicker) Init() tea.Cmd { return nil }

func (m *questionPicker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	key, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	q := m.qs[m.q]
	other := len(q.Options)
	if m.typing {
		switch key.String() {
		case "ctrl+c":
			m.dismissed = true
			return m, tea.Quit
		case "esc":
			m.typing = false
		case "enter":
			if strings.TrimSpace(string(m.text)) != "" {
				return m, m.answer()
			}
		case "backspace":
			if len(m.text) > 0 {
				m.text = m.text[:len(m.text)-1]
			}
		default:
			if key.Text != "" {
				m.text = append(m.text, []rune(key.Text)...)
			}
		}
		return m, nil
	}
	switch s := key.String(); s {
	case "esc", "ctrl+c", "q":
		m.dismissed = true
		return m, tea.Quit
	case "up", "k":
		m.cursor = (m.cursor + other) % (other + 1)
	case "down", "j", "tab":
		m.cursor = (m.cursor + 1) % (other + 1)
	case "space":
		if q.MultiSelect && m.cursor < other {
			m.toggled[m.cursor] = !m.toggled[m.cursor]
		} else if m.cursor == other {
			m.typing = true
		}
	case "enter":
		return m, m.choose()
	default:
		if len(s) == 1 && s[0] >= '1' && int(s[0]-'0') <= other+1 {
			m.cursor = int(s[0] - '1')
			if q.MultiSelect && m.cursor < other {
				m.toggled[m.cursor] = !m.toggled[m.cursor]
				return m, nil
			}
			return m, m.choose()
		}
	}
	return m, nil
}

// choose acts on Enter (or a number) at the cursor.
func (m *questionPicker) choose() tea.Cmd {
	q := m.qs[m.q]
	if m.cursor == len(q.Options) {
		m.typing = true
		return nil
	}
	if q.MultiSelect && !m.anyToggled() {
		m.toggled[m.cursor] = true
	}
	return m.answer()
}

func (m *questionPicker) anyToggled() bool {
	for _, on := range m.toggled {
		if on {
			return true
		}
	}
	return false
}

// answer records the answer to the question shown and moves to the next
// one, or quits after the last.
func (m *questionPicker) answer() tea.Cmd {
	q := m.qs[m.q]
	var a ask.QuestionAnswer
	for i, o := range q.Options {
		if (q.MultiSelect && m.toggled[i]) || (!q.MultiSelect && !m.typing && i == m.cursor) {
			a.Labels = append(a.Labels, o.Label)
		}
	}
	a.Other = strings.TrimSpace(string(m.text))
	m.answers = append(m.answers, a)
	m.q, m.cursor, m.typing, m.text, m.toggled = m.q+1, 0, false, nil, map[int]bool{}
	if m.q == len(m.qs) {
		return tea.Quit
	}
	return nil
}

func (m *questionPicker) View() tea.View {
	var b strings.Builder
	if m.agent != "" {
		fmt.Fprintf(&b, "%s asks:\n", m.agent)
	}
	// Answered questions stay on screen, one line each.
	for i, a := range m.answers {
		fmt.Fprintf(&b, "%s %s\n  → %s\n", pickerHeader.Render("["+m.qs[i].Header+"]"), m.qs[i].Question, a.String())
	}
	if m.dismissed {
		b.WriteString(pickerFaint.Render("Questions dismissed") + "\n")
	}
	if m.dismissed || m.q >= len(m.qs) {
		return tea.NewView(b.String())
	}
	q := m.qs[m.q]
	count := ""
	if len(m.qs) > 1 {
		count = fmt.Sprintf(" (%d/%d)", m.q+1, len(m.qs))
	}
	fmt.Fprintf(&b, "%s %s%s\n", pickerHeader.Render("["+q.Header+"]"), q.Question, count)
	for i := 0; i <= len(q.Options); i++ {
		label, desc := "Other", "type your own answer"
		if i < len(q.Options) {
			label, desc = q.Options[i].Label, q.Options[i].Description
		}
		if i == len(q.Options) && (m.typing || len(m.text) > 0) {
			label, desc = "Other: "+string(m.text), ""
			if m.typing {
				label += "█"
			}
		}
		box := ""
		if q.MultiSelect && i < len(q.Options) {
			box = "[ ] "
			if m.toggled[i] {
				box = "[x] "
			}
		}
		row := fmt.Sprintf("%d. %s%s", i+1, box, label)
		if i == m.cursor {
			row = pickerCursor.Render("❯ " + row)
		} else {
			row = "  " + row
		}
		b.WriteString(row + "\n")
		if desc != "" {
			b.WriteString("     " + pickerFaint.Render(desc) + "\n")
		}
	}
	help := "↑/↓ move · number or Enter to pick · Esc to dismiss"
	switch {
	case m.typing:
		help = "type your answer · Enter to send · Esc to go back"
	case q.MultiSelect:
		help = "↑/↓ move · Space or number to toggle · Enter to submit · Esc to dismiss"
	}
	b.WriteString(pickerFaint.Render(help) + "\n")
	return tea.NewView(b.String())
}
