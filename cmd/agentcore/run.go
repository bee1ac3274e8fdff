package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/memory"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/structured"
	"github.com/agentcore/agentcore/runtime/transcript"

	"github.com/agentcore/agentcore/cmd/agentcore/tui"
)

// runFlags are the flags of agentcore run.
type runFlags struct {
	prompt       string
	model        string
	maxTurns     int
	outputFormat string
	record       string
	systemPrompt string
	appendSystem string
	verbose      bool
	// debug logs what agentcore tolerated (an MCP server's stray stdout
	// lines, an answer it could not read) on stderr; --verbose does too.
	debug bool
	// inputFormat stream-json is the Agent SDK's protocol (sdkproto);
	// promptTool stdio sends permission asks to the SDK host.
	inputFormat string
	promptTool  string
	// partial adds the API's own stream events to stream-json
	// (--include-partial-messages).
	partial bool
	session sessionFlags
	// The session store's flags, Claude Code's: -c, --resume ID,
	// --session-id UUID, --fork-session, --no-session-persistence.
	continueLatest bool
	resume         string
	sessionID      string
	forkSession    bool
	noPersist      bool
	// rewindFiles is --rewind-files TURN: put the files of the resumed
	// session back as they were before its turn TURN, and exit.
	rewindFiles string

	// print is Claude Code's print mode (agentcore -p): one prompt, and in
	// the text format only the final answer on stdout (the transcript on
	// stderr with --verbose); without a key and --model it fails rather
	// than play the replay model.
	print bool
	// fallbackModel is --fallback-model (fallback.go).
	fallbackModel string
	// jsonSchema is --json-schema: the JSON Schema the final answer must
	// match (runtime/structured).
	jsonSchema string
	// structuredRetries is MAX_STRUCTURED_OUTPUT_RETRIES (0: the default).
	structuredRetries int
}

