package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/shell"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

// Bash keeps the fail-closed interrupt behaviour, block, like Claude Code's
// BashTool (which defines no interruptBehavior): a user message typed while a
// command runs waits for it. An abort (the call's context) still kills the
// command's whole process group.

// Bash runs a bash command and returns its output.
//
// The working directory persists between commands (a cd carries over to
// the next call, as long as it stays inside the working directories);
// shell variables, functions and aliases do not. Each command runs in a
// fresh, non-interactive bash with no input.
//
// Use it for terminal work: git, builds, tests, package managers, running
// programs. [BashSearchTools]
//
// Usage:
// - Quote paths that contain spaces with double quotes: cd "My Documents".
// - Prefer absolute paths over cd, to keep the working directory stable.
// - timeout is in milliseconds, at most 600000 (10 minutes); without it a
// command is stopped after 120000 (2 minutes). A stopped command is killed
// together with every process it started.
// - stdout and stderr come back interleaved, as a terminal shows them.
// Output over 30000 characters keeps its beginning and end; the whole
// output is saved to a file whose path the result names. Read it with
// Read, or grep it.
// - A non-zero exit status makes the call fail with the output and the exit
// code, except where the status is an answer: 1 from grep, rg, diff, find,
// test or [ (no match, files differ…) as the last command.
// - run_in_background starts the command and returns at once with a task
// ID and the file receiving its output. Do not add & to the command
// yourself. Read new output with TaskOutput, and stop the command with
// TaskStop.
// - To run independent commands, make several Bash calls in one response;
// chain dependent ones with && (or ; when later ones must run even if
// earlier ones fail). Do not separate commands with newlines.
// - Give a short description (5-10 words, active voice) of what the
// command does.
// - Never use interactive commands (git rebase -i, editors): there is no
// input.
//
// +tool:name=Bash
// +tool:cancelsSiblingsOnError
// +tool:permissionFamily=command
// +tool:searchHint="run shell commands in bash"
type Bash struct{}

// BashInput is the input of Bash.
type BashInput struct {
	// The command to run.
	Command string `json:"command" jsonschema:"minLength=1"`
	// Optional timeout in milliseconds, at most 600000. Without it the command is stopped after 120000.
	Timeout int `json:"timeout,omitempty" jsonschema:"minimum=0,maximum=600000"`
	// A clear, concise description of what the command does, in 5-10 words, in active voice, e.g. "List files in the current directory".
	Description string `json:"description,omitempty"`
	// Run the command in the background and return at once with its task ID; read its output with TaskOutput and stop it with TaskStop.
	RunInBackground bool `json:"run_in_background,omitempty"`
	// Set this to true to dangerously override sandbox mode and run the command without sandboxing. It always needs the user's approval, and is refused when sandbox.allowUnsandboxedCommands is false.
	DangerouslyDisableSandbox bool `json:"dangerouslyDisableSandbox,omitempty"`
}

// BashOutput is the outcome of a Bash call.
type BashOutput struct {
	// Output is stdout and stderr interleaved; head and tail only when
	// Truncated.
	Output string `json:"output"`
	// Stdout and Stderr are Claude Code's names for the output (its
	// tool_use_result and hooks' tool_response): like Claude Code, which
	// also runs the command with stderr on stdout's file, Stdout is Output
	// and Stderr is empty.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// ExitCode is the command's exit status: 0, or a status that is an
	// answer rather than a failure (grep's 1 for no match), see ExitNote.
	ExitCode int `json:"exit_code"`
	// ExitNote says what a non-zero, non-error exit status means, e.g.
	// "No matches found".
	ExitNote string `json:"exit_note,omitempty"`
	// DurationMs is the wall time of the run.
	DurationMs int64 `json:"duration_ms"`
	// TotalLines and TotalChars measure the whole output.
	TotalLines int   `json:"total_lines"`
	TotalChars int64 `json:"total_chars"`
	// Truncated is true when Output is cut; FullOutputPath holds it all.
	Truncated      bool   `json:"truncated,omitempty"`
	FullOutputPath string `json:"full_output_path,omitempty"`
	// Cwd is the working directory after the command, when it changed.
	Cwd string `json:"cwd,omitempty"`
	// CwdNote says why the working directory was reset.
	CwdNote string `json:"cwd_note,omitempty"`
	// SandboxNote, on the session's first result, says that the settings
	// turned the sandbox on but it could not start, so the command ran
	// without it.
	SandboxNote string `json:"sandbox_note,omitempty"`
	// BackgroundTaskID and BackgroundOutputPath are set for
	// run_in_background: the task and the file receiving its output.
	BackgroundTaskID     string `json:"background_task_id,omitempty"`
	BackgroundOutputPath string `json:"background_output_path,omitempty"`
}

