package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/sdkproto"
	"github.com/agentcore/agentcore/runtime/session"
)

// The four modes of agentcore run, one function each, each returning
// the exit code: print (one prompt, then exit), the Agent SDK's
// stream-json conversation, the interactive session on a terminal, and
// the plain transcript with prompts read line by line. None of them
// exits the process: run closes the session and main exits.

// exitInterrupted is the exit code after Ctrl+C (128 + SIGINT, as a
// shell reports it).
const exitInterrupted = 130

// runSession is what the modes share: the open session, its renderer,
// and what Ctrl+C has done.
type runSession struct {
	f    *runFlags
	ctx  context.Context
	sess *session.Session
	r    *render.Renderer
	opts render.Options
	intr *interrupts

	stdout, stderr io.Writer
	in             *bufio.Reader
	cwd            string
	// prov is the session's model (the recorder when --record is set);
	// current is the switchable model under it.
	prov     provider.Provider
	current  *switchable
	recorder *replay.Recorder
	control  *sdkproto.Channel // the Agent SDK host, in stream-json input
	// hostAgents are the SDK host's agent types (its initialize's).
	hostAgents agents.HostTypes
	asker      *pausingAsker // the terminal's, when it asks
	// printAnswer: print mode's text format, the answer alone on stdout.
	printAnswer bool
}

// fail says err on stderr and returns the exit code 1.
func (s *runSession) fail(err error) int {
	fmt.Fprintln(s.stderr, "agentcore:", err)
	return 1
}

// runPrint runs one prompt (-p, the scenario's or standard input's):
// 0 when the model finished, 1 on an error or at --max-turns, 130 when
// Ctrl+C interrupted it. In print mode's text format only the answer
// goes to stdout.
func (s *runSession) runPrint(prompt string) int {
	out := s.turn(prompt, true)
	if out == nil || out.Stop == agent.StopInterrupted || s.ctx.Err() != nil {
		return exitInterrupted
	}
	if s.recorder != nil {
		if err := s.recorder.Err(); err != nil {
			return s.fail(err)
		}
	}
	switch {
	case s.printAnswer && out.StructuredOutput != nil:
		// --json-schema: the answer is the structured output.
		s.r.Close()
		fmt.Fprintln(s.stdout, string(out.StructuredOutput))
	case s.printAnswer && out.Text != "" && s.f.jsonSchema == "":
		s.r.Close()
		fmt.Fprintln(s.stdout, strings.TrimRight(out.Text, "\n"))
	}
	if err := outcomeErr(out, s.f.maxTurns); err != nil {
		return s.fail(err)
	}
	return 0
}

// runSDK runs the Agent SDK host's prompts (user messages on stdin) one
// after another until stdin ends: 0, or 130 after Ctrl+C.
func (s *runSession) runSDK() int {
	for p := range s.control.Prompts() {
		if s.turn(p, false) == nil || s.ctx.Err() != nil {
			return exitInterrupted
		}
	}
	if s.intr.quitting() {
		return exitInterrupted
	}
	return 0
}

// runInteractive is the session on a terminal that takes styles: the
// input box, the pickers, the slash commands (session_tui.go).
func (s *runSession) runInteractive() int {
	switchModel := func(spec string) (string, error) {
		if spec == "default" {
			spec = s.f.model
		}
		p, _, err := modelSpec(spec)
		if err != nil {
			return "", err
		}
		s.current.set(p)
		return strings.TrimPrefix(p.Name(), "anthropic:"), nil
	}
	be := newTUIBackend(s.sess, s.prov, s.cwd, s.sess.Engine(), s.intr.begin, s.opts, switchModel)
	err := runTUI(s.ctx, be, s.cwd, s.asker)
	// The user left the terminal: the SessionEnd hooks' reason, as in
	// Claude Code.
	s.sess.SetExitReason("prompt_input_exit")
	switch {
	case s.intr.quitting() || errors.Is(err, tea.ErrInterrupted):
		return exitInterrupted
	case err != nil:
		return s.fail(err)
	}
	return 0
}

