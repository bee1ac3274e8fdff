//go:build internal || ant

package tooldefs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/tooldefs"
)

// replAsker answers every permission prompt with answer and keeps the
// tools asked about.
type replAsker struct {
	mu     sync.Mutex
	tools  []string
	answer ask.Answer
}

func (a *replAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tools = append(a.tools, req.Tool)
	return a.answer, nil
}

func (a *replAsker) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.tools...)
}

// overlap is a read-only, concurrency-safe tool that records how many of
// its calls run at once.
type overlap struct{ now, max atomic.Int32 }

func (o *overlap) tool() runtime.Tool {
	return runtime.Define(runtime.Definition[struct{}]{
		Name:        "Overlap",
		Description: "Overlap waits a little.",
		Decode:      func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
		Call: func(context.Context, struct{}, *runtime.Call) (runtime.Result, error) {
			n := o.now.Add(1)
			defer o.now.Add(-1)
			for {
				m := o.max.Load()
				if n <= m || o.max.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(30 * time.Millisecond)
			return runtime.Result{Content: []runtime.Block{runtime.TextBlock("waited")}}, nil
		},
		ReadOnly: true, ConcurrencySafe: true,
	})
}

var _ = Describe("REPL (internal variants)", func() {
	var (
		dir  string
		ctx  context.Context
		tool runtime.Tool
	)

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		ctx = context.Background()
		tool = runtime.Lookup(generated.AllBaseTools(), "REPL")
		Expect(tool).NotTo(BeNil(), "REPL is compiled into this variant")
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "b.txt"), []byte("beta\n"), 0o644)).To(Succeed())
	})

	script := func(calls ...string) string {
		return fmt.Sprintf(`{"calls":[%s]}`, strings.Join(calls, ","))
	}
	read := func(name string) string {
		return fmt.Sprintf(`{"name":"Read","input":{"file_path":%q}}`, filepath.Join(dir, name))
	}
	write := func(name, content string) string {
		return fmt.Sprintf(`{"name":"Write","input":{"file_path":%q,"content":%q}}`, filepath.Join(dir, name), content)
	}
	results := func(ev orchestrate.Event) []tooldefs.REPLResult {
		Expect(ev.Result.IsError).To(BeFalse(), ev.Result.Text())
		out, ok := ev.Result.Data.(tooldefs.REPLOutput)
		Expect(ok).To(BeTrue())
		return out.Results
	}

	It("runs the calls through the pipeline and returns each result in order", func() {
		s := internalSession(dir, session.Options{})
		ev := execOne(ctx, s, "REPL", script(read("a.txt"), read("b.txt"), read("missing.txt")))
		rs := results(ev)
		Expect(rs).To(HaveLen(3))
		Expect(rs[0].Name).To(Equal("Read"))
		Expect(rs[0].IsError).To(BeFalse())
		Expect(rs[0].Text).To(ContainSubstring("alpha"))
		Expect(rs[1].Text).To(ContainSubstring("beta"))
		Expect(rs[2].IsError).To(BeTrue(), "the inner call's own validation ran")
		Expect(ev.Result.Data.(tooldefs.REPLOutput).Failed).To(Equal(1))

		text := ev.Result.Text()
		Expect(text).To(HavePrefix("Ran 3 calls: 2 ok, 1 failed."))
		Expect(text).To(ContainSubstring("── 1. Read: ok"))
		Expect(text).To(ContainSubstring("── 3. Read: error"))
		Expect(tool.RenderResult(nil, ev.Result)).To(Equal("Done"), "a foreign input renders the default")
	})

	It("reports each finished call as progress", func() {
		s := internalSession(dir, session.Options{})
		var progress []string
		for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "r", Name: "REPL", Input: json.RawMessage(script(read("a.txt"), read("b.txt")))}}) {
			if ev.Kind == orchestrate.EventProgress {
				progress = append(progress, ev.Tool.RenderProgress(ev.Input, ev.Progress))
			}
		}
		Expect(progress).To(Equal([]string{"1/2 Read: ok", "2/2 Read: ok"}))
	})

	It("checks every inner call as if the model made it: a call the rules do not allow is denied inside an allowed REPL", func() {
		allow, err := permission.ParseRules([]string{"REPL"}, runtime.Allow, permission.SourceFlag, "test")
		Expect(err).NotTo(HaveOccurred())
		s := internalSession(dir, session.Options{Permissions: permission.Sources{Rules: allow}})
		rs := results(execOne(ctx, s, "REPL", script(read("a.txt"), write("new.txt", "x"))))
		Expect(rs[0].IsError).To(BeFalse())
		Expect(rs[1].IsError).To(BeTrue())
		Expect(rs[1].Text).To(ContainSubstring("This run is non-interactive, so the call was denied"))
		Expect(filepath.Join(dir, "new.txt")).NotTo(BeAnExistingFile())
	})

	It("applies deny rules to inner calls", func() {
		deny, err := permission.ParseRules([]string{"Read(./b.txt)"}, runtime.Deny, permission.SourceFlag, "test")
		Expect(err).NotTo(HaveOccurred())
		s := internalSession(dir, session.Options{Permissions: permission.Sources{Rules: deny}})
		rs := results(execOne(ctx, s, "REPL", script(read("a.txt"), read("b.txt"))))
		Expect(rs[0].IsError).To(BeFalse())
		Expect(rs[1].IsError).To(BeTrue())
		Expect(rs[1].Text).To(ContainSubstring("denied by the rule"))
	})

	It("asks about a REPL that writes, then about the write itself", func() {
		s := internalSession(dir, session.Options{})
		asker := &replAsker{answer: ask.AnswerAllowOnce}
		s.Engine().SetAsker(asker)
		rs := results(execOne(ctx, s, "REPL", script(read("a.txt"), write("new.txt", "hello"))))
		Expect(rs[1].IsError).To(BeFalse(), rs[1].Text)
		Expect(asker.asked()).To(Equal([]string{"REPL", "Write"}))
		Expect(os.ReadFile(filepath.Join(dir, "new.txt"))).To(BeEquivalentTo("hello"))
	})

	It("runs a read-only script without asking, and only a read-only one in plan mode", func() {
		s := internalSession(dir, session.Options{Permissions: permission.Sources{Mode: permission.ModePlan}})
		asker := &replAsker{answer: ask.AnswerDeny}
		s.Engine().SetAsker(asker)
		rs := results(execOne(ctx, s, "REPL", script(read("a.txt"), `{"name":"Bash","input":{"command":"ls"}}`)))
		Expect(rs[0].IsError).To(BeFalse())
		Expect(rs[1].IsError).To(BeFalse(), rs[1].Text)
		Expect(asker.asked()).To(BeEmpty())

		ev := execOne(ctx, s, "REPL", script(read("a.txt"), write("new.txt", "x")))
		Expect(ev.Result.IsError).To(BeTrue())
		Expect(ev.Result.Text()).To(ContainSubstring("Plan mode: REPL changes things"))
		Expect(filepath.Join(dir, "new.txt")).NotTo(BeAnExistingFile())
	})

	It("is read-only only when every inner call is, judged once validated; unvalidated it is not", func() {
		s := internalSession(dir, session.Options{})
		decode := func(raw string) any {
			in, err := tool.Decode(json.RawMessage(raw))
			Expect(err).NotTo(HaveOccurred())
			return in
		}
		validated := func(raw string) any {
			in := decode(raw)
			Expect(tool.ValidateInput(ctx, in, s.ToolContext())).To(Succeed())
			return in
		}
		readOnly := script(read("a.txt"), `{"name":"Bash","input":{"command":"ls -la"}}`)
		Expect(tool.IsReadOnly(decode(readOnly))).To(BeFalse(), "fail closed before ValidateInput")
		Expect(tool.IsReadOnly(validated(readOnly))).To(BeTrue())
		Expect(tool.IsReadOnly(validated(script(read("a.txt"), `{"name":"Bash","input":{"command":"rm a.txt"}}`)))).To(BeFalse())
		Expect(tool.IsReadOnly(validated(script(write("c.txt", "x"))))).To(BeFalse())
		Expect(tool.IsConcurrencySafe(validated(readOnly))).To(BeFalse(), "it schedules its own calls")
		Expect(tool.Traits().ReadOnly.InputDependent).To(BeTrue())
	})

	It("refuses unknown tools, bad inner inputs and a REPL inside the script before running anything", func() {
		s := internalSession(dir, session.Options{Permissions: permission.Sources{Mode: permission.ModeBypass}})
		for raw, want := range map[string]string{
			script(write("x.txt", "x"), `{"name":"Nope","input":{}}`):                            `calls[1]: no tool named "Nope"`,
			script(write("x.txt", "x"), `{"name":"Read","input":{"path":"a.txt"}}`):              "calls[1] (Read): InputValidationError",
			script(write("x.txt", "x"), `{"name":"REPL","input":{"calls":[`+read("a.txt")+`]}}`): "REPL cannot run inside REPL",
		} {
			ev := execOne(ctx, s, "REPL", raw)
			Expect(ev.Result.IsError).To(BeTrue())
			Expect(ev.Result.Text()).To(ContainSubstring(want))
		}
		Expect(filepath.Join(dir, "x.txt")).NotTo(BeAnExistingFile(), "no call of a refused script ran")
		_, err := tool.Decode(json.RawMessage(`{"calls":[]}`))
		Expect(err).To(MatchError(ContainSubstring("calls")))
	})

	It("refuses a REPL started from inside a REPL through another tool", func() {
		var inner string
		var s *session.Session
		// Relay runs a REPL itself, in the context of its own call, as a
		// sub-agent started from a REPL would.
		relay := runtime.Define(runtime.Definition[struct{}]{
			Name: "Relay", Description: "Relay runs a REPL.",
			Decode: func(json.RawMessage) (struct{}, error) { return struct{}{}, nil },
			Call: func(ctx context.Context, _ struct{}, _ *runtime.Call) (runtime.Result, error) {
				inner = execOne(ctx, s, "REPL", script(read("a.txt"))).Result.Text()
				return runtime.Result{Content: []runtime.Block{runtime.TextBlock("relayed")}}, nil
			},
			ReadOnly: true,
		})
		s = internalSession(dir, session.Options{}, relay)
		rs := results(execOne(ctx, s, "REPL", script(`{"name":"Relay"}`)))
		Expect(rs[0].Text).To(Equal("relayed"))
		Expect(inner).To(ContainSubstring("REPL cannot run inside REPL"))
	})

	It("runs safe calls in parallel as a batch, one at a time when sequential", func() {
		o := &overlap{}
		s := internalSession(dir, session.Options{}, o.tool())
		calls := script(`{"name":"Overlap"}`, `{"name":"Overlap"}`, `{"name":"Overlap"}`)
		Expect(results(execOne(ctx, s, "REPL", calls))).To(HaveLen(3))
		Expect(o.max.Load()).To(BeNumerically(">", 1))

		o.max.Store(0)
		seq := `{"sequential":true,` + calls[1:]
		Expect(results(execOne(ctx, s, "REPL", seq))).To(HaveLen(3))
		Expect(o.max.Load()).To(BeEquivalentTo(1))
	})
})
