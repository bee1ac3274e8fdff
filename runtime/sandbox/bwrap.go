package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Spec is one command's confinement with bubblewrap (bwrap): the whole
// filesystem bound read-only, the Writable directories bound read-write, a
// private /tmp, the Protected paths bound read-only again over the
// writable ones, and no network unless Network is set. A session's
// Sandbox makes it for a call (Sandbox.Spec); Start runs a command in it.
//
// Network is all or nothing: bwrap has no per-host filter, so a sandbox
// whose settings allow any host shares the host's network (see
// RELIABILITY.md, "Bash sandbox").
type Spec struct {
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
	// DenyRead are paths hidden from the command (credential files, the
	// agent's own settings and sessions); AllowRead are paths under them
	// shown again.
	DenyRead, AllowRead []string
	// Unset are environment variables removed before the command starts.
	Unset []string
	// Limits bound what one command may take.
	Limits Limits
	// Env are KEY=VALUE pairs the network policy sets for the command.
	Env []string
	// Bridges are the loopback ports the session's sandbox server
	// forwards to the host's egress proxies (see Bridge); they need
	// Session.
	Bridges []Bridge
	// Session, when set, runs the command in the session's long-lived
	// sandbox with these mounts (started, or restarted when they changed,
	// on first use); nil runs each command in a bwrap of its own.
	Session *Sandbox
}

// BwrapMissingHelp says how to install bubblewrap.
const BwrapMissingHelp = "the Bash sandbox needs bubblewrap (bwrap) on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or turn sandbox.enabled off and drop --sandbox"

