// Package hooks runs Claude Code's hooks: the shell commands (and HTTP
// endpoints, MCP tools, model prompts and read-only agents: TypeHTTP,
// TypeMCPTool, TypePrompt, TypeAgent) a settings file's "hooks" object
// attaches to the events of a session.
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash|Edit",
//	    "hooks": [{"type": "command", "command": "./check.sh", "timeout": 30}]}]}}
//
// A hook gets the event as JSON on stdin (session_id, transcript_path, cwd,
// hook_event_name, permission_mode and the event's own fields) and answers
// with its exit code and output, as Claude Code defines them: exit 0 is
// success (stdout is parsed when it is JSON); exit 2 blocks, and stderr is
// the reason the model (or, for a prompt, the user) reads; any other exit
// is a non-blocking error shown to the user. JSON output may carry
// decision ("block"/"approve"), reason, continue/stopReason,
// suppressOutput, systemMessage and hookSpecificOutput
// (permissionDecision, permissionDecisionReason, updatedInput,
// additionalContext).
//
// Every matching hook of an event runs in parallel (identical commands
// once), each in its own
// process group under a timeout (10 min unless the hook sets one): a hook
// that hangs is killed with its children, and the session goes on as if it
// had failed without blocking. The package only runs hooks and reads their
// answers; the tool pipeline (runtime/orchestrate) and the session decide
// what the answers do.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime/procgroup"
	"github.com/agentcore/agentcore/runtime/provider"
)

// Event names a hook event, as settings files spell it.
type Event string

// The events Claude Code defines hooks for.
const (
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	UserPromptSubmit Event = "UserPromptSubmit"
	Stop             Event = "Stop"
	SubagentStop     Event = "SubagentStop"
	SessionStart     Event = "SessionStart"
	Notification     Event = "Notification"

	// The events after a tool call failed, around the permission
	// check, when a sub-agent starts and when the session ends.
	PostToolUseFailure Event = "PostToolUseFailure"
	PermissionRequest  Event = "PermissionRequest"
	PermissionDenied   Event = "PermissionDenied"
	SubagentStart      Event = "SubagentStart"
	SessionEnd         Event = "SessionEnd"

	// The events before and after a compaction.
	PreCompact  Event = "PreCompact"
	PostCompact Event = "PostCompact"
)

// DefaultTimeout bounds a command, http, callback or mcp_tool hook that
// sets no timeout: ten minutes, Claude Code's TOOL_HOOK_EXECUTION_TIMEOUT_MS
// (its hooks docs and its 2.1 CLI: `e.timeout ? e.timeout*1000 : 600000`).
const DefaultTimeout = 10 * time.Minute

// Config is a settings file's "hooks" object: per event, the matchers and
// their hooks.
type Config map[Event][]Matcher

// Matcher is one entry of an event's list: the hooks that run when the
// matcher matches.
type Matcher struct {
	// Matcher is a regular expression over the tool name (PreToolUse,
	// PostToolUse) or the event's source (SessionStart: startup, resume…;
	// PreCompact, PostCompact: auto or manual), matched as a whole name;
	// "" or "*" matches everything.
	Matcher string `json:"matcher,omitempty"`
	// Hooks are the commands to run.
	Hooks []Hook `json:"hooks"`
}

