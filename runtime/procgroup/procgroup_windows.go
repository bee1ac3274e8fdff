//go:build windows

package procgroup

import (
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Own makes cmd, not yet started, start in a process group of its own
// (CREATE_NEW_PROCESS_GROUP: the console's Ctrl+C does not reach it).
// Start also puts it in a Job object; a command started by its caller
// after Own alone is ended with taskkill.
func Own(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_NEW_PROCESS_GROUP
}

// Start starts cmd in a process group of its own, inside a Job object of
// its own that every process it starts joins: Kill ends the job, and the
// job ends when this process does (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
// The command starts suspended and is resumed once in the job, so that
// nothing it starts escapes. When the job cannot be made (an old Windows,
// a parent job that forbids it) the command runs without one and Kill
// falls back to taskkill.
func Start(cmd *exec.Cmd) error {
	Own(cmd)
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	sweep()
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	job, jobErr := newJob(pid)
	if err := resume(pid); err != nil {
		if jobErr == nil {
			_ = windows.TerminateJobObject(job, 1)
			_ = windows.CloseHandle(job)
		} else {
			_ = cmd.Process.Kill()
		}
		_ = cmd.Wait()
		return fmt.Errorf("resume %s (pid %d): %w", cmd.Path, pid, err)
	}
	if jobErr == nil {
		jobs.Lock()
		jobs.m[pid] = job
		jobs.Unlock()
	}
	return nil
}

// jobs maps the pid of each command Start started to its Job object,
// until the job is empty.
var jobs = struct {
	sync.Mutex
	m map[int]windows.Handle
}{m: map[int]windows.Handle{}}

// newJob makes a Job object that kills its processes when its last
// handle closes and puts the process pid in it.
func newJob(pid int) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, fmt.Errorf("CreateJobObject: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("SetInformationJobObject: %w", err)
	}
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("OpenProcess: %w", err)
	}
	defer windows.CloseHandle(p)
	if err := windows.AssignProcessToJobObject(job, p); err != nil {
		_ = windows.CloseHandle(job)
		return 0, fmt.Errorf("AssignProcessToJobObject: %w", err)
	}
	return job, nil
}

// resume resumes the threads of the suspended process pid (os/exec
// closes the main thread's handle, so they are found by a snapshot).
func resume(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("CreateToolhelp32Snapshot: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != uint32(pid) {
			continue
		}
		t, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("OpenThread: %w", err)
		}
		_, err = windows.ResumeThread(t)
		_ = windows.CloseHandle(t)
		if err != nil {
			return fmt.Errorf("ResumeThread: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread found to resume")
	}
	return nil
}

// active is the number of processes in job still running.
func active(job windows.Handle) uint32 {
	// JOBOBJECT_BASIC_ACCOUNTING_INFORMATION, which x/sys does not define.
	var info struct {
		TotalUserTime, TotalKernelTime                     int64
		ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime int64
		TotalPageFaultCount, TotalProcesses                uint32
		ActiveProcesses, TotalTerminatedProcesses          uint32
	}
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return info.ActiveProcesses
}

// sweep closes the jobs no process runs in any more.
func sweep() {
	jobs.Lock()
	defer jobs.Unlock()
	for pid, job := range jobs.m {
		if active(job) == 0 {
			_ = windows.CloseHandle(job)
			delete(jobs.m, pid)
		}
	}
}

// jobOf is the job of the command Start started as pid, if it has one.
func jobOf(pid int) (windows.Handle, bool) {
	jobs.Lock()
	defer jobs.Unlock()
	job, ok := jobs.m[pid]
	return job, ok
}

// Terminate ends the process pid and its descendants: Windows has no
// signal a console program can be asked to end with, so it is Kill.
func Terminate(pid int) error { return Kill(pid) }

// Kill ends the process pid and its descendants: every process of its
// Job object when Start started it, else the tree taskkill /T /F finds.
func Kill(pid int) error {
	if job, ok := jobOf(pid); ok {
		if err := windows.TerminateJobObject(job, 1); err != nil && active(job) > 0 {
			return fmt.Errorf("TerminateJobObject (pid %d): %w", pid, err)
		}
		return nil
	}
	if !Alive(pid) {
		return nil
	}
	out, err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).CombinedOutput()
	if err != nil {
		if !Alive(pid) {
			return nil
		}
		return fmt.Errorf("taskkill /T /F /PID %d: %w: %s", pid, err, out)
	}
	return nil
}

// Exists reports whether a process of the group led by pid still runs:
// any process of its Job object when Start started it, else pid itself.
func Exists(pid int) bool {
	if job, ok := jobOf(pid); ok {
		return active(job) > 0
	}
	return Alive(pid)
}

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
