package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// catTool reads a file (a path target, read-only), so the permission
// engine decides where it may read.
func catTool() runtime.Tool {
	type in struct{ Path string }
	return runtime.Define(runtime.Definition[in]{
		Name:        "Cat",
		Description: "Cat prints a file.",
		Schema:      json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		Decode: func(raw json.RawMessage) (in, error) {
			var v struct {
				Path string `json:"path"`
			}
			if err := json.Unmarshal(raw, &v); err != nil || v.Path == "" {
				return in{}, errors.New("path: required string")
			}
			return in{Path: v.Path}, nil
		},
		Call: func(_ context.Context, i in, _ *runtime.Call) (runtime.Result, error) {
			b, err := os.ReadFile(i.Path)
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock(string(b))}}, nil
		},
		ReadOnly:           true,
		ConcurrencySafe:    true,
		MaxResultSizeChars: -1,
		PermissionTarget:   func(i in) runtime.Target { return runtime.Target{Kind: runtime.TargetPath, Value: i.Path} },
	})
}

func jsonQ(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// allowRules are permission sources allowing rules.
func allowRules(rules ...string) permission.Sources {
	r, err := permission.ParseRules(rules, runtime.Allow, permission.SourceFlag, "test")
	Expect(err).NotTo(HaveOccurred())
	return permission.Sources{Rules: r}
}

func userText(m provider.Message) string {
	var b strings.Builder
	for _, bl := range m.Content {
		b.WriteString(bl.Text)
	}
	return b.String()
}

var _ = Describe("Compaction and large results in a session", func() {
	var (
		dir, home string
		ctx       context.Context
	)

	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		ctx = context.Background()
	})

	// hookSettings writes .claude/settings.json with one command hook per
	// event that writes its stdin to dir/<event>.json.
	hookSettings := func(events ...string) {
		var parts []string
		for _, ev := range events {
			cmd, _ := json.Marshal("cat > " + filepath.Join(dir, ev+".json"))
			parts = append(parts, `"`+ev+`":[{"hooks":[{"type":"command","command":`+string(cmd)+`,"timeout":10}]}]`)
		}
		p := filepath.Join(dir, ".claude", "settings.json")
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(`{"hooks":{`+strings.Join(parts, ",")+`}}`), 0o644)).To(Succeed())
	}
	payload := func(ev string) map[string]any {
		b, err := os.ReadFile(filepath.Join(dir, ev+".json"))
		Expect(err).NotTo(HaveOccurred(), "the %s hook ran", ev)
		var m map[string]any
		Expect(json.Unmarshal(b, &m)).To(Succeed())
		return m
	}
	open := func(script string, o session.Options) (*session.Session, *replay.Provider) {
		sc, err := replay.Parse([]byte(script))
		Expect(err).NotTo(HaveOccurred())
		model := replay.New(sc, replay.Options{Cwd: dir})
		o.Dir, o.Home, o.Provider = dir, home, model
		o.Tools = append(o.Tools, shTool(), catTool())
		o.Permissions.SettingsFiles = true
		o.Permissions.ConfigDir = filepath.Join(home, ".agentcore")
		s, err := session.Open(ctx, o)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s, model
	}
	run := func(s *session.Session, prompt string) (*agent.Outcome, []agent.Event) {
		var evs []agent.Event
		var out *agent.Outcome
		for ev := range s.Run(ctx, prompt) {
			evs = append(evs, ev)
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		Expect(out).NotTo(BeNil())
		return out, evs
	}

	It("compacts automatically near the window, runs PreCompact and PostCompact with Claude Code's payloads, and resumes from the summary", func() {
		hookSettings("PreCompact", "PostCompact")
		store := transcript.StoreIn(filepath.Join(home, ".agentcore"))
		s, _ := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo one"}}]}
{"blocks":[{"type":"tool_use","id":"t2","name":"Sh","input":{"command":"echo two"}}],"usage":{"input_tokens":5000,"cache_read_input_tokens":180000,"output_tokens":20}}
{"blocks":[{"type":"text","text":"<summary>Ran echo one and echo two.</summary>"}]}
{"blocks":[{"type":"text","text":"finished"}]}`, session.Options{Transcripts: &store, Permissions: allowRules("Sh")})
		out, evs := run(s, "go")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("finished"))
		var compacts []agent.Event
		for _, ev := range evs {
			if ev.Kind == agent.EventCompact {
				compacts = append(compacts, ev)
			}
		}
		Expect(compacts).To(HaveLen(1))
		Expect(compacts[0].Compact.PreTokens).To(BeNumerically(">=", 185_020))

		pre := payload("PreCompact")
		Expect(pre).To(HaveKeyWithValue("hook_event_name", "PreCompact"))
		Expect(pre).To(HaveKeyWithValue("trigger", "auto"))
		Expect(pre).To(HaveKeyWithValue("custom_instructions", BeNil()))
		Expect(pre).To(HaveKeyWithValue("session_id", s.ID()))
		Expect(pre).To(HaveKeyWithValue("transcript_path", s.Transcript().Path()))
		Expect(pre).To(HaveKey("cwd"))
		post := payload("PostCompact")
		Expect(post).To(HaveKeyWithValue("hook_event_name", "PostCompact"))
		Expect(post).To(HaveKeyWithValue("trigger", "auto"))
		Expect(post).To(HaveKeyWithValue("compact_summary", "Ran echo one and echo two."))

		msgs := s.Messages()
		Expect(userText(msgs[0])).To(ContainSubstring("Ran echo one and echo two."))
		Expect(msgs[1].ToolUses()[0].ID).To(Equal("t2"))

		// A resumed session starts from the summary, not the history
		// before it.
		Expect(s.Close()).To(Succeed())
		_, resumed, err := store.Resume(dir, s.ID())
		Expect(err).NotTo(HaveOccurred())
		Expect(resumed).To(Equal(msgs))
	})

	It("compacts on demand (/compact) with the user's instructions as custom_instructions", func() {
		hookSettings("PreCompact")
		s, _ := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"t1","name":"Sh","input":{"command":"echo one"}}]}
{"blocks":[{"type":"text","text":"done"}]}
{"blocks":[{"type":"text","text":"<summary>manual</summary>"}]}`, session.Options{Permissions: allowRules("Sh")})
		out, _ := run(s, "go")
		Expect(out.Err).NotTo(HaveOccurred())
		info, err := s.Compact(ctx, "keep the echo output")
		Expect(err).NotTo(HaveOccurred())
		Expect(info.Summary).To(Equal("manual"))
		pre := payload("PreCompact")
		Expect(pre).To(HaveKeyWithValue("trigger", "manual"))
		Expect(pre).To(HaveKeyWithValue("custom_instructions", "keep the echo output"))
		Expect(userText(s.Messages()[0])).To(ContainSubstring("<summary>\nmanual\n</summary>"))
	})

	It("stops a compaction when a PreCompact hook exits 2", func() {
		p := filepath.Join(dir, ".claude", "settings.json")
		Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
		Expect(os.WriteFile(p, []byte(`{"hooks":{"PreCompact":[{"matcher":"manual","hooks":[{"type":"command","command":"echo not now >&2; exit 2"}]}]}}`), 0o644)).To(Succeed())
		s, _ := open(`{"prompt":"go"}
{"blocks":[{"type":"text","text":"done"}]}`, session.Options{})
		run(s, "go")
		before := s.Messages()
		_, err := s.Compact(ctx, "")
		Expect(err).To(MatchError(ContainSubstring("PreCompact hook blocked the compaction: not now")))
		Expect(s.Messages()).To(Equal(before))
	})

	It("writes a real bash command's 200k characters to the session's directory, gives the model a preview and the path, and lets it read the file", func() {
		store := transcript.StoreIn(filepath.Join(home, ".agentcore"))
		s, _ := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"toolu_big","name":"Sh","input":{"command":"for i in $(seq 1 20000); do echo line-$i-xxxx; done"}}]}
{"blocks":[{"type":"text","text":"reading it"}]}`, session.Options{Transcripts: &store, Permissions: allowRules("Sh"),
			MaxResultSizeChars: map[string]int{"Sh": 30_000}})
		out, _ := run(s, "go")
		Expect(out.Err).NotTo(HaveOccurred())
		path := filepath.Join(strings.TrimSuffix(s.Transcript().Path(), ".jsonl"), "tool-results", "toolu_big.txt")
		Expect(s.ToolResultsDir()).To(Equal(filepath.Dir(path)))
		full, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(full), "\n")).To(Equal(20000))
		Expect(len(full)).To(BeNumerically(">", 200_000))
		Expect(string(full)).To(HaveSuffix("line-20000-xxxx\n"))

		msgs := s.Messages()
		seen := msgs[2].Content[0].Content[0].Text
		Expect(seen).To(HavePrefix("<persisted-output>\nOutput too large ("))
		Expect(seen).To(ContainSubstring("Full output saved to: " + path + "\n\nPreview (first 2KB):\nline-1-xxxx\n"))
		Expect(len(seen)).To(BeNumerically("<", 2500))

		// The file is inside what the tools may read: Cat reads it without
		// a rule or a prompt.
		var res []string
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "c1", Name: "Cat", Input: json.RawMessage(`{"path":` + jsonQ(path) + `}`)}}) {
			if ev.Kind == orchestrate.EventResult {
				Expect(ev.Result.IsError).To(BeFalse(), ev.Result.Text())
				res = append(res, ev.Result.Text())
			}
		}
		Expect(res).To(Equal([]string{string(full)}))
	})

	It("keeps a session's large results without a transcript in a temporary directory its Close removes", func() {
		s, _ := open(`{"prompt":"go"}
{"blocks":[{"type":"tool_use","id":"toolu_big","name":"Sh","input":{"command":"for i in $(seq 1 5000); do echo line-$i-xxxx; done"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, session.Options{Permissions: allowRules("Sh"), MaxResultSizeChars: map[string]int{"Sh": 1_000}})
		out, _ := run(s, "go")
		Expect(out.Err).NotTo(HaveOccurred())
		path := filepath.Join(s.ToolResultsDir(), "toolu_big.txt")
		Expect(path).To(HavePrefix(os.TempDir()))
		Expect(path).To(BeARegularFile())
		Expect(s.Close()).To(Succeed())
		Expect(filepath.Dir(s.ToolResultsDir())).NotTo(BeADirectory())
	})
})