// BashProgress is reported while a command runs.
type BashProgress struct {
	// LastLines are the last lines of output so far.
	LastLines string `json:"last_lines"`
	// TotalLines and TotalBytes count the output so far.
	TotalLines int   `json:"total_lines"`
	TotalBytes int64 `json:"total_bytes"`
	// ElapsedMs is the time since the command started; TimeoutMs its limit.
	ElapsedMs int64 `json:"elapsed_ms"`
	TimeoutMs int64 `json:"timeout_ms"`
}

// BashError is the error of a command that failed: a non-zero exit status,
// a timeout, or an abort. Its text carries the output, so the model sees
// what went wrong.
type BashError struct {
	// Output is the command's output (head and tail when long).
	Output string
	// ExitCode is the exit status (128+n when killed by signal n).
	ExitCode int
	// TimedOut is true when the command ran past TimeoutMs and was killed.
	TimedOut  bool
	TimeoutMs int64
	// Canceled is true when the call was aborted; Cause is the context's
	// error.
	Canceled bool
	Cause    error
	// Note is appended to the text (e.g. a working directory reset).
	Note string
}

// Error is what went wrong and the output, in Claude Code's order: a
// non-zero exit status first ("Exit code 3", then the output), a timeout
// or an abort after the output.
func (e *BashError) Error() string {
	var b strings.Builder
	if !e.TimedOut && !e.Canceled {
		fmt.Fprintf(&b, "Exit code %d", e.ExitCode)
		if e.Output != "" {
			b.WriteString("\n")
			b.WriteString(e.Output)
		}
	} else {
		if e.Output != "" {
			b.WriteString(e.Output)
			b.WriteString("\n")
		}
		if e.TimedOut {
			fmt.Fprintf(&b, "Command timed out after %d ms and was killed. Run long commands with run_in_background, or give a longer timeout (at most 600000).", e.TimeoutMs)
		} else {
			b.WriteString("Command was aborted before completion.")
		}
	}
	if e.Note != "" {
		b.WriteString("\n")
		b.WriteString(e.Note)
	}
	return b.String()
}

// Unwrap returns the context error of an aborted command.
func (e *BashError) Unwrap() error { return e.Cause }

// ValidateInput refuses a blank command.
func (Bash) ValidateInput(_ context.Context, in *BashInput, _ *runtime.ToolContext) error {
	if strings.TrimSpace(in.Command) == "" {
		return errors.New("command is blank: pass the shell command to run")
	}
	return nil
}

// CheckPermissions asks, in every mode, for a call that sets
// dangerouslyDisableSandbox while the session's sandbox is on: the user
// alone may let a command run outside (no mode, and no allow rule for the
// command, settles it), and a run that cannot ask denies it. With
// sandbox.allowUnsandboxedCommands false it is refused outright. Any
// other call is left to the rules and the mode.
func (Bash) CheckPermissions(_ context.Context, in *BashInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	sb, on := runtime.Service[*sandbox.Sandbox](tc)
	if !in.DangerouslyDisableSandbox || !on || sb == nil {
		return runtime.PermissionDecision{Behavior: runtime.Passthrough}
	}
	if !sb.Config().AllowUnsandboxed {
		return runtime.PermissionDecision{Behavior: runtime.Deny, Message: "dangerouslyDisableSandbox is refused: sandbox.allowUnsandboxedCommands is false in the settings, so every command runs inside the sandbox. Run the command without dangerouslyDisableSandbox, or ask the user to change the setting."}
	}
	return runtime.PermissionDecision{Behavior: runtime.Ask, EveryMode: true,
		Message: fmt.Sprintf("Bash wants to run %q outside the sandbox (dangerouslyDisableSandbox): it could write anywhere the user can and reach the network. Running outside the sandbox needs the user's approval in every mode.", shell.OneLine(in.Command, 160))}
}

// PermissionTarget is the command, which rules like Bash(npm run test:*)
// match.
func (Bash) PermissionTarget(in *BashInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetCommand, Value: in.Command, Shell: bashCommand(in)}
}

