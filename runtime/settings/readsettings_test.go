package settings_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/settings"
)

var _ = Describe("ReadSettings", func() {
	var home, project string

	write := func(path, body string) {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}

	BeforeEach(func() {
		home = GinkgoT().TempDir()
		project = GinkgoT().TempDir()
		GinkgoT().Setenv("AGENTCORE_CONFIG_DIR", "")
		GinkgoT().Setenv("CLAUDE_CONFIG_DIR", "")
		write(filepath.Join(home, ".claude", "settings.json"), `{"model": "user-model", "env": {"A": "user", "B": "user"}, "permissions": {"allow": ["Read", "Grep"]}}`)
		write(filepath.Join(project, ".claude", "settings.json"), `{"model": "project-model", "env": {"A": "project"}, "permissions": {"allow": ["Read"], "deny": ["Bash(rm:*)"]}}`)
		write(filepath.Join(project, ".claude", "settings.local.json"), `{"model": "local-model", "permissions": {"deny": ["Bash(rm:*)", "WebFetch"]}}`)
	})

	It("concatenates arrays without duplicates and takes each scalar from the highest level: local > project > user", func() {
		files, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Permissions.Allow).To(Equal([]string{"Read", "Grep"}))
		Expect(s.Permissions.Deny).To(Equal([]string{"Bash(rm:*)", "WebFetch"}))
		Expect(s.Model).To(Equal("local-model"))
		Expect(s.Env).To(Equal(map[string]string{"A": "project", "B": "user"}), "env merges key by key")
		found := 0
		for _, f := range files {
			if f.Found {
				found++
			}
		}
		Expect(found).To(Equal(3))
	})

	It("reads lspServers in the shape of Claude Code's .lsp.json, a later file's entry replacing one of the same name", func() {
		write(filepath.Join(home, ".claude", "settings.json"), `{"lspServers": {"go": {"command": "gopls-old", "extensionToLanguage": {".go": "go"}}, "py": {"command": "pyright-langserver", "args": ["--stdio"], "extensionToLanguage": {".py": "python"}, "env": {"X": "1"}, "startupTimeout": 5000}}}`)
		write(filepath.Join(project, ".claude", "settings.json"), `{"lspServers": {"go": {"command": "gopls", "args": ["serve"], "extensionToLanguage": {".go": "go"}, "settings": {"gopls": {"staticcheck": true}}}}}`)
		_, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.LSPServers).To(HaveLen(2))
		Expect(s.LSPServers["go"].Command).To(Equal("gopls"))
		Expect(s.LSPServers["go"].Args).To(Equal([]string{"serve"}))
		Expect(s.LSPServers["go"].Settings).To(Equal(map[string]any{"gopls": map[string]any{"staticcheck": true}}))
		py := s.LSPServers["py"]
		Expect([]any{py.Command, py.Args, py.ExtensionToLanguage, py.Env, py.StartupTimeout}).To(Equal([]any{
			"pyright-langserver", []string{"--stdio"}, map[string]string{".py": "python"}, map[string]string{"X": "1"}, 5000}))
		name, ok := s.LSPServers.For(".PY")
		Expect([]any{name, ok}).To(Equal([]any{"py", true}))
	})

	It("lets agentcore's file win over Claude Code's at the same level", func() {
		write(filepath.Join(project, ".agentcore", "settings.local.json"), `{"model": "agentcore-model"}`)
		_, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Model).To(Equal("agentcore-model"))
	})

	It("reads --settings above the local settings, as a JSON object or a file", func() {
		_, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true,
			SettingsFlag: `{"model": "flag-model", "permissions": {"ask": ["Edit"]}}`})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Model).To(Equal("flag-model"))
		Expect(s.Permissions.Ask).To(Equal([]string{"Edit"}))

		write(filepath.Join(project, "ci.json"), `{"env": {"A": "flag"}}`)
		files, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true, SettingsFlag: "ci.json"})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Env["A"]).To(Equal("flag"))
		last := files[len(files)-1]
		Expect(last.Source).To(Equal(settings.SourceFlagSettings))
		Expect(last.Path).To(Equal(filepath.Join(project, "ci.json")))
	})

	It("refuses a --settings that is neither a file nor a JSON object, naming what to pass", func() {
		_, _, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true, SettingsFlag: "missing.json"})
		Expect(err).To(MatchError(ContainSubstring("--settings missing.json")))
		Expect(err).To(MatchError(ContainSubstring("pass an existing settings file or a JSON object")))
		_, _, err = settings.ReadSettings(project, home, settings.Selection{SettingsFlag: `{"model": `})
		Expect(err).To(MatchError(ContainSubstring("--settings is not a valid settings object")))
	})

	It("reads only the levels --setting-sources names, and --settings whatever they are", func() {
		only, err := settings.ParseSettingSources("user,local")
		Expect(err).NotTo(HaveOccurred())
		files, s, err := settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true, OnlySources: only})
		Expect(err).NotTo(HaveOccurred())
		for _, f := range files {
			Expect(f.Source).NotTo(Equal(settings.SourceProject))
		}
		Expect(s.Permissions.Deny).To(Equal([]string{"Bash(rm:*)", "WebFetch"}))
		Expect(s.Env).To(Equal(map[string]string{"A": "user", "B": "user"}))

		none, err := settings.ParseSettingSources("")
		Expect(err).NotTo(HaveOccurred())
		files, s, err = settings.ReadSettings(project, home, settings.Selection{SettingsFiles: true, OnlySources: none, SettingsFlag: `{"model":"m"}`})
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(HaveLen(1))
		Expect(s.Model).To(Equal("m"))

		_, err = settings.ParseSettingSources("user,policy")
		Expect(err).To(MatchError(ContainSubstring(`unknown setting source "policy"`)))
	})

	It("gives the --settings rules to the engine, named by where they came from", func() {
		e, err := permission.Load(project, home, permission.Sources{SettingsFiles: true, SettingsFlag: `{"permissions": {"deny": ["Write"]}}`})
		Expect(err).NotTo(HaveOccurred())
		var names []string
		for _, r := range e.Rules() {
			if r.Source == settings.SourceFlagSettings {
				names = append(names, r.String())
			}
		}
		Expect(names).To(Equal([]string{"Write"}))
	})
})
