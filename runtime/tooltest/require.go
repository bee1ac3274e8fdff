package tooltest

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
)

// RequireEnv is the environment variable that lists, comma-separated, the
// tools a run requires (.ci/run sets it): a spec that needs one of them
// fails when it is missing instead of skipping. "all" requires every tool.
const RequireEnv = "AGENTCORE_REQUIRE"

// The tools a spec can need, as AGENTCORE_REQUIRE names them.
const (
	// Node is node on PATH.
	Node = "node"
	// Npm is the packages of .ci/npm/package.json installed in NpmDir.
	Npm = "npm"
	// Tmux is tmux on PATH (the terminal specs).
	Tmux = "tmux"
	// Rg is ripgrep on PATH (the differential search specs).
	Rg = "rg"
	// Bwrap is bubblewrap on PATH, able to create its namespaces here.
	Bwrap = "bwrap"
	// GNUGrep is GNU grep on PATH.
	GNUGrep = "gnugrep"
	// GNUFind is GNU find (findutils) on PATH.
	GNUFind = "gnufind"
	// Bash is bash on PATH.
	Bash = "bash"
	// Userns is unshare (util-linux) able to make a private mount
	// namespace, as root or in an unprivileged user namespace.
	Userns = "userns"
	// Root is root or CAP_SYS_ADMIN in this process: mounting a tmpfs.
	Root = "root"
	// Gopls is gopls on PATH (the LSP specs; .ci/run installs it with go
	// install golang.org/x/tools/gopls).
	Gopls = "gopls"
	// Cgroup is a pids and a memory cgroup this process may make for a
	// command (the sandbox's limits as root: sandbox.CgroupLimits).
	Cgroup = "cgroup"
)

// SkipPrefix starts the reason of every spec that Missing skips or fails:
// "needs tmux: ...". .ci/skipped reads the tool from it.
const SkipPrefix = "needs "

// Required reports whether AGENTCORE_REQUIRE names tool (or "all").
func Required(tool string) bool {
	for _, t := range strings.Split(os.Getenv(RequireEnv), ",") {
		if t = strings.TrimSpace(t); t == tool || t == "all" {
			return true
		}
	}
	return false
}

// MissingReason is the reason Missing gives for tool, missing because of
// why, and whether the spec fails (AGENTCORE_REQUIRE names tool) rather
// than skips.
func MissingReason(tool, why string) (reason string, fail bool) {
	reason = SkipPrefix + tool + ": " + why
	if Required(tool) {
		return reason + " (" + RequireEnv + " names " + tool + ": this run must have it)", true
	}
	return reason, false
}

// Missing ends the running spec because tool is not available here: it
// skips, saying why, or fails when AGENTCORE_REQUIRE names tool, since a
// run that requires a tool must not pass without the specs that need it.
// Call it where a spec finds out (an It, BeforeEach or BeforeAll).
func Missing(tool, why string) { missing(tool, why, 2) }

// missing is Missing, reporting the line skip frames up (1: its caller).
func missing(tool, why string, skip int) {
	reason, fail := MissingReason(tool, why)
	if fail {
		ginkgo.Fail(reason, skip)
	}
	ginkgo.Skip(reason, skip)
}

// Need returns the path of tool's command (tool is one of the constants
// above; unshare's for Userns, "" for Root), ending the spec with Missing when the
// tool is absent or cannot run here.
func Need(tool string) string { return need(tool, 3) }

func need(tool string, skip int) string {
	path, why := probe(tool)
	if why != "" {
		missing(tool, why, skip)
	}
	return path
}

// NeedNpm returns the path of the command bin of an npm package installed
// in NpmDir, ending the spec with Missing (Node or Npm) when node or the
// package is missing.
func NeedNpm(bin string) string {
	need(Node, 3)
	path := filepath.Join(NpmDir(), "node_modules", ".bin", bin)
	if _, err := os.Stat(path); err != nil {
		missing(Npm, bin+" is not installed at "+path+": run .ci/run, or copy .ci/npm/package.json to "+NpmDir()+" and run npm install there", 2)
	}
	return path
}

// NeedNpmFile returns the path of a file of an installed npm package
// (rel, under NpmDir's node_modules), ending the spec with Missing (Node
// or Npm) when node or the file is missing.
func NeedNpmFile(rel string) string {
	need(Node, 3)
	path := filepath.Join(NpmDir(), "node_modules", rel)
	if _, err := os.Stat(path); err != nil {
		missing(Npm, rel+" is not installed at "+path+": run .ci/run, or copy .ci/npm/package.json to "+NpmDir()+" and run npm install there", 2)
	}
	return path
}

var probes struct {
	sync.Mutex
	done map[string][2]string
}

// probe finds tool once per process: its path, or why it is missing.
func probe(tool string) (path, why string) {
	probes.Lock()
	defer probes.Unlock()
	if r, ok := probes.done[tool]; ok {
		return r[0], r[1]
	}
	path, why = probeOnce(tool)
	if probes.done == nil {
		probes.done = map[string][2]string{}
	}
	probes.done[tool] = [2]string{path, why}
	return path, why
}

var installHint = map[string]string{
	Node: "nodejs", Npm: "npm", Tmux: "tmux", Rg: "ripgrep", Bwrap: "bubblewrap",
	GNUGrep: "grep", GNUFind: "findutils", Bash: "bash", Userns: "util-linux",
	Gopls: "gopls",
}

func probeOnce(tool string) (path, why string) {
	command := map[string]string{GNUGrep: "grep", GNUFind: "find", Userns: "unshare"}[tool]
	if command == "" {
		command = tool
	}
	if tool == Root {
		if os.Geteuid() != 0 {
			return "", "the spec needs root (or CAP_SYS_ADMIN) to mount a tmpfs"
		}
		return "", ""
	}
	if _, ok := installHint[tool]; !ok {
		return "", "no such tool " + tool + " (tooltest knows " + strings.Join(slices.Sorted(maps.Keys(installHint)), ", ") + ")"
	}
	path, err := exec.LookPath(command)
	if err != nil {
		if tool == Gopls {
			return "", "gopls is not on PATH: go install golang.org/x/tools/gopls@v0.23.0 and put $(go env GOPATH)/bin on PATH"
		}
		return "", command + " is not on PATH: install " + installHint[tool] + " (Debian: apt-get install " + installHint[tool] + ")"
	}
	switch tool {
	case GNUGrep, GNUFind:
		out, err := exec.Command(path, "--version").Output()
		if err != nil || !bytes.Contains(out, []byte("GNU")) {
			return "", path + " is not GNU " + command + ": install " + installHint[tool]
		}
	case Bwrap:
		if out, err := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true").CombinedOutput(); err != nil {
			return "", "bwrap is installed but cannot create namespaces here (" + err.Error() + ": " + strings.TrimSpace(string(out)) + "); unprivileged user namespaces may be disabled"
		}
	case Userns:
		args := []string{"--mount"}
		if os.Geteuid() != 0 {
			args = append(args, "--map-root-user")
		}
		if out, err := exec.Command(path, append(args, "true")...).CombinedOutput(); err != nil {
			return "", "the kernel refuses a private mount namespace here (" + err.Error() + ": " + strings.TrimSpace(string(out)) + ")"
		}
	}
	return path, ""
}
