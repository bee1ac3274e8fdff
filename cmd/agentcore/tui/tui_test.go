package tui_test

import (
	"context"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

type fakeBackend struct {
	prompts    []string
	interrupts int
	last       string
}

func (f *fakeBackend) Run(_ context.Context, p string, send func(tea.Msg)) {
	f.prompts = append(f.prompts, p)
	send(tui.Print("answer to " + p))
}
func (f *fakeBackend) Interrupt() { f.interrupts++ }
func (f *fakeBackend) Status() tui.Status {
	return tui.Status{Model: "replay", Mode: "default", Cwd: "/w"}
}
func (f *fakeBackend) LastResult() string { return f.last }
func (f *fakeBackend) Commands() map[string]tui.Command {
	return map[string]tui.Command{"tools": {Help: "the tools", Run: func(string) (string, string) { return "3 tools", "" }}}
}

func typeText(m *tui.Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func key(m *tui.Model, code rune, mod tea.KeyMod) tea.Cmd {
	_, cmd := m.Update(tea.KeyPressMsg{Code: code, Mod: mod})
	return cmd
}

var _ = Describe("the session model", func() {
	var (
		be   *fakeBackend
		m    *tui.Model
		path string
	)
	BeforeEach(func() {
		be = &fakeBackend{}
		path = tui.HistoryPath(GinkgoT().TempDir(), "/some/dir")
		m = tui.New(be, tui.LoadHistory(path))
		m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	})

	It("sends a typed prompt on Enter, clears the box and keeps the prompt in the directory's history file", func() {
		typeText(m, "hello")
		Expect(m.Input()).To(Equal("hello"))
		cmd := key(m, tea.KeyEnter, 0)
		Expect(m.Input()).To(BeEmpty())
		Expect(m.Running()).To(BeTrue())
		Expect(cmd).NotTo(BeNil())
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal(`{"prompt":"hello"}` + "\n"))
		Expect(filepath.Base(path)).To(Equal("-some-dir.jsonl"))
		Expect(tui.LoadHistory(path).Entries()).To(Equal([]string{"hello"}))
	})

	It("recalls the previous prompt with ↑ and the draft with ↓", func() {
		m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		key(m, tea.KeyEnter, 0)
		m = tui.New(be, tui.LoadHistory(path)) // a new session in the same directory
		typeText(m, "dra")
		key(m, tea.KeyUp, 0)
		Expect(m.Input()).To(Equal("x"))
		key(m, tea.KeyDown, 0)
		Expect(m.Input()).To(Equal("dra"))
	})

	It("adds a line on Shift+Enter and on a trailing backslash instead of sending", func() {
		typeText(m, "a")
		key(m, tea.KeyEnter, tea.ModShift)
		typeText(m, "b\\")
		key(m, tea.KeyEnter, 0)
		typeText(m, "c")
		Expect(m.Input()).To(Equal("a\nb\nc"))
		Expect(m.Running()).To(BeFalse())
	})

	It("interrupts a running turn on Esc, and does nothing on Esc when idle", func() {
		key(m, tea.KeyEscape, 0)
		Expect(be.interrupts).To(Equal(0))
		typeText(m, "slow")
		key(m, tea.KeyEnter, 0)
		key(m, tea.KeyEscape, 0)
		Expect(be.interrupts).To(Equal(1))
	})

	It("inserts pasted text as it is", func() {
		m.Update(tea.PasteMsg{Content: "one\ntwo"})
		Expect(m.Input()).To(Equal("one\ntwo"))
	})

	It("answers /tools from the backend without a turn, and names an unknown command", func() {
		typeText(m, "/tools")
		cmd := key(m, tea.KeyEnter, 0)
		Expect(cmd).NotTo(BeNil())
		Expect(m.Running()).To(BeFalse())
		Expect(be.prompts).To(BeEmpty())
	})

	It("shows the model, mode, tokens, cost and directory in the status line", func() {
		v := m.View()
		Expect(v.Content).To(ContainSubstring("replay · default · 0 tokens · $0.0000 · /w · ready"))
	})

	It("wraps at word boundaries", func() {
		Expect(tui.Wrap("alpha beta gamma", 11)).To(Equal("alpha beta\ngamma"))
	})
})
