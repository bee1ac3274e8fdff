package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("Hook options and mcp_tool hooks in a session", func() {
	var (
		dir string
		ctx context.Context
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})
	// settingsHooks writes .claude/settings.json: hooks per event (one
	// matcher group each), and Sh allowed.
	settingsHooks := func(hooks map[string][]map[string]any) {
		h := map[string]any{}
		for ev, hs := range hooks {
			h[ev] = []any{map[string]any{"hooks": hs}}
		}
		data, err := json.Marshal(map[string]any{"hooks": h, "permissions": map[string]any{"allow": []string{"Sh"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), data, 0o644)).To(Succeed())
	}
	open := func(o session.Options) *session.Session {
		o.Dir, o.Home = dir, GinkgoT().TempDir()
		o.Tools = append(o.Tools, shTool())
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(dir, "nouser")
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	sh := func(s *session.Session, command string) orchestrate.Event {
		input, _ := json.Marshal(map[string]string{"command": command})
		var out []orchestrate.Event
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "toolu_1", Name: "Sh", Input: input}}) {
			if ev.Kind == orchestrate.EventResult {
				out = append(out, ev)
			}
		}
		Expect(out).To(HaveLen(1))
		return out[0]
	}

	It("decides an if rule with the permission engine: a hook with Sh(touch a*) runs when any command of the line matches, and not for others", func() {
		settingsHooks(map[string][]map[string]any{
			"PreToolUse": {{"type": "command", "if": "Sh(touch a*)", "command": `echo "no a-files" >&2; exit 2`, "timeout": 10}},
			"Stop":       {{"type": "command", "if": "Sh", "command": "touch " + filepath.Join(dir, "stop-ran"), "timeout": 10}},
		})
		s := open(session.Options{})
		Expect(sh(s, "touch apple").Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(sh(s, "echo hi && FOO=1 touch avocado").Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(sh(s, "touch banana").Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(filepath.Join(dir, "apple")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "avocado")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "banana")).To(BeAnExistingFile())
	})

	It("refuses to open on a settings file with a hook of an unknown type, naming the file and the hook", func() {
		settingsHooks(map[string][]map[string]any{"PreToolUse": {{"type": "promt", "prompt": "x"}}})
		o := session.Options{Dir: dir, Home: GinkgoT().TempDir()}
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(dir, "nouser")
		_, err := session.Open(ctx, o)
		Expect(err).To(MatchError(And(ContainSubstring("settings.json"), ContainSubstring(`hooks.PreToolUse[0].hooks[0]: unknown hook type "promt"`))))
	})

	It("calls a connected MCP server's tool as an mcp_tool hook, with ${path} references filled from the event, and reads its text as the hook's answer", func() {
		settingsHooks(map[string][]map[string]any{"PreToolUse": {{"type": "mcp_tool", "server": "tools", "tool": "echo",
			"input": map[string]any{"text": `{"decision":"block","reason":"the scanner refuses ${tool_input.command} in ${cwd}"}`}}}})
		s := open(session.Options{MCP: mcp.Config{Servers: map[string]mcp.ServerConfig{"tools": {Command: toolServer}}}, MCPWait: 30 * time.Second})
		ev := sh(s, "touch scanned")
		Expect(ev.Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(ev.Result.Text()).To(ContainSubstring("the scanner refuses touch scanned in " + dir))
		Expect(filepath.Join(dir, "scanned")).NotTo(BeAnExistingFile())
	})

	It("lets the call run when the mcp_tool hook's tool fails or its server is not there", func() {
		settingsHooks(map[string][]map[string]any{"PreToolUse": {
			{"type": "mcp_tool", "server": "tools", "tool": "fail"},
			{"type": "mcp_tool", "server": "absent", "tool": "echo"},
		}})
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"touch made"}}]}
{"when":{"ok":["t1"]},"blocks":[{"type":"text","text":"Done."}]}`))
		Expect(err).NotTo(HaveOccurred())
		s := open(session.Options{Provider: replay.New(sc, replay.Options{}),
			MCP: mcp.Config{Servers: map[string]mcp.ServerConfig{"tools": {Command: toolServer}}}, MCPWait: 30 * time.Second})
		var notes []string
		for ev := range s.Run(ctx, "go") {
			switch ev.Kind {
			case agent.EventHook:
				notes = append(notes, ev.Text)
			case agent.EventDone:
				Expect(ev.Outcome.Text).To(Equal("Done."))
			}
		}
		Expect(filepath.Join(dir, "made")).To(BeAnExistingFile())
		Expect(notes).To(ConsistOf(
			And(ContainSubstring("PreToolUse MCP tool hook tools/fail failed"), ContainSubstring("the record is locked")),
			ContainSubstring(`no MCP server named "absent"`)))
	})

	It("delivers an async PostToolUse hook's systemMessage to the model with a later request", func() {
		done := filepath.Join(dir, "hook-done")
		settingsHooks(map[string][]map[string]any{"PostToolUse": {{"type": "command", "async": true, "timeout": 30,
			"command": `echo '{"systemMessage":"lint found 2 warnings"}'; touch ` + done}}})
		sc, err := replay.Parse([]byte(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo first"}}]}
{"blocks":[{"type":"tool_use","id":"t2","name":"Sh","input":{"command":"while [ ! -e ` + done + ` ]; do sleep 0.05; done; sleep 1"}}]}
{"blocks":[{"type":"text","text":"Done."}]}`))
		Expect(err).NotTo(HaveOccurred())
		s := open(session.Options{Provider: replay.New(sc, replay.Options{})})
		for ev := range s.Run(ctx, "go") {
			if ev.Kind == agent.EventDone {
				Expect(ev.Outcome.Text).To(Equal("Done."))
			}
		}
		var user strings.Builder
		for _, m := range s.Messages() {
			if m.Role == provider.User {
				for _, b := range m.Content {
					user.WriteString(b.Text)
				}
			}
		}
		Expect(user.String()).To(ContainSubstring("lint found 2 warnings"))
	})
})
