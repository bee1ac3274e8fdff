package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/render"
)

// pickPermission shows a permission request as a picker: what the call
// will do (the request's Detail — Edit's diff, Bash's command and
// description, WebFetch's URL), then the choices; ↑/↓ (or k/j) move, a
// number picks, Enter picks the row under the cursor, Esc, n or Ctrl+C
// deny (and the engine tells the model the user declined).
func pickPermission(ctx context.Context, in *os.File, out io.Writer, req ask.AskRequest) (ask.Answer, error) {
	m := newPermissionPicker(req)
	p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler())
	if _, err := p.Run(); err != nil {
		if ctx.Err() != nil {
			return ask.AnswerDeny, ctx.Err()
		}
		return ask.AnswerDeny, fmt.Errorf("show the permission picker: %w", err)
	}
	return m.answer, nil
}

// permissionPicker is the bubbletea model of pickPermission.
type permissionPicker struct {
	req     ask.AskRequest
	labels  []string
	answers []ask.Answer
	cursor  int
	answer  ask.Answer
	done    bool
}

func newPermissionPicker(req ask.AskRequest) *permissionPicker {
	m := &permissionPicker{req: req, labels: []string{"Yes"}, answers: []ask.Answer{ask.AnswerAllowOnce}}
	always := req.AlwaysLabel
	if always == "" && req.Suggestion != "" {
		always = fmt.Sprintf("Yes, and allow %s for this session", req.Suggestion)
	}
	if always != "" {
		m.labels = append(m.labels, always)
		m.answers = append(m.answers, ask.AnswerAllowSession)
	}
	m.labels = append(m.labels, "No, and tell the model what to do differently (Esc)")
	m.answers = append(m.answers, ask.AnswerDeny)
	return m
}

func (m *permissionPicker) Init() tea.Cmd { return nil }

func (m *permissionPicker) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	key, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	n := len(m.labels)
	switch s := key.String(); s {
	case "esc", "ctrl+c", "n":
		return m, m.pick(n - 1)
	case "up", "k", "shift+tab":
		m.cursor = (m.cursor + n - 1) % n
	case "down", "j", "tab":
		m.cursor = (m.cursor + 1) % n
	case "enter":
		return m, m.pick(m.cursor)
	case "y":
		return m, m.pick(0)
	default:
		if len(s) == 1 && s[0] >= '1' && int(s[0]-'0') <= n {
			return m, m.pick(int(s[0] - '1'))
		}
	}
	return m, nil
}

func (m *permissionPicker) pick(i int) tea.Cmd {
	m.cursor, m.answer, m.done = i, m.answers[i], true
	return tea.Quit
}

func (m *permissionPicker) View() tea.View {
	var b strings.Builder
	head := m.req.Tool
	if m.req.Use != "" {
		head += ": " + m.req.Use
	}
	if m.req.Agent != "" {
		head = m.req.Agent + " asks: " + head
	}
	b.WriteString(pickerHeader.Render(head) + "\n")
	if detail := strings.TrimRight(m.req.Detail, "\n"); detail != "" {
		lines := strings.Split(detail, "\n")
		diff := render.IsDiff(lines)
		// Once answered, a diff is left out: the call's result shows it.
		for _, line := range lines {
			if m.done && diff {
				break
			}
			if diff && !strings.HasPrefix(line, "… +") {
				line = render.DiffLine(line)
			}
			b.WriteString("  │ " + line + "\n")
		}
	}
	if m.req.Message != "" {
		b.WriteString(m.req.Message + "\n")
	}
	if m.done {
		b.WriteString("  → " + m.labels[m.cursor] + "\n")
		return tea.NewView(b.String())
	}
	b.WriteString("Do you want to proceed?\n")
	for i, l := range m.labels {
		row := fmt.Sprintf("%d. %s", i+1, l)
		if i == m.cursor {
			row = pickerCursor.Render("❯ " + row)
		} else {
			row = "  " + row
		}
		b.WriteString(row + "\n")
	}
	b.WriteString(pickerFaint.Render("↑/↓ move · number or Enter to pick · Esc to decline") + "\n")
	return tea.NewView(b.String())
}
