package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Modal is a picker the session shows in place of the input box while a
// turn waits for the user: a permission prompt, AskUserQuestion's
// questions, a plan's approval. The session hands it every key until it
// is done, then prints its last View above the input box, so the answer
// stays in the transcript.
type Modal interface {
	// HandleKey takes one key and reports whether the picker is done.
	HandleKey(tea.KeyPressMsg) (done bool)
	View() string
}

type (
	modalMsg struct {
		m    Modal
		done chan struct{}
	}
	modalCancel struct{ m Modal }
)

// Show shows md through send (the program's Send) and returns when the
// user is done with it (nil) or ctx ends (ctx.Err(); the picker is taken
// down and its state must not be read). Pickers queue: one shows at a
// time, in the order they came.
func Show(ctx context.Context, send func(tea.Msg), md Modal) error {
	done := make(chan struct{})
	send(modalMsg{m: md, done: done})
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		send(modalCancel{m: md})
		return ctx.Err()
	}
}

// modalKey gives key to the picker on top; a finished picker is printed
// and the next one shows.
func (m *Model) modalKey(key tea.KeyPressMsg) tea.Cmd {
	top := m.modals[0]
	if !top.m.HandleKey(key) {
		return nil
	}
	m.modals = m.modals[1:]
	close(top.done)
	return m.print(top.m.View(), false)
}

// dropModal takes md down without an answer (its turn was interrupted).
func (m *Model) dropModal(md Modal) {
	for i, e := range m.modals {
		if e.m == md {
			m.modals = append(m.modals[:i], m.modals[i+1:]...)
			close(e.done)
			return
		}
	}
}
