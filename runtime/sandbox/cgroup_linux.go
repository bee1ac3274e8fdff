package sandbox

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A command's limits, where the machine lets this process make control
// groups: each command gets a cgroup of its own (named
// agentcore-<pid>-<pid namespace>-<n> under this process's own), with pids.max and the
// memory limit set, made by the host before the command starts. bash
// places itself in it first thing, through cgroup.procs descriptors the
// host opened and handed it (fd 3 on), before the command's first word
// runs: the sandbox has no capability and a read-only /sys, but a write
// to a descriptor opened by the host is judged by the opener's
// credentials. Once bash has ended the cgroup's events say whether a
// limit refused a fork or killed a process; a command a limit stopped
// loses what it left running, and the cgroup is removed once empty.
//
// cgroup v2 is used for a controller when this process's v2 cgroup can
// give it to a child (a delegated subtree, or the root); else cgroup v1's
// pids or memory hierarchy when it is mounted and writable (the hybrid
// layout of many CI machines). Where neither is, the limit falls back to
// an rlimit (Limits.prefix): RLIMIT_NPROC, which does not bind root, and
// RLIMIT_AS, which bounds each process's address space.

// cgroup is one command's control groups.
type cgroup struct {
	dirs   []string   // made for the command, removed after
	files  []*os.File // their cgroup.procs, open for writing, for bash
	limits Limits     // the bounds the cgroup holds
	pids   string     // the directory with pids.events, "" for none
	mem    string     // the directory with the memory events
	v2mem  bool       // mem is a v2 cgroup
}

// hierarchy is where this process may make a controller's cgroups.
type hierarchy struct {
	parent string // this process's own cgroup in it
	v2     bool
}

var cgroupSetup struct {
	once      sync.Once
	pids, mem *hierarchy
}

var cgroupSeq atomic.Int64

// live are the cgroup directories made and not yet removed.
var live sync.Map

// LiveCgroups lists the cgroups this process made for commands and has
// not removed yet (a command's, or what it left running); for tests and
// diagnostics.
func LiveCgroups() []string {
	var dirs []string
	live.Range(func(k, _ any) bool {
		dirs = append(dirs, k.(string))
		return true
	})
	slices.Sort(dirs)
	return dirs
}

// CgroupLimits reports whether a cgroup per command holds both limits
// here (nil), or why not: then rlimits hold what it cannot, and
// RLIMIT_NPROC does not bind root.
func CgroupLimits() error {
	cgroupSetup.once.Do(findHierarchies)
	var missing []string
	if cgroupSetup.pids == nil {
		missing = append(missing, "pids")
	}
	if cgroupSetup.mem == nil {
		missing = append(missing, "memory")
	}
	if len(missing) == 0 {
		return nil
	}
	return errors.New("no " + strings.Join(missing, " or ") + " cgroup this process may make (a delegated cgroup v2 subtree, or a writable cgroup v1 hierarchy, as root on most machines); sandbox.limits fall back to rlimits")
}

// newCgroup makes the command's cgroup for what of l it can hold, and
// returns it with the rest of l, which rlimits bound. nil when no cgroup
// holds anything here.
func newCgroup(l Limits) (*cgroup, Limits) {
	if l.MemoryBytes <= 0 && l.Processes <= 0 {
		return nil, l
	}
	cgroupSetup.once.Do(findHierarchies)
	name := ownerPrefix() + strconv.FormatInt(cgroupSeq.Add(1), 10)
	c := &cgroup{}
	rest := l
	made := map[string]bool{}
	mk := func(h *hierarchy) (string, error) {
		dir := filepath.Join(h.parent, name)
		if made[dir] {
			return dir, nil
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", err
		}
		made[dir] = true
		c.dirs = append(c.dirs, dir)
		live.Store(dir, true)
		f, err := os.OpenFile(filepath.Join(dir, "cgroup.procs"), os.O_WRONLY, 0)
		if err != nil {
			return "", err
		}
		c.files = append(c.files, f)
		return dir, nil
	}
	if h := cgroupSetup.pids; h != nil && l.Processes > 0 {
		if dir, err := mk(h); err == nil && writeFile(dir, "pids.max", strconv.Itoa(l.Processes)) == nil {
			c.pids, c.limits.Processes, rest.Processes = dir, l.Processes, 0
		}
	}
	if h := cgroupSetup.mem; h != nil && l.MemoryBytes > 0 {
		if dir, err := mk(h); err == nil && setMemory(dir, h.v2, l.MemoryBytes) == nil {
			c.mem, c.v2mem, c.limits.MemoryBytes, rest.MemoryBytes = dir, h.v2, l.MemoryBytes, 0
		}
	}
	if c.pids == "" && c.mem == "" {
		c.remove()
		return nil, l
	}
	return c, rest
}

