package sandbox_test

// The Seatbelt profiles are compared with goldens in testdata/seatbelt on
// every OS. After a deliberate change to SeatbeltProfile, refresh them
// with
//
//	UPDATE_GOLDEN=1 go test ./runtime/sandbox/ -run TestSandbox
//
// and read the diff before committing it.

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/sandbox"
)

func seatbeltGolden(name, got string) {
	path := filepath.Join("testdata", "seatbelt", name+".sb")
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(got), 0o644)).To(Succeed())
	}
	want, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred(), "run with UPDATE_GOLDEN=1 to create %s", path)
	Expect(cmp.Diff(string(want), got)).To(BeEmpty(), "%s differs (UPDATE_GOLDEN=1 refreshes it)", path)
}

// specFor is the Spec a session confined by conf gives a command run in
// /Users/me/proj, with the network the Egress gives.
func specFor(conf *sandbox.Config, eg sandbox.Egress) *sandbox.Spec {
	s := sandbox.New(conf, sandbox.Options{Network: fixedNetwork(eg)})
	sp, err := s.Spec([]string{"/Users/me/proj"})
	Expect(err).NotTo(HaveOccurred())
	return sp
}

type fixedNetwork sandbox.Egress

func (f fixedNetwork) Egress(*sandbox.Config) (sandbox.Egress, error) { return sandbox.Egress(f), nil }

var protected = []string{".git/hooks", ".git/config", ".claude/settings.json", ".mcp.json"}

var _ = Describe("SeatbeltProfile", func() {
	const tmp = "/private/var/folders/xy/T/agentcore-sandbox-1"

	DescribeTable("matches the golden profile",
		func(name string, conf *sandbox.Config, eg sandbox.Egress) {
			seatbeltGolden(name, sandbox.SeatbeltProfile(specFor(conf, eg), tmp, "/Users/me/.cache/agentcore/run/1.log"))
		},
		Entry("plain: working dir and protected paths", "plain",
			&sandbox.Config{Protected: protected}, sandbox.Egress{}),
		Entry("allowWrite and denyWrite", "allowwrite-denywrite",
			&sandbox.Config{Protected: protected, AllowWrite: []string{"/Users/me/.npm", "/opt/build"}, DenyWrite: []string{"/Users/me/.npm/_cacache/keep"}},
			sandbox.Egress{}),
		Entry("denyRead and allowRead", "denyread-allowread",
			&sandbox.Config{Protected: protected, DenyRead: []string{"/Users/me/.ssh", "/Users/me/.aws/credentials", "/Users/me", "/Users/me/.config"}, AllowRead: []string{"/Users/me/.config/git"}},
			sandbox.Egress{}),
		Entry("network shared", "network-shared",
			&sandbox.Config{Protected: protected, AllowedDomains: []string{"github.com"}}, sandbox.Egress{Share: true}),
		Entry("network through egress bridges", "network-bridges",
			&sandbox.Config{Protected: protected, AllowedDomains: []string{"github.com"}},
			sandbox.Egress{Binds: []string{"/private/var/folders/xy/T/egress-1"}, Bridges: []sandbox.Bridge{
				{Port: 3128, Socket: "/private/var/folders/xy/T/egress-1/http.sock"},
				{Port: 1080, Socket: "/private/var/folders/xy/T/egress-1/socks.sock"},
			}}),
	)

	It("denies after it allows, since Seatbelt's last matching rule wins", func() {
		p := sandbox.SeatbeltProfile(specFor(&sandbox.Config{Protected: protected, DenyWrite: []string{"/etc/x"}}, sandbox.Egress{}), tmp)
		allow := strings.Index(p, "(allow file-write*\n  (subpath \"/Users/me/proj\")")
		deny := strings.Index(p, "(deny file-write*\n  (subpath \"/Users/me/proj/.git/hooks\")")
		Expect(allow).To(BeNumerically(">", 0))
		Expect(deny).To(BeNumerically(">", allow))
		Expect(p).To(ContainSubstring(`(literal "/Users/me/proj/.git")`), "the .git above the hooks cannot be moved aside")
		Expect(p).NotTo(ContainSubstring(`(literal "/Users/me/proj")`), "the working directory itself is not pinned")
		Expect(p).NotTo(ContainSubstring("network-outbound"))
		Expect(p).NotTo(ContainSubstring("(allow network*)"))
	})

	It("quotes paths so that none can end its string and add a rule", func() {
		evil := "/Users/me/we\"ird\\dir\n(allow default)"
		p := sandbox.SeatbeltProfile(&sandbox.Spec{Writable: []string{evil}}, tmp)
		Expect(p).To(ContainSubstring(`(subpath "/Users/me/we\"ird\\dir\n(allow default)")`))
		Expect(p).NotTo(ContainSubstring("\n(allow default)"))
	})

	It("does not hide a denied path that holds the working directory, nor one shown again", func() {
		p := sandbox.SeatbeltProfile(&sandbox.Spec{
			Writable: []string{"/Users/me/proj"}, DenyRead: []string{"/Users/me", "/Users/me/proj/.env", "/Users/me/.config/git"},
			AllowRead: []string{"/Users/me/.config"},
		}, tmp)
		Expect(p).To(ContainSubstring("(deny file-read*\n  (subpath \"/Users/me/proj/.env\")\n)"))
		Expect(p).NotTo(ContainSubstring(`(subpath "/Users/me")`))
		Expect(p).NotTo(ContainSubstring(`.config/git`))
	})
})

