package tui_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

type fakeBackend struct {
	prompts    []string
	interrupts int
	last       string
	slowArgs   []string // what the slow command was run with
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
	return map[string]tui.Command{
		"tools": {Help: "the tools", Run: func(string) (string, string) { return "3 tools", "" }},
		"help":  {Help: "a skill called help", Run: func(string) (string, string) { return "", "the skill" }},
		"slow": {Help: "waits for a server", Slow: true, Run: func(args string) (string, string) {
			f.slowArgs = append(f.slowArgs, args)
			if args == "" {
				return "slow needs an argument", ""
			}
			return "", "the prompt for " + args
		}},
	}
}

// runCmd runs cmd and the commands it sequences or batches, returning
// the messages they produce (bubbletea's own messages left out).
func runCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch msg := msg.(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, runCmd(c)...)
		}
		return out
	}
	if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice {
		// tea.Sequence's message is an unexported []Cmd.
		var out []tea.Msg
		for i := range v.Len() {
			if c, ok := v.Index(i).Interface().(tea.Cmd); ok {
				out = append(out, runCmd(c)...)
			}
		}
		return out
	}
	return []tea.Msg{msg}
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
		Expect(key(m, tea.KeyEnter, 0)).NotTo(BeNil())
		Expect(m.Running()).To(BeFalse())
		Expect(be.prompts).To(BeEmpty())
		typeText(m, "/nope")
		key(m, tea.KeyEnter, 0)
		Expect(m.Printed()).To(Equal([]string{"3 tools", "Unknown command /nope; /help lists them."}))
	})

	It("runs a turn on the backend, prints what it sends, and is ready again when it ends", func() {
		var sent []tea.Msg
		m.SetSend(func(msg tea.Msg) { sent = append(sent, msg) })
		typeText(m, "hello")
		cmd := key(m, tea.KeyEnter, 0)
		Expect(m.Running()).To(BeTrue())
		// The command is the echo, then the turn: run them as the program
		// would, feeding the turn's messages back.
		for _, msg := range runCmd(cmd) {
			m.Update(msg)
		}
		for _, msg := range sent {
			m.Update(msg)
		}
		Expect(be.prompts).To(Equal([]string{"hello"}))
		Expect(m.Printed()).To(Equal([]string{"> hello", "answer to hello"}))
		Expect(m.Running()).To(BeFalse())
	})

	It("runs a Slow command off the update loop, then its prompt as a turn echoed as typed", func() {
		var sent []tea.Msg
		m.SetSend(func(msg tea.Msg) { sent = append(sent, msg) })
		typeText(m, "/slow  x y ")
		cmd := key(m, tea.KeyEnter, 0)
		Expect(be.slowArgs).To(BeEmpty(), "Update returns at once; the command runs in its tea.Cmd")
		Expect(m.Running()).To(BeTrue(), "input waits for the command")
		for _, msg := range runCmd(cmd) {
			_, next := m.Update(msg)
			for _, msg := range runCmd(next) {
				m.Update(msg)
			}
		}
		for _, msg := range sent {
			m.Update(msg)
		}
		Expect(be.slowArgs).To(Equal([]string{"x y"}))
		Expect(be.prompts).To(Equal([]string{"the prompt for x y"}))
		Expect(m.Printed()).To(Equal([]string{"> /slow  x y", "answer to the prompt for x y"}))
		Expect(m.Running()).To(BeFalse())

		typeText(m, "/slow")
		for _, msg := range runCmd(key(m, tea.KeyEnter, 0)) {
			_, next := m.Update(msg)
			runCmd(next)
		}
		Expect(m.Running()).To(BeFalse(), "a command that sends nothing leaves the box ready")
		Expect(m.Printed()).To(HaveLen(3))
		Expect(m.Printed()[2]).To(Equal("slow needs an argument"))
		Expect(be.prompts).To(HaveLen(1))
	})

	It("prints the last tool result in full on Ctrl+O, or says there is none", func() {
		key(m, 'o', tea.ModCtrl)
		be.last = "● Bash(seq 3) · in full (Ctrl+O):\n1\n2\n3"
		key(m, 'o', tea.ModCtrl)
		Expect(m.Printed()).To(Equal([]string{"No tool result yet.", be.last}))
	})

	It("skips a skill named like a built-in command in /help", func() {
		typeText(m, "/help")
		key(m, tea.KeyEnter, 0)
		Expect(m.Printed()).To(HaveLen(1))
		Expect(m.Printed()[0]).To(ContainSubstring("/tools         the tools"))
		Expect(strings.Count(m.Printed()[0], "/help")).To(Equal(1))
	})

	It("shows the model, mode, tokens, cost and directory in the status line", func() {
		v := m.View()
		Expect(v.Content).To(ContainSubstring("replay · default · 0 tokens · $0.0000 · /w · ready"))
	})

	It("wraps at word boundaries", func() {
		Expect(tui.Wrap("alpha beta gamma", 11)).To(Equal("alpha beta\ngamma"))
	})

	It("keeps a wrapped line's indentation, under a result's ⎿ and a picker's │", func() {
		Expect(tui.Wrap("  ⎿  Updated greet.txt with 1 addition and 1 removal", 30)).To(Equal(
			"  ⎿  Updated greet.txt with 1\n     addition and 1 removal"))
		Expect(tui.Wrap("  │ Count from 101 to 112 and say so", 20)).To(Equal(
			"  │ Count from 101\n    to 112 and say\n    so"))
		Expect(tui.Wrap("short\n  two words", 8)).To(Equal("short\n  two\n  words"))
		styled := "\x1b[2m  ⎿  Updated greet.txt with 1 addition\x1b[0m"
		Expect(ansi.Strip(tui.Wrap(styled, 30))).To(Equal("  ⎿  Updated greet.txt with 1\n     addition"))
	})

	Describe("Markdown", func() {
		const src = "# Plan\n\nSome **bold**, *slanted* and `code` words in a paragraph long enough to wrap.\n\n" +
			"- one\n- two\n\n1. first\n2. second\n\n> said before\n\n```go\nfunc main() {\n\tprintln(1)\n}\n```\n\n" +
			"| tool | lines |\n|---|---:|\n| Read | 12 |\n| Bash | 3 |\n\nSee [the docs](https://example.com/d)."
		var out, plain string
		BeforeEach(func() {
			out = tui.Markdown(src, 40)
			plain = ansi.Strip(out)
		})

		It("styles the markup and leaves none of its marks", func() {
			Expect(out).To(ContainSubstring("\x1b["), "styled with escape codes")
			Expect(plain).NotTo(ContainSubstring("**"))
			Expect(plain).NotTo(ContainSubstring("`"))
			Expect(plain).To(ContainSubstring("# Plan"))
			Expect(plain).To(ContainSubstring("Some bold, slanted and code words"))
		})

		It("wraps paragraphs at the width", func() {
			for _, line := range strings.Split(plain, "\n") {
				Expect(ansi.StringWidth(line)).To(BeNumerically("<=", 40), "line %q", line)
			}
		})

		It("marks list items, numbers ordered ones and bars quotes", func() {
			Expect(plain).To(ContainSubstring("• one\n• two"))
			Expect(plain).To(ContainSubstring("1. first\n2. second"))
			Expect(plain).To(ContainSubstring("│ said before"))
		})

		It("keeps fenced code as written, indented, its tabs expanded", func() {
			Expect(plain).To(ContainSubstring("  func main() {\n      println(1)\n  }"), "tabs become four spaces")
		})

		It("aligns a table's columns under a rule", func() {
			Expect(plain).To(ContainSubstring("tool │ lines\n─────┼──────\nRead │ 12\nBash │ 3"))
		})

		It("shows a link's address after its text", func() {
			Expect(plain).To(ContainSubstring("the docs (https://example.com/d)"))
		})

		It("falls back to a usable width on a narrow terminal", func() {
			Expect(ansi.Strip(tui.Markdown("word "+strings.Repeat("x", 5), 3))).To(Equal("word xxxxx"))
		})
	})
})