// bashParses holds the parse of each live BashInput, keyed weakly by the
// input: every per-input method of one call (and Call) gets the call's
// one *BashInput, so its command is parsed once per call however many
// analyses read it, and the permission engine gets that parse through
// PermissionTarget. An entry goes when its input is collected.
var bashParses sync.Map // weak.Pointer[BashInput] → *shellsyntax.Command

// bashCommand is in's command, parsed once.
func bashCommand(in *BashInput) *shellsyntax.Command {
	key := weak.Make(in)
	if v, ok := bashParses.Load(key); ok {
		if c := v.(*shellsyntax.Command); c.Source == in.Command {
			return c
		}
	}
	c := shellsyntax.ParseCommand(in.Command)
	if _, loaded := bashParses.Swap(key, c); !loaded {
		goruntime.AddCleanup(in, func(k weak.Pointer[BashInput]) { bashParses.Delete(k) }, key)
	}
	return c
}

// IsReadOnly is true when the parsed command only runs allowlisted
// read-only programs without writing (see classify.IsReadOnly).
func (Bash) IsReadOnly(in *BashInput) bool { return classify.ClassifyParsed(bashCommand(in)).ReadOnly }

// IsConcurrencySafe is true exactly when the command is read-only.
func (Bash) IsConcurrencySafe(in *BashInput) bool {
	return classify.ClassifyParsed(bashCommand(in)).ReadOnly
}

// IsDestructive is true for commands that plainly delete or overwrite (rm,
// git reset --hard…).
func (Bash) IsDestructive(in *BashInput) bool { return classify.IsDestructiveParsed(bashCommand(in)) }

// InterruptBehavior lets a test suite or a build finish when the user
// interrupts (its result is still worth having) and stops anything else at
// once: an install, a download, a server, a sleep.
func (Bash) InterruptBehavior(in *BashInput) runtime.InterruptBehavior {
	if classify.FinishOnInterruptParsed(bashCommand(in)) {
		return runtime.InterruptBlock
	}
	return runtime.InterruptCancel
}

// Call runs the command, in the background when asked.
func (Bash) Call(ctx context.Context, in *BashInput, c *runtime.Call) (BashOutput, error) {
	tc := bashToolContext(ctx, c)
	dir, note := bashDir(tc)
	if note != "" {
		root := dir
		c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd = root })
	}
	env := bashEnv(tc)
	pathDir, release, err := bashSearchPath(tc)
	if err != nil {
		return BashOutput{}, err
	}
	defer release()
	env = bashWithPath(env, tc, pathDir)
	sb, err := bashSandbox(tc, in, pathDir)
	if err != nil {
		return BashOutput{}, err
	}
	unset := bashSecrets(tc).Unset(sb != nil)
	var sandboxNote string
	if off, ok := runtime.Service[*sandbox.Off](tc); ok && sb == nil {
		sandboxNote = off.Notice()
	}

	if in.RunInBackground {
		shells, err := shell.Background(tc)
		if err != nil {
			return BashOutput{}, fmt.Errorf("run_in_background: %w", err)
		}
		t, err := shells.Start(shell.BackgroundOptions{
			Command: in.Command, Description: in.Description, Dir: dir, Env: env, Sandbox: sb, Unset: unset,
		})
		if err != nil {
			return BashOutput{}, err
		}
		return BashOutput{BackgroundTaskID: t.ID, BackgroundOutputPath: t.OutputPath, CwdNote: note, SandboxNote: sandboxNote}, nil
	}

	timeout := bashDefaultTimeout(tc)
	if in.Timeout > 0 {
		timeout = min(time.Duration(in.Timeout)*time.Millisecond, shell.MaxTimeout)
	}
	res, err := shell.Run(ctx, shell.Options{
		Command: in.Command,
		Dir:     dir,
		Env:     env,
		Timeout: timeout,
		Sandbox: sb,
		Unset:   unset,
		// A session that writes large results to a file lets more
		// through, so that the file holds the whole output.
		MaxOutputChars: runtime.ToolOptionsOf(tc).ShellMaxOutputChars,
		OnProgress: func(p shell.Progress) {
			c.Progress(BashProgress{
				LastLines: p.LastLines, TotalLines: p.TotalLines, TotalBytes: p.TotalBytes,
				ElapsedMs: p.Elapsed.Milliseconds(), TimeoutMs: timeout.Milliseconds(),
			})
		},
	})
	if err != nil {
		if res.Canceled {
			return BashOutput{}, &BashError{Canceled: true, Cause: ctx.Err()}
		}
		return BashOutput{}, err
	}
	out := BashOutput{
		Output: res.Output, Stdout: res.Output, ExitCode: res.ExitCode, DurationMs: res.Duration.Milliseconds(),
		TotalLines: res.TotalLines, TotalChars: res.TotalChars,
		Truncated: res.Truncated, FullOutputPath: res.FullOutputPath, CwdNote: note, SandboxNote: sandboxNote,
	}
	if cwd, cwdNote := bashFollowCwd(tc, dir, res.Cwd, c); cwdNote != "" {
		out.CwdNote = cwdNote
	} else if cwd != "" {
		out.Cwd = cwd
	}
	switch {
	case res.TimedOut:
		return out, &BashError{Output: res.Output, ExitCode: res.ExitCode, TimedOut: true, TimeoutMs: timeout.Milliseconds(), Note: joinNotes(out.CwdNote, out.SandboxNote)}
	case res.Canceled:
		return out, &BashError{Output: res.Output, ExitCode: res.ExitCode, Canceled: true, Cause: ctx.Err(), Note: joinNotes(out.CwdNote, out.SandboxNote)}
	case res.ExitCode != 0:
		isError, meaning := classify.ExitMeaningParsed(bashCommand(in), res.ExitCode)
		if isError {
			return out, &BashError{Output: res.Output, ExitCode: res.ExitCode, Note: joinNotes(out.CwdNote, out.SandboxNote)}
		}
		out.ExitNote = meaning
	}
	return out, nil
}

