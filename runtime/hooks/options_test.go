package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("hook options: async, if", func() {
	var (
		dir   string
		ctx   context.Context
		mu    sync.Mutex
		notes []string
	)
	BeforeEach(func() {
		DeferCleanup(tooltest.LeakCheck(GinkgoT()))
		dir = GinkgoT().TempDir()
		ctx = context.Background()
		notes = nil
	})
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		Expect(os.WriteFile(p, []byte("#!/bin/bash\n"+body+"\n"), 0o755)).To(Succeed())
		return p
	}
	runner := func(ev hooks.Event, hs ...hooks.Hook) *hooks.Runner {
		r := &hooks.Runner{Config: hooks.Config{ev: {{Hooks: hs}}}, Dir: dir, SessionID: "s-1", Notify: func(t string) {
			mu.Lock()
			defer mu.Unlock()
			notes = append(notes, t)
		}}
		DeferCleanup(r.Close)
		return r
	}
	said := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), notes...)
	}
	bash := hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push"}, "tool_use_id": "toolu_1"}

	It("runs an async command hook in the background: nothing waits, nothing it says blocks, its messages reach the model when it ends", func() {
		release := filepath.Join(dir, "release")
		seen := filepath.Join(dir, "stdin.json")
		h := hooks.Hook{Type: "command", Async: true, Command: script("bg.sh", `cat > `+seen+`
while [ ! -e `+release+` ]; do sleep 0.05; done
echo '{"decision":"block","reason":"too late to block","systemMessage":"tests passed","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"3 tests ran"}}'`)}
		r := runner(hooks.PostToolUse, h)
		res := r.Run(ctx, hooks.PostToolUse, "Bash", bash)
		Expect(res.Decision).To(Equal(hooks.None), "the hook is still running: Run did not wait for it")
		Expect(said()).To(BeEmpty())
		Expect(os.WriteFile(release, nil, 0o644)).To(Succeed())
		r.Wait()
		Expect(said()).To(ConsistOf(And(ContainSubstring("tests passed"), ContainSubstring("3 tests ran"), ContainSubstring("Async PostToolUse hook"))))
		data, err := os.ReadFile(seen)
		Expect(err).NotTo(HaveOccurred())
		var in map[string]any
		Expect(json.Unmarshal(data, &in)).To(Succeed())
		Expect(in).To(HaveKeyWithValue("hook_event_name", "PostToolUse"), "the hook gets the same input as a synchronous one")
	})

	It("gives the model an asyncRewake hook's stderr on exit 2, and nothing of a plain async hook's", func() {
		r := runner(hooks.PostToolUse,
			hooks.Hook{Type: "command", AsyncRewake: true, Command: script("rewake.sh", `echo "build broke" >&2; exit 2`)},
			hooks.Hook{Type: "command", Async: true, Command: script("plain.sh", `echo "ignored" >&2; exit 2`)})
		r.Run(ctx, hooks.PostToolUse, "Bash", bash)
		r.Wait()
		Expect(said()).To(ConsistOf(ContainSubstring("build broke")))
	})

	It("kills async hooks still running at Close, with their children", func() {
		marker := filepath.Join(dir, "finished")
		r := runner(hooks.PostToolUse, hooks.Hook{Type: "command", Async: true, Command: "sleep 30 & wait; touch " + marker})
		r.Run(ctx, hooks.PostToolUse, "Bash", bash)
		start := time.Now()
		r.Close()
		Expect(time.Since(start)).To(BeNumerically("<", 10*time.Second))
		Expect(marker).NotTo(BeAnExistingFile())
		r.Run(ctx, hooks.PostToolUse, "Bash", bash)
		r.Wait()
		Expect(marker).NotTo(BeAnExistingFile(), "no async hook starts after Close")
	})

	It("runs a hook with an if rule only when the rule matches the call, never on an event that is not about a call", func() {
		ran := filepath.Join(dir, "ran")
		h := hooks.Hook{Type: "command", If: "Bash(git *)", Command: "echo x >> " + ran}
		var got []string
		r := runner(hooks.PreToolUse, h)
		r.If = func(rule, tool string, in json.RawMessage) (bool, error) {
			got = append(got, rule+" "+tool+" "+string(in))
			var v struct{ Command string }
			_ = json.Unmarshal(in, &v)
			return v.Command == "git push", nil
		}
		r.Run(ctx, hooks.PreToolUse, "Bash", bash)
		r.Run(ctx, hooks.PreToolUse, "Bash", hooks.Input{"tool_name": "Bash", "tool_input": map[string]any{"command": "npm test"}})
		Expect(got).To(Equal([]string{`Bash(git *) Bash {"command":"git push"}`, `Bash(git *) Bash {"command":"npm test"}`}))
		data, _ := os.ReadFile(ran)
		Expect(string(data)).To(Equal("x\n"))

		stop := runner(hooks.Stop, h)
		stop.If = func(string, string, json.RawMessage) (bool, error) { return true, nil }
		Expect(stop.Run(ctx, hooks.Stop, "", hooks.Input{}).Ran).To(Equal(0))
	})

	DescribeTable("runs a hook whose if rule cannot be decided, so doubt never lets a call through",
		func(decide hooks.IfFunc) {
			h := hooks.Hook{Type: "command", If: "Bash(git *)", Command: `echo no >&2; exit 2`}
			r := runner(hooks.PreToolUse, h)
			r.If = decide
			Expect(r.Run(ctx, hooks.PreToolUse, "Bash", bash).Decision).To(Equal(hooks.Deny))
		},
		Entry("no decider", nil),
		Entry("an error", hooks.IfFunc(func(string, string, json.RawMessage) (bool, error) { return false, errors.New("bad rule") })),
		Entry("a panic", hooks.IfFunc(func(string, string, json.RawMessage) (bool, error) { panic("boom") })),
	)
})