const runLong = `Run the agent loop: send a prompt to a model with the tool list, run the
tool calls it makes — each one starting the moment its tool_use block has
streamed, in parallel when the calls are concurrency-safe — send the results
back, and repeat until the model is done.

Models (--model):
  replay               the embedded scenario, a scripted model that looks around
                       the current directory, read-only: offline, no key needed
                       (the default when ANTHROPIC_API_KEY is unset)
  replay:FILE          a scenario file (JSON or JSONL; see examples/README.md;
                       make run plays examples/demo.jsonl on a scratch copy)
  anthropic            the Messages API with the default model
  anthropic:NAME       the Messages API with model NAME, e.g. anthropic:claude-sonnet-4-5
                       (the default when ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or
                       ANTHROPIC_MODEL is set)
  openai:NAME          the Chat Completions API with model NAME, e.g. openai:gpt-4.1;
                       with OPENAI_BASE_URL any OpenAI-compatible server (vLLM,
                       Ollama, llama.cpp), e.g. OPENAI_BASE_URL=http://localhost:11434/v1
  bedrock:MODEL        the Messages API on Amazon Bedrock with model ID MODEL, e.g.
                       bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0

The Anthropic provider reads ANTHROPIC_API_KEY, or ANTHROPIC_AUTH_TOKEN (a
gateway's token, sent as "Authorization: Bearer" in place of the key), takes
its default model from ANTHROPIC_MODEL and honours ANTHROPIC_BASE_URL. The
OpenAI provider reads OPENAI_API_KEY and OPENAI_BASE_URL; a local server at
OPENAI_BASE_URL needs no key. Bedrock takes the AWS configuration: AWS_REGION
(or the profile's region), credentials from the environment, a web identity
token, AWS_PROFILE's profile (keys, credential_process, a role to assume, SSO
through the AWS CLI), the container or the instance, or AWS_BEARER_TOKEN_BEDROCK,
and honours ANTHROPIC_BEDROCK_BASE_URL. A model request must connect within 30 s;
a stream that sends nothing for CLAUDE_STREAM_IDLE_TIMEOUT_MS (default 300000)
and an answer in one piece that takes longer than API_TIMEOUT_MS (default
600000) fail, and are retried.
A replay plays at real speed; AGENTCORE_REPLAY_SPEED=4 plays four times faster.
A model request that fails with a retryable error (429, 5xx, 529, a broken or
stalled stream, a network failure) is retried, each retry shown, as Claude Code
does: up to 10 times (AGENTCORE_MAX_RETRIES or CLAUDE_CODE_MAX_RETRIES; 0 turns
retries off), waiting 0.5 s doubling up to 32 s (AGENTCORE_RETRY_BASE_DELAY_MS,
AGENTCORE_RETRY_MAX_DELAY_MS) or the server's retry-after, for at most 15
minutes in all (AGENTCORE_RETRY_MAX_WAIT_MS). Calls that ran keep their results.

The prompt comes from -p, else from the replay scenario, else from standard
input when it is not a terminal; with none of these, agentcore asks for
prompts one after another on the terminal (an empty line or Ctrl+D ends).

Permissions: --permission-mode default|acceptEdits|plan|bypassPermissions|dontAsk,
rules with --allowedTools / --disallowedTools in Claude Code's syntax
("Bash(git log:*)", "Edit(src/**)"), plus the settings files
(~/.agentcore/settings.json, .agentcore/settings.json,
.agentcore/settings.local.json, and Claude Code's ~/.claude/settings.json,
.claude/settings.json and .claude/settings.local.json; agentcore's win a
conflict). Calls that need approval are asked about on
the terminal; without one they are denied, with a message saying how to allow them.

Ctrl+C interrupts the turn: the model stops, calls that can be cancelled
stop, the others finish, and every call gets its result. A second Ctrl+C exits.

Sessions: every session is written as it goes to
~/.agentcore/projects/<dir>/<session-id>.jsonl ($AGENTCORE_CONFIG_DIR/projects
when set), synced at each turn end. -c continues this directory's latest
session, --resume ID a given one (the same ID goes on; --fork-session copies it
to a new one); --session-id UUID names a new session; --no-session-persistence
keeps nothing.

Output (--output-format): text is the transcript (styled on a terminal, plain
otherwise or with NO_COLOR); json prints one result object at the end;
stream-json prints one JSON event per line (init, assistant and user
messages, result), like Claude Code.`

const runExample = `  agentcore run                                   # offline: the embedded replay scenario
  agentcore run --model replay:examples/demo.jsonl
  agentcore run --model anthropic -p "list the TODOs in this repo" --permission-mode acceptEdits
  agentcore run -p "fix the failing test" --allowedTools "Bash(go test:*)" --max-turns 20
  agentcore run --model anthropic -p "explain main.go" --record session.jsonl   # then: --model replay:session.jsonl
  echo "what does go.mod require?" | agentcore run --model anthropic --output-format json
  OPENAI_BASE_URL=http://localhost:11434/v1 agentcore run --model openai:qwen3:8b -p "summarise README.md"   # Ollama`

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:     "run [-p PROMPT] [--model replay:FILE|anthropic:NAME|openai:NAME]",
		Short:   "Run the agent loop against a model (offline replay by default)",
		Long:    runLong,
		Example: runExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return f.run(cmd)
		},
	}
	cmd.Flags().StringVarP(&f.prompt, "prompt", "p", "", "the prompt; runs once and exits")
	f.register(cmd)
	return cmd
}

