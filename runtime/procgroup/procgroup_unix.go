//go:build unix

package procgroup

import (
	"errors"
	"os/exec"
	"syscall"
)

// Own makes cmd, not yet started, start as the leader of a process group
// of its own.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// Start starts cmd as the leader of a process group of its own.
func Start(cmd *exec.Cmd) error {
	Own(cmd)
	return cmd.Start()
}

// Terminate asks every process of the group led by pid to end (SIGTERM).
func Terminate(pid int) error { return syscall.Kill(-pid, syscall.SIGTERM) }

// Kill ends every process of the group led by pid at once (SIGKILL).
func Kill(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// Exists reports whether the group led by pid still has a process, a
// zombie not yet reaped included.
func Exists(pid int) bool { return !errors.Is(syscall.Kill(-pid, 0), syscall.ESRCH) }

// Alive reports whether the process pid exists (a zombie included).
func Alive(pid int) bool { return syscall.Kill(pid, 0) == nil }