func setMemory(dir string, v2 bool, bytes int64) error {
	n := strconv.FormatInt(bytes, 10)
	if v2 {
		if err := writeFile(dir, "memory.max", n); err != nil {
			return err
		}
		_ = writeFile(dir, "memory.swap.max", "0") // absent without swap accounting
		return nil
	}
	if err := writeFile(dir, "memory.limit_in_bytes", n); err != nil {
		return err
	}
	_ = writeFile(dir, "memory.memsw.limit_in_bytes", n) // absent without swap accounting
	return nil
}

func writeFile(dir, name, value string) error {
	return os.WriteFile(filepath.Join(dir, name), []byte(value), 0)
}

// prefix is the shell that puts bash in the cgroup through the
// descriptors at fd 3 on, then closes them, before the command runs; a
// bash that cannot go there fails rather than run unbounded.
func (c *cgroup) prefix() string {
	if c == nil || len(c.files) == 0 {
		return ""
	}
	var writes, closes []string
	for i := range c.files {
		fd := strconv.Itoa(3 + i)
		writes = append(writes, "echo $$ >&"+fd)
		closes = append(closes, fd+">&-")
	}
	return "{ " + strings.Join(writes, " && ") + "; } 2>/dev/null || { echo '[sandbox] could not put the command in its cgroup (sandbox.limits); it did not run' >&2; exit 126; }; exec " + strings.Join(closes, " ") + "; "
}

// fds are the descriptors bash gets from fd 3 on.
func (c *cgroup) fds() []*os.File {
	if c == nil {
		return nil
	}
	return c.files
}

// handed closes the host's copies of the cgroup.procs descriptors once
// the command holds its own.
func (c *cgroup) handed() {
	if c == nil {
		return
	}
	for _, f := range c.files {
		f.Close()
	}
	c.files = nil
}

// finish runs once the command's bash has ended: it says which limit
// stopped the command ("" when none did), kills what a stopped command
// left running, and removes the cgroup now or, while processes the
// command left in the background still run, once they have gone.
func (c *cgroup) finish() string {
	if c == nil {
		return ""
	}
	c.handed()
	var note string
	hit := false
	if c.pids != "" {
		if n := event(c.pids, "pids.events", "max"); n > 0 {
			hit = true
			note += "\n[sandbox] the command could not start more processes: sandbox.limits.maxProcesses is " + strconv.Itoa(c.limits.Processes) +
				" (its processes and threads together; the kernel refused " + strconv.FormatInt(n, 10) + " forks)"
		}
	}
	if c.mem != "" {
		file := "memory.oom_control"
		if c.v2mem {
			file = "memory.events"
		}
		if n := event(c.mem, file, "oom_kill"); n > 0 {
			hit = true
			note += "\n[sandbox] the command ran out of memory: sandbox.limits.memoryMB bounds it to " + strconv.FormatInt(c.limits.MemoryBytes>>20, 10) +
				" MiB (all its processes together), and the kernel killed " + strconv.FormatInt(n, 10) + " of them"
		}
	}
	if hit {
		c.kill()
	}
	if !c.empty() {
		// What the command left running in the background keeps its
		// limits; it is killed if it hits one, and the cgroup goes
		// once it has gone (at the latest with the session's sandbox,
		// whose pid namespace ends with it).
		go func() {
			for !c.empty() {
				time.Sleep(time.Second)
				if c.hit() {
					c.kill()
				}
			}
			c.remove()
		}()
		return note
	}
	c.remove()
	return note
}

// hit reports whether a limit refused a fork or killed a process.
func (c *cgroup) hit() bool {
	file := "memory.oom_control"
	if c.v2mem {
		file = "memory.events"
	}
	return (c.pids != "" && event(c.pids, "pids.events", "max") > 0) || (c.mem != "" && event(c.mem, file, "oom_kill") > 0)
}

