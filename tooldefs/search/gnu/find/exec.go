package find

import (
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/internal/lite"
)

// This file runs the commands of -exec and -execdir with package os
// alone: os/exec would bring path/filepath's initialiser in front of
// this package's (see the package doc).

// run runs a command for -exec with find's standard streams in dir ("" for
// find's own) and returns its error. As GNU's find, it reports a command
// that could not start or was killed by a signal, and leaves find's exit
// status to the caller (an -exec … ; that fails is only false).
func (f *findRun) run(args []string, dir string) error {
	f.out.Flush()
	err := runCommand(args, dir, f.std)
	var exit *exitStatus
	switch {
	case errors.As(err, &exit):
		if ws, ok := exit.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			f.message(f.q.Quote(args[0]) + " terminated by signal " + strconv.Itoa(int(ws.Signal())))
		}
	case err != nil:
		f.message(f.q.Quote(args[0]) + ": " + ErrnoText(err))
	}
	return err
}

// exitStatus is a command that ran and did not exit with status 0.
type exitStatus struct{ state *os.ProcessState }

func (e *exitStatus) Error() string { return e.state.String() }

// runCommand starts args[0], found as execvp(3) finds it, in dir with
// std's streams and waits for it; a stream that is not a file is fed
// through a pipe.
func runCommand(args []string, dir string, std Stdio) error {
	path, err := lookPath(args[0], std.Env("PATH"))
	if err != nil {
		return err
	}
	stdin := std.Stdin
	if stdin == nil {
		if stdin, err = os.Open(os.DevNull); err != nil {
			return err
		}
		defer stdin.Close()
	}
	files := []*os.File{stdin, nil, nil}
	var copies []chan error
	var closeAfterStart []*os.File
	for i, w := range []io.Writer{std.Stdout, std.Stderr} {
		if file, ok := w.(*os.File); ok {
			files[i+1] = file
			continue
		}
		r, pw, err := os.Pipe()
		if err != nil {
			for _, c := range closeAfterStart {
				c.Close()
			}
			return err
		}
		files[i+1] = pw
		closeAfterStart = append(closeAfterStart, pw)
		done := make(chan error, 1)
		copies = append(copies, done)
		go func(w io.Writer, r *os.File) {
			_, err := io.Copy(w, r)
			r.Close()
			done <- err
		}(w, r)
	}
	proc, err := os.StartProcess(path, args, &os.ProcAttr{Dir: dir, Files: files})
	for _, c := range closeAfterStart {
		c.Close()
	}
	if err != nil {
		for _, done := range copies {
			<-done
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	state, err := proc.Wait()
	for _, done := range copies {
		<-done
	}
	if err != nil {
		return err
	}
	if !state.Success() {
		return &exitStatus{state}
	}
	return nil
}

// lookPath finds a command as execvp(3) does: a name with a slash as it
// is, otherwise the first executable regular file of that name in the
// directories of pathList (an empty one is the working directory).
// Without one it returns ENOENT, or EACCES when a file was found that
// cannot be executed.
func lookPath(name, pathList string) (string, error) {
	if lite.Contains(name, "/") {
		return name, nil
	}
	if name == "" {
		return "", syscall.ENOENT
	}
	denied := false
	for _, dir := range lite.Split(pathList, ":") {
		if dir == "" {
			dir = "."
		}
		p := dir + "/" + name
		if !isRegular(p) {
			continue
		}
		if access(p, 1) == nil { // X_OK
			return p, nil
		}
		denied = true
	}
	if denied {
		return "", syscall.EACCES
	}
	return "", syscall.ENOENT
}

// parentDir is dirname(3) of a path find made: what comes before its last
// slash, less trailing slashes ("." for none, "/" for the root).
func parentDir(p string) string {
	i := lite.LastIndexByte(p, '/')
	if i < 0 {
		return "."
	}
	d := lite.TrimSlashes(p[:i])
	if d == "" {
		return "/"
	}
	return d
}