// bashSandbox is the confinement the call's command runs in: the
// session's sandbox (the *sandbox.Sandbox capability of the tool
// context) made for the call's working directories, nil without one. The
// PATH directory of the built-in grep and find, and the binary its links
// point to, stay visible when they sit under the private /tmp.
func bashSandbox(tc *runtime.ToolContext, in *BashInput, pathDir string) (*sandbox.Spec, error) {
	s, ok := runtime.Service[*sandbox.Sandbox](tc)
	if !ok || s == nil {
		return nil, nil
	}
	if in.DangerouslyDisableSandbox {
		// The permission check asked the user (CheckPermissions); the
		// setting is checked again for a caller that skipped it.
		if !s.Config().AllowUnsandboxed {
			return nil, errors.New("dangerouslyDisableSandbox is refused: sandbox.allowUnsandboxedCommands is false in the settings; run the command without it")
		}
		return nil, nil
	}
	sb, err := s.Spec(tc.WorkingDirs)
	if err != nil || pathDir == "" {
		return sb, err
	}
	sb.ReadOnly = append(sb.ReadOnly, pathDir)
	if entries, err := os.ReadDir(pathDir); err == nil {
		for _, e := range entries {
			if target, err := filepath.EvalSymlinks(filepath.Join(pathDir, e.Name())); err == nil && !slices.Contains(sb.ReadOnly, target) {
				sb.ReadOnly = append(sb.ReadOnly, target)
			}
		}
	}
	return sb, nil
}

// joinNotes joins the notes that are not empty, one a line.
func joinNotes(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(n string) bool { return n == "" }), "\n")
}

// bashSecrets says which variables the call's command runs without: the
// session's (the *sandbox.Secrets capability), the agent's credentials
// (sandbox.CredentialEnv) without one.
func bashSecrets(tc *runtime.ToolContext) *sandbox.Secrets {
	s, _ := runtime.Service[*sandbox.Secrets](tc)
	return s
}

// bashDefaultTimeout is the timeout of a call that names none:
// BASH_DEFAULT_TIMEOUT_MS from the context's environment (the settings'
// env), as in Claude Code, else the session's ToolOptions.CommandTimeout
// (agentcore: the variable in its own environment), else
// shell.DefaultTimeout; never above shell.MaxTimeout.
func bashDefaultTimeout(tc *runtime.ToolContext) time.Duration {
	if v, ok := tc.Env["BASH_DEFAULT_TIMEOUT_MS"]; ok {
		if ms, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && ms > 0 {
			return min(time.Duration(ms)*time.Millisecond, shell.MaxTimeout)
		}
		return shell.DefaultTimeout
	}
	if d := runtime.ToolOptionsOf(tc).CommandTimeout; d > 0 {
		return min(d, shell.MaxTimeout)
	}
	return shell.DefaultTimeout
}