// Check reports whether bwrap is installed and can create its
// namespaces on this machine; on macOS whether sandbox-exec can confine
// a command (bwrap is unused there); elsewhere it says the sandbox is not
// available here. bwrap "" is "bwrap" on PATH.
func Check(bwrap string) error {
	if err := sandboxUnsupported(); err != nil {
		return err
	}
	if useSeatbelt {
		return checkSeatbelt()
	}
	if bwrap == "" {
		bwrap = "bwrap"
	}
	path, err := exec.LookPath(bwrap)
	if err != nil {
		return errors.New(BwrapMissingHelp)
	}
	out, err := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid", "true").CombinedOutput()
	if err != nil {
		return fmt.Errorf("bwrap is installed but cannot create namespaces here (%w: %s); unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1)", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// args returns the bwrap argument list that runs bash -c script in dir;
// extraWritable are files the wrapper itself must write (the cwd file).
// stubs are the paths bwrap will create in the working directories as
// mount points to keep missing protected paths from being created (see
// protectMissing); the caller removes them with removeStubs once the
// command has ended.
func (s *Spec) args(script, dir string, extraWritable ...string) (args, stubs []string) {
	a, stubs := s.mounts(extraWritable...)
	return append(a, "--chdir", dir, "--", "bash", "-c", script), stubs
}

// mounts is the part of args that makes the sandbox: its namespaces and
// mounts, without the command.
func (s *Spec) mounts(extraWritable ...string) (args, stubs []string) {
	// --cap-drop ALL: a command run by root keeps no capability (one
	// run by another user has none anyway), so a hidden path's stand-in
	// with mode 0 is unreadable to it too. --unshare-pid: the command
	// sees only the sandbox's processes (its /proc is the namespace's),
	// and when bwrap's init, pid 1 there, ends (--die-with-parent ends it
	// with bwrap), the kernel kills every process left in it.
	a := []string{"--die-with-parent", "--unshare-pid", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	if !s.Network {
		a = append(a, "--unshare-net")
	}
	for _, p := range s.ReadOnly {
		if _, err := os.Stat(p); err == nil {
			a = append(a, "--ro-bind", p, p)
		}
	}
	var writable []string
	for _, w := range append(append([]string(nil), s.Writable...), extraWritable...) {
		if w == "" {
			continue
		}
		if abs, err := filepath.Abs(w); err == nil {
			w = abs
		}
		if _, err := os.Stat(w); err != nil {
			continue // bwrap refuses to bind a missing path; a missing one needs no write
		}
		writable = append(writable, w)
		a = append(a, "--bind", w, w)
	}
	var present, missing []string
	for _, p := range s.Protected {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if _, err := os.Lstat(p); err == nil {
			present = append(present, p)
			a = append(a, "--ro-bind", p, p)
		} else {
			missing = append(missing, p)
		}
	}
	for _, p := range missing {
		stub, src := protectMissing(p, writable, present)
		if stub == "" || slices.Contains(stubs, stub) {
			continue
		}
		stubs = append(stubs, stub)
		a = append(a, "--ro-bind", src, stub)
	}
	return append(a, s.hide(writable)...), stubs
}

// hide is the part of mounts that hides DenyRead from the command: a
// directory becomes an empty read-only tmpfs (with the AllowRead paths
// under it bound again), a file an empty one. Missing paths are skipped
// (bwrap cannot mount over them), and so is a path that holds a writable
// directory: hiding it would hide the working directory.
func (s *Spec) hide(writable []string) []string {
	// mounted reports whether a stand-in goes over p itself.
	mounted := func(p string) bool {
		if _, err := os.Stat(p); err != nil || within(p, s.AllowRead) {
			return false
		}
		return !slices.ContainsFunc(writable, func(w string) bool { return within(w, []string{p}) })
	}
	var a []string
	for _, p := range s.DenyRead {
		if !mounted(p) {
			continue
		}
		if slices.ContainsFunc(s.DenyRead, func(q string) bool { return q != p && within(p, []string{q}) && mounted(q) }) {
			// Under another hidden directory (the transcripts under
			// ~/.agentcore): hidden with it, and its mount point could
			// not be made inside the read-only stand-in.
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			continue
		}
		shown := slices.ContainsFunc(s.AllowRead, func(allowed string) bool { return within(allowed, []string{p}) })
		if dir, file, err := unreadables(); err == nil && !shown {
			// Mode 0: opening anything there fails with "Permission denied".
			if fi.IsDir() {
				a = append(a, "--ro-bind", dir, p)
			} else {
				a = append(a, "--ro-bind", file, p)
			}
			continue
		}
		if !fi.IsDir() {
			a = append(a, "--ro-bind", os.DevNull, p)
			continue
		}
		a = append(a, "--tmpfs", p)
		for _, allowed := range s.AllowRead {
			if allowed != p && within(allowed, []string{p}) {
				if _, err := os.Stat(allowed); err == nil {
					a = append(a, "--ro-bind", allowed, allowed)
				}
			}
		}
		a = append(a, "--remount-ro", p)
	}
	return a
}

// protectMissing keeps a command from creating the protected path p, which
// does not exist: bwrap binds only existing paths, so it mounts something
// read-only at p's first missing component — an empty directory when that
// is an ancestor of p (.claude for .claude/settings.json), an empty file
// when it is p itself (.mcp.json) — and creates that mount point in the working
// directory. It returns the mount point and the source, or "" when p is
// not under a writable directory or is under a read-only one (readOnly,
// the protected paths that exist): nothing can create it there.
// Claude Code's sandbox does the same.
func protectMissing(p string, writable, readOnly []string) (stub, src string) {
	first := p
	for {
		parent := filepath.Dir(first)
		if parent == first {
			return "", ""
		}
		if _, err := os.Lstat(parent); err == nil {
			break
		}
		first = parent
	}
	if fi, err := os.Stat(filepath.Dir(first)); err != nil || !fi.IsDir() {
		return "", "" // under a file: nothing can be created there
	}
	if !within(filepath.Dir(first), writable) || within(filepath.Dir(first), readOnly) {
		return "", ""
	}
	dir, file, err := empties()
	switch {
	case err != nil:
		return first, os.DevNull
	case first == p:
		return first, file
	}
	return first, dir
}

var emptyCache struct {
	sync.Mutex
	dir, file string
}

// empties are an empty directory and an empty file that stand for
// missing protected paths: a write to either, bound read-only, fails with
// "Read-only file system" as a write to an existing protected path does.
// They are made once per user, in the user's cache directory
// (agentcore/sandbox-empty), and checked once per process (again when
// they went, or the cache directory moved): a directory made per process
// in $TMPDIR would be left behind by every run, since nothing can remove
// it when the process ends.
func empties() (dir, file string, err error) {
	emptyCache.Lock()
	defer emptyCache.Unlock()
	if emptyCache.dir != "" && stillThere(emptyCache.dir, emptyCache.file) {
		return emptyCache.dir, emptyCache.file, nil
	}
	dir, file, err = makeEmpties()
	if err == nil {
		emptyCache.dir, emptyCache.file = dir, file
	}
	return dir, file, err
}

// stillThere reports whether the stand-ins are where they were made and
// the cache directory has not moved since.
func stillThere(dir, file string) bool {
	cache, err := os.UserCacheDir()
	if err != nil || !strings.HasPrefix(dir, cache+string(filepath.Separator)) {
		return false
	}
	_, derr := os.Lstat(dir)
	_, ferr := os.Lstat(file)
	return derr == nil && ferr == nil
}

// makeEmpties makes the empty directory and file, or checks the ones an
// earlier process made: still empty, and not links.
func makeEmpties() (dir, file string, err error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "", fmt.Errorf("sandbox: a place for the empty stand-ins of missing protected paths: %w", err)
	}
	base := filepath.Join(cache, "agentcore", "sandbox-empty")
	dir, file = filepath.Join(base, "dir"), filepath.Join(base, "file")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	if err := os.Mkdir(dir, 0o555); err != nil && !errors.Is(err, os.ErrExist) {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	if f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("sandbox: %s is not a directory: remove it", dir)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) > 0 {
		return "", "", fmt.Errorf("sandbox: %s is not empty: remove it", dir)
	}
	if fi, err := os.Lstat(file); err != nil || !fi.Mode().IsRegular() || fi.Size() != 0 {
		return "", "", fmt.Errorf("sandbox: %s is not an empty file: remove it", file)
	}
	return dir, file, nil
}

var unreadableCache struct {
	sync.Mutex
	dir, file string
}

// unreadables are a directory and a file with mode 0 that stand for
// hidden paths: opening them, or anything under the directory, fails
// with "Permission denied". Made once per user next to the empties.
func unreadables() (dir, file string, err error) {
	unreadableCache.Lock()
	defer unreadableCache.Unlock()
	if unreadableCache.dir != "" && stillThere(unreadableCache.dir, unreadableCache.file) {
		return unreadableCache.dir, unreadableCache.file, nil
	}
	dir, file, err = makeUnreadables()
	if err == nil {
		unreadableCache.dir, unreadableCache.file = dir, file
	}
	return dir, file, err
}

func makeUnreadables() (dir, file string, err error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", "", fmt.Errorf("sandbox: a place for the stand-ins of hidden paths: %w", err)
	}
	base := filepath.Join(cache, "agentcore", "sandbox-empty")
	dir, file = filepath.Join(base, "unreadable-dir"), filepath.Join(base, "unreadable-file")
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	if err := os.Mkdir(dir, 0); err != nil && !errors.Is(err, os.ErrExist) {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	if f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0); err == nil {
		f.Close()
	} else if !errors.Is(err, os.ErrExist) {
		return "", "", fmt.Errorf("sandbox: %w", err)
	}
	for _, p := range []string{dir, file} {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode().Perm() != 0 || fi.Mode()&os.ModeSymlink != 0 || (p == file && fi.Size() != 0) {
			return "", "", fmt.Errorf("sandbox: %s is not an empty stand-in with mode 0: remove it", p)
		}
	}
	return dir, file, nil
}

// removeStubs removes the mount points bwrap left in the working
// directories for missing protected paths, if they are still what bwrap
// made (an empty file or directory).
func removeStubs(stubs []string) {
	for _, p := range stubs {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if (fi.Mode().IsRegular() && fi.Size() == 0) || fi.IsDir() {
			_ = os.Remove(p) // a directory is removed only when empty
		}
	}
}

func (s *Spec) binary() string {
	if s.Bwrap != "" {
		return s.Bwrap
	}
	return "bwrap"
}

// within reports whether path is one of roots or below one of them,
// both compared as absolute paths with symlinks resolved where they exist.
func within(path string, roots []string) bool {
	p := physical(path)
	for _, r := range roots {
		if r == "" {
			continue
		}
		rel, err := filepath.Rel(physical(r), p)
		if err != nil {
			continue
		}
		if rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)) {
			return true
		}
	}
	return false
}

func physical(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}
