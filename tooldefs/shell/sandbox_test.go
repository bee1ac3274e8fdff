package shell_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/shell"
)

// The sandbox specs fail, not skip, when bwrap cannot run here, unless
// AGENTCORE_NO_BWRAP documents that this machine cannot create namespaces.
var _ = Describe("Sandbox", func() {
	var dir, tmp string
	var sb *shell.Sandbox
	run := func(cmd string) shell.Result {
		res, err := shell.Run(context.Background(), shell.Options{Command: cmd, Dir: dir, TempDir: tmp, Sandbox: sb})
		Expect(err).NotTo(HaveOccurred())
		return res
	}
	BeforeEach(func() {
		if why := os.Getenv("AGENTCORE_NO_BWRAP"); why != "" {
			Skip("AGENTCORE_NO_BWRAP: " + why)
		}
		Expect(shell.CheckSandbox("")).To(Succeed(), "bwrap must work here (or set AGENTCORE_NO_BWRAP=reason)")
		dir, tmp = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
		sb = &shell.Sandbox{Writable: []string{dir}, Protected: []string{filepath.Join(dir, ".git", "hooks")}}
	})

	It("denies a write outside the working directory and says the sandbox did", func() {
		res := run("touch /etc/agentcore-sandbox-x")
		Expect(res.ExitCode).NotTo(Equal(0))
		Expect(res.SandboxDenied).To(BeTrue())
		Expect(res.Output).To(ContainSubstring("sandbox denied the write"))
		Expect("/etc/agentcore-sandbox-x").NotTo(BeAnExistingFile())
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
