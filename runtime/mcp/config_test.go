package mcp_test

import (
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/mcp"
)

var _ = Describe("config", func() {
	It("parses Claude Code's .mcp.json format", func() {
		cfg, err := mcp.ParseConfig([]byte(`{"mcpServers": {
			"fs": {"command": "npx", "args": ["-y", "server-fs", "."], "env": {"DEBUG": "1"}},
			"remote": {"type": "http", "url": "https://example.com/mcp", "headers": {"Authorization": "Bearer x"}},
			"legacy": {"type": "sse", "url": "https://example.com/sse"},
			"explicit": {"type": "stdio", "command": "srv"}
		}}`), "test.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Names()).To(Equal([]string{"explicit", "fs", "legacy", "remote"}))
		Expect(cfg.Servers["fs"].Transport()).To(Equal("stdio"))
		Expect(cfg.Servers["fs"].Args).To(Equal([]string{"-y", "server-fs", "."}))
		Expect(cfg.Servers["fs"].Env).To(HaveKeyWithValue("DEBUG", "1"))
		Expect(cfg.Servers["remote"].Transport()).To(Equal("http"))
		Expect(cfg.Servers["remote"].Headers).To(HaveKeyWithValue("Authorization", "Bearer x"))
		Expect(cfg.Servers["legacy"].Transport()).To(Equal("sse"))
		Expect(cfg.Servers["fs"].Source).To(Equal("test.json"))
	})

	DescribeTable("rejects bad entries with a message that says what to fix",
		func(doc, want string) {
			_, err := mcp.ParseConfig([]byte(doc), "bad.json")
			Expect(err).To(MatchError(ContainSubstring(want)))
			Expect(err).To(MatchError(ContainSubstring("bad.json")))
		},
		Entry("not JSON", `{"mcpServers": `, "not a valid MCP config"),
		Entry("no command", `{"mcpServers": {"a": {"args": ["x"]}}}`, `server "a": a stdio server needs "command"`),
		Entry("http without url", `{"mcpServers": {"a": {"type": "http"}}}`, `needs "url"`),
		Entry("unknown type", `{"mcpServers": {"a": {"type": "ws", "url": "ws://x"}}}`, `unknown "type" "ws"`),
		Entry("url on stdio", `{"mcpServers": {"a": {"command": "x", "url": "http://x"}}}`, `set "type"`),
		Entry("wrong field type", `{"mcpServers": {"a": {"command": 3}}}`, `server "a"`),
		// Names that would let a server's tools pass for another's
		// (mcp__github__x__y matches the rule mcp__github).
		Entry("a double underscore", `{"mcpServers": {"github__x": {"command": "x"}}}`, `rules for another server match`),
		Entry("a trailing underscore", `{"mcpServers": {"github_": {"command": "x"}}}`, `mcp__github___tool`),
		Entry("a dot that normalises to _", `{"mcpServers": {"github.": {"command": "x"}}}`, `rules for another server match`),
		Entry("an empty name", `{"mcpServers": {"": {"command": "x"}}}`, `a server has an empty name: give it a name`),
	)

	It("treats a missing project .mcp.json as no servers", func() {
		cfg, err := mcp.LoadProjectConfig(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Names()).To(BeEmpty())
	})

	It("treats an empty project .mcp.json (the sandbox's stand-in) as no servers", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(" \n"), 0o644)).To(Succeed())
		cfg, err := mcp.LoadProjectConfig(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Names()).To(BeEmpty())
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte("{"), 0o644)).To(Succeed())
		_, err = mcp.LoadProjectConfig(dir)
		Expect(err).To(MatchError(ContainSubstring("not a valid MCP config")))
	})

	It("merges the project file and --mcp-config values, later ones winning", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"),
			[]byte(`{"mcpServers": {"a": {"command": "from-project"}, "b": {"command": "b"}}}`), 0o644)).To(Succeed())
		flagFile := filepath.Join(dir, "extra.json")
		Expect(os.WriteFile(flagFile, []byte(`{"mcpServers": {"a": {"command": "from-flag-file"}}}`), 0o644)).To(Succeed())

		cfg, err := mcp.ResolveConfig(dir, []string{flagFile, `{"mcpServers": {"c": {"command": "inline"}}}`}, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(cfg.Names()).To(Equal([]string{"a", "b", "c"}))
		Expect(cfg.Servers["a"].Command).To(Equal("from-flag-file"))
		Expect(cfg.Servers["c"].Source).To(Equal("--mcp-config"))

		strict, err := mcp.ResolveConfig(dir, []string{flagFile}, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(strict.Names()).To(Equal([]string{"a"}))
	})

	It("reports an unreadable --mcp-config file", func() {
		_, err := mcp.LoadFlagConfig(filepath.Join(GinkgoT().TempDir(), "nope.json"))
		Expect(err).To(MatchError(ContainSubstring("read MCP config")))
	})
})

var _ = Describe("environment expansion", func() {
	lookup := func(name string) (string, bool) {
		v, ok := map[string]string{"HOME": "/home/u", "EMPTY": ""}[name]
		return v, ok
	}
	DescribeTable("expands ${VAR} and ${VAR:-default}",
		func(in, want string, missing []string) {
			got, miss := mcp.ExpandEnv(in, lookup)
			Expect(got).To(Equal(want))
			if missing == nil {
				Expect(miss).To(BeEmpty())
			} else {
				Expect(miss).To(Equal(missing))
			}
		},
		Entry("no reference", "plain $HOME", "plain $HOME", nil),
		Entry("set", "${HOME}/x", "/home/u/x", nil),
		Entry("set but empty", "[${EMPTY}]", "[]", nil),
		Entry("default used", "${NOPE:-dflt}", "dflt", nil),
		Entry("default ignored", "${HOME:-dflt}", "/home/u", nil),
		Entry("empty default", "a${NOPE:-}b", "ab", nil),
		Entry("missing", "x${NOPE}y", "xy", []string{"NOPE"}),
		Entry("two", "${HOME}:${HOME}", "/home/u:/home/u", nil),
		Entry("unclosed", "${HOME", "${HOME", nil),
	)
})

var _ = DescribeTable("ResolveStartupTimeout",
	func(env string, settingMs int, want time.Duration, wantErr string) {
		got, err := mcp.ResolveStartupTimeout(func(k string) string {
			if k == mcp.EnvStartupTimeout {
				return env
			}
			return ""
		}, settingMs)
		if wantErr != "" {
			Expect(err).To(MatchError(ContainSubstring(wantErr)))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
	},
	Entry("the default", "", 0, mcp.DefaultStartupTimeout, ""),
	Entry("the setting", "", 1500, 1500*time.Millisecond, ""),
	Entry("MCP_TIMEOUT wins", "200", 1500, 200*time.Millisecond, ""),
	Entry("a bad MCP_TIMEOUT", "5s", 0, time.Duration(0), "MCP_TIMEOUT=\"5s\": want a whole number of milliseconds"),
	Entry("a negative setting", "", -1, time.Duration(0), "mcp.startupTimeoutMs is -1"),
)