// register adds the flags run and the root's print mode share.
func (f *runFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.model, "model", "", "replay, replay:FILE, anthropic, anthropic:NAME (or a bare NAME), openai:NAME or bedrock:MODEL (default: anthropic when ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or ANTHROPIC_MODEL is set, else replay; -p requires one of them)")
	fl.IntVar(&f.maxTurns, "max-turns", 0, "stop after this many model requests (0: no limit)")
	fl.StringVar(&f.jsonSchema, "json-schema", "", "a JSON Schema (inline JSON) the final answer must match: the model answers through the StructuredOutput tool, and json/stream-json's result carries it as structured_output")
	fl.StringVar(&f.outputFormat, "output-format", "text", "text, json or stream-json")
	fl.StringVar(&f.record, "record", "", "write the session as a replay scenario (JSONL) to this file")
	fl.StringVar(&f.systemPrompt, "system-prompt", "", "replace the default system prompt")
	fl.StringVar(&f.appendSystem, "append-system-prompt", "", "add this text to the end of the system prompt")
	fl.StringVar(&f.inputFormat, "input-format", "text", "text, or stream-json: user messages and control requests as JSON lines on stdin (the Agent SDK's protocol; needs --output-format stream-json)")
	fl.StringVar(&f.promptTool, "permission-prompt-tool", "", "stdio: ask the Agent SDK host (its canUseTool) for the calls that need approval")
	fl.StringVar(&f.fallbackModel, "fallback-model", "", "the model a turn is sent to when --model fails with an overload or server error after its retries")
	fl.BoolVar(&f.partial, "include-partial-messages", false, "with --output-format stream-json, add the model's stream as it comes: stream_event lines holding the Messages API's events")
	fl.BoolVar(&f.verbose, "verbose", false, "with -p and the text format, show the transcript on stderr (stream-json needs nothing more: it is always complete)")
	fl.BoolVar(&f.debug, "debug", false, "log on stderr what agentcore tolerates and works around, such as MCP servers' lines of stdout that are not JSON-RPC (--verbose logs them too)")
	fl.BoolVarP(&f.continueLatest, "continue", "c", false, "continue the most recent session of this directory")
	fl.StringVarP(&f.resume, "resume", "r", "", "resume the session with this ID (sessions are kept in ~/.agentcore/projects/<dir>/<ID>.jsonl)")
	fl.StringVar(&f.sessionID, "session-id", "", "the ID (a UUID) of the new session; it must not exist yet")
	fl.BoolVar(&f.forkSession, "fork-session", false, "with --continue or --resume, write to a new session ID instead of the original's")
	fl.StringVar(&f.rewindFiles, "rewind-files", "", "with --resume or --continue, put the files Edit, Write and NotebookEdit changed back as they were before this turn (a number; /rewind lists them), print what changed and exit; changes made by Bash are not undone")
	fl.BoolVar(&f.noPersist, "no-session-persistence", false, "do not keep this session on disk (it cannot be resumed)")
	f.session.register(cmd)
	f.session.registerSandbox(cmd)
}

// checkSessionFlags checks the session store's flags go together.
func (f *runFlags) checkSessionFlags() error {
	resuming := f.continueLatest || f.resume != ""
	switch {
	case f.continueLatest && f.resume != "":
		return errors.New("--continue and --resume are exclusive: -c continues the latest session, --resume ID a given one")
	case f.sessionID != "" && !transcript.ValidID(f.sessionID):
		return fmt.Errorf("invalid session ID %q: --session-id must be a valid UUID", f.sessionID)
	case f.sessionID != "" && resuming && !f.forkSession:
		return errors.New("--session-id can only be used with --continue or --resume if --fork-session is also specified")
	case f.forkSession && !resuming:
		return errors.New("--fork-session needs --continue or --resume: it copies a stored session into a new one")
	case f.noPersist && resuming:
		return errors.New("--no-session-persistence cannot continue a session: drop it, or start a new session")
	case f.rewindFiles != "" && !resuming:
		return errors.New("--rewind-files needs the session whose files to rewind: add --resume ID or --continue")
	case f.rewindFiles != "" && f.forkSession:
		return errors.New("--rewind-files rewinds the resumed session's own files: drop --fork-session")
	}
	return nil
}

// transcriptOptions sets the session store's flags in o.
func (f *runFlags) transcriptOptions(o *session.Options, home string) {
	o.ID, o.Continue, o.Resume, o.ForkSession = f.sessionID, f.continueLatest, f.resume, f.forkSession
	if !f.noPersist {
		st := transcriptStore(home)
		o.Transcripts = &st
		o.FileHistory = filepath.Join(configDir(home), "file-history")
		o.Version = moduleVersion()
	}
}

