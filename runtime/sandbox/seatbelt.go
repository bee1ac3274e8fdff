package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// SandboxExec is macOS's Seatbelt front end: sandbox-exec -p PROFILE runs
// a command confined by the profile.
const SandboxExec = "/usr/bin/sandbox-exec"

// SeatbeltProfile is sp's confinement as a Seatbelt (SBPL) profile for
// sandbox-exec -p, the macOS counterpart of the bubblewrap arguments:
// everything denied but what a shell needs; reads everywhere except
// DenyRead (AllowRead under it shown again); writes only under Writable,
// tmpDir (the command's private temp dir, its TMPDIR), extraWritable (the
// wrapper's own files) and a few devices; the Protected and ReadOnly
// paths, and the hidden ones, not writable even there, and the
// directories above the protected and hidden ones in a writable directory
// not renamable (so a command cannot move .git aside, edit its hooks and
// move it back); no network unless Network, and with Bridges only the bridges'
// loopback ports and Unix sockets.
//
// Seatbelt applies the last rule that matches, so every deny comes after
// the allow it narrows. Paths are used as given: the caller passes them
// with symlinks resolved (/tmp is /private/tmp on macOS), since Seatbelt
// matches the resolved path. The base rules follow those of Claude Code's
// sandbox-runtime and Codex's seatbelt policy.
func SeatbeltProfile(sp *Spec, tmpDir string, extraWritable ...string) string {
	var b strings.Builder
	b.WriteString(seatbeltBase)

	b.WriteString("\n; Network\n")
	switch {
	case sp.Network:
		b.WriteString("(allow network*)\n")
		// Name resolution asks configd for the DNS settings; certificate
		// checks (Go's TLS) ask trustd, which fetches revocation data
		// itself: allowed only with the whole network, as Codex's network
		// policy and Claude Code's weaker network isolation do.
		b.WriteString(seatbeltNetworkServices)
	case len(sp.Bridges) > 0:
		b.WriteString("; only the egress proxies, through their loopback ports or Unix sockets\n")
		b.WriteString("(allow system-socket (socket-domain AF_UNIX))\n")
		for _, br := range sp.Bridges {
			fmt.Fprintf(&b, "(allow network-outbound (remote ip \"localhost:%d\"))\n", br.Port)
			fmt.Fprintf(&b, "(allow network-outbound (remote unix-socket (path-literal %s)))\n", sbplString(br.Socket))
		}
	default:
		b.WriteString("; none: (deny default) covers network*\n")
	}

	writable := slices.DeleteFunc(slices.Clone(sp.Writable), func(w string) bool { return w == "" })
	hidden := seatbeltHidden(sp, writable)

	b.WriteString("\n; File read: everywhere but the hidden paths\n(allow file-read*)\n")
	rule(&b, "deny", "file-read*", subpaths(hidden))
	var shown []string
	for _, a := range sp.AllowRead {
		if slices.ContainsFunc(hidden, func(h string) bool { return under(a, h) && a != h }) {
			shown = append(shown, a)
		}
	}
	rule(&b, "allow", "file-read*", subpaths(shown))

	b.WriteString("\n; File write: the working directories, the allowed paths, the private temp dir\n")
	var allow []string
	for _, w := range writable {
		allow = append(allow, "(subpath "+sbplString(w)+")")
	}
	if tmpDir != "" {
		allow = append(allow, "(subpath "+sbplString(tmpDir)+")")
	}
	for _, p := range extraWritable {
		if p != "" {
			allow = append(allow, "(literal "+sbplString(p)+")")
		}
	}
	rule(&b, "allow", "file-write*", allow)
	b.WriteString(seatbeltDevices)

	var readOnly []string
	readOnly = append(append(append(readOnly, sp.Protected...), sp.ReadOnly...), hidden...)
	b.WriteString("\n; Read-only even inside a writable directory: protected, read-only and hidden paths\n")
	rule(&b, "deny", "file-write*", subpaths(readOnly))
	var pinned []string
	for _, p := range append(slices.Clone(sp.Protected), hidden...) {
		for d := filepath.Dir(p); d != filepath.Dir(d); d = filepath.Dir(d) {
			root := slices.IndexFunc(writable, func(w string) bool { return under(d, w) && d != w })
			if root < 0 {
				break
			}
			if !slices.Contains(pinned, d) {
				pinned = append(pinned, d)
			}
		}
	}
	if len(pinned) > 0 {
		b.WriteString("; the directories above protected and hidden paths stay where they are\n")
		var lits []string
		for _, d := range pinned {
			lits = append(lits, "(literal "+sbplString(d)+")")
		}
		rule(&b, "deny", "file-write-unlink", lits)
	}
	return b.String()
}

