// Package cli is agentcore-durable's commands, importable so that tests
// run them in processes of their own.
package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"

	"github.com/agentcore/agentcore/generated"
	durable "github.com/agentcore/agentcore/runtime/durable/temporal"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

const usage = `usage:
  agentcore-durable worker --temporal HOST:PORT --task-queue Q [--workspace NAME] [--state DIR] [--model replay:FILE|anthropic[:MODEL]] [--permission-mode MODE]
  agentcore-durable run --temporal HOST:PORT --task-queue Q [--id ID] [--dir DIR] [--max-turns N] [--keep-open] [--resume ID] [--output-format text|stream-json] PROMPT`

// Run runs the command line args (without the program name).
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	switch args[0] {
	case "worker":
		return workerCmd(args[1:], stderr)
	case "run":
		return runCmd(args[1:], stdin, stdout, stderr)
	}
	return fmt.Errorf("unknown command %q\n%s", args[0], usage)
}

// dial connects to the Temporal frontend, logging to stderr at warn.
func dial(hostPort, namespace string, stderr io.Writer, level slog.Level) (client.Client, error) {
	l := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	c, err := client.Dial(client.Options{HostPort: hostPort, Namespace: namespace, Logger: tlog.NewStructuredLogger(l)})
	if err != nil {
		return nil, fmt.Errorf("connect to Temporal at %s: %w (is the server up? start one with `temporal server start-dev`)", hostPort, err)
	}
	return c, nil
}

// model builds the worker's provider from its flag.
func model(spec string) (provider.Provider, error) {
	name, arg, _ := strings.Cut(spec, ":")
	switch name {
	case "replay":
		if arg == "" {
			return durable.NewScript(replay.Default(), replay.Options{}), nil
		}
		sc, err := replay.Load(arg)
		if err != nil {
			return nil, err
		}
		return durable.NewScript(sc, replay.Options{}), nil
	case "anthropic":
		// The CLI reads the environment; the provider does not.
		return anthropic.NewWithOptions(anthropic.Options{Model: cmp.Or(arg, os.Getenv("ANTHROPIC_MODEL")),
			AuthToken: os.Getenv("ANTHROPIC_AUTH_TOKEN")}), nil
	}
	return nil, fmt.Errorf("--model %q: want replay:FILE or anthropic[:MODEL]", spec)
}

func workerCmd(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hostPort := fs.String("temporal", "localhost:7233", "Temporal frontend HOST:PORT")
	ns := fs.String("namespace", "default", "Temporal namespace")
	queue := fs.String("task-queue", "agentcore", "shared task queue")
	ws := fs.String("workspace", "", "name of this worker's disk (default: the host name); a restarted worker on the same disk must reuse it")
	state := fs.String("state", "", "state directory (journals, session working directories)")
	spec := fs.String("model", "anthropic", "model: replay:FILE or anthropic[:MODEL]")
	mode := fs.String("permission-mode", "default", "permission mode: default, acceptEdits, plan, bypassPermissions, dontAsk")
	settings := fs.Bool("settings", true, "read the user's and the project's settings files")
	if err := fs.Parse(args); err != nil {
		return err
	}
	p, err := model(*spec)
	if err != nil {
		return err
	}
	c, err := dial(*hostPort, *ns, stderr, slog.LevelWarn)
	if err != nil {
		return err
	}
	defer c.Close()
	log := slog.New(slog.NewTextHandler(stderr, nil))
	w, err := durable.NewWorker(c, durable.WorkerOptions{TaskQueue: *queue, Workspace: *ws, StateDir: *state,
		Tools: generated.AllBaseTools(), Provider: p, Logger: log,
		Permissions: permission.Sources{Mode: permission.Mode(*mode), SettingsFiles: *settings}})
	if err != nil {
		return err
	}
	if err := w.Start(); err != nil {
		return err
	}
	log.Info("worker started", "pid", os.Getpid(), "task_queue", *queue, "workspace_queue", w.Queue())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	log.Info("worker stopping")
	w.Stop()
	return nil
}

func runCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hostPort := fs.String("temporal", "localhost:7233", "Temporal frontend HOST:PORT")
	ns := fs.String("namespace", "default", "Temporal namespace")
	queue := fs.String("task-queue", "agentcore", "the workers' shared task queue")
	id := fs.String("id", "", "session id (the workflow id); default: a new one")
	resume := fs.String("resume", "", "send the prompt to this session (kept open) instead of starting one")
	dir := fs.String("dir", "", "working directory on the worker that opens the session")
	maxTurns := fs.Int("max-turns", 0, "cap on model requests per prompt")
	keep := fs.Bool("keep-open", false, "keep the session open for more prompts (--resume)")
	format := fs.String("output-format", "text", "text or stream-json")
	if err := fs.Parse(args); err != nil {
		return err
	}
	prompt := strings.Join(fs.Args(), " ")
	if prompt == "" {
		return errors.New("run: no prompt given\n" + usage)
	}
	if *format != "text" && *format != "stream-json" {
		return fmt.Errorf("--output-format %q: want text or stream-json", *format)
	}
	c, err := dial(*hostPort, *ns, stderr, slog.LevelWarn)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sid := *id
	if *resume != "" {
		sid = *resume
		if err := durable.Prompt(ctx, c, sid, prompt); err != nil {
			return err
		}
	} else {
		if sid == "" {
			sid = fmt.Sprintf("agentcore-%d", time.Now().UnixNano())
		}
		if _, err := durable.Start(ctx, c, sid, prompt, durable.Options{TaskQueue: *queue, Dir: *dir, MaxTurns: *maxTurns, KeepOpen: *keep}); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "session %s\n", sid)
	return follow(ctx, c, sid, *format, bufio.NewReader(stdin), stdout, stderr, *resume != "")
}

// follow prints the session's new events until its result line, asking
// for permissions as they come; the first Ctrl-C interrupts the session,
// the second aborts its calls, the third leaves it running.
func follow(ctx context.Context, c client.Client, id, format string, in *bufio.Reader, stdout, stderr io.Writer, resumed bool) error {
	bg := context.Background()
	seen, results, interrupts := 0, 0, 0
	if resumed {
		if lines, err := durable.Events(bg, c, id); err == nil {
			seen = len(lines)
			for _, l := range lines {
				if strings.Contains(l, `"type":"result"`) {
					results++
				}
			}
		}
	}
	asked := map[string]bool{}
	for {
		if ctx.Err() != nil {
			interrupts++
			if interrupts > 2 {
				return nil
			}
			msg := "interrupting the session: calls that block on interrupt (Bash) finish; Ctrl-C again stops them"
			if interrupts == 2 {
				msg = "stopping every call; Ctrl-C again leaves the session running"
			}
			fmt.Fprintln(stderr, msg)
			if err := durable.Interrupt(bg, c, id); err != nil {
				return err
			}
			ctx, _ = signal.NotifyContext(context.Background(), os.Interrupt)
		}
		lines, err := durable.Events(bg, c, id)
		if err != nil {
			return err
		}
		for _, l := range lines[min(seen, len(lines)):] {
			var ev struct {
				Type    string            `json:"type"`
				Subtype string            `json:"subtype"`
				Message *provider.Message `json:"message"`
				Result  string            `json:"result"`
				Pending []durable.Ask     `json:"pending"`
				Stop    string            `json:"stop_reason"`
			}
			_ = json.Unmarshal([]byte(l), &ev)
			if format == "stream-json" {
				fmt.Fprintln(stdout, l)
			} else {
				printText(stdout, ev.Type, ev.Message, ev.Result, ev.Stop)
			}
			if ev.Type == "result" {
				results++
			}
		}
		seen = len(lines)
		if results > 0 && (!resumed || results > 1) {
			return nil
		}
		asks, err := durable.Pending(bg, c, id)
		if err != nil {
			return err
		}
		for _, a := range asks {
			if asked[a.ToolUseID] {
				continue
			}
			asked[a.ToolUseID] = true
			fmt.Fprintf(stderr, "%s wants to run %s: %s\n%s\nAllow? [y/N] ", a.ToolName, a.Use, a.Message, a.Detail)
			line, _ := in.ReadString('\n')
			ans := durable.Answer{ToolUseID: a.ToolUseID, Behavior: "deny", Message: "The user said no."}
			if strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "y") {
				ans = durable.Answer{ToolUseID: a.ToolUseID, Behavior: "allow"}
			}
			if err := durable.Reply(bg, c, id, ans); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// printText prints one event as plain text.
func printText(w io.Writer, typ string, m *provider.Message, result, stop string) {
	switch {
	case typ == "result":
		fmt.Fprintf(w, "\n[%s]\n", stop)
	case m == nil:
	default:
		for _, b := range m.Content {
			switch b.Type {
			case provider.TextBlock:
				if m.Role == provider.Assistant || strings.HasPrefix(b.Text, "[") {
					fmt.Fprintln(w, b.Text)
				} else {
					fmt.Fprintln(w, "> "+b.Text)
				}
			case provider.ToolUseBlock:
				fmt.Fprintf(w, "● %s(%s)\n", b.Name, b.Input)
			case provider.ToolResultBlock:
				var sb strings.Builder
				for _, c := range b.Content {
					sb.WriteString(c.Text)
				}
				text := strings.TrimSpace(sb.String())
				if n := strings.IndexByte(text, '\n'); n >= 0 {
					text = text[:n] + " …"
				}
				mark := "⎿"
				if b.IsError {
					mark = "⎿ error:"
				}
				fmt.Fprintf(w, "  %s %s\n", mark, text)
			}
		}
	}
}
