package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/procgroup"
)

var _ = Describe("Runner", func() {
	var (
		dir string
		ctx context.Context
	)

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		ctx = context.Background()
	})

	// script writes an executable bash script into dir and returns its path.
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		Expect(os.WriteFile(p, []byte("#!/bin/bash\n"+body+"\n"), 0o755)).To(Succeed())
		return p
	}
	runner := func(ev hooks.Event, matcher string, cmds ...string) *hooks.Runner {
		m := hooks.Matcher{Matcher: matcher}
		for _, c := range cmds {
			m.Hooks = append(m.Hooks, hooks.Hook{Type: "command", Command: c})
		}
		return &hooks.Runner{Config: hooks.Config{ev: {m}}, Dir: dir, SessionID: "s-1", Mode: func() string { return "default" }}
	}
	bash := hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "tool_use_id": "toolu_1"}

	It("gives the hook Claude Code's JSON on stdin, in the project directory", func() {
		out := filepath.Join(dir, "stdin.json")
		r := runner(hooks.PreToolUse, "Bash", script("dump.sh", `cat > `+out+`; pwd > `+out+`.pwd; echo "$CLAUDE_PROJECT_DIR" > `+out+`.env`))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Ran).To(Equal(1))
		Expect(res.Decision).To(Equal(hooks.None))
		var in map[string]any
		data, err := os.ReadFile(out)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &in)).To(Succeed())
		Expect(in).To(HaveKeyWithValue("session_id", "s-1"))
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PreToolUse"))
		Expect(in).To(HaveKeyWithValue("cwd", dir))
		Expect(in).To(HaveKeyWithValue("permission_mode", "default"))
		Expect(in).To(HaveKeyWithValue("tool_name", "Bash"))
		Expect(in).To(HaveKeyWithValue("tool_use_id", "toolu_1"))
		Expect(in).To(HaveKey("transcript_path"))
		Expect(in["tool_input"]).To(HaveKeyWithValue("command", "rm -rf /"))
		pwd, _ := os.ReadFile(out + ".pwd")
		Expect(strings.TrimSpace(string(pwd))).To(Equal(dir))
		env, _ := os.ReadFile(out + ".env")
		Expect(strings.TrimSpace(string(env))).To(Equal(dir))
	})

	It("blocks on exit 2 with stderr as the reason, and ignores stdout then", func() {
		r := runner(hooks.PreToolUse, "", script("block.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; echo "no rm -rf here" >&2; exit 2`))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(res.Reason).To(Equal("no rm -rf here"))
	})

	It("treats another non-zero exit as a non-blocking error for the user", func() {
		r := runner(hooks.PreToolUse, "", script("fail.sh", `echo "lint crashed" >&2; exit 1`))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(And(ContainSubstring("exit code 1"), ContainSubstring("lint crashed"))))
	})

	DescribeTable("reads the JSON output",
		func(stdout string, want hooks.Decision, reason string) {
			r := runner(hooks.PreToolUse, "", script("json.sh", "cat <<'JSON'\n"+stdout+"\nJSON"))
			res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
			Expect(res.Decision).To(Equal(want))
			Expect(res.Reason).To(Equal(reason))
		},
		Entry("deny", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on main"}}`, hooks.Deny, "not on main"),
		Entry("allow", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`, hooks.Allow, "fine"),
		Entry("ask", `{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"are you sure?"}}`, hooks.Ask, "are you sure?"),
		Entry("legacy block", `{"decision":"block","reason":"legacy says no"}`, hooks.Deny, "legacy says no"),
		Entry("legacy approve", `{"decision":"approve"}`, hooks.Allow, ""),
		Entry("plain text is no decision", `all good`, hooks.None, ""),
		Entry("broken JSON is no decision", `{"decision":`, hooks.None, ""),
	)

	It("combines several hooks: deny beats ask beats allow", func() {
		allow := script("allow.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)
		ask := script("ask.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"maybe"}}'`)
		deny := script("deny.sh", `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"never"}}'`)
		Expect(runner(hooks.PreToolUse, "", allow, ask).Run(ctx, hooks.PreToolUse, "Bash", bash).Decision).To(Equal(hooks.Ask))
		res := runner(hooks.PreToolUse, "", allow, deny, ask).Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(res.Reason).To(Equal("never"))
	})

	It("returns the rewritten input and the additional context", func() {
		r := runner(hooks.PreToolUse, "", script("rewrite.sh",
			`echo '{"hookSpecificOutput":{"updatedInput":{"command":"echo safe"},"additionalContext":"rewritten by policy"},"systemMessage":"note for the user"}'`))
		res := r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		Expect(string(res.UpdatedInput)).To(MatchJSON(`{"command":"echo safe"}`))
		Expect(res.Context).To(ConsistOf("rewritten by policy"))
		Expect(res.Messages).To(ConsistOf("note for the user"))
	})

	It("runs an identical command once, as when two settings files name it", func() {
		count := filepath.Join(dir, "count")
		s := script("count.sh", `echo x >> `+count)
		r := runner(hooks.PreToolUse, "", s)
		r.Config = r.Config.Merge(hooks.Config{hooks.PreToolUse: {{Matcher: "Bash", Hooks: []hooks.Hook{{Type: "command", Command: s}}}}})
		Expect(r.Run(ctx, hooks.PreToolUse, "Bash", bash).Ran).To(Equal(1))
		data, err := os.ReadFile(count)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(Equal("x\n"))
	})

	It("reads continue:false and stopReason", func() {
		r := runner(hooks.PostToolUse, "", script("stop.sh", `echo '{"continue":false,"stopReason":"budget spent"}'`))
		res := r.Run(ctx, hooks.PostToolUse, "Bash", bash)
		Expect(res.Stop).To(BeTrue())
		Expect(res.StopReason).To(Equal("budget spent"))
	})

	It("takes plain stdout as context for UserPromptSubmit and SessionStart only", func() {
		s := script("say.sh", `echo "today is Thursday"`)
		Expect(runner(hooks.UserPromptSubmit, "", s).Run(ctx, hooks.UserPromptSubmit, "", hooks.Input{"prompt": "hi"}).Context).To(ConsistOf("today is Thursday"))
		Expect(runner(hooks.PostToolUse, "", s).Run(ctx, hooks.PostToolUse, "Bash", bash).Context).To(BeEmpty())
	})

	DescribeTable("matches tool names with the matcher as a whole-name regular expression",
		func(matcher, name string, runs bool) {
			r := runner(hooks.PreToolUse, matcher, "true")
			Expect(r.Run(ctx, hooks.PreToolUse, name, bash).Ran == 1).To(Equal(runs))
		},
		Entry("alternation", "Bash|Edit", "Edit", true),
		Entry("alternation, other tool", "Bash|Edit", "Read", false),
		Entry("anchored: no prefix match", "Bash", "BashOutput", false),
		Entry("empty matches all", "", "Read", true),
		Entry("star matches all", "*", "mcp__github__create_issue", true),
		Entry("MCP server's tools", "mcp__github__.*", "mcp__github__create_issue", true),
		Entry("MCP, other server", "mcp__github__.*", "mcp__slack__post", false),
		Entry("an invalid regexp matches its literal name", "Bash(", "Bash(", true),
	)

	It("runs nothing for an event without hooks, and a nil runner is inert", func() {
		r := runner(hooks.PostToolUse, "", "false")
		Expect(r.Run(ctx, hooks.PreToolUse, "Bash", bash).Ran).To(Equal(0))
		var none *hooks.Runner
		Expect(none.Has(hooks.PreToolUse)).To(BeFalse())
		Expect(none.Run(ctx, hooks.PreToolUse, "Bash", bash).Ran).To(Equal(0))
	})

	It("kills a hook that outlives its timeout, with its process group, and does not block", func() {
		pids := filepath.Join(dir, "pids")
		hang := script("hang.sh", `sleep 300 & echo $! > `+pids+`; echo "never seen" >&2; wait; exit 2`)
		r := &hooks.Runner{Dir: dir, Config: hooks.Config{hooks.PreToolUse: {{Hooks: []hooks.Hook{{Type: "command", Command: hang, Timeout: 0.5}}}}}}
		done := make(chan hooks.Result, 1)
		go func() { done <- r.Run(ctx, hooks.PreToolUse, "Bash", bash) }()
		var res hooks.Result
		Eventually(done, 20*time.Second).Should(Receive(&res))
		Expect(res.Decision).To(Equal(hooks.None), "a timed-out hook blocks nothing")
		Expect(res.Messages).To(ConsistOf(ContainSubstring("timed out after 500ms")))
		data, err := os.ReadFile(pids)
		Expect(err).NotTo(HaveOccurred())
		child, err := strconv.Atoi(strings.TrimSpace(string(data)))
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() bool { return gone(child) }, 10*time.Second).Should(BeTrue(), "the hook's background sleep was killed too")
	})

	It("stops its hooks when the context ends", func() {
		r := runner(hooks.PreToolUse, "", "sleep 300")
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan hooks.Result, 1)
		go func() { done <- r.Run(cctx, hooks.PreToolUse, "Bash", bash) }()
		time.Sleep(100 * time.Millisecond)
		cancel()
		var res hooks.Result
		Eventually(done, 20*time.Second).Should(Receive(&res))
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("context canceled")))
	})
})

