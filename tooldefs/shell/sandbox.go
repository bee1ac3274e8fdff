package shell

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// Sandbox confines a command with bubblewrap (bwrap): the whole filesystem
// bound read-only, the Writable directories bound read-write, a private
// /tmp, the Protected paths bound read-only again over the writable ones,
// and no network unless Network is set.
//
// Network is all or nothing: bwrap has no per-host filter, so a sandbox
// whose settings allow any host shares the host's network (see
// RELIABILITY.md, "Bash sandbox").
type Sandbox struct {
	// Writable are the working directories the command may write.
	Writable []string
	// Protected are paths kept read-only even inside Writable
	// (.git/hooks, .git/config, settings files); missing ones are skipped.
	Protected []string
	// ReadOnly are paths shown read-only over the private /tmp (the
	// directory of links the ant variant puts on PATH, and their target).
	ReadOnly []string
	// Network shares the host network; false unshares it.
	Network bool
	// Bwrap is the bwrap binary; "" means "bwrap" on PATH.
	Bwrap string
}

// BwrapMissingHelp says how to install bubblewrap.
const BwrapMissingHelp = "the Bash sandbox needs bubblewrap (bwrap) on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or turn sandbox.enabled off and drop --sandbox"

// CheckSandbox reports whether bwrap is installed and can create its
// namespaces on this machine.
func CheckSandbox(bwrap string) error {
	if bwrap == "" {
		bwrap = "bwrap"
	}
	path, err := exec.LookPath(bwrap)
	if err != nil {
		return errors.New(BwrapMissingHelp)
	}
	out, err := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true").CombinedOutput()
	if err != nil {
		return fmt.Errorf("bwrap is installed but cannot create namespaces here (%v: %s); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// args returns the bwrap argument list that runs bash -c script in dir;
// extraWritable are files the wrapper itself must write (the cwd file).
func (s *Sandbox) args(script, dir string, extraWritable ...string) []string {
	a := []string{"--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	if !s.Network {
		a = append(a, "--unshare-net")
	}
	for _, p := range s.ReadOnly {
		if _, err := os.Stat(p); err == nil {
			a = append(a, "--ro-bind", p, p)
		}
	}
	for _, w := range append(append([]string(nil), s.Writable...), extraWritable...) {
		if w == "" {
			continue
		}
		if abs, err := filepath.Abs(w); err == nil {
			w = abs
		}
		a = append(a, "--bind", w, w)
	}
	for _, p := range s.Protected {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		a = append(a, "--ro-bind", p, p)
	}
	return append(a, "--chdir", dir, "--", "bash", "-c", script)
}

func (s *Sandbox) binary() string {
	if s.Bwrap != "" {
		return s.Bwrap
	}
	return "bwrap"
}

// sandboxNote explains a sandboxed command's failure that the sandbox
// caused, or returns "".
func sandboxNote(s *Sandbox, exit int, output string) string {
	if s == nil || exit == 0 {
		return ""
	}
	switch {
	case strings.Contains(output, "Read-only file system"):
		return "\n[sandbox] the sandbox denied the write: only the working directories and a private /tmp are writable, and .git/hooks, .git/config and the settings files are read-only"
	case !s.Network && (strings.Contains(output, "Network is unreachable") || strings.Contains(output, "Cannot assign requested address") ||
		strings.Contains(output, "Connection refused") || strings.Contains(output, "Could not resolve host") || strings.Contains(output, "Couldn't connect to server") ||
		strings.Contains(output, "Temporary failure in name resolution")):
		return "\n[sandbox] the sandbox denied network access: sandbox.network allows no hosts"
	}
	return ""
}

// Confine is the Sandbox the commands of tc's session run in, nil when the
// session has no sandbox (no *runtime.Sandbox service): the working
// directories and the settings' AllowWrite writable; the confinement's
// Protected paths inside each working directory and its DenyWrite
// read-only; the network shared only when the settings allow some host
// (bwrap cannot filter by host, see NetworkWarning).
func Confine(tc *runtime.ToolContext) *Sandbox {
	conf, ok := runtime.Service[*runtime.Sandbox](tc)
	if !ok || conf == nil {
		return nil
	}
	sb := &Sandbox{Network: len(conf.AllowedDomains) > 0}
	sb.Writable = append(append(sb.Writable, tc.WorkingDirs...), conf.AllowWrite...)
	for _, d := range tc.WorkingDirs {
		for _, p := range conf.Protected {
			sb.Protected = append(sb.Protected, filepath.Join(d, p))
		}
	}
	sb.Protected = append(sb.Protected, conf.DenyWrite...)
	return sb
}

// NetworkWarning says, for a confinement whose settings allow some hosts,
// that the sandbox shares the whole network instead; "" when it allows
// none (no network at all).
func NetworkWarning(conf *runtime.Sandbox) string {
	if conf == nil || len(conf.AllowedDomains) == 0 {
		return ""
	}
	w := fmt.Sprintf("sandbox.network.allowedDomains (%s) opens the whole network to sandboxed commands: bubblewrap cannot filter by host, so every host is reachable", strings.Join(conf.AllowedDomains, ", "))
	if len(conf.DeniedDomains) > 0 {
		w += fmt.Sprintf(", deniedDomains (%s) included", strings.Join(conf.DeniedDomains, ", "))
	}
	return w + "; remove allowedDomains to run commands without network"
}