// modelSpec resolves --model to a provider, and the replay scenario if any.
func modelSpec(spec string) (provider.Provider, *replay.Scenario, error) {
	if spec == "" {
		if anthropicConfigured() {
			spec = "anthropic"
		} else {
			spec = "replay"
		}
	}
	if !strings.Contains(spec, ":") && spec != "replay" && spec != "anthropic" && spec != "openai" && spec != "bedrock" {
		spec = "anthropic:" + spec // a bare model name is Anthropic's, as in Claude Code
	}
	kind, arg, _ := strings.Cut(spec, ":")
	switch kind {
	case "replay":
		sc := replay.Default()
		if arg != "" {
			var err error
			if sc, err = replay.Load(arg); err != nil {
				return nil, nil, err
			}
		}
		speed := 1.0
		if s := os.Getenv("AGENTCORE_REPLAY_SPEED"); s != "" {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || v < 0 {
				return nil, nil, fmt.Errorf("AGENTCORE_REPLAY_SPEED=%q: want a number ≥ 0 (0 plays without delays)", s)
			}
			speed = v
		}
		cwd, _ := os.Getwd()
		return replay.New(sc, replay.Options{Speed: speed, Cwd: cwd}), sc, nil
	case "anthropic", "openai", "bedrock":
		p, err := apiModel(kind, arg)
		return p, nil, err
	}
	return nil, nil, fmt.Errorf("unknown model %q: use replay, replay:FILE, anthropic or anthropic:NAME, or openai:NAME for an OpenAI-compatible API, or bedrock:MODEL for Amazon Bedrock", spec)
}

