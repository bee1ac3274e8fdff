//go:build !linux

package sandbox

// HostPID returns pid unchanged: off Linux a sandboxed command shares the
// host's pid namespace (Seatbelt has none of its own), so the pid a
// command sees is the host's.
func (ss *Sandbox) HostPID(pid int) int { return pid }
