//go:build !linux && !darwin

package sandbox

import (
	"fmt"
	"os"
	goruntime "runtime"
)

// sandboxUnsupported is why the sandbox cannot run here: it confines
// commands with bubblewrap on Linux and Seatbelt on macOS, and has
// nothing for this OS. A sandboxed command fails closed with it rather
// than run unconfined.
func sandboxUnsupported() error {
	return fmt.Errorf("the Bash sandbox is not available on %s: it confines commands with bubblewrap on Linux and Seatbelt on macOS only; turn sandbox.enabled off and drop --sandbox to run commands without it", osName())
}

// useSeatbelt is false: there is no sandbox on this OS.
const useSeatbelt = false

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
func (ss *Sandbox) Close() { ss.closeBridges() }