// runPlain asks for prompts on the terminal one after another and shows
// the plain transcript, until an empty line or Ctrl+D (0), or Ctrl+C
// between turns (130).
func (s *runSession) runPlain() int {
	s.r.Notice(fmt.Sprintf("agentcore · %s · %d tools · Ctrl+C interrupts, an empty line or Ctrl+D ends", s.prov.Name(), len(s.sess.Tools())))
	type read struct {
		line string
		err  error
	}
	for {
		fmt.Fprint(os.Stderr, "> ")
		// The line is read aside so that Ctrl+C, which ends the context,
		// need not wait for it.
		ch := make(chan read, 1)
		go func() {
			line, err := s.in.ReadString('\n')
			ch <- read{line, err}
		}()
		var got read
		select {
		case got = <-ch:
		case <-s.ctx.Done():
			return exitInterrupted
		}
		line := strings.TrimSpace(got.line)
		if line == "" {
			if got.err != nil && got.err != io.EOF {
				return s.fail(fmt.Errorf("read prompt: %w", got.err))
			}
			return 0
		}
		// The terminal shows what was typed; scripts get it as an event.
		out := s.turn(line, s.opts.Format != render.Text)
		if out == nil || s.ctx.Err() != nil {
			return exitInterrupted
		}
		if out.Stop == agent.StopError {
			s.r.Notice("the request failed: " + out.Err.Error())
		}
	}
}

// turn runs one prompt and renders its events, and returns how the run
// ended. It returns nil when Ctrl+C aborted the session and the run did
// not end within abandonAfter: the mode then returns without it.
func (s *runSession) turn(p string, echo bool) *agent.Outcome {
	// The turn is over for Ctrl+C once its result is out: a press after
	// it exits rather than interrupting a turn that has ended.
	end := sync.OnceFunc(s.intr.begin())
	defer end()
	if echo {
		s.r.Prompt(p)
	}
	var (
		mu        sync.Mutex
		abandoned bool
	)
	done := make(chan *agent.Outcome, 1)
	go func() {
		var out *agent.Outcome
		for ev := range s.sess.Run(s.ctx, p) {
			if ev.Kind == agent.EventDone && ev.ParentToolUseID == "" {
				end()
			}
			mu.Lock()
			if !abandoned {
				s.r.Observe(ev)
			}
			mu.Unlock()
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		done <- out
	}()
	select {
	case out := <-done:
		return out
	case <-s.intr.abandon:
		mu.Lock()
		abandoned = true
		mu.Unlock()
		return nil
	}
}

// abandonAfter is how long a run aborted by a second Ctrl+C has to end
// (its calls killed, their results reported) before agentcore stops
// waiting for it.
const abandonAfter = 3 * time.Second

// interrupts turns Ctrl+C into steps. While a turn runs, the first press
// interrupts it (the model stops, calls that can be cancelled stop, the
// others finish) and the second aborts the session's context (running
// commands are killed). A press with no turn running, and the second
// press, make the mode return exitInterrupted: the process then exits
// through run's deferred Close, which stops the MCP servers and syncs
// the transcript.
type interrupts struct {
	cancel  context.CancelFunc
	sigs    chan os.Signal
	done    chan struct{}
	abandon chan struct{} // closed abandonAfter after the abort

	mu        sync.Mutex
	running   bool
	presses   int // during this turn
	quit      bool
	interrupt func()       // the session's Interrupt, once attached
	notice    func(string) // tells the user, once attached
}

// watchInterrupts starts watching Ctrl+C; cancel ends the session's
// context.
func watchInterrupts(cancel context.CancelFunc) *interrupts {
	in := &interrupts{cancel: cancel, sigs: make(chan os.Signal, 2), done: make(chan struct{}), abandon: make(chan struct{})}
	signal.Notify(in.sigs, os.Interrupt)
	go func() {
		for {
			select {
			case <-in.done:
				return
			case <-in.sigs:
				in.press()
			}
		}
	}()
	return in
}

// attach gives Ctrl+C the open session's Interrupt and a way to tell the
// user.
func (in *interrupts) attach(interrupt func(), notice func(string)) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.interrupt, in.notice = interrupt, notice
}

// press is one Ctrl+C.
func (in *interrupts) press() {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.presses++
	switch {
	case !in.running || in.interrupt == nil:
		in.quit = true
		in.cancel()
	case in.presses == 1:
		in.interrupt()
		// Not inline: a permission prompt may hold the terminal.
		go in.notice("⏹ Interrupting: cancellable calls stop, the others finish. Ctrl+C again to exit.")
	case in.presses == 2:
		in.quit = true
		in.cancel()
		time.AfterFunc(abandonAfter, func() { close(in.abandon) })
	}
}

// begin marks a turn running until the returned function is called.
func (in *interrupts) begin() (end func()) {
	in.mu.Lock()
	in.running, in.presses = true, 0
	in.mu.Unlock()
	return func() {
		in.mu.Lock()
		in.running = false
		in.mu.Unlock()
	}
}

// quitting reports whether Ctrl+C asked agentcore to exit.
func (in *interrupts) quitting() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.quit
}

// stop stops watching.
func (in *interrupts) stop() {
	signal.Stop(in.sigs)
	close(in.done)
}
