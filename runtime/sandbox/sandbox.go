// Package sandbox confines the shell commands of a session: the
// confinement model (Config, from the settings' sandbox object), the
// session's Sandbox that keeps a long-lived bubblewrap around a small
// server (this program run again, see the server in server_linux.go) and
// forks each command inside it, and the check that the sandbox can run
// here (Check). On macOS each command runs under sandbox-exec instead,
// with a Seatbelt profile made from the same Config (SeatbeltProfile).
//
// The session owns the Sandbox: it makes it from the settings (New),
// hands it to tools through the tool context as a service
// (runtime.Service[*sandbox.Sandbox]) and closes it with the session. A
// tool that runs commands asks it for a call's Spec and starts the
// command with Spec.Start; it never runs a command unconfined because the
// sandbox failed.
//
// Every program that links this package can serve as the sandbox's
// server: its init answers the hidden server argument before main runs.
//
// The network seam: what a sandboxed command may reach is the Network
// policy's answer (Options.Network). A session whose settings allow some
// hosts plugs in egress.Network, the filtering proxies (package egress);
// the default, AllOrNothing, gives no network when no host is allowed.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime/procgroup"
)

// Network decides what network a sandboxed command gets: the seam where
// an egress policy (filtering proxies) plugs in.
type Network interface {
	// Egress is the network for commands confined by conf.
	Egress(conf *Config) (Egress, error)
}

// Egress is what a Network policy gives a sandboxed command.
type Egress struct {
	// Share shares the host's network namespace; false gives the command
	// a namespace of its own with only loopback.
	Share bool
	// Binds are host paths (Unix sockets of proxies) bound into the
	// sandbox at the same path.
	Binds []string
	// Env are KEY=VALUE pairs set for the command (HTTP_PROXY…).
	Env []string
	// Bridges are loopback ports inside the sandbox forwarded to Unix
	// sockets among Binds (the proxies').
	Bridges []Bridge
}

// AllOrNothing is the default Network: the host's network when the
// settings allow any host, none otherwise (bubblewrap cannot filter by
// host: package egress filters by host).
type AllOrNothing struct{}

// Egress shares the network when conf allows some host.
func (AllOrNothing) Egress(conf *Config) (Egress, error) {
	return Egress{Share: conf != nil && len(conf.AllowedDomains) > 0}, nil
}

// Options tune a Sandbox beyond its Config.
type Options struct {
	// Bwrap is the bubblewrap binary; "" is "bwrap" on PATH.
	Bwrap string
	// Network decides the commands' network; nil is AllOrNothing.
	Network Network
}

// Sandbox is a session's sandbox: the confinement its settings ask for and
// the long-lived bubblewrap its commands run in, started on the first
// command. Close ends it with the session. The zero value confines by an
// empty Config.
type Sandbox struct {
	conf *Config
	opts Options
	pool
	bridges hostBridges
}

// New returns the sandbox of a session confined by conf. It starts
// nothing: the first command does.
func New(conf *Config, opts Options) *Sandbox {
	if conf == nil {
		conf = &Config{}
	}
	if opts.Network == nil {
		opts.Network = AllOrNothing{}
	}
	return &Sandbox{conf: conf, opts: opts}
}

// Network is the policy that decides the commands' network.
func (s *Sandbox) Network() Network {
	if s == nil {
		return nil
	}
	return s.opts.Network
}

// Config is the confinement the sandbox was made with.
func (s *Sandbox) Config() *Config {
	if s == nil || s.conf == nil {
		return &Config{}
	}
	return s.conf
}

// Spec is the confinement of one command run from workingDirs: they and
// the settings' AllowWrite writable; the Config's Protected paths inside
// each working directory and its DenyWrite read-only; the network the
// Network policy gives.
func (s *Sandbox) Spec(workingDirs []string) (*Spec, error) {
	conf := s.Config()
	network := s.opts.Network
	if network == nil {
		network = AllOrNothing{}
	}
	eg, err := network.Egress(conf)
	if err != nil {
		return nil, fmt.Errorf("sandbox network: %w", err)
	}
	sp := &Spec{Network: eg.Share, Bwrap: s.opts.Bwrap, Session: s}
	sp.Writable = append(append(sp.Writable, workingDirs...), conf.AllowWrite...)
	for _, d := range workingDirs {
		for _, p := range conf.Protected {
			sp.Protected = append(sp.Protected, filepath.Join(d, p))
		}
	}
	sp.Protected = append(sp.Protected, conf.DenyWrite...)
	sp.DenyRead, sp.AllowRead = conf.DenyRead, conf.AllowRead
	sp.Unset, sp.Limits = conf.Secrets.Unset(true), conf.Limits
	sp.ReadOnly = append(sp.ReadOnly, eg.Binds...)
	sp.Env = append(sp.Env, eg.Env...)
	sp.Bridges = eg.Bridges
	return sp, nil
}