// bashToolContext is the call's tool context, or one rooted at the process's
// directory when the runtime gave none. That one has no session, so nothing
// it starts can outlive the call: run_in_background is refused with it.
func bashToolContext(ctx context.Context, c *runtime.Call) *runtime.ToolContext {
	if c != nil && c.Context != nil {
		return c.Context
	}
	if tc := runtime.FromContext(ctx); tc != nil {
		return tc
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "/"
	}
	return &runtime.ToolContext{Cwd: wd, WorkingDirs: []string{wd}}
}

// bashDir is the directory to run in: the context's Cwd, or the first
// working directory (with a note) when Cwd is gone.
func bashDir(tc *runtime.ToolContext) (dir, note string) {
	if fi, err := os.Stat(tc.Cwd); err == nil && fi.IsDir() {
		return tc.Cwd, ""
	}
	if len(tc.WorkingDirs) > 0 {
		return tc.WorkingDirs[0], fmt.Sprintf("The working directory %s no longer exists; the shell's cwd was reset to %s.", tc.Cwd, tc.WorkingDirs[0])
	}
	return tc.Cwd, ""
}

// bashFollowCwd moves the context's Cwd to where the command ended, when that
// is inside the working directories; otherwise it resets Cwd to the first
// working directory and returns a note saying so.
func bashFollowCwd(tc *runtime.ToolContext, ran, ended string, c *runtime.Call) (cwd, note string) {
	if ended == "" || bashSamePath(ended, ran) {
		return "", ""
	}
	if shell.Within(ended, tc.WorkingDirs) {
		c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd = ended })
		return ended, ""
	}
	if len(tc.WorkingDirs) == 0 {
		return "", fmt.Sprintf("The command moved to %s, but no working directories are set; the shell's cwd stays %s.", ended, ran)
	}
	root := tc.WorkingDirs[0]
	c.ModifyContext(func(tc *runtime.ToolContext) { tc.Cwd = root })
	return "", fmt.Sprintf("Shell cwd was reset to %s: %s is outside the working directories.", root, ended)
}

func bashSamePath(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}

