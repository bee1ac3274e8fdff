//go:build !linux

package sandbox

import (
	"fmt"
	"os"
	goruntime "runtime"
)

// sandboxUnsupported is why the sandbox cannot run here: bubblewrap, the
// only confinement so far, runs on Linux alone. A sandboxed command fails
// closed with it rather than run unconfined.
func sandboxUnsupported() error {
	return fmt.Errorf("the Bash sandbox is not available on %s: it confines commands with bubblewrap, which runs only on Linux; turn sandbox.enabled off and drop --sandbox to run commands without it", osName())
}

func osName() string {
	switch goruntime.GOOS {
	case "darwin":
		return "macOS (darwin)"
	case "windows":
		return "Windows"
	}
	return goruntime.GOOS
}

// pool has no sandbox to keep on this OS.
type pool struct{}

func (ss *Sandbox) start(*Spec, request, *os.File) (*Process, error) {
	return nil, sandboxUnsupported()
}

// PIDs returns the pids of the session's sandbox servers and of the bwrap
// processes around them: none on this OS.
func (ss *Sandbox) PIDs() (servers, bwraps []int) { return nil, nil }

// Close ends every sandbox of the session: there is none on this OS.
func (ss *Sandbox) Close() {}