var _ = Describe("Seatbelt on macOS", func() {
	BeforeEach(func() {
		if goruntime.GOOS != "darwin" {
			Skip("sandbox-exec runs only on macOS")
		}
	})

	run := func(sp *sandbox.Spec, dir, command string) (int, string) {
		log, err := os.Create(filepath.Join(GinkgoT().TempDir(), "out.log"))
		Expect(err).NotTo(HaveOccurred())
		defer log.Close()
		p, err := sp.Start(command, dir, os.Environ(), log, false)
		Expect(err).NotTo(HaveOccurred())
		<-p.Done()
		code, _, _ := p.Exit()
		b, err := os.ReadFile(log.Name())
		Expect(err).NotTo(HaveOccurred())
		return code, string(b)
	}

	It("writes the working dir and TMPDIR, not the protected paths, elsewhere, nor the network", func() {
		Expect(sandbox.Check("")).To(Succeed())
		dir, outside := GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
		sp, err := sandbox.New(&sandbox.Config{Protected: protected}, sandbox.Options{}).Spec([]string{dir})
		Expect(err).NotTo(HaveOccurred())

		code, out := run(sp, dir, `echo ok > f && echo t > "$TMPDIR/t" && cat f "$TMPDIR/t"`)
		Expect(code).To(Equal(0), out)
		Expect(out).To(Equal("ok\nt\n"))

		code, out = run(sp, dir, "echo x > .git/hooks/pre-commit")
		Expect(code).NotTo(Equal(0), out)
		code, out = run(sp, dir, "echo {} > .mcp.json")
		Expect(code).NotTo(Equal(0), out)
		code, out = run(sp, dir, "mv .git .git2")
		Expect(code).NotTo(Equal(0), out)
		code, out = run(sp, dir, "echo x > "+filepath.Join(outside, "f"))
		Expect(code).NotTo(Equal(0), out)
		Expect(filepath.Join(outside, "f")).NotTo(BeAnExistingFile())

		if _, err := exec.LookPath("curl"); err == nil {
			code, out = run(sp, dir, "curl -sS --max-time 5 http://127.0.0.1:9/")
			Expect(code).NotTo(Equal(0), out)
		}
	})

	It("hides the denied paths", func() {
		dir, secret := GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(secret, "key"), []byte("s3cret"), 0o600)).To(Succeed())
		sp, err := sandbox.New(&sandbox.Config{DenyRead: []string{secret}}, sandbox.Options{}).Spec([]string{dir})
		Expect(err).NotTo(HaveOccurred())
		code, out := run(sp, dir, "cat "+filepath.Join(secret, "key"))
		Expect(code).NotTo(Equal(0), out)
		Expect(out).NotTo(ContainSubstring("s3cret"))
	})
})
