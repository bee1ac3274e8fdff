package session_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// notedAsker records whether the Notification hook's file existed when
// it was asked.
type notedAsker struct {
	file      string
	asked     int
	fileFirst bool
}

func (a *notedAsker) Ask(context.Context, ask.AskRequest) (ask.Answer, error) {
	a.asked++
	_, err := os.Stat(a.file)
	a.fileFirst = err == nil
	return ask.AnswerDeny, nil
}

var _ = Describe("Settings in a session", func() {
	var dir string
	ctx := context.Background()

	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
	})
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(body), 0o644)).To(Succeed())
	}
	open := func(src permission.Sources) *session.Session {
		src.SettingsFiles = true
		src.ConfigDir = filepath.Join(dir, "nouser")
		s, err := session.Open(ctx, session.Options{Dir: dir, Home: GinkgoT().TempDir(), Tools: []runtime.Tool{shTool()}, Permissions: src})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	run := func(s *session.Session, input string) orchestrate.Event {
		var out orchestrate.Event
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "toolu_1", Name: "Sh", Input: json.RawMessage(input)}}) {
			if ev.Kind == orchestrate.EventResult {
				out = ev
			}
		}
		return out
	}

	It("fires the Notification hook with CC's input before a permission prompt, and not for an allowed call", func() {
		got := filepath.Join(dir, "notification.json")
		write(".claude/settings.json", `{"permissions": {"allow": ["Sh(echo:*)"]},
			"hooks": {"Notification": [{"matcher": "permission_prompt", "hooks": [{"type": "command", "command": "cat > notification.json"}]}]}}`)
		asker := &notedAsker{file: got}
		s := open(permission.Sources{Asker: asker})

		Expect(run(s, `{"command":"echo hi"}`).Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(got).NotTo(BeAnExistingFile(), "an allowed call shows no prompt")

		Expect(run(s, `{"command":"touch x"}`).Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(asker.asked).To(Equal(1))
		Expect(asker.fileFirst).To(BeTrue(), "the hook ran before the prompt")
		var in map[string]any
		data, err := os.ReadFile(got)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &in)).To(Succeed())
		Expect(in).To(HaveKeyWithValue("hook_event_name", "Notification"))
		Expect(in).To(HaveKeyWithValue("notification_type", "permission_prompt"))
		Expect(in).To(HaveKeyWithValue("message", "Claude needs your permission to use Sh"))
		Expect(in).To(HaveKeyWithValue("session_id", s.ID()))
		Expect(in).To(HaveKeyWithValue("cwd", dir))
	})

	It("does not fire it for a matcher that selects another notification type", func() {
		write(".claude/settings.json", `{"hooks": {"Notification": [{"matcher": "idle_prompt", "hooks": [{"type": "command", "command": "touch fired"}]}]}}`)
		s := open(permission.Sources{Asker: &notedAsker{file: "-"}})
		Expect(run(s, `{"command":"touch x"}`).Outcome).To(Equal(orchestrate.OutcomeRejected))
		Expect(filepath.Join(dir, "fired")).NotTo(BeAnExistingFile())
	})

	It("gives the settings' env to the tools' processes and to the hooks", func() {
		write(".claude/settings.json", `{"env": {"FOO": "from-claude", "BAR": "b"}, "permissions": {"allow": ["Sh"]},
			"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo \"$FOO $BAR\" > hook-env"}]}]}}`)
		write(".agentcore/settings.json", `{"env": {"FOO": "from-agentcore"}}`)
		s := open(permission.Sources{})
		Expect(s.ToolContext().Env).To(HaveKeyWithValue("FOO", "from-agentcore"))
		Expect(s.ToolContext().Env).To(HaveKeyWithValue("BAR", "b"))
		Expect(run(s, `{"command":"true"}`).Outcome).To(Equal(orchestrate.OutcomeOK))
		Expect(os.ReadFile(filepath.Join(dir, "hook-env"))).To(Equal([]byte("from-agentcore b\n")))
	})
})