// Hook is one hook command, an HTTP endpoint, or one of the Agent SDK
// host's callbacks.
type Hook struct {
	// Type is TypeCommand ("" reads as it), TypeHTTP, TypeMCPTool,
	// TypePrompt, TypeAgent or TypeCallback; a hook whose type this
	// Runner cannot run is skipped (a settings file with one does not
	// load: Config.UnmarshalJSON).
	Type string `json:"type"`
	// Command is run with bash -c in the project directory.
	Command string `json:"command,omitempty"`
	// URL is where a TypeHTTP hook POSTs the event's JSON.
	URL string `json:"url,omitempty"`
	// Headers are added to a TypeHTTP hook's request; $VAR and ${VAR}
	// in a value are replaced by the environment variable only when
	// AllowedEnvVars names it (by "" otherwise), as in Claude Code.
	Headers        map[string]string `json:"headers,omitempty"`
	AllowedEnvVars []string          `json:"allowedEnvVars,omitempty"`
	// Callback names the host's callback of a TypeCallback hook (the
	// SDK's hookCallbackIds); only code sets it, never a settings file.
	Callback string `json:"-"`
	// Timeout is in seconds; 0 means the type's default: DefaultTimeout,
	// DefaultPromptTimeout or DefaultAgentTimeout.
	Timeout float64 `json:"timeout,omitempty"`

	// Prompt is what a TypePrompt or TypeAgent hook asks the model;
	// $ARGUMENTS in it is replaced by the event's JSON input (appended
	// after "ARGUMENTS: " when it has none).
	Prompt string `json:"prompt,omitempty"`
	// Model is the model a TypePrompt or TypeAgent hook asks
	// (provider.ForSubagent); empty: the session's.
	Model string `json:"model,omitempty"`
	// ContinueOnBlock makes a TypePrompt hook's ok:false on PostToolUse
	// feedback for the model instead of the end of the turn.
	ContinueOnBlock bool `json:"continueOnBlock,omitempty"`

	// Server and Tool name the connected MCP server and its tool a
	// TypeMCPTool hook calls with Input, whose string values may hold
	// ${path} references into the event's input ("${tool_input.file_path}").
	Server string         `json:"server,omitempty"`
	Tool   string         `json:"tool,omitempty"`
	Input  map[string]any `json:"input,omitempty"`

	// If is one permission rule ("Bash(git *)", "Edit(*.ts)"): on the tool
	// events the hook runs only for a call it matches; on other events a
	// hook with If never runs. Runner.If decides.
	If string `json:"if,omitempty"`
	// Async runs a command hook in the background: nothing waits for
	// it, nothing it says blocks; its systemMessage and
	// additionalContext reach the model with its next request.
	// AsyncRewake implies Async; its exit code 2 gives the model its
	// stderr (or stdout) the same way.
	Async       bool `json:"async,omitempty"`
	AsyncRewake bool `json:"asyncRewake,omitempty"`
	// Once and StatusMessage are read and ignored: Claude Code honours
	// once only in skill frontmatter, and agentcore shows no spinner.
	Once          bool   `json:"once,omitempty"`
	StatusMessage string `json:"statusMessage,omitempty"`
}

// TypeHTTP is the type of a hook that POSTs the event's JSON to URL and
// reads a 2xx answer's body as a command hook's JSON output; any other
// status, or no answer, is a non-blocking error.
const TypeHTTP = "http"

// TypeCallback is the type of a hook the Agent SDK host runs itself:
// Runner.Callback sends it the input and returns its JSON answer, which
// is read as a command hook's JSON output.
const TypeCallback = "callback"

// CallbackFunc runs the host's callback id with the hook input (JSON; the
// tool_use_id apart, as the SDK wants it) and returns its answer, a hook
// JSON output. It must return when ctx ends (the hook's timeout).
type CallbackFunc func(ctx context.Context, id string, input json.RawMessage, toolUseID string) (json.RawMessage, error)

// Merge appends other's matchers to c's, event by event: hooks from every
// settings file run, as in Claude Code.
func (c Config) Merge(other Config) Config {
	if len(other) == 0 {
		return c
	}
	if c == nil {
		c = Config{}
	}
	for ev, ms := range other {
		c[ev] = append(c[ev], ms...)
	}
	return c
}

// Has reports whether any hook is configured for ev; a nil Config has
// none.
func (c Config) Has(ev Event) bool {
	for _, m := range c[ev] {
		if len(m.Hooks) > 0 {
			return true
		}
	}
	return false
}

// matches reports whether the matcher selects name. An invalid regular
// expression matches a name equal to it, so a literal tool name still works.
func (m Matcher) matches(name string) bool {
	p := strings.TrimSpace(m.Matcher)
	if p == "" || p == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + p + ")$")
	if err != nil {
		return p == name
	}
	return re.MatchString(name)
}

// Runner runs a session's hooks.
type Runner struct {
	// Config are the hooks, merged from the settings files.
	Config Config
	// Dir is the hooks' working directory and the input's cwd;
	// ProjectDir (Dir when empty) is CLAUDE_PROJECT_DIR.
	Dir, ProjectDir string
	// SessionID and TranscriptPath go into every input; the transcript
	// path may be empty.
	SessionID, TranscriptPath string
	// Current, when set, gives the session ID and transcript path at the
	// time of the event, in place of SessionID and TranscriptPath (a
	// session can switch to a stored conversation).
	Current func() (sessionID, transcriptPath string)
	// Mode, when set, gives the permission mode at the time of the event.
	Mode func() string
	// Env is added to the hooks' environment (KEY=value).
	Env []string
	// Callback runs TypeCallback hooks; without it they are skipped.
	Callback CallbackFunc
	// Model answers TypePrompt hooks (one request, no tools); without
	// it they fail without blocking anything.
	Model provider.Provider
	// Agent runs TypeAgent hooks; without it they fail without
	// blocking anything.
	Agent AgentFunc
	// MCPTool calls the tool of a TypeMCPTool hook; without it they
	// fail without blocking anything.
	MCPTool MCPToolFunc
	// If decides a hook's "if" rule for a tool call; without it, or
	// when it cannot tell, the hook runs (fail-safe: a hook that might
	// block is never skipped by doubt).
	If IfFunc
	// Notify gives the model text with its next request: what an async
	// hook said when it ended. Without it async hooks' output is
	// dropped.
	Notify func(text string)

	bg asyncHooks
}