// run is agentcore run (and the root command): it checks the flags,
// opens the session, and hands it to the mode the flags and the terminal
// choose (modes.go). Whatever the mode returns, the session is closed
// before the exit code goes up to main.
func (f *runFlags) run(cmd *cobra.Command) error {
	format, sdk, err := f.check()
	if err != nil {
		return err
	}
	// The settings' env is exported and their model is the default, as
	// in Claude Code, before the model is chosen.
	if f.model, err = f.applySettings(); err != nil {
		return err
	}
	if f.print && f.model == "" && !anthropicConfigured() {
		return errors.New("no model: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway) to use the Messages API, " +
			"or pick one with --model: replay for the offline scripted model, openai:NAME, bedrock:MODEL")
	}
	if f.model == "" && !anthropicConfigured() {
		fmt.Fprintln(cmd.ErrOrStderr(), "agentcore: no ANTHROPIC_API_KEY, so the model is the offline replay scenario (--model replay); set a key or pick --model anthropic:NAME, openai:NAME or bedrock:MODEL for a real one")
	}
	prov, sc, err := modelSpec(f.model)
	if err != nil {
		return err
	}
	// A run with its prompt at hand sends the first request once the
	// session is open: the connection to the API is made meanwhile.
	if pc, ok := prov.(provider.Preconnector); ok && (f.prompt != "" || f.print || sdk) {
		pc.Preconnect()
	}
	// The Agent SDK host may switch the model between requests.
	current := &switchable{current: prov}
	prov = current
	model := prov // before --record wraps it: tools' own requests are not the session's
	fallback, err := f.fallbackProvider(prov)
	if err != nil {
		return err
	}
	ctx, cancelSession := context.WithCancel(cmd.Context())
	defer cancelSession()
	// Ctrl+C is watched from here on: a press while the MCP servers
	// start ends the run as one between turns does, after Close.
	intr := watchInterrupts(cancelSession)
	defer intr.stop()

	s := &runSession{f: f, ctx: ctx, intr: intr, stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), current: current}
	if f.record != "" {
		out, err := os.Create(f.record)
		if err != nil {
			return fmt.Errorf("--record: %w", err)
		}
		defer out.Close()
		s.recorder = replay.NewRecorder(prov, out, strings.TrimSuffix(filepath.Base(f.record), filepath.Ext(f.record)))
		prov = s.recorder
	}
	s.prov = prov
	if s.cwd, err = os.Getwd(); err != nil {
		return fmt.Errorf("no working directory: %w", err)
	}
	// The SDK host's initialize (its hook callbacks, its in-process MCP
	// servers) comes first on stdin and shapes the session.
	if sdk {
		s.control = newSDKChannel(s.stdout, s.stderr, current, f.model)
		s.stdout = s.control.Writer() // events and control messages share stdout
		go s.control.Read(ctx, os.Stdin)
		s.hostAgents = hostTypes(s.control.First(ctx), s.stderr)
	}
	// Whether a person waits at the terminal (the choice of mode below):
	// the MCP servers are waited for less.
	stdinTTY := term.IsTerminal(int(os.Stdin.Fd()))
	interactiveRun := !sdk && f.prompt == "" && (sc == nil || sc.Prompt == "") && stdinTTY
	sess, err := s.open(fallback, interactiveRun)
	if err != nil {
		if intr.quitting() {
			return exitCode(exitInterrupted)
		}
		return err
	}
	defer func() {
		// A transcript that could not be written is said once, at the end.
		if err := sess.Close(); err != nil && sess.Transcript() != nil && sess.Transcript().Err() != nil {
			fmt.Fprintln(s.stderr, "agentcore: warning: the session was not fully saved:", err)
		}
	}()
	if intr.quitting() {
		return exitCode(exitInterrupted)
	}
	if f.rewindFiles != "" {
		return rewindFiles(sess, f.rewindFiles, s.stdout)
	}

	s.in = bufio.NewReader(os.Stdin)
	prompt, interactive, err := s.prompt(sc, sdk, stdinTTY)
	if intr.quitting() { // Ctrl+C while the prompt was read
		return exitCode(exitInterrupted)
	}
	if err != nil {
		return err
	}
	if sc == nil {
		// A real model applies WebFetch's prompt to the page; a replay
		// scenario scripts only the conversation, so WebFetch returns the
		// page itself.
		runtime.WithService[runtime.Summarizer](sess.ToolContext(), provider.Summarizer{Model: model})
	}
	s.render(format)
	defer s.r.Close()
	s.setAsker(stdinTTY)
	intr.attach(sess.Interrupt, s.r.Notice)

	var code int
	switch {
	case sdk:
		code = s.runSDK()
	case !interactive:
		code = s.runPrint(prompt)
	case format == render.Text && s.opts.Styled && s.asker != nil:
		code = s.runInteractive()
	default:
		code = s.runPlain()
	}
	if code != 0 {
		return exitCode(code)
	}
	return nil
}

// prompt is the one prompt to run: -p's, the replay scenario's, or
// standard input's when it is not a terminal. interactive says there is
// none and a person at the terminal types them; the SDK host sends its
// prompts as user messages instead.
func (s *runSession) prompt(sc *replay.Scenario, sdk, stdinTTY bool) (prompt string, interactive bool, err error) {
	switch {
	case sdk:
		return "", false, nil
	case s.f.prompt != "":
		return s.f.prompt, false, nil
	case sc != nil && sc.Prompt != "":
		return sc.Prompt, false, nil
	case !stdinTTY:
		data, err := io.ReadAll(s.in)
		if err != nil {
			return "", false, fmt.Errorf("read the prompt from standard input: %w", err)
		}
		prompt = strings.TrimSpace(string(data))
		if prompt == "" {
			return s.resumeDeferred()
		}
		return prompt, false, nil
	case s.f.print && s.resuming():
		return s.resumeDeferred()
	}
	return "", true, nil
}

// resuming says the run continues a stored session (-c, --resume).
func (s *runSession) resuming() bool {
	return s.f.continueLatest || s.f.resume != ""
}

// resumeDeferred is the prompt of a -p run given none: a resumed session
// that a PreToolUse hook's defer stopped continues from the deferred call
// (its hooks are asked again); anything else needs a prompt.
func (s *runSession) resumeDeferred() (string, bool, error) {
	switch {
	case s.resuming() && s.sess.Deferred() != nil:
		return "", false, nil
	case s.resuming():
		return "", false, errors.New("no prompt, and the resumed session has no deferred tool call to continue from (it was not stopped by a PreToolUse hook's defer, or the call has run since): give a prompt to continue the conversation")
	}
	return "", false, errors.New("no prompt: give one with -p, or on standard input")
}

