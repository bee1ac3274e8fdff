package sandbox

import "os"

// sandboxUnsupported is nil: Seatbelt (sandbox-exec) confines commands on
// macOS.
func sandboxUnsupported() error { return nil }

// useSeatbelt runs each command under sandbox-exec with a profile made
// from its Spec (SeatbeltProfile) instead of bubblewrap.
const useSeatbelt = true

// pool has no long-lived sandbox on macOS: each command runs under a
// sandbox-exec of its own.
type pool struct{}

func (ss *Sandbox) start(sb *Spec, req request, out *os.File) (*Process, error) {
	return sb.startSeatbelt(req.Command, req.Dir, req.Env, out, req.Cwd)
}

// PIDs returns the pids of the session's sandbox servers and of the bwrap
// processes around them: none on macOS, where each command runs under a
// sandbox-exec of its own.
func (ss *Sandbox) PIDs() (servers, bwraps []int) { return nil, nil }

// Close ends the session's sandbox: the egress bridges' listeners.
func (ss *Sandbox) Close() { ss.closeBridges() }