// event is the count of key in a flat-keyed events file, 0 when absent.
func event(dir, file, key string) int64 {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+" "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// procs are the pids in the cgroup's dirs, as this process sees them.
func (c *cgroup) procs() []int {
	var pids []int
	for _, d := range c.dirs {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

func (c *cgroup) empty() bool { return len(c.procs()) == 0 }

// kill ends every process in the cgroup (a fork bomb's too: its forks
// fail at pids.max, so the kills catch up), waiting up to five seconds.
func (c *cgroup) kill() {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		pids := c.procs()
		if len(pids) == 0 {
			return
		}
		for _, d := range c.dirs {
			_ = writeFile(d, "cgroup.kill", "1") // v2, Linux 5.14 and later
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *cgroup) remove() {
	c.handed()
	for _, d := range c.dirs {
		for i := 0; i < 50; i++ {
			// A process just killed may take a moment to leave.
			if err := os.Remove(d); err == nil || errors.Is(err, os.ErrNotExist) {
				live.Delete(d)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// findHierarchies finds where this process may make pids and memory
// cgroups, and removes the cgroups that agentcore processes now gone
// left behind there.
func findHierarchies() {
	own, mounts := ownCgroups(), cgroupMounts()
	// cgroup v2: a controller this process's cgroup can give a child.
	if path, ok := own[""]; ok {
		if m, ok := mounts["cgroup2"]; ok {
			dir := filepath.Join(m.point, strings.TrimPrefix(path, m.root))
			for _, ctl := range []string{"pids", "memory"} {
				if v2Delegates(dir, ctl) {
					h := &hierarchy{parent: dir, v2: true}
					if ctl == "pids" {
						cgroupSetup.pids = h
					} else {
						cgroupSetup.mem = h
					}
				}
			}
		}
	}
	// cgroup v1: the controller's own hierarchy, when writable.
	for _, ctl := range []string{"pids", "memory"} {
		if (ctl == "pids" && cgroupSetup.pids != nil) || (ctl == "memory" && cgroupSetup.mem != nil) {
			continue
		}
		path, ok := own[ctl]
		m, mok := mounts[ctl]
		if !ok || !mok {
			continue
		}
		dir := filepath.Join(m.point, strings.TrimPrefix(path, m.root))
		if syscall.Access(dir, 2 /* W_OK */) != nil {
			continue
		}
		h := &hierarchy{parent: dir}
		if ctl == "pids" {
			cgroupSetup.pids = h
		} else {
			cgroupSetup.mem = h
		}
	}
	for _, h := range []*hierarchy{cgroupSetup.pids, cgroupSetup.mem} {
		if h != nil {
			sweep(h.parent)
		}
	}
}

// v2Delegates reports whether children of the v2 cgroup dir get
// controller ctl, enabling it when this process may.
func v2Delegates(dir, ctl string) bool {
	has := func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
		return err == nil && slices.Contains(strings.Fields(string(b)), ctl)
	}
	if has() {
		return syscall.Access(dir, 2 /* W_OK */) == nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil || !slices.Contains(strings.Fields(string(b)), ctl) {
		return false
	}
	// Fails (EBUSY) when the cgroup has processes of its own and is not
	// the root: the v2 rule of no internal processes.
	_ = writeFile(dir, "cgroup.subtree_control", "+"+ctl)
	return has()
}

// ownerPrefix starts the names of this process's cgroups:
// agentcore-<pid>-<pid namespace>-, so that a sweep judges only the
// cgroups of processes it can see (another container on the same
// cgroup tree numbers its processes otherwise).
func ownerPrefix() string {
	ns := "0"
	if l, err := os.Readlink("/proc/self/ns/pid"); err == nil {
		ns = strings.Trim(strings.TrimPrefix(l, "pid:"), "[]")
	}
	return "agentcore-" + strconv.Itoa(os.Getpid()) + "-" + ns + "-"
}

// sweep removes the agentcore-<pid>-<ns>-<n> cgroups under dir whose
// process, in this pid namespace, has gone, killing what is left in them.
func sweep(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	_, ns, _ := strings.Cut(strings.TrimPrefix(ownerPrefix(), "agentcore-"), "-")
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "agentcore-")
		if !ok || !e.IsDir() {
			continue
		}
		owner, rest, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(owner)
		if err != nil || !strings.HasPrefix(rest, ns) || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue
		}
		c := &cgroup{dirs: []string{filepath.Join(dir, e.Name())}}
		c.kill()
		c.remove()
	}
}

// ownCgroups maps each controller of this process's v1 cgroups (and ""
// for its v2 cgroup) to the cgroup's path, from /proc/self/cgroup.
func ownCgroups() map[string]string {
	own := map[string]string{}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return own
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[0] == "0" && parts[1] == "" {
			own[""] = parts[2]
			continue
		}
		for _, ctl := range strings.Split(parts[1], ",") {
			own[ctl] = parts[2]
		}
	}
	return own
}

type cgroupMount struct{ point, root string }

// cgroupMounts maps "cgroup2" and each v1 controller to its mount, from
// /proc/self/mountinfo.
func cgroupMounts() map[string]cgroupMount {
	mounts := map[string]cgroupMount{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return mounts
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent major:minor root point options ... - fstype source super
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 5 || len(b) < 3 {
			continue
		}
		m := cgroupMount{point: unescape(a[4]), root: unescape(a[3])}
		switch b[0] {
		case "cgroup2":
			if _, ok := mounts["cgroup2"]; !ok {
				mounts["cgroup2"] = m
			}
		case "cgroup":
			for _, opt := range strings.Split(b[2], ",") {
				if opt == "pids" || opt == "memory" {
					if _, ok := mounts[opt]; !ok {
						mounts[opt] = m
					}
				}
			}
		}
	}
	return mounts
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