// seatbeltHidden are the DenyRead paths the profile hides: as with
// bubblewrap, not one under an AllowRead path nor one that holds a
// writable directory (hiding it would hide the working directory).
func seatbeltHidden(sp *Spec, writable []string) []string {
	var hidden []string
	for _, p := range sp.DenyRead {
		if p == "" || slices.ContainsFunc(sp.AllowRead, func(a string) bool { return under(p, a) }) {
			continue
		}
		if slices.ContainsFunc(writable, func(w string) bool { return under(w, p) }) {
			continue
		}
		hidden = append(hidden, p)
	}
	return hidden
}

// under reports whether path is root or below it, comparing cleaned
// paths only (no filesystem: the profile is a pure function).
func under(path, root string) bool {
	path, root = filepath.Clean(path), filepath.Clean(root)
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/")
}

func subpaths(paths []string) []string {
	var f []string
	for _, p := range paths {
		f = append(f, "(subpath "+sbplString(p)+")")
	}
	return f
}

// rule writes (action op filters...) when there are filters, one a line.
func rule(b *strings.Builder, action, op string, filters []string) {
	if len(filters) == 0 {
		return
	}
	fmt.Fprintf(b, "(%s %s\n", action, op)
	for _, f := range filters {
		b.WriteString("  " + f + "\n")
	}
	b.WriteString(")\n")
}

// sbplString quotes s as an SBPL string literal: backslash and double
// quote escaped, and control characters (a newline in a path) as \n or
// \xHH, so no path can end the literal and add a rule.
func sbplString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// seatbeltBase is what any shell command needs, whatever the settings.
const seatbeltBase = `(version 1)
(deny default)

; Processes: run programs, signal and inspect only those of this sandbox
(allow process-exec)
(allow process-fork)
(allow process-info* (target same-sandbox))
(allow signal (target same-sandbox))
(allow mach-priv-task-port (target same-sandbox))

(allow user-preference-read)
(allow ipc-posix-shm)
(allow ipc-posix-sem)
(allow iokit-get-properties)
; a kernel control socket some tools open; no network
(allow system-socket (require-all (socket-domain AF_SYSTEM) (socket-protocol 2)))

; Mach services a command-line program looks up (users and groups, logging, certificates)
(allow mach-lookup
  (global-name "com.apple.bsd.dirhelper")
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.logd")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.securityd.xpc")
  (global-name "com.apple.lsd.mapdb")
  (global-name "com.apple.coreservices.launchservicesd")
  (global-name "com.apple.PowerManagement.control")
)

; sysctls about the machine and this process, not other processes' arguments
(allow sysctl-read
  (sysctl-name-prefix "hw.")
  (sysctl-name-prefix "machdep.cpu.")
  (sysctl-name "machdep.ptrauth_enabled")
  (sysctl-name "kern.argmax")
  (sysctl-name "kern.bootargs")
  (sysctl-name "kern.hostname")
  (sysctl-name "kern.maxfiles")
  (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.maxproc")
  (sysctl-name "kern.ngroups")
  (sysctl-name "kern.osproductversion")
  (sysctl-name "kern.osrelease")
  (sysctl-name "kern.ostype")
  (sysctl-name "kern.osvariant_status")
  (sysctl-name "kern.osversion")
  (sysctl-name "kern.secure_kernel")
  (sysctl-name "kern.usrstack64")
  (sysctl-name "kern.version")
  (sysctl-name-prefix "kern.proc.pgrp.")
  (sysctl-name-prefix "kern.proc.pid.")
  (sysctl-name "security.mac.lockdown_mode_state")
  (sysctl-name "sysctl.proc_cputype")
  (sysctl-name "vm.loadavg")
)
`

// seatbeltNetworkServices are the services a command needs to resolve
// names and check certificates on the host's network.
const seatbeltNetworkServices = `(allow mach-lookup
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.networkd")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.ocspd")
)
(allow sysctl-read (sysctl-name-prefix "net.routetable."))
`

// seatbeltDevices are the devices a shell writes and controls.
const seatbeltDevices = `(allow file-write*
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/tty")
  (literal "/dev/stdout")
  (literal "/dev/stderr")
  (literal "/dev/dtracehelper")
  (subpath "/dev/fd")
)
(allow file-ioctl
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/random")
  (literal "/dev/urandom")
  (literal "/dev/tty")
  (literal "/dev/dtracehelper")
)
`

// seatbeltPaths is sp with every path resolved as Seatbelt sees it:
// absolute, symlinks resolved where the path (or its nearest existing
// ancestor) exists, so /tmp/x is /private/tmp/x on macOS.
func seatbeltPaths(sp *Spec) *Spec {
	c := *sp
	res := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if p != "" {
				out = append(out, resolved(p))
			}
		}
		return out
	}
	c.Writable, c.Protected, c.ReadOnly = res(sp.Writable), res(sp.Protected), res(sp.ReadOnly)
	c.DenyRead, c.AllowRead = res(sp.DenyRead), res(sp.AllowRead)
	c.Bridges = nil
	for _, br := range sp.Bridges {
		c.Bridges = append(c.Bridges, Bridge{Port: br.Port, Socket: resolved(br.Socket)})
	}
	return &c
}

