package settings_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/settings"
)

var _ = Describe("The sandbox settings", func() {
	var home, project string

	write := func(path, body string) {
		GinkgoHelper()
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}
	load := func() settings.SandboxSettings {
		GinkgoHelper()
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true, ConfigDir: filepath.Join(home, ".agentcore")})
		Expect(err).NotTo(HaveOccurred())
		return e.Settings().Sandbox
	}

	BeforeEach(func() {
		home, project = GinkgoT().TempDir(), GinkgoT().TempDir()
		GinkgoT().Setenv("AGENTCORE_CONFIG_DIR", "")
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", "")
	})

	It("merges the files: later switches win, lists add up, paths absolute against each file's base", func() {
		write(filepath.Join(home, ".claude", "settings.json"),
			`{"sandbox": {"enabled": true, "filesystem": {"allowWrite": ["cache", "~/shared"]}, "network": {"allowedDomains": ["a.example"]}}}`)
		write(filepath.Join(project, ".claude", "settings.json"),
			`{"sandbox": {"allowUnsandboxedCommands": false, "filesystem": {"allowWrite": ["build"], "denyWrite": ["/opt/x"]}}}`)
		write(filepath.Join(project, ".claude", "settings.local.json"), `{"sandbox": {"enabled": false}}`)
		sb := load()
		Expect(sb.On()).To(BeFalse(), "the local file turned it off")
		Expect(sb.UnsandboxedAllowed()).To(BeFalse())
		Expect(sb.Filesystem.AllowWrite).To(Equal([]string{
			filepath.Join(home, ".claude", "cache"), filepath.Join(home, "shared"), filepath.Join(project, "build"),
		}))
		Expect(sb.Filesystem.DenyWrite).To(Equal([]string{"/opt/x"}))
		Expect(sb.Network.AllowedDomains).To(Equal([]string{"a.example"}))
	})

	It("makes the confinement: the protected paths, the lists, allowUnsandboxedCommands true by default", func() {
		write(filepath.Join(project, ".claude", "settings.json"),
			`{"sandbox": {"enabled": true, "filesystem": {"allowWrite": ["out"], "denyWrite": ["secrets"]}, "network": {"allowedDomains": ["a.example"], "deniedDomains": ["b.example"]}}}`)
		sb := load()
		Expect(sb.On()).To(BeTrue())
		conf, err := sb.Confinement()
		Expect(err).NotTo(HaveOccurred())
		Expect(conf.Protected).To(Equal(settings.SandboxProtected))
		Expect(conf.AllowWrite).To(Equal([]string{filepath.Join(project, "out")}))
		Expect(conf.DenyWrite).To(Equal([]string{filepath.Join(project, "secrets")}))
		Expect(conf.AllowedDomains).To(Equal([]string{"a.example"}))
		Expect(conf.DeniedDomains).To(Equal([]string{"b.example"}))
		Expect(conf.AllowUnsandboxed).To(BeTrue())
	})

	DescribeTable("refuses, naming it, a key it cannot honour",
		func(sandbox, key string) {
			write(filepath.Join(project, ".claude", "settings.json"), `{"sandbox": `+sandbox+`}`)
			_, err := load().Confinement()
			Expect(err).To(MatchError(ContainSubstring(key)))
			Expect(err).To(MatchError(Or(ContainSubstring("not supported"), ContainSubstring("must not be negative"))))
		},
		Entry("a negative limit", `{"enabled": true, "limits": {"maxProcesses": -1}}`, "sandbox.limits"),
		Entry("excludedCommands", `{"enabled": true, "excludedCommands": ["docker"]}`, "sandbox.excludedCommands (docker)"),
		Entry("httpProxyPort", `{"enabled": true, "network": {"httpProxyPort": 3128}}`, "httpProxyPort"),
		Entry("socksProxyPort", `{"enabled": true, "network": {"socksProxyPort": 1080}}`, "socksProxyPort"),
		Entry("allowManagedDomainsOnly", `{"enabled": true, "network": {"allowManagedDomainsOnly": true}}`, "allowManagedDomainsOnly"),
	)

	It("names every refused key at once", func() {
		write(filepath.Join(project, ".claude", "settings.json"),
			`{"sandbox": {"enabled": true, "excludedCommands": ["git"], "limits": {"memoryMB": -5}}}`)
		_, err := load().Confinement()
		Expect(err).To(MatchError(And(ContainSubstring("excludedCommands"), ContainSubstring("memoryMB -5"))))
	})

	It("reads the hidden paths, the credentials, the limits and failIfUnavailable", func() {
		write(filepath.Join(project, ".claude", "settings.json"), `{"sandbox": {"enabled": true, "failIfUnavailable": true,
			"filesystem": {"denyRead": ["secrets"], "allowRead": ["~/.ssh/known_hosts"]},
			"credentials": {"env": ["GITHUB_TOKEN"], "keepEnv": ["AWS_ACCESS_KEY_ID"]},
			"limits": {"memoryMB": 64, "maxProcesses": 20}}}`)
		conf, err := load().Confinement()
		Expect(err).NotTo(HaveOccurred())
		Expect(conf.DenyRead).To(Equal([]string{filepath.Join(project, "secrets")}))
		Expect(conf.AllowRead).To(HaveLen(1))
		Expect(conf.AllowRead[0]).To(HaveSuffix(filepath.Join(".ssh", "known_hosts")))
		Expect(conf.Secrets.Unset(true)).To(ContainElements("ANTHROPIC_API_KEY", "GITHUB_TOKEN", "AWS_ACCESS_KEY_ID"))
		Expect(conf.Secrets.Unset(false)).To(ContainElements("ANTHROPIC_API_KEY", "GITHUB_TOKEN"))
		Expect(conf.Secrets.Unset(false)).NotTo(ContainElement("AWS_ACCESS_KEY_ID"))
		Expect(conf.Limits.MemoryBytes).To(Equal(int64(64 << 20)))
		Expect(conf.Limits.Processes).To(Equal(20))
		Expect(conf.FailIfUnavailable).To(BeTrue())
	})
})
