package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/transcript"

	"github.com/agentcore/agentcore/runtime/skills"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

// tuiBackend is the interactive session's view of the agent session.
type tuiBackend struct {
	mu     sync.Mutex
	status tui.Status
	last   string // the last tool result in full, for Ctrl+O
	run    func(ctx context.Context, p string, w io.Writer, markdown func(string)) (tokens int, cost float64)
	intr   func()
	cmds   map[string]tui.Command
	skills func() map[string]tui.Command
	// prompts are the MCP servers' prompts as commands, listed anew each
	// time (a server may connect, or change its prompts, mid-session).
	prompts func() map[string]tui.Command
	mode    func() string // the permission mode in force
	// pick shows a picker in the input box's place and send prints; both
	// set by runTUI.
	pick func(qs []ask.Question) ([]ask.QuestionAnswer, error)
	send func(tea.Msg)
}

func (b *tuiBackend) Run(ctx context.Context, p string, send func(tea.Msg)) {
	lw := &lineWriter{print: func(s string) { send(tui.Print(s)) }}
	tok, cost := b.run(ctx, p, lw, func(md string) {
		lw.flush() // what came before the text block is printed first
		send(tui.PrintMarkdown(md))
	})
	lw.flush()
	b.mu.Lock()
	b.status.Tokens += tok
	b.status.Cost += cost
	b.mu.Unlock()
}
func (b *tuiBackend) Interrupt() { b.intr() }

// Status is the status line's content; the permission mode is the one in
// force now (an approved plan changes it mid-session).
func (b *tuiBackend) Status() tui.Status {
	b.mu.Lock()
	st := b.status
	b.mu.Unlock()
	if b.mode != nil {
		st.Mode = b.mode()
	}
	return st
}

// Commands are the session's commands and, under their own names, the
// skills installed now and the MCP servers' prompts
// (/mcp__server__prompt); a name already taken is left out.
func (b *tuiBackend) Commands() map[string]tui.Command {
	if b.skills == nil && b.prompts == nil {
		return b.cmds
	}
	out := maps.Clone(b.cmds)
	for _, more := range []func() map[string]tui.Command{b.skills, b.prompts} {
		if more == nil {
			continue
		}
		for name, c := range more() {
			if _, taken := out[name]; !taken {
				out[name] = c
			}
		}
	}
	return out
}

func (b *tuiBackend) LastResult() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

// keepResult keeps a tool result of the main conversation in full for
// Ctrl+O: its call's use line, then the text the model got.
func (b *tuiBackend) keepResult(ev agent.Event) {
	if ev.Kind != agent.EventToolResult || ev.ParentToolUseID != "" || ev.Call == nil {
		return
	}
	head := ev.Name
	if ev.Invocation != nil && ev.Invocation.Use != "" {
		head += "(" + ev.Invocation.Use + ")"
	}
	text := strings.TrimRight(ev.Call.Result.Text(), "\n")
	if text == "" {
		text = "(no output)"
	}
	b.mu.Lock()
	b.last = "● " + head + " · in full (Ctrl+O):\n" + text
	b.mu.Unlock()
}

// lineWriter hands complete lines of the transcript to print.
type lineWriter struct {
	mu    sync.Mutex
	buf   []byte
	print func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if i := strings.LastIndexByte(string(w.buf), '\n'); i >= 0 {
		w.print(string(w.buf[:i]))
		w.buf = append([]byte(nil), w.buf[i+1:]...)
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.print(string(w.buf))
		w.buf = nil
	}
}