// check checks the flags go together, and returns the output format and
// whether the Agent SDK's protocol is spoken (--input-format stream-json).
func (f *runFlags) check() (render.Format, bool, error) {
	format, err := render.ParseFormat(f.outputFormat)
	if err != nil {
		return format, false, err
	}
	sdk := false
	switch f.inputFormat {
	case "", "text":
	case "stream-json":
		if format != render.StreamJSON {
			return format, false, errors.New("--input-format stream-json needs --output-format stream-json")
		}
		sdk = true
	default:
		return format, false, fmt.Errorf("unknown input format %q: use text or stream-json", f.inputFormat)
	}
	if f.promptTool != "" && (f.promptTool != "stdio" || !sdk) {
		return format, false, fmt.Errorf("--permission-prompt-tool %q: agentcore supports stdio, with --input-format stream-json (an MCP tool as the prompt is not supported)", f.promptTool)
	}
	if err := f.checkSessionFlags(); err != nil {
		return format, false, err
	}
	if f.partial && format != render.StreamJSON {
		return format, false, errors.New("--include-partial-messages needs --output-format stream-json")
	}
	if f.maxTurns < 0 {
		return format, false, fmt.Errorf("--max-turns must be 0 (no limit) or more, got %d", f.maxTurns)
	}
	if f.jsonSchema != "" && !json.Valid([]byte(f.jsonSchema)) {
		return format, false, errors.New("--json-schema takes the schema itself as inline JSON, e.g. '{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}}}'; for a file use \"$(cat schema.json)\"")
	}
	if f.structuredRetries, err = structured.MaxRetriesFromEnv(os.Getenv); err != nil {
		return format, false, err
	}
	return format, sdk, nil
}

// system is the system prompt: --system-prompt or the default, then
// --append-system-prompt, then the instruction files (CLAUDE.md,
// AGENTS.md: the user's, then the project's from the outside in).
func (f *runFlags) system(cwd string, stderr io.Writer) string {
	system := f.systemPrompt
	if system == "" {
		system = defaultSystemPrompt(cwd)
	}
	if f.appendSystem != "" {
		system += "\n\n" + f.appendSystem
	}
	files, err := f.session.perm.memoryFiles(cwd)
	if err != nil {
		fmt.Fprintln(stderr, "agentcore: warning:", err)
	}
	if p := memory.Prompt(files); p != "" {
		system += "\n\n" + p
	}
	return system
}