// Has reports whether r has a hook for ev; a nil Runner has none.
func (r *Runner) Has(ev Event) bool { return r != nil && r.Config.Has(ev) }

// Input is an event's own fields; Run adds the common ones.
type Input map[string]any

// Output is a hook's JSON answer, the fields Claude Code defines.
type Output struct {
	Continue       *bool  `json:"continue,omitempty"`
	StopReason     string `json:"stopReason,omitempty"`
	SuppressOutput bool   `json:"suppressOutput,omitempty"`
	SystemMessage  string `json:"systemMessage,omitempty"`
	// Decision is the legacy "block" or "approve".
	Decision string `json:"decision,omitempty"`
	Reason   string `json:"reason,omitempty"`

	HookSpecificOutput *SpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// SpecificOutput is Output.hookSpecificOutput.
type SpecificOutput struct {
	HookEventName            string          `json:"hookEventName,omitempty"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	// Decision is PermissionRequest's answer.
	Decision *Verdict `json:"decision,omitempty"`
	// UpdatedToolOutput (PostToolUse) replaces the result the model
	// reads; UpdatedMCPToolOutput is its older name, for MCP tools.
	UpdatedToolOutput    json.RawMessage `json:"updatedToolOutput,omitempty"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput,omitempty"`
	// Retry (PermissionDenied) tells the model it may try the call again.
	Retry bool `json:"retry,omitempty"`
}

// Verdict is a PermissionRequest hook's decision: behavior "allow" (with
// an optional updatedInput) or "deny" (with a message for the model, and
// interrupt to stop the turn).
type Verdict struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Message      string          `json:"message,omitempty"`
	Interrupt    bool            `json:"interrupt,omitempty"`
}

// Decision is what the hooks of one event decided together.
type Decision string

// The decisions, weakest first; several hooks' decisions combine to the
// strongest (deny > defer > ask > allow > none, as in Claude Code).
// Defer is PreToolUse's "stop the run here and let the caller decide".
const (
	None  Decision = ""
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Defer Decision = "defer"
	Deny  Decision = "deny"
)

func (d Decision) rank() int {
	switch d {
	case Allow:
		return 1
	case Ask:
		return 2
	case Defer:
		return 3
	case Deny:
		return 4
	}
	return 0
}

// Result is what the matching hooks of one event said, combined.
type Result struct {
	// Ran is how many hooks ran.
	Ran int
	// Decision is the strongest permission decision (PreToolUse's
	// permissionDecision; exit 2 and decision "block" are Deny, the
	// legacy "approve" is Allow). For events that block something else
	// (a prompt, a stop, a tool's result) Deny means "block".
	Decision Decision
	// Reason explains Decision: the blocking hooks' stderr or reasons.
	Reason string
	// UpdatedInput is the last hook's rewritten tool input, if any.
	UpdatedInput json.RawMessage
	// Context is the text the model gets besides the event:
	// additionalContext, and plain stdout of UserPromptSubmit and
	// SessionStart hooks.
	Context []string
	// Stop is set when a hook said continue:false; StopReason is shown
	// to the user.
	Stop       bool
	StopReason string
	// Messages are for the user: non-blocking errors, timeouts, system
	// messages.
	Messages []string
	// Permission is what PermissionRequest hooks decided: a deny from
	// any of them wins, else the last allow; nil when none decided.
	Permission *Verdict
	// UpdatedToolOutput is the last PostToolUse hook's replacement of the
	// tool's output (updatedToolOutput, or updatedMCPToolOutput).
	UpdatedToolOutput json.RawMessage
	// Retry is set when a PermissionDenied hook said retry: true.
	Retry bool
}