// resolved is p absolute with the symlinks of its longest existing
// prefix resolved.
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	rest := ""
	for dir := abs; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// startSeatbelt runs command with bash in dir under sandbox-exec with
// sp's profile (the macOS sandbox): a process of its own per command, a
// private temp dir made for it and removed after. The egress bridges'
// loopback ports are the host's: the session's sandbox listens on them
// (listenBridges) and forwards to the proxies.
func (s *Spec) startSeatbelt(command, dir string, env []string, out *os.File, wantCwd bool) (*Process, error) {
	if _, err := os.Stat(SandboxExec); err != nil {
		return nil, fmt.Errorf("%s (%w)", SeatbeltMissingHelp, err)
	}
	if len(s.Bridges) > 0 {
		if err := s.Session.listenBridges(s.Bridges); err != nil {
			return nil, fmt.Errorf("sandbox: the egress proxies' loopback ports: %w; the command did not run", err)
		}
	}
	tmp, err := os.MkdirTemp("", "agentcore-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: a private temp dir: %w", err)
	}
	script, cwdPath := command, ""
	extra := []string{}
	if out != nil && out.Name() != "" {
		extra = append(extra, resolved(out.Name()))
	}
	if wantCwd {
		cwdPath = strings.TrimSuffix(out.Name(), ".log") + ".cwd"
		if err := os.WriteFile(cwdPath, nil, 0o600); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("create cwd file: %w", err)
		}
		extra = append(extra, resolved(cwdPath))
		if script, err = TrapCwd(command, cwdPath); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	profile := SeatbeltProfile(seatbeltPaths(s), resolved(tmp), extra...)
	cmd := exec.Command(SandboxExec, "-p", profile, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(env, "TMPDIR="+tmp+"/")
	cmd.Stdout = out
	cmd.Stderr = out
	if err := procgroup.Start(cmd); err != nil {
		if cwdPath != "" {
			os.Remove(cwdPath)
		}
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("start sandbox-exec: %w", err)
	}
	p := NewProcess(cmd.Process.Pid)
	go func() {
		werr := cmd.Wait()
		os.RemoveAll(tmp)
		cwd := ""
		if cwdPath != "" {
			if b, err := os.ReadFile(cwdPath); err == nil {
				cwd = strings.TrimRight(string(b), "\n")
			}
			os.Remove(cwdPath)
		}
		p.End(ExitCode(cmd, werr), cwd, nil)
	}()
	return p, nil
}

// SeatbeltMissingHelp says what to do when sandbox-exec is missing.
const SeatbeltMissingHelp = "the Bash sandbox on macOS needs " + SandboxExec + " (part of macOS), which is missing here; turn sandbox.enabled off and drop --sandbox to run commands without it"

// bridgeAddr is a bridge's loopback address on the host.
func bridgeAddr(b Bridge) string { return "127.0.0.1:" + strconv.Itoa(b.Port) }

// hostBridges are the egress bridges' loopback listeners on the host, for
// a sandbox with no network namespace of its own (Seatbelt): started on
// the first command that needs them, closed with the session's Sandbox.
type hostBridges struct {
	mu  sync.Mutex
	lns map[int]net.Listener
}

// listenBridges listens on every bridge's loopback port not yet
// listened on, forwarding each connection to the bridge's Unix socket.
func (ss *Sandbox) listenBridges(bs []Bridge) error {
	if ss == nil {
		return errors.New("a filtered network needs the session's sandbox (Sandbox.Spec)")
	}
	h := &ss.bridges
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, b := range bs {
		if _, ok := h.lns[b.Port]; ok {
			continue
		}
		l, err := net.Listen("tcp", bridgeAddr(b))
		if err != nil {
			return fmt.Errorf("listen on %s (is another agentcore session or proxy using it? end it and try again): %w", bridgeAddr(b), err)
		}
		if h.lns == nil {
			h.lns = map[int]net.Listener{}
		}
		h.lns[b.Port] = l
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				go forward(c, b.Socket)
			}
		}()
	}
	return nil
}

// closeBridges stops the host's bridge listeners.
func (ss *Sandbox) closeBridges() {
	h := &ss.bridges
	h.mu.Lock()
	defer h.mu.Unlock()
	for port, l := range h.lns {
		_ = l.Close()
		delete(h.lns, port)
	}
}

// checkSeatbelt reports whether sandbox-exec is there and runs a command
// under a profile.
func checkSeatbelt() error {
	if _, err := os.Stat(SandboxExec); err != nil {
		return fmt.Errorf("%s (%w)", SeatbeltMissingHelp, err)
	}
	out, err := exec.Command(SandboxExec, "-p", "(version 1)\n(allow default)\n", "/usr/bin/true").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s is installed but cannot confine a command here (%w: %s)", SandboxExec, err, strings.TrimSpace(string(out)))
	}
	return nil
}