// open opens the session with the flags' options.
//
// MCP servers connect in the background; the pool holds the tools of
// those connected by now (ToolSearch names the ones still connecting),
// and servers that finish connecting later join it between turns. The
// first request waits for the MCP servers (MCP_TIMEOUT or
// mcp.startupTimeoutMs, default 5 s; less when a person waits at the
// terminal), so it names every tool of the servers that came up; servers
// that connect later are announced to the model in the request after
// they do. The session registers the model as a service for tools that
// talk to it themselves (a sub-agent).
func (s *runSession) open(fallback provider.Provider, interactiveRun bool) (*session.Session, error) {
	f := s.f
	home, _ := os.UserHomeDir() // the session store's root (AGENTCORE_CONFIG_DIR overrides it)
	var (
		lateMu sync.Mutex
		late   map[string]bool // servers reported still connecting
	)
	sess, err := f.session.openSession(s.ctx, openOptions{adjust: func(o *session.Options) {
		o.Provider, o.System, o.MaxTurns = s.prov, f.system(s.cwd, s.stderr), f.maxTurns
		o.Fallback = fallback
		o.PartialMessages = f.partial
		// A PreToolUse hook's defer ends a headless run (Claude Code's -p).
		o.Print = f.print || !interactiveRun
		if f.jsonSchema != "" {
			o.JSONSchema, o.StructuredOutputRetries = json.RawMessage(f.jsonSchema), f.structuredRetries
		}
		if s.control != nil {
			s.control.Configure(o)
			withHostAgents(o, s.hostAgents)
		}
		o.MCPStartupTimeout = func(ms int) (time.Duration, error) {
			if ms == 0 && os.Getenv(mcp.EnvStartupTimeout) == "" && interactiveRun {
				return mcp.InteractiveStartupTimeout, nil
			}
			return mcp.ResolveStartupTimeout(os.Getenv, ms)
		}
		// A server still connecting after the wait is reported below; when
		// it connects, the user hears of it (the model does in the next
		// request: session.Turn).
		o.MCPOptions.Connected = func(st mcp.ServerStatus) {
			lateMu.Lock()
			defer lateMu.Unlock()
			if late[st.Name] {
				delete(late, st.Name)
				fmt.Fprintf(s.stderr, "agentcore: MCP server %q connected (%s); its tools join from the next request\n", st.Name, plural(st.Tools, "tool"))
			}
		}
		if f.verbose || f.debug {
			o.MCPOptions.Log = func(line string) { fmt.Fprintln(s.stderr, "agentcore:", line) }
		}
		f.transcriptOptions(o, home)
	}})
	if err != nil {
		return nil, err
	}
	s.sess = sess
	lateMu.Lock()
	late = reportMCP(s.stderr, sess)
	lateMu.Unlock()
	return sess, nil
}

// render makes the renderer. Print mode's text format sends the
// transcript to stderr with --verbose and nowhere without; stdout gets
// the final answer.
func (s *runSession) render(format render.Format) {
	out := s.stdout
	s.printAnswer = s.f.print && format == render.Text
	if s.printAnswer {
		out = io.Discard
		if s.f.verbose {
			out = s.stderr
		}
	}
	// A resumed session keeps its ID, as Claude Code's does (without
	// --fork-session): stream-json's session_id is the resumed one.
	s.opts = render.Options{Format: format, Session: s.sess.ID(), Init: streamInit(s.sess, s.prov, s.cwd, string(s.sess.Engine().Mode())), PartialMessages: s.f.partial}
	if format == render.Text {
		s.opts.Env = os.Environ()
		s.opts = render.Detect(out, s.opts)
	}
	s.r = render.New(out, s.opts)
}

// setAsker chooses who answers the calls that need approval: the SDK
// host (--permission-prompt-tool stdio), the terminal, or nobody (they
// are denied; print mode never asks, as Claude Code's).
func (s *runSession) setAsker(stdinTTY bool) {
	engine := s.sess.Engine()
	if s.control != nil {
		if len(s.hostAgents) > 0 {
			runtime.WithService(s.sess.ToolContext(), s.hostAgents)
		}
		s.control.Attach(s.sess)
		if s.f.promptTool == "stdio" {
			engine.SetAsker(s.control.Asker())
		}
		return
	}
	if !stdinTTY || s.f.print {
		return
	}
	// The pickers need a terminal that takes styles; NO_COLOR, TERM=dumb
	// or a stderr that is not a terminal keep the plain prompts.
	tui := term.IsTerminal(int(os.Stderr.Fd())) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	s.asker = &pausingAsker{r: s.r, p: ask.NewPrompt(s.in, os.Stderr), tui: tui}
	engine.SetAsker(s.asker)
}

// streamInit is stream-json's init line for sess.
func streamInit(sess *session.Session, prov provider.Provider, cwd, mode string) render.Init {
	init := render.Init{Model: strings.TrimPrefix(prov.Name(), "anthropic:"), Cwd: cwd, PermissionMode: mode,
		APIKeySource: apiKeySource(), Version: moduleVersion()}
	for _, t := range sess.Definitions() {
		init.Tools = append(init.Tools, t.Name())
	}
	for _, st := range sess.MCP().Servers() {
		srv := render.MCPServer{Name: st.Name, Status: st.State.String()}
		if st.Transport == mcp.TransportSDK {
			srv.Source = "sdk"
		}
		init.MCPServers = append(init.MCPServers, srv)
	}
	return init
}