// Run runs every hook of ev whose matcher selects match, in parallel, with
// in plus the common fields on stdin, and combines their answers. It
// returns when every hook has ended or was killed; ctx cancels them all.
func (r *Runner) Run(ctx context.Context, ev Event, match string, in Input) Result {
	hooks, async, skipped := r.selectHooks(ev, match, in)
	res := Result{Messages: skipped}
	if len(hooks) == 0 && len(async) == 0 {
		return res
	}
	stdin, err := json.Marshal(r.input(ev, in))
	if err != nil {
		res.Messages = append(res.Messages, fmt.Sprintf("%s hook input could not be encoded: %v", ev, err))
		return res
	}
	for _, h := range async {
		r.startAsync(ev, h, stdin)
	}
	if len(hooks) == 0 {
		return res
	}
	answers := make([]answer, len(hooks))
	var wg sync.WaitGroup
	for i, h := range hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A hook that panics (a host callback, a model provider)
			// fails without blocking anything; the session goes on.
			defer func() {
				if v := recover(); v != nil {
					answers[i] = answer{err: fmt.Errorf("panic: %v", v)}
				}
			}()
			switch h.Type {
			case TypeCallback:
				id, _ := in["tool_use_id"].(string)
				answers[i] = r.runCallback(ctx, h, stdin, id)
				return
			case TypeHTTP:
				answers[i] = r.runHTTP(ctx, h, stdin)
				return
			case TypePrompt:
				answers[i] = r.runPrompt(ctx, h, stdin)
				return
			case TypeAgent:
				answers[i] = r.runAgent(ctx, h, stdin)
				return
			case TypeMCPTool:
				answers[i] = r.runMCPTool(ctx, h, stdin)
				return
			}
			answers[i] = r.runOne(ctx, h, stdin)
		}()
	}
	wg.Wait()
	res.Ran = len(hooks)
	reasons := map[Decision][]string{}
	for i, a := range answers {
		r.fold(ev, hooks[i], a, &res, reasons)
	}
	res.Reason = strings.Join(reasons[res.Decision], "\n")
	return res
}

func (r *Runner) input(ev Event, in Input) Input {
	id, path := r.SessionID, r.TranscriptPath
	if r.Current != nil {
		id, path = r.Current()
	}
	all := Input{
		"session_id":      id,
		"transcript_path": path,
		"cwd":             r.Dir,
		"hook_event_name": string(ev),
	}
	// Claude Code gives no permission mode to the session's lifecycle
	// events.
	if r.Mode != nil && ev != SessionStart && ev != SessionEnd && ev != SubagentStart {
		all["permission_mode"] = r.Mode()
	}
	for k, v := range in {
		all[k] = v
	}
	return all
}

// answer is how one hook process ended.
type answer struct {
	code           int
	stdout, stderr string
	err            error // could not start, or killed
	timedOut       bool
	timeout        time.Duration
	// verdict is a TypePrompt or TypeAgent hook's well-formed answer.
	verdict *verdict
}

// runOne runs one hook in its own process group; on timeout or ctx's end
// the whole group is killed.
func (r *Runner) runOne(ctx context.Context, h Hook, stdin []byte) answer {
	timeout := DefaultTimeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(hctx, "bash", "-c", h.Command)
	cmd.Dir = r.Dir
	project := r.ProjectDir
	if project == "" {
		project = r.Dir
	}
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
	cmd.Env = append(cmd.Env, r.Env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return procgroup.Kill(cmd.Process.Pid)
	}
	// A child that left the group and kept the pipes open must not hold
	// the session.
	cmd.WaitDelay = 2 * time.Second
	err := procgroup.Start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	// The group may outlive bash (a backgrounded child): end it either way.
	if cmd.Process != nil {
		_ = procgroup.Kill(cmd.Process.Pid)
	}
	a := answer{stdout: stdout.String(), stderr: stderr.String(), timeout: timeout}
	var exit *exec.ExitError
	switch {
	case hctx.Err() != nil && ctx.Err() == nil:
		a.timedOut, a.err = true, hctx.Err()
	case ctx.Err() != nil:
		a.err = ctx.Err()
	case errors.As(err, &exit):
		a.code = exit.ExitCode()
	case err != nil:
		a.err = err
	}
	return a
}