// bashWithPath puts dir first on the PATH of env (the context's PATH, else
// the process's); env is unchanged when dir is "".
func bashWithPath(env []string, tc *runtime.ToolContext, dir string) []string {
	if dir == "" {
		return env
	}
	path, ok := tc.Env["PATH"]
	if !ok {
		path = os.Getenv("PATH")
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	if path != "" {
		dir += string(os.PathListSeparator) + path
	}
	return append(out, "PATH="+dir)
}

// bashEnv turns the context's extra environment into sorted KEY=VALUE.
func bashEnv(tc *runtime.ToolContext) []string {
	env := make([]string, 0, len(tc.Env))
	for k, v := range tc.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

// ResultBlocks gives the model the output, then any notes.
func (Bash) ResultBlocks(out BashOutput) []runtime.Block {
	var parts []string
	if out.BackgroundTaskID != "" {
		parts = append(parts, fmt.Sprintf("Command running in background with ID: %s. Output is being written to: %s. Read new output with TaskOutput (task_id %q) and stop it with TaskStop.",
			out.BackgroundTaskID, out.BackgroundOutputPath, out.BackgroundTaskID))
	} else if out.Output != "" {
		parts = append(parts, out.Output)
	} else if out.ExitNote == "" {
		parts = append(parts, "(no output)")
	}
	if out.ExitNote != "" {
		parts = append(parts, fmt.Sprintf("(exit code %d: %s)", out.ExitCode, out.ExitNote))
	}
	if out.CwdNote != "" {
		parts = append(parts, out.CwdNote)
	}
	if out.SandboxNote != "" {
		parts = append(parts, out.SandboxNote)
	}
	return []runtime.Block{runtime.TextBlock(strings.Join(parts, "\n"))}
}

// RenderUse shows the command, shortened to one line.
func (Bash) RenderUse(in *BashInput) string {
	s := shell.OneLine(in.Command, 160)
	if in.RunInBackground {
		s += " (in background)"
	}
	return s
}

// RenderPreview shows the command in full and what the model says it
// does, for its permission prompt.
func (Bash) RenderPreview(in *BashInput, _ *runtime.ToolContext) string {
	s := strings.TrimRight(in.Command, "\n")
	if in.Description != "" {
		s += "\n\n" + in.Description
	}
	if in.RunInBackground {
		s += "\n(runs in the background)"
	}
	if in.DangerouslyDisableSandbox {
		s += "\n(runs outside the sandbox)"
	}
	return s
}

// RenderProgress shows the last lines and how long the command has run.
func (Bash) RenderProgress(_ *BashInput, p BashProgress) string {
	status := fmt.Sprintf("Running… %s", bashFormatMs(p.ElapsedMs))
	if p.TotalLines > 0 {
		status += fmt.Sprintf(" · %d %s", p.TotalLines, bashPlural(p.TotalLines, "line", "lines"))
	}
	if p.TimeoutMs > 0 {
		status += fmt.Sprintf(" (timeout %s)", bashFormatMs(p.TimeoutMs))
	}
	if p.LastLines == "" {
		return status
	}
	return p.LastLines + "\n" + status
}

// BashOutputLines is how many lines of a command's output its rendered
// result shows.
const BashOutputLines = 4

// RenderResult summarises the run — compactly for searches and reads
// ("Found 12 lines"), else "Ran in 1.2s, 3 lines"; a non-zero exit status
// that is an answer with its code ("exit code 1: No matches found") — and
// shows the output's first lines under it ("… +N lines" for the rest).
func (Bash) RenderResult(in *BashInput, out BashOutput) string {
	if out.BackgroundTaskID != "" {
		return "Running in background with ID " + out.BackgroundTaskID
	}
	var s string
	lines := fmt.Sprintf("%d %s", out.TotalLines, bashPlural(out.TotalLines, "line", "lines"))
	switch sr := classify.SearchOrReadParsed(bashCommand(in)); {
	case sr.IsSearch:
		s = "Found " + lines
	case sr.IsRead:
		s = "Read " + lines
	case sr.IsList:
		s = "Listed " + lines
	case out.TotalLines == 0:
		s = "Ran in " + bashFormatMs(out.DurationMs) + ", no output"
	default:
		s = "Ran in " + bashFormatMs(out.DurationMs) + ", " + lines
	}
	if out.ExitNote != "" {
		s += fmt.Sprintf(" · exit code %d: %s", out.ExitCode, out.ExitNote)
	}
	if out.Truncated {
		s += " (output truncated; full output in " + out.FullOutputPath + ")"
	}
	if out.CwdNote != "" {
		s += "\n" + out.CwdNote
	}
	return filetool.WithBody(s, filetool.HeadLines(out.Output, BashOutputLines))
}

// RenderRejected says the command did not run.
func (Bash) RenderRejected(in *BashInput) string {
	return "Rejected: did not run " + shell.OneLine(in.Command, 80)
}

// RenderError shows the failure and the last lines of output.
func (Bash) RenderError(_ *BashInput, err error) string {
	var be *BashError
	if !errors.As(err, &be) {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	var head string
	switch {
	case be.TimedOut:
		head = "Timed out after " + bashFormatMs(be.TimeoutMs)
	case be.Canceled:
		head = "Interrupted"
	default:
		head = fmt.Sprintf("Exit code %d", be.ExitCode)
	}
	if tail := bashLastLines(be.Output, 3); tail != "" {
		return head + "\n" + tail
	}
	return head
}

// RenderGrouped renders parallel commands: compactly when all are
// searches, reads or listings ("Searched 2, read 1"), else one per line.
func (Bash) RenderGrouped(ins []*BashInput) string {
	var search, read, list int
	compact := len(ins) > 0
	for _, in := range ins {
		sr := classify.SearchOrReadParsed(bashCommand(in))
		switch {
		case sr.IsSearch:
			search++
		case sr.IsRead:
			read++
		case sr.IsList:
			list++
		default:
			compact = false
		}
	}
	if compact {
		var parts []string
		if search > 0 {
			parts = append(parts, fmt.Sprintf("searched %d", search))
		}
		if read > 0 {
			parts = append(parts, fmt.Sprintf("read %d", read))
		}
		if list > 0 {
			parts = append(parts, fmt.Sprintf("listed %d", list))
		}
		s := strings.Join(parts, ", ")
		return strings.ToUpper(s[:1]) + s[1:] + fmt.Sprintf(" (%d commands)", len(ins))
	}
	lines := make([]string, 0, len(ins))
	for _, in := range ins {
		lines = append(lines, "$ "+shell.OneLine(in.Command, 120))
	}
	return strings.Join(lines, "\n")
}

func bashLastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

func bashFormatMs(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

func bashPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
