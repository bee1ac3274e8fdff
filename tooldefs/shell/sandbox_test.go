//go:build linux

package shell_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// needBwrap ends the spec when bwrap cannot run here (sandbox.Check
// says why): a skip, or a failure when AGENTCORE_REQUIRE names bwrap.
func needBwrap() {
	if err := sandbox.Check(""); err != nil {
		tooltest.Missing(tooltest.Bwrap, err.Error())
	}
}

var _ = Describe("Sandbox", func() {
	var dir, tmp string
	var sb *sandbox.Spec
	run := func(cmd string) shell.Result {
		res, err := shell.Run(context.Background(), shell.Options{Command: cmd, Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
	BeforeEach(func() {
		needBwrap()
		dir, tmp = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
		sb = &sandbox.Spec{Writable: []string{dir}, Protected: []string{filepath.Join(dir, ".git", "hooks")}}
	})

	It("denies a write outside the working directory and says the sandbox did", func() {
		marker := tooltest.Marker("/etc", "sandbox")
		res := run("touch " + marker)
		Expect(res.ExitCode).NotTo(Equal(0))
		Expect(res.SandboxDenied).To(BeTrue())
		Expect(res.Output).To(ContainSubstring("sandbox denied the write"))
		Expect(marker).NotTo(BeAnExistingFile())
	})

	It("allows a write inside the working directory and keeps the cwd", func() {
		res := run("touch ./x && cd .git && echo ok")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(filepath.Join(dir, "x")).To(BeAnExistingFile())
		Expect(res.Cwd).To(HaveSuffix("/.git"))
	})

	It("keeps .git/hooks read-only inside the working directory", func() {
		res := run("echo evil > .git/hooks/pre-commit")
		Expect(res.SandboxDenied).To(BeTrue(), res.Output)
		Expect(filepath.Join(dir, ".git", "hooks", "pre-commit")).NotTo(BeAnExistingFile())
	})

	It("keeps missing protected paths from being created, and leaves no mount point behind", func() {
		sb.Protected = append(sb.Protected, filepath.Join(dir, ".mcp.json"), filepath.Join(dir, ".claude", "settings.json"),
			filepath.Join(dir, ".claude", "settings.local.json"), filepath.Join(dir, ".git", "hooks", "sub", "x"))
		for _, cmd := range []string{
			`echo '{"mcpServers":{}}' > .mcp.json`,
			`mkdir -p .claude && echo '{}' > .claude/settings.json`,
			`echo '{}' > .claude/settings.local.json`,
		} {
			res := run(cmd)
			Expect(res.ExitCode).NotTo(Equal(0), cmd)
			Expect(res.SandboxDenied).To(BeTrue(), "%s: %s", cmd, res.Output)
		}
		res := run("mkdir -p other && touch other/ok")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		Expect(names).To(ConsistOf(".git", "other"), "the mount points are gone once the commands ended")
	})

	It("removes a background command's mount points when it ends", func() {
		sb.Protected = append(sb.Protected, filepath.Join(dir, ".mcp.json"))
		r := shell.NewRegistry()
		DeferCleanup(r.Reset)
		t, err := r.Start(shell.BackgroundOptions{Command: "echo x > .mcp.json; echo rc=$?", Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).NotTo(HaveOccurred())
		Eventually(t.Done()).Should(BeClosed())
		out, err := os.ReadFile(t.OutputPath)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(ContainSubstring("rc=1"))
		Expect(filepath.Join(dir, ".mcp.json")).NotTo(BeAnExistingFile())
	})

	It("skips a writable path that does not exist instead of failing every command", func() {
		sb.Writable = append(sb.Writable, filepath.Join(dir, "not-yet"), "/nonexistent/agentcore")
		res := run("touch ./x")
		Expect(res.ExitCode).To(Equal(0), res.Output)
	})

	It("gives a command of its own bwrap a pid namespace and its limits' cgroup too", func() {
		res := run("ls /proc | grep -E '^[0-9]+$'")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(strings.Fields(res.Output)).To(ContainElement("1"))
		Expect(strings.Fields(res.Output)).NotTo(ContainElement(strconv.Itoa(os.Getpid())))
		if err := sandbox.CgroupLimits(); err != nil {
			tooltest.Missing(tooltest.Cgroup, err.Error())
		}
		sb.Limits = sandbox.Limits{Processes: 10, MemoryBytes: 64 << 20}
		res = run(`bomb() { bomb | bomb & }; bomb; sleep 1`)
		Expect(res.Output).To(ContainSubstring("[sandbox] the command could not start more processes: sandbox.limits.maxProcesses is 10 (its processes and threads together"))
		Eventually(sandbox.LiveCgroups).WithTimeout(10 * time.Second).Should(BeEmpty())
		res = run(`cat /proc/self/cgroup`)
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(res.Output).To(MatchRegexp(`agentcore-%d-\d+`, os.Getpid()), "in a cgroup of its own")
	})

	It("denies network access to a loopback listener", func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		defer ln.Close()
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		Expect(run("exec 3<>/dev/tcp/127.0.0.1/" + port).ExitCode).NotTo(Equal(0))
		sb = nil
		Expect(run("exec 3<>/dev/tcp/127.0.0.1/" + port).ExitCode).To(Equal(0))
	})
})

// The session's long-lived sandbox: real bwrap, real bash, the server
// being this test binary run again inside bwrap.
var _ = Describe("Session sandbox", func() {
	var dir, tmp string
	var sb *sandbox.Spec
	var ss *sandbox.Sandbox
	run := func(cmd string) shell.Result {
		res, err := shell.Run(context.Background(), shell.Options{Command: cmd, Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
	// server is the pid of the session's one sandbox server as the host
	// sees it (inside, its pid namespace numbers it otherwise).
	server := func() int {
		servers, _ := ss.PIDs()
		Expect(servers).To(HaveLen(1))
		return servers[0]
	}
	ppid := func() int {
		res := run("echo $PPID")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(ss.HostPID(firstLinePID(res.Output))).To(Equal(server()), "$PPID inside is the server")
		return server()
	}
	// aliveInside asks the sandbox whether its pid is a live process.
	aliveInside := func(pid int) bool {
		res := run("ps -o stat= -p " + strconv.Itoa(pid) + " | grep -qv Z && echo alive || echo gone")
		return res.Output == "alive"
	}
	BeforeEach(func() {
		needBwrap()
		dir, tmp = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
		ss = &sandbox.Sandbox{}
		DeferCleanup(ss.Close)
		sb = &sandbox.Spec{Writable: []string{dir}, Session: ss,
			Protected: []string{filepath.Join(dir, ".git", "hooks"), filepath.Join(dir, ".git", "config"), filepath.Join(dir, ".mcp.json"),
				filepath.Join(dir, ".claude", "settings.local.json")}}
	})

	// needLimits ends the spec when nothing here can bound a root's
	// processes: as root only a cgroup can (RLIMIT_NPROC does not bind
	// it); another user's rlimits do.
	needLimits := func() {
		if err := sandbox.CgroupLimits(); err != nil && os.Geteuid() == 0 {
			tooltest.Missing(tooltest.Cgroup, err.Error())
		}
	}
	// noCgroupLeft waits until the commands' cgroups are gone: removed
	// only once empty, so nothing of the command is left running.
	noCgroupLeft := func() {
		GinkgoHelper()
		Eventually(sandbox.LiveCgroups).WithTimeout(10 * time.Second).Should(BeEmpty())
	}

	It("stops a memory hog at sandbox.limits.memoryMB and says the limit did", func() {
		needLimits()
		sb.Limits = sandbox.Limits{MemoryBytes: 64 << 20}
		res := run(`s=$(head -c 300000000 /dev/zero | tr '\0' a); echo "len=${#s}"`)
		Expect(res.Output).NotTo(ContainSubstring("len=300000000"))
		Expect(res.Output).To(ContainSubstring("[sandbox] the command ran out of memory: sandbox.limits.memoryMB"))
		noCgroupLeft()
		sb.Limits = sandbox.Limits{}
		res = run(`s=$(head -c 100000000 /dev/zero | tr '\0' a); echo "len=${#s}"`)
		Expect(res.Output).To(ContainSubstring("len=100000000"), "without the limit the same command has the memory")
	})

	It("bounds a command's processes together, not each one, with a cgroup", func() {
		if err := sandbox.CgroupLimits(); err != nil {
			tooltest.Missing(tooltest.Cgroup, err.Error())
		}
		sb.Limits = sandbox.Limits{MemoryBytes: 64 << 20}
		// Three processes of 40 MiB each: each fits an rlimit of 64 MiB,
		// together they do not fit the cgroup.
		res := run(`for i in 1 2 3; do (s=$(head -c 40000000 /dev/zero | tr '\0' a); sleep 2) & done; wait; echo finished`)
		Expect(res.Output).To(ContainSubstring("[sandbox] the command ran out of memory: sandbox.limits.memoryMB bounds it to 64 MiB (all its processes together), and the kernel killed"))
		noCgroupLeft()
	})

	It("stops a fork bomb at sandbox.limits.maxProcesses and says the limit did", func() {
		needLimits()
		sb.Limits = sandbox.Limits{Processes: 30}
		res, err := shell.Run(context.Background(), shell.Options{Command: `for i in $(seq 200); do sleep 60 & done; echo "started=$(jobs -p | wc -l)"`,
			Dir: dir, TempDir: tmp, Sandbox: sb, Timeout: 5 * time.Second, KillGrace: 100 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Output).NotTo(ContainSubstring("started=200"))
		Expect(res.Output).To(ContainSubstring("[sandbox] the command could not start more processes: sandbox.limits.maxProcesses is 30"))
		noCgroupLeft()
	})

	It("stops a classic fork bomb that outlives its command, and leaves none of it running", func() {
		if err := sandbox.CgroupLimits(); err != nil {
			tooltest.Missing(tooltest.Cgroup, err.Error())
		}
		sb.Limits = sandbox.Limits{Processes: 20}
		res, err := shell.Run(context.Background(), shell.Options{Command: `bomb() { bomb | bomb & }; bomb; sleep 1; echo "after the bomb"`,
			Dir: dir, TempDir: tmp, Sandbox: sb, Timeout: 20 * time.Second, KillGrace: 100 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.TimedOut).To(BeFalse())
		Expect(res.Output).To(ContainSubstring("[sandbox] the command could not start more processes: sandbox.limits.maxProcesses is 20 (its processes and threads together; the kernel refused"))
		noCgroupLeft()
		Expect(run("ps -e -o comm= | grep -c bash").Output).To(Equal("1"), "only this command's bash is left in the sandbox")
	})

	It("denies a write to /etc with the sandbox's note and lets ./x be written", func() {
		marker := tooltest.Marker("/etc", "sandbox")
		res := run("touch " + marker)
		Expect(res.ExitCode).NotTo(Equal(0))
		Expect(res.SandboxDenied).To(BeTrue())
		Expect(res.Output).To(ContainSubstring("sandbox denied the write"))
		Expect(marker).NotTo(BeAnExistingFile())

		res = run("touch ./x && cd .git && echo ok")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(res.Output).To(Equal("ok"))
		Expect(filepath.Join(dir, "x")).To(BeAnExistingFile())
		Expect(res.Cwd).To(HaveSuffix("/.git"))

		for _, cmd := range []string{"echo evil > .git/hooks/pre-commit", "echo '{}' > .mcp.json", "echo x > .git/config"} {
			res = run(cmd)
			Expect(res.SandboxDenied).To(BeTrue(), "%s: %s", cmd, res.Output)
		}
		Expect(filepath.Join(dir, ".git", "hooks", "pre-commit")).NotTo(BeAnExistingFile())
	})

	It("shows a command only the sandbox's processes: a pid namespace of its own", func() {
		self := strconv.Itoa(os.Getpid())
		for _, list := range []string{"ls /proc | grep -E '^[0-9]+$'", "ps -e -o pid="} {
			res := run(list)
			Expect(res.ExitCode).To(Equal(0), res.Output)
			pids := strings.Fields(res.Output)
			Expect(pids).To(ContainElement("1"), "%s: bwrap's init is pid 1 there", list)
			Expect(pids).NotTo(ContainElement(self), "%s: the test process is not in sight", list)
			Expect(len(pids)).To(BeNumerically("<=", 8), "%s: init, the server and this command's few processes: %s", list, res.Output)
		}
		Expect(run("kill -0 "+self+" 2>/dev/null; echo rc=$?").Output).To(Equal("rc=1"), "nor can it signal the host's processes")
	})

	It("runs the commands of a session in one sandbox that shares its private /tmp", func() {
		name := tooltest.Marker("/tmp", "session")
		first := run("echo $PPID; echo shared > " + name)
		Expect(first.ExitCode).To(Equal(0), first.Output)
		second := run("echo $PPID; cat " + name)
		Expect(second.ExitCode).To(Equal(0), second.Output)
		Expect(second.Output).To(HaveSuffix("\nshared"))
		Expect(firstLinePID(second.Output)).To(Equal(firstLinePID(first.Output)), "one server forks both")
		servers, bwraps := ss.PIDs()
		Expect(servers).To(Equal([]int{ss.HostPID(firstLinePID(first.Output))}))
		Expect(bwraps).To(HaveLen(1))
		Expect(name).NotTo(BeAnExistingFile(), "the sandbox's /tmp is not the host's")
	})

	It("kills the command's whole group inside the sandbox on timeout, and keeps the sandbox", func() {
		server := ppid()
		res, err := shell.Run(context.Background(), shell.Options{Command: "sleep 300 & echo $!; sleep 300",
			Dir: dir, TempDir: tmp, Sandbox: sb, Timeout: 2 * time.Second, KillGrace: 200 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.TimedOut).To(BeTrue())
		child := firstLinePID(res.Output)
		Expect(child).To(BeNumerically(">", 0), res.Output)
		Expect(aliveInside(child)).To(BeFalse(), "the background sleep of the group is killed too")
		Expect(ppid()).To(Equal(server))
	})

	It("stops a background command's whole group with Kill (TaskStop), and keeps the sandbox", func() {
		before := ppid()
		r := shell.NewRegistry()
		DeferCleanup(r.Reset)
		t, err := r.Start(shell.BackgroundOptions{Command: "sleep 300 & echo $!; sleep 300", Dir: dir, TempDir: tmp, Sandbox: sb, KillGrace: 200 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		var child int
		Eventually(func() int { out, _ := os.ReadFile(t.OutputPath); child = firstLinePID(string(out)); return child }).Should(BeNumerically(">", 0))
		Expect(aliveInside(child)).To(BeTrue())
		killed, err := r.Kill(t.ID)
		Expect(err).NotTo(HaveOccurred())
		Eventually(killed.Done()).Should(BeClosed())
		status, _ := killed.State()
		Expect(status).To(Equal(shell.StatusKilled))
		Expect(aliveInside(child)).To(BeFalse(), "the group's background sleep is killed too")
		Expect(ppid()).To(Equal(before))
	})

	It("ends a canceled command's group", func() {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(time.Second)
			cancel()
		}()
		res, err := shell.Run(ctx, shell.Options{Command: "sleep 300 & echo $!; sleep 300", Dir: dir, TempDir: tmp, Sandbox: sb,
			KillGrace: 200 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Canceled).To(BeTrue())
		Expect(aliveInside(firstLinePID(res.Output))).To(BeFalse())
	})

	It("runs background commands in it, and leaves no process or mount point once the session closes", func() {
		r := shell.NewRegistry()
		DeferCleanup(r.Reset)
		t, err := r.Start(shell.BackgroundOptions{Command: "echo $$; sleep 300", Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() int { out, _ := os.ReadFile(t.OutputPath); return firstLinePID(string(out)) }).Should(BeNumerically(">", 0))
		out, _ := os.ReadFile(t.OutputPath)
		bg := ss.HostPID(firstLinePID(string(out)))
		Expect(bg).To(BeNumerically(">", 0))
		Expect(run("echo x > .mcp.json").SandboxDenied).To(BeTrue())
		Expect(run("mkdir -p .claude && echo '{}' > .claude/settings.local.json").SandboxDenied).To(BeTrue())
		Expect(filepath.Join(dir, ".mcp.json")).To(BeAnExistingFile(), "the mount point lives as long as the sandbox")
		Expect(filepath.Join(dir, ".claude")).To(BeADirectory(), "an empty directory stands for a missing ancestor")
		servers, bwraps := ss.PIDs()
		Expect(servers).To(HaveLen(1))
		Expect(bwraps).To(HaveLen(1))

		ss.Close()
		for _, pid := range append(append(servers, bwraps...), bg) {
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse(), "pid %d", pid)
		}
		Eventually(t.Done()).Should(BeClosed())
		Expect(filepath.Join(dir, ".mcp.json")).NotTo(BeAnExistingFile())
		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(1), "only .git is left")

		_, err = shell.Run(context.Background(), shell.Options{Command: "true", Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).To(MatchError(ContainSubstring("sandbox is closed")), "never unconfined")
	})

	It("starts a new sandbox when a protected path appears outside it, and keeps it protected", func() {
		Expect(os.RemoveAll(filepath.Join(dir, ".git"))).To(Succeed())
		before := ppid()
		Expect(run("git init -q .").SandboxDenied).To(BeTrue(), "a missing .git is kept from being made")
		// Made outside the sandbox (the user, or a command run
		// unsandboxed with approval).
		out, err := exec.Command("git", "init", "-q", dir).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(filepath.Join(dir, ".git", "config")).To(BeAnExistingFile())

		res := run("echo evil > .git/hooks/pre-commit")
		Expect(res.SandboxDenied).To(BeTrue(), res.Output)
		Expect(server()).NotTo(Equal(before), "restarted with the new mounts")
		Expect(filepath.Join(dir, ".git", "hooks", "pre-commit")).NotTo(BeAnExistingFile())
		Expect(run("git config core.x y").ExitCode).NotTo(Equal(0), "and .git/config is read-only")
		Expect(tooltest.Alive(before)).To(BeFalse(), "the old sandbox is gone")
		ss.Close()
		Expect(filepath.Join(dir, ".git", "config")).To(BeAnExistingFile(), "a mount point that became the real thing stays")
	})

	It("starts a new sandbox when the working directories change, and closes the old one", func() {
		before := ppid()
		other := GinkgoT().TempDir()
		sb = &sandbox.Spec{Writable: []string{other}, Session: ss}
		dir = other
		res := run("touch ./y")
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(server()).NotTo(Equal(before))
		Expect(filepath.Join(other, "y")).To(BeAnExistingFile())
		Eventually(func() bool { return tooltest.Alive(before) }).Should(BeFalse())
	})

	It("runs concurrent commands of the session side by side in the one sandbox", func() {
		server := ppid()
		inside := firstLinePID(run("echo $PPID").Output)
		results := make(chan shell.Result, 4)
		for i := range 4 {
			go func() {
				defer GinkgoRecover()
				res, err := shell.Run(context.Background(), shell.Options{Command: "sleep 0.2; echo $PPID " + strconv.Itoa(i),
					Dir: dir, TempDir: tmp, Sandbox: sb})
				Expect(err).NotTo(HaveOccurred())
				results <- res
			}()
		}
		for range 4 {
			var res shell.Result
			Eventually(results).Should(Receive(&res))
			Expect(res.ExitCode).To(Equal(0), res.Output)
			Expect(res.Output).To(HavePrefix(strconv.Itoa(inside) + " "))
		}
		Expect(ppid()).To(Equal(server))
	})

	It("fails a command whose server dies under it, ends what is left of it, and starts a new sandbox next", func() {
		server := ppid()
		marker := filepath.Join(dir, "pid")
		bash := make(chan int, 1)
		go func() {
			defer GinkgoRecover()
			Eventually(func() int { b, _ := os.ReadFile(marker); return firstLinePID(string(b)) }).WithTimeout(10 * time.Second).Should(BeNumerically(">", 0))
			b, _ := os.ReadFile(marker)
			bash <- ss.HostPID(firstLinePID(string(b)))
			Expect(syscall.Kill(server, syscall.SIGKILL)).To(Succeed())
		}()
		_, err := shell.Run(context.Background(), shell.Options{Command: "echo $$ > " + marker + ".tmp; mv " + marker + ".tmp " + marker + "; sleep 300", Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).To(MatchError(ContainSubstring("sandbox server ended while the command ran")))
		var hostBash int
		Eventually(bash).Should(Receive(&hostBash))
		Expect(hostBash).To(BeNumerically(">", 0))
		Eventually(func() bool { return tooltest.Alive(hostBash) }).Should(BeFalse())
		Expect(ppid()).NotTo(Equal(server))
	})

	It("starts a new sandbox when the network switch changes", func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		defer ln.Close()
		connect := "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(ln.Addr().(*net.TCPAddr).Port) + " && echo connected"
		res := run(connect)
		Expect(res.ExitCode).NotTo(Equal(0), "no network: %s", res.Output)
		before := ppid()
		sb = &sandbox.Spec{Writable: sb.Writable, Protected: sb.Protected, Network: true, Session: ss}
		res = run(connect)
		Expect(res.ExitCode).To(Equal(0), res.Output)
		Expect(server()).NotTo(Equal(before))
	})

	It("starts a new sandbox when the server died, never running the command unconfined", func() {
		before := ppid()
		Expect(syscall.Kill(before, syscall.SIGKILL)).To(Succeed())
		Eventually(func() bool { return tooltest.Alive(before) }).Should(BeFalse())
		marker := tooltest.Marker("/etc", "sandbox")
		res := run("touch " + marker)
		Expect(res.SandboxDenied).To(BeTrue(), res.Output)
		Expect(marker).NotTo(BeAnExistingFile())
		Expect(server()).NotTo(Equal(before))
		Expect(run("touch ./x").ExitCode).To(Equal(0))
	})
})