// runCallback asks the host to run a callback hook under its timeout;
// the answer is read as a command's JSON stdout.
func (r *Runner) runCallback(ctx context.Context, h Hook, input []byte, toolUseID string) answer {
	timeout := DefaultTimeout
	if h.Timeout > 0 {
		timeout = time.Duration(h.Timeout * float64(time.Second))
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := r.Callback(hctx, h.Callback, input, toolUseID)
	a := answer{stdout: string(out), timeout: timeout}
	switch {
	case hctx.Err() != nil && ctx.Err() == nil:
		a.timedOut, a.err = true, hctx.Err()
	case ctx.Err() != nil:
		a.err = ctx.Err()
	case err != nil:
		a.err = err
	}
	return a
}

// fold adds one hook's answer to res, as Claude Code reads it.
func (r *Runner) fold(ev Event, h Hook, a answer, res *Result, reasons map[Decision][]string) {
	name := fmt.Sprintf("%s hook %q", ev, h.Command)
	switch h.Type {
	case TypeCallback:
		name = fmt.Sprintf("%s hook callback %q of the SDK host", ev, h.Callback)
	case TypeHTTP:
		name = fmt.Sprintf("%s HTTP hook %s", ev, h.URL)
	case TypePrompt, TypeAgent:
		name = fmt.Sprintf("%s %s hook %q", ev, h.Type, clip(h.Prompt, 60))
	case TypeMCPTool:
		name = fmt.Sprintf("%s MCP tool hook %s/%s", ev, h.Server, h.Tool)
	}
	switch {
	case a.timedOut:
		res.Messages = append(res.Messages, fmt.Sprintf("%s timed out after %s and was killed; it did not block anything.", name, a.timeout))
		return
	case a.err != nil:
		res.Messages = append(res.Messages, fmt.Sprintf("%s failed: %v", name, a.err))
		return
	case a.code == 2:
		raise(res, Deny)
		reason := strings.TrimSpace(a.stderr)
		if reason == "" {
			reason = "(the hook gave no reason)"
		}
		reasons[Deny] = append(reasons[Deny], reason)
		return
	case a.verdict != nil:
		foldVerdict(ev, h, *a.verdict, res, reasons)
		return
	case a.code != 0:
		msg := fmt.Sprintf("%s failed with exit code %d", name, a.code)
		if s := strings.TrimSpace(a.stderr); s != "" {
			msg += ": " + s
		}
		res.Messages = append(res.Messages, msg)
		return
	}
	out := strings.TrimSpace(a.stdout)
	var o Output
	if !strings.HasPrefix(out, "{") || json.Unmarshal([]byte(out), &o) != nil {
		// Plain stdout is context for the model on the events that take
		// it, and a transcript line elsewhere (not shown here).
		if out != "" && (ev == UserPromptSubmit || ev == SessionStart || ev == SubagentStart) {
			res.Context = append(res.Context, out)
		}
		return
	}
	if o.SystemMessage != "" {
		res.Messages = append(res.Messages, o.SystemMessage)
	}
	if o.Continue != nil && !*o.Continue {
		res.Stop = true
		if o.StopReason != "" {
			res.StopReason = o.StopReason
		}
	}
	switch o.Decision {
	case "block":
		raise(res, Deny)
		reasons[Deny] = append(reasons[Deny], nonEmpty(o.Reason, "blocked by "+name))
	case "approve":
		raise(res, Allow)
	}
	if s := o.HookSpecificOutput; s != nil {
		switch d := Decision(s.PermissionDecision); d {
		case Allow, Ask, Deny, Defer:
			raise(res, d)
			reason := s.PermissionDecisionReason
			if reason == "" && d == Deny {
				reason = "denied by " + name
			}
			if reason != "" {
				reasons[d] = append(reasons[d], reason)
			}
		case None:
		default:
			res.Messages = append(res.Messages, fmt.Sprintf("%s: unknown permissionDecision %q ignored", name, s.PermissionDecision))
		}
		if len(s.UpdatedInput) > 0 && string(s.UpdatedInput) != "null" {
			res.UpdatedInput = s.UpdatedInput
		}
		if s.AdditionalContext != "" {
			res.Context = append(res.Context, s.AdditionalContext)
		}
		if v := s.Decision; v != nil && ev == PermissionRequest {
			switch {
			case v.Behavior == "deny":
				if res.Permission == nil || res.Permission.Behavior != "deny" {
					res.Permission = &Verdict{Behavior: "deny", Message: v.Message, Interrupt: v.Interrupt}
				}
			case v.Behavior == "allow" && (res.Permission == nil || res.Permission.Behavior == "allow"):
				res.Permission = &Verdict{Behavior: "allow", UpdatedInput: v.UpdatedInput}
			case v.Behavior != "allow":
				res.Messages = append(res.Messages, fmt.Sprintf("%s: unknown decision.behavior %q ignored", name, v.Behavior))
			}
		}
		for _, o := range []json.RawMessage{s.UpdatedMCPToolOutput, s.UpdatedToolOutput} {
			if len(o) > 0 && string(o) != "null" && ev == PostToolUse {
				res.UpdatedToolOutput = o
			}
		}
		if s.Retry && ev == PermissionDenied {
			res.Retry = true
		}
	}
}

func raise(res *Result, d Decision) {
	if d.rank() > res.Decision.rank() {
		res.Decision = d
	}
}

func nonEmpty(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}