// runTUI runs the interactive session until /exit, Ctrl+D or Ctrl+C when
// idle. It sets the asker's show, so the pickers (permission prompts,
// questions, plan approval) take the input box's place, and release, so
// a plain prompt (an MCP server's form) can have the terminal.
func runTUI(ctx context.Context, be *tuiBackend, cwd string, asker *pausingAsker) error {
	home, _ := os.UserHomeDir()
	hist := tui.LoadHistory(tui.HistoryPath(home, cwd))
	m := tui.New(be, hist)
	p := tea.NewProgram(m, tea.WithContext(ctx))
	m.SetSend(p.Send)
	asker.show = func(ctx context.Context, md tui.Modal) error { return tui.Show(ctx, p.Send, md) }
	be.send = p.Send
	be.pick = func(qs []ask.Question) ([]ask.QuestionAnswer, error) {
		m := &questionPicker{qs: qs, toggled: map[int]bool{}}
		if err := tui.Show(context.Background(), p.Send, pickerModal{m: m, done: func() bool { return m.dismissed || m.q >= len(m.qs) }}); err != nil {
			return nil, err
		}
		return m.result()
	}
	asker.release = func() func() {
		_ = p.ReleaseTerminal()
		return func() { _ = p.RestoreTerminal() }
	}
	_, err := p.Run()
	if err != nil {
		return fmt.Errorf("interactive session: %w", err)
	}
	return nil
}

// pickerModal shows a picker (a bubbletea model whose Update ends it with
// tea.Quit) inside the interactive session; done says when it is over.
type pickerModal struct {
	m    tea.Model
	done func() bool
}

func (p pickerModal) HandleKey(k tea.KeyPressMsg) bool {
	p.m.Update(k)
	return p.done()
}

func (p pickerModal) View() string { return strings.TrimRight(p.m.View().Content, "\n") }