var _ = Describe("Config", func() {
	It("decodes Claude Code's settings shape and merges files event by event", func() {
		var a, b struct {
			Hooks hooks.Config `json:"hooks"`
		}
		Expect(json.Unmarshal([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"a.sh","timeout":5}]}]}}`), &a)).To(Succeed())
		Expect(json.Unmarshal([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"b.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"c.sh"}]}]}}`), &b)).To(Succeed())
		m := hooks.Config{}.Merge(a.Hooks).Merge(b.Hooks)
		Expect(m[hooks.PreToolUse]).To(HaveLen(2))
		Expect(m[hooks.PreToolUse][0].Hooks[0]).To(Equal(hooks.Hook{Type: "command", Command: "a.sh", Timeout: 5}))
		Expect(m.Has(hooks.Stop)).To(BeTrue())
		Expect(m.Has(hooks.PostToolUse)).To(BeFalse())
	})
})

// gone reports whether pid no longer runs (it does not exist, or it is a
// zombie nobody reaped yet).
func gone(pid int) bool {
	if !procgroup.Alive(pid) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(stat))
	return len(f) > 2 && f[2] == "Z"
}

var _ = Describe("Runner with the SDK host's callbacks", func() {
	bash := hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "tool_use_id": "toolu_1"}
	callbacks := func(cb hooks.CallbackFunc, timeout float64, ids ...string) *hooks.Runner {
		m := hooks.Matcher{Matcher: "Bash"}
		for _, id := range ids {
			m.Hooks = append(m.Hooks, hooks.Hook{Type: hooks.TypeCallback, Callback: id, Timeout: timeout})
		}
		return &hooks.Runner{Config: hooks.Config{hooks.PreToolUse: {m}}, SessionID: "s-1", Callback: cb}
	}

	It("sends the input and the tool_use_id, and reads the answer as a command's JSON output", func() {
		var gotID, gotUse string
		var gotIn map[string]any
		r := callbacks(func(_ context.Context, id string, in json.RawMessage, use string) (json.RawMessage, error) {
			gotID, gotUse = id, use
			Expect(json.Unmarshal(in, &gotIn)).To(Succeed())
			return json.RawMessage(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm","updatedInput":{"command":"ls"},"additionalContext":"ctx"}}`), nil
		}, 0, "hook_0")
		res := r.Run(context.Background(), hooks.PreToolUse, "Bash", bash)
		Expect(gotID).To(Equal("hook_0"))
		Expect(gotUse).To(Equal("toolu_1"))
		Expect(gotIn).To(HaveKeyWithValue("hook_event_name", "PreToolUse"))
		Expect(gotIn).To(HaveKeyWithValue("tool_name", "Bash"))
		Expect(res.Ran).To(Equal(1))
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(res.Reason).To(Equal("no rm"))
		Expect(string(res.UpdatedInput)).To(Equal(`{"command":"ls"}`))
		Expect(res.Context).To(Equal([]string{"ctx"}))
	})

	It("reads decision block and continue:false, and skips a matcher that does not match", func() {
		r := callbacks(func(context.Context, string, json.RawMessage, string) (json.RawMessage, error) {
			return json.RawMessage(`{"decision":"block","reason":"stop there","continue":false,"stopReason":"enough"}`), nil
		}, 0, "hook_0")
		res := r.Run(context.Background(), hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.Deny))
		Expect(res.Reason).To(Equal("stop there"))
		Expect(res.Stop).To(BeTrue())
		Expect(res.StopReason).To(Equal("enough"))
		Expect(r.Run(context.Background(), hooks.PreToolUse, "Read", bash).Ran).To(Equal(0))
	})

	It("times out a callback that does not answer, and a failing one blocks nothing", func() {
		hang := callbacks(func(ctx context.Context, _ string, _ json.RawMessage, _ string) (json.RawMessage, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, 0.2, "hook_0")
		start := time.Now()
		res := hang.Run(context.Background(), hooks.PreToolUse, "Bash", bash)
		Expect(time.Since(start)).To(BeNumerically("<", 5*time.Second))
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring(`callback "hook_0" of the SDK host timed out`)))

		fail := callbacks(func(context.Context, string, json.RawMessage, string) (json.RawMessage, error) {
			return nil, errors.New("the host closed standard input")
		}, 0, "hook_1")
		res = fail.Run(context.Background(), hooks.PreToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None))
		Expect(res.Messages).To(ConsistOf(ContainSubstring("the host closed standard input")))
	})

	It("skips callback hooks when the runner has no Callback", func() {
		r := callbacks(nil, 0, "hook_0")
		Expect(r.Run(context.Background(), hooks.PreToolUse, "Bash", bash).Ran).To(Equal(0))
	})
})