// Start starts command with bash in dir, in its own process group, stdout
// and stderr sharing out, stdin at /dev/null, env the whole environment:
// in the session's long-lived sandbox when s has one (Session), in a
// bwrap of its own when not. With wantCwd the command reports the
// directory it ended in (Process.Exit). An error means the command did
// not run: never unconfined.
func (s *Spec) Start(command, dir string, env []string, out *os.File, wantCwd bool) (*Process, error) {
	if err := sandboxUnsupported(); err != nil {
		return nil, err // fail closed: never run unconfined
	}
	env = append(Scrub(env, s.Unset), s.Env...)
	if len(s.Bridges) > 0 && s.Session == nil {
		return nil, errors.New("sandbox: a filtered network needs the session's sandbox (Sandbox.Spec); the command did not run")
	}
	if useSeatbelt {
		return s.startSeatbelt(s.Limits.prefix()+command, dir, env, out, wantCwd)
	}
	// A cgroup holds the limits it can; rlimits the rest.
	cg, rest := newCgroup(s.Limits)
	command = cg.prefix() + rest.prefix() + command
	p, err := s.startBwrap(command, dir, env, out, wantCwd, cg.fds())
	if cg == nil {
		return p, err
	}
	cg.handed()
	if err != nil {
		cg.finish()
		return nil, err
	}
	return watched(p, cg, rest), nil
}

// startBwrap is Start's part on Linux: the command in the session's
// sandbox, or in a bwrap of its own, files at its fd 3 on.
func (s *Spec) startBwrap(command, dir string, env []string, out *os.File, wantCwd bool, files []*os.File) (*Process, error) {
	if s.Session != nil {
		return s.Session.start(s, request{Command: command, Dir: dir, Env: env, Cwd: wantCwd, Files: files}, out)
	}
	script, cwdPath := command, ""
	if wantCwd {
		cwdPath = strings.TrimSuffix(out.Name(), ".log") + ".cwd"
		// bwrap binds only a path that exists.
		if err := os.WriteFile(cwdPath, nil, 0o600); err != nil {
			return nil, fmt.Errorf("create cwd file: %w", err)
		}
		var err error
		if script, err = TrapCwd(command, cwdPath); err != nil {
			return nil, err
		}
	}
	var extra []string
	if cwdPath != "" {
		extra = append(extra, cwdPath)
	}
	args, stubs := s.args(script, dir, extra...)
	cmd := exec.Command(s.binary(), args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.ExtraFiles = files
	if err := procgroup.Start(cmd); err != nil {
		if cwdPath != "" {
			os.Remove(cwdPath)
		}
		removeStubs(stubs)
		return nil, fmt.Errorf("start bwrap: %w", err)
	}
	p := NewProcess(cmd.Process.Pid)
	go func() {
		werr := cmd.Wait()
		removeStubs(stubs)
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

// Note explains a sandboxed command's failure that the sandbox caused,
// and lists the hosts its egress proxies refused whatever the exit
// status (a command may carry on after a refused request); "" when
// there is nothing to say. NoteOf says more.
func (s *Spec) Note(exit int, output string) string { return s.NoteOf(nil, exit, output) }

// NoteOf is Note for the command p (nil: unknown): when a cgroup held its
// limits, it says which limit stopped the command from the cgroup's
// events, whatever the output and exit status, instead of guessing from
// the output.
func (s *Spec) NoteOf(p *Process, exit int, output string) string {
	if s == nil {
		return ""
	}
	var note string
	if d, ok := s.Session.Network().(interface{ Denials() []string }); ok {
		for _, msg := range d.Denials() {
			// A program that prints the proxy's 403 body has said it
			// already (curl without -f does); say it once.
			if !strings.Contains(output, msg) {
				note += "\n[sandbox] " + msg
			}
		}
	}
	if p != nil && p.limited != "" {
		return note + p.limited
	}
	if exit == 0 {
		return note
	}
	limits := s.Limits
	if p != nil && p.byCgroup {
		limits = p.rlimits
	}
	if n := limits.note(output); n != "" {
		return note + n
	}
	switch {
	case strings.Contains(output, "Read-only file system"):
		return note + "\n[sandbox] the sandbox denied the write: only the working directories and a private /tmp are writable, and .git/hooks, .git/config, .mcp.json and the settings files are read-only, and cannot be created where they are missing"
	case s.hidden(output) != "":
		return note + "\n[sandbox] the sandbox hides " + s.hidden(output) + ": credential files and the agent's own settings and sessions are unreadable inside it; list a path in sandbox.filesystem.allowRead to show it"
	case useSeatbelt && strings.Contains(output, "Operation not permitted") && !containsAny(output, "connect", "Could not resolve"):
		// Seatbelt denies a write with EPERM, not EROFS.
		return note + "\n[sandbox] the sandbox denied the operation: only the working directories and $TMPDIR are writable, and .git/hooks, .git/config, .mcp.json and the settings files are read-only, and cannot be created where they are missing"
	case !s.Network && len(s.Bridges) == 0 && (strings.Contains(output, "Network is unreachable") || strings.Contains(output, "Cannot assign requested address") ||
		strings.Contains(output, "Connection refused") || strings.Contains(output, "Could not resolve host") || strings.Contains(output, "Couldn't connect to server") ||
		strings.Contains(output, "Temporary failure in name resolution") || (useSeatbelt && strings.Contains(output, "Operation not permitted"))):
		return note + "\n[sandbox] the sandbox denied network access: sandbox.network allows no hosts"
	}
	return note
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// hidden is the first hidden path output names, "" when none.
func (s *Spec) hidden(output string) string {
	for _, p := range s.DenyRead {
		if strings.Contains(output, p) {
			return p
		}
	}
	return ""
}