// newTUIBackend connects the interactive session to sess.
// switchModel makes spec (a --model value; "default" is the one the
// session started with) the model of the next request and returns its
// name.
func newTUIBackend(sess *session.Session, prov provider.Provider, cwd string, engine *permission.Engine, begin func() (end func()), opts render.Options,
	switchModel func(spec string) (string, error)) *tuiBackend {
	model := strings.TrimPrefix(prov.Name(), "anthropic:")
	b := &tuiBackend{status: tui.Status{Model: model, Mode: string(engine.Mode()), Cwd: cwd}, intr: sess.Interrupt}
	b.run = func(ctx context.Context, p string, w io.Writer, markdown func(string)) (int, float64) {
		defer begin()()
		o := opts
		o.Live = false // the input box owns the bottom of the screen
		o.Markdown = markdown
		r := render.New(w, o)
		var out *agent.Outcome
		for ev := range sess.Run(ctx, p) {
			r.Observe(ev)
			b.keepResult(ev)
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		r.Close()
		if out == nil {
			return 0, 0
		}
		u := out.Usage
		return int(u.InputTokens + u.OutputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens), provider.Cost(b.Status().Model, u)
	}
	b.cmds = map[string]tui.Command{
		"tools": {Help: "the tools the model can call", Run: func(string) (string, string) {
			var names []string
			for _, t := range sess.Definitions() {
				names = append(names, t.Name())
			}
			return fmt.Sprintf("%d tools: %s", len(names), strings.Join(names, ", ")), ""
		}},
		"mcp": {Help: "MCP servers, their state and their prompts", Run: func(string) (string, string) {
			return mcpStatus(sess.MCP()), ""
		}},
		"permissions": {Help: "the permission rules in force and where each comes from", Run: func(string) (string, string) {
			rs := engine.Rules()
			lines := []string{"Mode: " + string(engine.Mode())}
			for _, r := range rs {
				from := fmt.Sprint(r.Source)
				if r.Origin != "" {
					from += " " + r.Origin
				}
				lines = append(lines, fmt.Sprintf("  %s %s  (%s)", r.Behavior, r, from))
			}
			if len(rs) == 0 {
				lines = append(lines, "  no rules")
			}
			return strings.Join(lines, "\n"), ""
		}},
		"model": {Help: "show the model; /model NAME switches to NAME (a --model value) from the next request, /model default back", Run: func(args string) (string, string) {
			if args == "" {
				return "Model: " + b.Status().Model, ""
			}
			name, err := switchModel(args)
			if err != nil {
				return "The model stays " + b.Status().Model + ": " + err.Error(), ""
			}
			b.mu.Lock()
			b.status.Model = name
			b.mu.Unlock()
			return "Model: " + name + " from the next request", ""
		}},
		"rewind":  rewindCommand(sess),
		"compact": compactCommand(sess),
		"resume": {Help: "list this directory's earlier sessions; /resume ID switches to one", Run: func(args string) (string, string) {
			if args != "" {
				return resumeStored(sess, args), ""
			}
			home, _ := os.UserHomeDir()
			list, err := transcriptStore(home).List(cwd)
			if err != nil {
				return "Cannot list the earlier sessions: " + err.Error(), ""
			}
			var lines []string
			for _, in := range list {
				if in.ID == sess.ID() {
					continue
				}
				lines = append(lines, fmt.Sprintf("  %s  %s  %s", in.ID, in.ModTime.Format("2006-01-02 15:04"), in.Prompt))
				if len(lines) == 10 {
					break
				}
			}
			if len(lines) == 0 {
				return "No earlier sessions in this directory.", ""
			}
			if b.pick != nil {
				go b.pickSession(sess, list)
				return "Pick the session to resume (Esc keeps this one), or type /resume ID.", ""
			}
			return "Earlier sessions, the latest first; switch to one with /resume ID (or start with agentcore --resume ID):\n" + strings.Join(lines, "\n"), ""
		}},
	}
	b.skills = func() map[string]tui.Command { return skillCommands(sess) }
	b.prompts = func() map[string]tui.Command { return promptCommands(sess.MCP()) }
	b.mode = func() string { return string(engine.Mode()) }
	return b
}

// skillCommands are the skills of sess's directory and user as slash
// commands: /NAME ARGS sends the skill's instructions (with ARGS) as the
// prompt, and the tools it allows need no approval during that turn.
func skillCommands(sess *session.Session) map[string]tui.Command {
	found, _ := skills.Load(sess.Dir(), sess.Home())
	cmds := make(map[string]tui.Command, len(found))
	for _, s := range found {
		help := "skill: " + s.Description
		if s.Description == "" {
			help = "skill " + s.Name
		}
		cmds[s.Name] = tui.Command{Help: help, Run: func(args string) (string, string) {
			ss, err := skills.SessionOf(sess.ToolContext(), skillTool)
			if err != nil {
				return err.Error(), ""
			}
			_, text, err := ss.Invoke(s.Name, args)
			if err != nil {
				return err.Error(), ""
			}
			return "", text
		}}
	}
	return cmds
}

// resumeMessages is how many of the resumed conversation's last messages
// /resume ID prints.
const resumeMessages = 4

// resumeStored switches sess to the stored session id, as --resume id
// would, and says so with the conversation's last few messages.
func resumeStored(sess *session.Session, id string) string {
	msgs, err := sess.ResumeStored(strings.TrimSpace(id))
	if err != nil {
		return "Cannot resume " + id + ": " + err.Error()
	}
	var lines []string
	for _, m := range msgs {
		if l := messageLine(m); l != "" {
			lines = append(lines, l)
		}
	}
	head := fmt.Sprintf("Resumed session %s (%d messages); the next prompt continues it.", sess.ID(), len(msgs))
	if len(lines) > resumeMessages {
		head += fmt.Sprintf("\n  … %d earlier", len(lines)-resumeMessages)
		lines = lines[len(lines)-resumeMessages:]
	}
	if len(lines) == 0 {
		return head
	}
	return head + "\n" + strings.Join(lines, "\n")
}

// messageLine is one message on one line: "> " and the user's words, "● "
// and the model's, or its tool calls by name; "" for a message of tool
// results only.
func messageLine(m provider.Message) string {
	var text, tools []string
	for _, b := range m.Content {
		switch b.Type {
		case provider.TextBlock:
			if t := strings.TrimSpace(b.Text); t != "" {
				text = append(text, t)
			}
		case provider.ToolUseBlock:
			tools = append(tools, b.Name)
		}
	}
	s := strings.Join(text, " ")
	if len(tools) > 0 {
		if s != "" {
			s += " "
		}
		s += "[" + strings.Join(tools, ", ") + "]"
	}
	if s == "" {
		return ""
	}
	s = oneLine(s, 100)
	if m.Role == provider.User {
		return "  > " + s
	}
	return "  ● " + s
}

// oneLine is s on one line, cut to n characters with "…".
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// pickSessions is how many earlier sessions the /resume picker offers.
const pickSessions = 4

// pickSession offers the directory's latest earlier sessions in a picker
// and resumes the one picked ("Other" takes a typed ID).
func (b *tuiBackend) pickSession(sess *session.Session, list []transcript.Info) {
	q := ask.Question{Header: "Resume", Question: "Which session should this one become?"}
	for _, in := range list {
		if in.ID == sess.ID() {
			continue
		}
		q.Options = append(q.Options, ask.QuestionOption{Label: in.ID, Description: in.ModTime.Format("2006-01-02 15:04") + "  " + oneLine(in.Prompt, 60)})
		if len(q.Options) == pickSessions {
			break
		}
	}
	answers, err := b.pick([]ask.Question{q})
	if err != nil || len(answers) == 0 {
		b.send(tui.Print("Kept this session."))
		return
	}
	id := answers[0].Other
	if len(answers[0].Labels) > 0 {
		id = answers[0].Labels[0]
	}
	b.send(tui.Print(resumeStored(sess, id)))
}

// mcpStatus is /mcp's answer: each server, its state and tools, and the
// slash commands of its prompts.
func mcpStatus(m *mcp.Manager) string {
	ss := m.Servers()
	if len(ss) == 0 {
		return "No MCP servers configured."
	}
	byServer := map[string][]mcp.Prompt{}
	for _, p := range m.Prompts() {
		byServer[p.Server] = append(byServer[p.Server], p)
	}
	var lines []string
	for _, st := range ss {
		l := fmt.Sprintf("  %s (%s): %s, %d tools", st.Name, st.Transport, st.State, st.Tools)
		if st.Prompts > 0 {
			l += fmt.Sprintf(", %d prompts", st.Prompts)
		}
		if st.Err != nil {
			l += " — " + st.Err.Error()
		}
		lines = append(lines, l)
		if st.PromptErr != nil {
			lines = append(lines, "    its prompts could not be listed: "+st.PromptErr.Error())
		}
		for _, p := range byServer[st.Name] {
			pl := "    " + p.Usage()
			if p.Description != "" {
				pl += "  " + p.Description
			}
			lines = append(lines, pl)
		}
	}
	return "MCP servers:\n" + strings.Join(lines, "\n")
}

// promptTimeout bounds one MCP prompt's prompts/get, connecting included.
const promptTimeout = 60 * time.Second

// promptCommands are the connected MCP servers' prompts as slash commands,
// as in Claude Code: /mcp__server__prompt ARGS maps ARGS' words onto the
// prompt's arguments in order, gets the prompt (prompts/get) and sends
// its messages' text as the turn's prompt.
func promptCommands(m *mcp.Manager) map[string]tui.Command {
	prompts := m.Prompts()
	cmds := make(map[string]tui.Command, len(prompts))
	for _, p := range prompts {
		// "MCP prompt (server) name [style]: what it does"
		help := "MCP prompt (" + p.Server + ")" + strings.TrimPrefix(p.Usage(), "/"+p.CommandName())
		if p.Description != "" {
			help += ": " + p.Description
		}
		cmds[p.CommandName()] = tui.Command{Help: help, Slow: true, Run: func(line string) (string, string) {
			args, err := p.ParseArgs(line)
			if err != nil {
				return err.Error(), ""
			}
			ctx, cancel := context.WithTimeout(context.Background(), promptTimeout)
			defer cancel()
			msgs, err := m.GetPrompt(ctx, p.Server, p.Name, args)
			if err != nil {
				return "/" + p.CommandName() + ": " + err.Error(), ""
			}
			return "", mcp.PromptText(msgs)
		}}
	}
	return cmds
}
