package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"
)

// Process is a started command: the pid of its process group's leader,
// and, once Done is closed, its exit status and the directory it ended in
// (Exit). The host kills the group by Pid on timeout or cancel, inside the
// sandbox or not.
type Process struct {
	// Pid leads the command's process group, as the host sees it.
	Pid  int
	done chan struct{}
	code int
	cwd  string
	err  error
	// byCgroup says a cgroup held some of the command's limits: limited
	// is the note its events made ("" when no limit acted), rlimits the
	// limits left to rlimits.
	byCgroup bool
	limited  string
	rlimits  Limits
}

// NewProcess returns the Process of a command started as pid; End
// finishes it.
func NewProcess(pid int) *Process { return &Process{Pid: pid, done: make(chan struct{}), code: -1} }

// End records how the command ended and closes Done; call it once.
func (p *Process) End(code int, cwd string, err error) {
	p.code, p.cwd, p.err = code, cwd, err
	close(p.done)
}

// Done is closed once the group's leader has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// watched returns the Process that ends once p has and cg has been
// read and removed: cg held the limits but for rest, left to rlimits.
func watched(p *Process, cg *cgroup, rest Limits) *Process {
	q := NewProcess(p.Pid)
	q.byCgroup, q.rlimits = true, rest
	go func() {
		<-p.Done()
		code, cwd, err := p.Exit()
		q.limited = cg.finish()
		q.End(code, cwd, err)
	}()
	return q
}

// Exit is the command's exit status (128+n when killed by signal n, -1
// when unknown), the working directory it ended in when it was asked for
// ("" when unknown), and why the status is unknown (a sandbox server that
// ended first). Call it after Done.
func (p *Process) Exit() (code int, cwd string, err error) { return p.code, p.cwd, p.err }

// TrapCwd makes the script bash runs: an EXIT trap that writes the final
// working directory to cwdPath, then the command on the same line, so that
// bash's line numbers in error messages stay those of the command.
func TrapCwd(command, cwdPath string) (string, error) {
	q, err := syntax.Quote(cwdPath, syntax.LangBash)
	if err != nil {
		return "", fmt.Errorf("quote cwd file path: %w", err)
	}
	return "trap 'pwd -P >| " + strings.ReplaceAll(q, "'", `'\''`) + " 2>/dev/null' EXIT; " + command, nil
}

// ExitCode is cmd's exit status after Wait returned werr: 128+n when a
// signal n killed it, -1 when it never ran.
func ExitCode(cmd *exec.Cmd, werr error) int {
	if cmd.ProcessState == nil {
		return -1
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	if werr != nil {
		var ee *exec.ExitError
		if !errors.As(werr, &ee) {
			return -1
		}
	}
	return cmd.ProcessState.ExitCode()
}

// startError explains a failure to start bash inside the sandbox.
func startError(err error) error {
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("start bash: %w (the Bash tool needs bash on PATH: install it, or fix PATH)", err)
	}
	return fmt.Errorf("start bash: %w", err)
}