// reportMCP says on stderr which MCP servers are not up after the wait,
// and why, and returns the names of those still connecting.
func reportMCP(w io.Writer, sess *session.Session) map[string]bool {
	pending := map[string]bool{}
	for _, st := range sess.MCP().Servers() {
		switch st.State {
		case mcp.StatePending:
			pending[st.Name] = true
			fmt.Fprintf(w, "agentcore: MCP server %q has not connected after %s (raise MCP_TIMEOUT or mcp.startupTimeoutMs, in ms); its tools join when it does\n", st.Name, sess.MCPWait())
		case mcp.StateFailed, mcp.StateDisconnected:
			fmt.Fprintf(w, "agentcore: MCP server %q failed: %v; its tools are missing until it starts\n", st.Name, st.Err)
		}
	}
	return pending
}

// outcomeErr maps a one-shot run's end to the command's error.
func outcomeErr(out *agent.Outcome, maxTurns int) error {
	switch out.Stop {
	case agent.StopError:
		return out.Err
	case agent.StopMaxTurns:
		return fmt.Errorf("stopped after --max-turns %d: the model still wanted to call tools; raise the limit to let it finish", maxTurns)
	}
	return nil
}

// pausingAsker stops the live region while a permission prompt or
// AskUserQuestion's picker is on the terminal.
type pausingAsker struct {
	r *render.Renderer
	p *ask.Prompt
	// show, when set (the interactive session), shows a picker in place
	// of the session's input box; release hands the terminal over for a
	// plain prompt and returns how to take it back.
	show    func(context.Context, tui.Modal) error
	release func() func()
	// tui: the permission prompt is a picker.
	tui bool
}

func (a *pausingAsker) Ask(ctx context.Context, req ask.AskRequest) (ask.Answer, error) {
	if a.show != nil {
		m := newPermissionPicker(req)
		if err := a.show(ctx, pickerModal{m: m, done: func() bool { return m.done }}); err != nil {
			return ask.AnswerDeny, err
		}
		return m.answer, nil
	}
	a.r.Pause()
	defer a.r.Resume()
	if a.tui {
		return pickPermission(ctx, os.Stdin, os.Stderr, req)
	}
	return a.p.Ask(ctx, req)
}

// Elicit shows an MCP server's form or URL on the terminal.
func (a *pausingAsker) Elicit(ctx context.Context, req ask.ElicitRequest) (ask.ElicitAnswer, error) {
	if a.release != nil {
		defer a.release()()
	}
	a.r.Pause()
	defer a.r.Resume()
	return a.p.Elicit(ctx, req)
}

// AskQuestions shows the questions as a picker on the terminal.
func (a *pausingAsker) AskQuestions(ctx context.Context, agent string, qs []ask.Question) ([]ask.QuestionAnswer, error) {
	if a.show != nil {
		m := &questionPicker{qs: qs, agent: agent, toggled: map[int]bool{}}
		if err := a.show(ctx, pickerModal{m: m, done: func() bool { return m.dismissed || m.q >= len(m.qs) }}); err != nil {
			return nil, err
		}
		return m.result()
	}
	a.r.Pause()
	defer a.r.Resume()
	// The question picker needs no colours: it shows whenever stdin is a
	// terminal, as before the permission picker came.
	return askQuestions(ctx, os.Stdin, os.Stderr, agent, qs)
}

func defaultSystemPrompt(cwd string) string {
	return fmt.Sprintf(`You are agentcore, a coding agent working in a software repository through tools.
Use the tools to read, search, edit and run things; prefer several read-only calls in one message
when they do not depend on each other, so they run in parallel. Read a file before editing it.
Be brief in your text: say what you are doing and what you found.

Environment:
- working directory: %s
- platform: %s/%s
- date: %s`, cwd, goruntime.GOOS, goruntime.GOARCH, time.Now().Format("2006-01-02"))
}
