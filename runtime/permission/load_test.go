package permission_test

import (
	"context"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/settings"
)

var _ = Describe("Load", func() {
	var (
		home, project, configDir string
		tc                       *runtime.ToolContext
	)

	write := func(path, body string) {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}

	BeforeEach(func() {
		home = GinkgoT().TempDir()
		project = GinkgoT().TempDir()
		configDir = filepath.Join(home, ".agentcore")
		tc = runtime.NewToolContext(project)
		GinkgoT().Setenv("AGENTCORE_CONFIG_DIR", "")
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", "")
	})

	It("works with no settings files at all", func() {
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Mode()).To(Equal(permission.ModeDefault))
		Expect(e.Rules()).To(BeEmpty())
		Expect(e.Files()).To(HaveLen(6), "user, project and local, Claude Code's and agentcore's")
	})

	It("reads a Claude Code project's .claude settings too, and agentcore's win a conflict", func() {
		write(filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Read"], "defaultMode": "plan"}}`)
		write(filepath.Join(project, ".claude", "settings.json"), `{"permissions": {"deny": ["Bash(rm:*)"], "defaultMode": "acceptEdits"}, "toolSearch": "never"}`)
		write(filepath.Join(project, ".claude", "settings.local.json"), `{"permissions": {"ask": ["WebFetch"]}}`)
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"toolSearch": "auto:5"}`)
		e, err := permission.Load(filepath.Join(project, "sub"), home, permission.Sources{SettingsFiles: true, ConfigDir: configDir})
		Expect(err).NotTo(HaveOccurred())
		var rules []string
		for _, r := range e.Rules() {
			rules = append(rules, r.String())
		}
		Expect(rules).To(ContainElements("Read", "Bash(rm:*)", "WebFetch"))
		Expect(e.Mode()).To(Equal(permission.ModeAcceptEdits), "the project's defaultMode overrides the user's")
		Expect(e.Settings().ToolSearch).To(Equal("auto:5"), ".agentcore wins over .claude at the same level")
	})

	It("lets tools read a directory added with AddReadDir before it exists, under a parent reached through a symlink", func() {
		real := filepath.Join(home, "real")
		Expect(os.MkdirAll(real, 0o755)).To(Succeed())
		link := filepath.Join(home, "link")
		Expect(os.Symlink(real, link)).To(Succeed())
		e, err := permission.Load(project, home, permission.Sources{})
		Expect(err).NotTo(HaveOccurred())
		results := filepath.Join(link, "session", "tool-results")
		e.AddReadDir(results)
		write(filepath.Join(real, "session", "tool-results", "r1.txt"), "spilled")
		ctx := context.Background()
		Expect(e.Check(ctx, readTool(), filepath.Join(results, "r1.txt"), tc).Behavior).To(Equal(runtime.Allow))
		Expect(e.Check(ctx, readTool(), filepath.Join(real, "session", "tool-results", "r1.txt"), tc).Behavior).To(Equal(runtime.Allow))
		Expect(e.Check(ctx, readTool(), filepath.Join(real, "session", "other.txt"), tc).Behavior).NotTo(Equal(runtime.Allow))
		Expect(e.Check(ctx, editTool(), filepath.Join(results, "r1.txt"), tc).Behavior).NotTo(Equal(runtime.Allow), "read, not write")
	})

	It("takes the settings files already read (Sources.Files) and reads none again", func() {
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"deny": ["Bash(git push:*)"]}}`)
		src := permission.Sources{SettingsFiles: true, ConfigDir: configDir}
		files, _, err := settings.ReadSettings(project, home, src.Selection())
		Expect(err).NotTo(HaveOccurred())
		By("the file changes after it was read: the engine keeps what was read, as one read does")
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"allow": ["Bash(git push:*)"]}}`)
		src.Files = files
		e, err := permission.Load(project, home, src)
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Check(context.Background(), bashTool(), "git push", tc).Behavior).To(Equal(runtime.Deny))
		Expect(e.Files()).To(HaveLen(6))

		src.Files = nil
		e, err = permission.Load(project, home, src)
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Check(context.Background(), bashTool(), "git push", tc).Behavior).To(Equal(runtime.Allow), "nil reads the files")
	})

	It("merges user, project and local settings; deny wins; later modes override", func() {
		write(filepath.Join(configDir, "settings.json"), `{
			"permissions": {"allow": ["Bash(git:*)"], "defaultMode": "plan"},
			"toolSearch": "never"}`)
		write(filepath.Join(project, ".agentcore", "settings.json"), `{
			"permissions": {"deny": ["Bash(git push:*)"], "defaultMode": "acceptEdits"},
			"toolSearch": "auto:5", "unrelated": {"x": 1}}`)
		write(filepath.Join(project, ".agentcore", "settings.local.json"), `{
			"permissions": {"ask": ["Bash(git commit:*)"]}}`)
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Mode()).To(Equal(permission.ModeAcceptEdits))
		Expect(e.Settings().ToolSearch).To(Equal("auto:5"))
		ctx := context.Background()
		Expect(e.Check(ctx, bashTool(), "git status", tc).Behavior).To(Equal(runtime.Allow))
		Expect(e.Check(ctx, bashTool(), "git push", tc).Behavior).To(Equal(runtime.Deny))
		Expect(e.Check(ctx, bashTool(), "git commit -m x", tc).Behavior).To(Equal(runtime.Ask))
		d := e.Check(ctx, bashTool(), "git push", tc)
		Expect(d.Message).To(ContainSubstring(filepath.Join(project, ".agentcore", "settings.json")))
	})

	It("lets a user deny win over a project allow", func() {
		write(filepath.Join(configDir, "settings.json"), `{"permissions": {"deny": ["Bash(curl:*)"]}}`)
		write(filepath.Join(project, ".agentcore", "settings.local.json"), `{"permissions": {"allow": ["Bash"]}}`)
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Check(context.Background(), bashTool(), "curl x", tc).Behavior).To(Equal(runtime.Deny))
	})

	It("lets the caller add rules and override the mode", func() {
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"defaultMode": "plan", "allow": ["Read"]}}`)
		allow, err := permission.ParseRules(append(permission.SplitRuleList("Bash(git log:*) Bash(git diff:*)"), "Edit"), runtime.Allow, permission.SourceFlag, "--allowedTools")
		Expect(err).NotTo(HaveOccurred())
		deny, err := permission.ParseRules([]string{"Bash(git diff --stat)"}, runtime.Deny, permission.SourceFlag, "--disallowedTools")
		Expect(err).NotTo(HaveOccurred())
		e, err := permission.Load(project, home, permission.Sources{
			SettingsFiles: true,
			Rules:         append(allow, deny...),
			Mode:          permission.ModeDontAsk,
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Mode()).To(Equal(permission.ModeDontAsk))
		ctx := context.Background()
		Expect(e.Check(ctx, bashTool(), "git log -1", tc).Behavior).To(Equal(runtime.Allow))
		Expect(e.Check(ctx, bashTool(), "git diff --stat", tc).Behavior).To(Equal(runtime.Deny))
		Expect(e.Check(ctx, editTool(), "x.go", tc).Behavior).To(Equal(runtime.Allow))
	})

	It("finds the project settings from a subdirectory", func() {
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"deny": ["Bash"]}}`)
		sub := filepath.Join(project, "a", "b")
		Expect(os.MkdirAll(sub, 0o755)).To(Succeed())
		e, err := permission.Load(sub, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.DeniesTool(bashTool())).To(BeTrue())
	})

	It("reads additionalDirectories", func() {
		extra := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(extra, "f"), nil, 0o644)).To(Succeed())
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"additionalDirectories": ["`+extra+`"]}}`)
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.Check(context.Background(), readTool(), filepath.Join(extra, "f"), tc).Behavior).To(Equal(runtime.Allow))
	})

	It("honours --add-dir and the config directory flag", func() {
		extra := GinkgoT().TempDir()
		other := GinkgoT().TempDir()
		write(filepath.Join(other, "settings.json"), `{"permissions": {"deny": ["Read"]}}`)
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true, AddDirs: []string{extra}, ConfigDir: other})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.DeniesTool(readTool())).To(BeTrue())
		Expect(e.WorkingDirs(tc)).To(ContainElement(mustEval(extra)))
	})

	It("reads the config directories it is given, not the environment's", func() {
		other, claude := GinkgoT().TempDir(), GinkgoT().TempDir()
		write(filepath.Join(other, "settings.json"), `{"permissions": {"deny": ["Edit"]}}`)
		write(filepath.Join(claude, "settings.json"), `{"permissions": {"deny": ["Read"]}}`)
		GinkgoT().Setenv("AGENTCORE_CONFIG_DIR", other)
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", claude)
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.DeniesTool(editTool())).To(BeFalse(), "the library reads no AGENTCORE_CONFIG_DIR")
		Expect(e.DeniesTool(readTool())).To(BeFalse(), "nor CLAUDE_CONFIG_DIR")
		e, err = permission.Load(project, home, permission.Sources{SettingsFiles: true, ConfigDir: other, ClaudeConfigDir: claude})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.DeniesTool(editTool())).To(BeTrue())
		Expect(e.DeniesTool(readTool())).To(BeTrue())
	})

	It("names the file with invalid JSON", func() {
		path := filepath.Join(project, ".agentcore", "settings.json")
		write(path, `{"permissions": [}`)
		_, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).To(MatchError(ContainSubstring(path)))
		Expect(err).To(MatchError(ContainSubstring("not valid JSON")))
	})

	It("names every bad rule", func() {
		write(filepath.Join(configDir, "settings.json"), `{"permissions": {"allow": ["Bash(x", "Read"]}}`)
		_, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).To(MatchError(ContainSubstring(`"Bash(x"`)))
		_, err = permission.ParseRules([]string{"Ed it)"}, runtime.Deny, permission.SourceFlag, "--disallowedTools")
		Expect(err).To(MatchError(ContainSubstring("--disallowedTools")))
	})

	It("rejects an unknown mode from settings unless the caller sets one", func() {
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"defaultMode": "fast"}}`)
		_, err := permission.Load(project, home, permission.Sources{SettingsFiles: true})
		Expect(err).To(MatchError(ContainSubstring(`unknown permission mode "fast"`)))
		_, err = permission.Load(project, home, permission.Sources{SettingsFiles: true, Mode: permission.ModeAcceptEdits})
		Expect(err).NotTo(HaveOccurred())
	})

	It("anchors /path rules at the project root", func() {
		write(filepath.Join(project, ".agentcore", "settings.json"), `{"permissions": {"deny": ["Read(/private/**)"]}}`)
		sub := filepath.Join(project, "sub")
		Expect(os.MkdirAll(sub, 0o755)).To(Succeed())
		e, err := permission.Load(sub, home, permission.Sources{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		subTC := runtime.NewToolContext(sub)
		subTC.WorkingDirs = []string{project}
		Expect(e.Check(context.Background(), readTool(), filepath.Join(project, "private", "k"), subTC).Behavior).To(Equal(runtime.Deny))
		Expect(e.Check(context.Background(), readTool(), filepath.Join(sub, "private", "k"), subTC).Behavior).To(Equal(runtime.Allow))
	})
})

func mustEval(p string) string {
	r, err := filepath.EvalSymlinks(p)
	Expect(err).NotTo(HaveOccurred())
	return r
}
