//go:build windows

package procgroup

import (
	"fmt"
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/windows"
)

// Own makes cmd, not yet started, start in a process group of its own
// (CREATE_NEW_PROCESS_GROUP: the console's Ctrl+C does not reach it).
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
}

// Terminate ends the process pid and its descendants: Windows has no
// signal a console program can be asked to end with, so it is Kill.
func Terminate(pid int) error { return Kill(pid) }

// Kill ends the process pid and its descendants (taskkill /T /F).
func Kill(pid int) error {
	out, err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).CombinedOutput()
	if err != nil {
		if !Alive(pid) {
			return nil
		}
		return fmt.Errorf("taskkill /T /F /PID %d: %w: %s", pid, err, out)
	}
	return nil
}

// Exists reports whether the process pid is still running; its
// descendants are not looked at.
func Exists(pid int) bool { return Alive(pid) }

// Alive reports whether the process pid is still running.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return false
	}
	return code == stillActive
}

// stillActive is the exit code GetExitCodeProcess reports for a process
// that is running (STILL_ACTIVE).
const stillActive = 259
