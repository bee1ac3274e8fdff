package tooldefs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/agents"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/tooldefs/subagent"
)

// recordingAsker answers every ask with answer and remembers the requests.
type recordingAsker struct {
	mu     sync.Mutex
	asked  []ask.AskRequest
	answer ask.Answer
}

func (a *recordingAsker) Ask(_ context.Context, req ask.AskRequest) (ask.Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, req)
	return a.answer, nil
}

// agentRun is one Run of a session with sub-agents: its events, and
// every conversation's messages by ParentToolUseID ("" is the parent's).
type agentRun struct {
	events []agent.Event
	out    *agent.Outcome
}

func (r *agentRun) sub(parent string, kind agent.EventKind) []agent.Event {
	var evs []agent.Event
	for _, ev := range r.events {
		if ev.ParentToolUseID == parent && ev.Kind == kind {
			evs = append(evs, ev)
		}
	}
	return evs
}

// messages rebuilds a conversation from its assistant and user events.
func (r *agentRun) messages(parent string) []provider.Message {
	var msgs []provider.Message
	for _, ev := range r.events {
		if ev.ParentToolUseID == parent && (ev.Kind == agent.EventAssistant || ev.Kind == agent.EventUser) {
			msgs = append(msgs, *ev.Message)
		}
	}
	return msgs
}

// expectPaired checks that every tool_use of msgs has its tool_result in
// the next message.
func expectPaired(msgs []provider.Message) {
	GinkgoHelper()
	for i, m := range msgs {
		for _, u := range m.ToolUses() {
			Expect(i+1).To(BeNumerically("<", len(msgs)), "tool_use %s has no answer", u.ID)
			found := false
			for _, b := range msgs[i+1].Content {
				if b.Type == provider.ToolResultBlock && b.ToolUseID == u.ID {
					found = true
				}
			}
			Expect(found).To(BeTrue(), "tool_use %s has no tool_result", u.ID)
		}
	}
}

var _ = Describe("Agent", func() {
	var dir, home string

	BeforeEach(func() {
		checkLeaks()
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)).To(Succeed())
	})

	open := func(script string, mode permission.Mode, asker ask.Asker) *session.Session {
		GinkgoHelper()
		return replaySession(dir, home, script, mode, asker)
	}
	run := func(s *session.Session, prompt string, onEvent func(agent.Event)) *agentRun {
		GinkgoHelper()
		r := &agentRun{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer GinkgoRecover()
			for ev := range s.Run(context.Background(), prompt) {
				r.events = append(r.events, ev)
				if onEvent != nil {
					onEvent(ev)
				}
				if ev.Kind == agent.EventDone && ev.ParentToolUseID == "" {
					r.out = ev.Outcome
				}
			}
		}()
		Eventually(done).WithTimeout(20 * time.Second).Should(BeClosed())
		Expect(r.out).NotTo(BeNil())
		return r
	}
	window := func(r *agentRun, id string) (start, end time.Time) {
		GinkgoHelper()
		reqs, dones := r.sub(id, agent.EventRequest), r.sub(id, agent.EventDone)
		Expect(reqs).NotTo(BeEmpty(), "sub-agent %s made no request", id)
		Expect(dones).To(HaveLen(1), "sub-agent %s did not end once", id)
		return reqs[0].At, dones[0].At
	}

	It("runs two Explore agents in parallel, each with its own conversation, and returns their answers", func() {
		s := open(`{"prompt":"look"}
{"blocks":[{"type":"tool_use","id":"a1","name":"Agent","input":{"description":"Read notes","prompt":"Read notes.txt","subagent_type":"Explore"}},{"type":"tool_use","id":"a2","name":"Task","input":{"description":"Find beta","prompt":"Grep beta","subagent_type":"Explore"}}]}
{"agent":"a1","blocks":[{"type":"text","text":"reading","duration_ms":300},{"type":"tool_use","id":"a1_r","name":"Read","input":{"file_path":"${CWD}/notes.txt"}}]}
{"agent":"a1","blocks":[{"type":"text","text":"notes.txt has 2 lines"}]}
{"agent":"a2","blocks":[{"type":"text","text":"grepping","duration_ms":300},{"type":"tool_use","id":"a2_g","name":"Grep","input":{"pattern":"beta","output_mode":"content"}}]}
{"agent":"a2","blocks":[{"type":"text","text":"beta is on line 2"}]}
{"when":{"ok":["a1","a2"]},"blocks":[{"type":"text","text":"done"}]}`, permission.ModeDefault, nil)
		r := run(s, "", nil)
		Expect(r.out.Stop).To(Equal(agent.StopEndTurn))

		s1, e1 := window(r, "a1")
		s2, e2 := window(r, "a2")
		Expect(s1.Before(e2) && s2.Before(e1)).To(BeTrue(), "the Explore agents ran one after the other: a1 %v–%v, a2 %v–%v", s1, e1, s2, e2)

		results := r.sub("", agent.EventToolResult)
		Expect(results).To(HaveLen(2))
		Expect(results[0].Call.Result.Text()).To(HavePrefix("notes.txt has 2 lines"))
		Expect(results[0].Call.Result.Text()).To(ContainSubstring("<usage>turns: 2\ntool_uses: 1"))
		Expect(results[1].Call.Result.Text()).To(HavePrefix("beta is on line 2"))
		// Each sub-agent's events are its own: its calls, its conversation.
		Expect(r.sub("a1", agent.EventToolResult)).To(HaveLen(1))
		Expect(r.sub("a1", agent.EventToolResult)[0].Call.Result.Text()).To(ContainSubstring("beta"))
		for _, id := range []string{"", "a1", "a2"} {
			expectPaired(r.messages(id))
		}
		first := r.messages("a1")[0]
		Expect(first.Role).To(Equal(provider.Assistant), "the sub-agent's conversation starts with its prompt, not the parent's messages")
	})

	It("runs general-purpose agents one at a time, and their edits land", func() {
		s := open(`{"prompt":"write"}
{"blocks":[{"type":"tool_use","id":"g1","name":"Agent","input":{"description":"Write one","prompt":"write one.txt"}},{"type":"tool_use","id":"g2","name":"Agent","input":{"description":"Edit notes","prompt":"edit notes.txt","subagent_type":"general-purpose"}}]}
{"agent":"g1","blocks":[{"type":"text","text":"writing","duration_ms":200},{"type":"tool_use","id":"g1_w","name":"Write","input":{"file_path":"${CWD}/one.txt","content":"one\n"}}]}
{"agent":"g1","blocks":[{"type":"text","text":"wrote one.txt"}]}
{"agent":"g2","blocks":[{"type":"tool_use","id":"g2_r","name":"Read","input":{"file_path":"${CWD}/notes.txt"}}]}
{"agent":"g2","blocks":[{"type":"tool_use","id":"g2_e","name":"Edit","input":{"file_path":"${CWD}/notes.txt","old_string":"beta","new_string":"gamma"}}]}
{"agent":"g2","blocks":[{"type":"text","text":"edited notes.txt"}]}
{"when":{"ok":["g1","g2"]},"blocks":[{"type":"text","text":"done"}]}`, permission.ModeAcceptEdits, nil)
		r := run(s, "", nil)
		Expect(r.out.Stop).To(Equal(agent.StopEndTurn), "%v", r.out.Err)
		_, e1 := window(r, "g1")
		s2, _ := window(r, "g2")
		Expect(e1.Before(s2)).To(BeTrue(), "general-purpose agents may write: the second must wait for the first")
		Expect(os.ReadFile(filepath.Join(dir, "one.txt"))).To(BeEquivalentTo("one\n"))
		Expect(os.ReadFile(filepath.Join(dir, "notes.txt"))).To(BeEquivalentTo("alpha\ngamma\n"))
		// The sub-agent's file-state cache is its own: the parent never read notes.txt.
		_, read := s.ToolContext().FileState.Get(filepath.Join(dir, "notes.txt"))
		Expect(read).To(BeFalse())
	})

	It("keeps an Explore agent read-only and out of Agent, whatever the mode", func() {
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e1","name":"Agent","input":{"description":"Try writing","prompt":"x","subagent_type":"Explore"}}]}
{"agent":"e1","blocks":[{"type":"tool_use","id":"e1_b","name":"Bash","input":{"command":"touch made-by-explore"}},{"type":"tool_use","id":"e1_w","name":"Write","input":{"file_path":"${CWD}/w.txt","content":"x"}},{"type":"tool_use","id":"e1_a","name":"Agent","input":{"description":"nested","prompt":"x"}}]}
{"agent":"e1","blocks":[{"type":"text","text":"could not"}]}
{"blocks":[{"type":"text","text":"ok"}]}`, permission.ModeBypass, nil)
		r := run(s, "", nil)
		res := r.sub("e1", agent.EventToolResult)
		Expect(res).To(HaveLen(3))
		Expect(res[0].Call.Result.IsError).To(BeTrue())
		Expect(res[0].Call.Result.Text()).To(ContainSubstring("Explore agent (Try writing) is read-only"))
		Expect(res[1].Call.Result.Text()).To(ContainSubstring("No such tool"))
		Expect(res[2].Call.Result.Text()).To(ContainSubstring("No such tool"))
		Expect(filepath.Join(dir, "made-by-explore")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(dir, "w.txt")).NotTo(BeAnExistingFile())
	})

	It("asks the parent's asker for a sub-agent's call, naming the agent, and holds deny rules", func() {
		asker := &recordingAsker{answer: ask.AnswerAllowOnce}
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"p1","name":"Agent","input":{"description":"Make a file","prompt":"x"}}]}
{"agent":"p1","blocks":[{"type":"tool_use","id":"p1_b","name":"Bash","input":{"command":"touch asked.txt"}},{"type":"tool_use","id":"p1_r","name":"Bash","input":{"command":"rm -rf notes.txt"}}]}
{"agent":"p1","blocks":[{"type":"text","text":"made it"}]}
{"blocks":[{"type":"text","text":"ok"}]}`, permission.ModeDefault, asker)
		s.Engine().AddSessionRule(mustRule("Bash(rm:*)", runtime.Deny))
		r := run(s, "", nil)
		Expect(asker.asked).To(HaveLen(1))
		Expect(asker.asked[0].Agent).To(Equal("general-purpose agent (Make a file)"))
		Expect(asker.asked[0].Use).To(ContainSubstring("touch asked.txt"))
		Expect(filepath.Join(dir, "asked.txt")).To(BeAnExistingFile())
		res := r.sub("p1", agent.EventToolResult)
		Expect(res[1].Call.Result.Text()).To(ContainSubstring("denied by the rule"))
		Expect(filepath.Join(dir, "notes.txt")).To(BeAnExistingFile())
	})

	It("stops a sub-agent on interrupt: every call in both conversations gets its result", func() {
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"i1","name":"Agent","input":{"description":"Wait long","prompt":"x"}}]}
{"agent":"i1","blocks":[{"type":"tool_use","id":"i1_s","name":"Bash","input":{"command":"sleep 30"}},{"type":"tool_use","id":"i1_r","name":"Read","input":{"file_path":"${CWD}/notes.txt"}}]}
{"agent":"i1","blocks":[{"type":"text","text":"never"}]}
{"blocks":[{"type":"text","text":"never"}]}`, permission.ModeBypass, nil)
		start := time.Now()
		var once sync.Once
		r := run(s, "", func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart && ev.ID == "i1_s" {
				once.Do(func() { go s.Interrupt() })
			}
		})
		Expect(time.Since(start)).To(BeNumerically("<", 15*time.Second))
		Expect(r.out.Stop).To(Equal(agent.StopInterrupted))
		expectPaired(r.messages(""))
		expectPaired(r.messages("i1"))
		res := r.sub("", agent.EventToolResult)
		Expect(res).To(HaveLen(1))
		Expect(res[0].Call.Result.IsError).To(BeTrue())
	})

	It("runs an agent in the background: TaskOutput reads it, TaskStop stops it, and the parent is told when one finishes", func() {
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"b1","name":"Agent","input":{"description":"Quick count","prompt":"x","subagent_type":"Explore","run_in_background":true}},{"type":"tool_use","id":"b2","name":"Agent","input":{"description":"Slow job","prompt":"y","run_in_background":true}}]}
{"agent":"b1","blocks":[{"type":"tool_use","id":"b1_g","name":"Grep","input":{"pattern":"a","output_mode":"count"}}]}
{"agent":"b1","blocks":[{"type":"text","text":"counted 2"}]}
{"agent":"b2","blocks":[{"type":"tool_use","id":"b2_s","name":"Bash","input":{"command":"sleep 30"}}]}
{"agent":"b2","blocks":[{"type":"text","text":"never"}]}
{"blocks":[{"type":"tool_use","id":"o1","name":"TaskOutput","input":{"task_id":"agent_1","timeout":10000}},{"type":"tool_use","id":"o2","name":"TaskOutput","input":{"task_id":"agent_2","block":false}}]}
{"blocks":[{"type":"tool_use","id":"k2","name":"TaskStop","input":{"task_id":"agent_2"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
		r := run(s, "", nil)
		Expect(r.out.Stop).To(Equal(agent.StopEndTurn), "%v", r.out.Err)
		res := r.sub("", agent.EventToolResult)
		Expect(res).To(HaveLen(5))
		Expect(res[0].Call.Result.Text()).To(ContainSubstring("agentId: agent_1"))
		Expect(res[1].Call.Result.Text()).To(ContainSubstring("agentId: agent_2"))
		Expect(res[2].Call.Result.Text()).To(ContainSubstring("<status>completed</status>"))
		Expect(res[2].Call.Result.Text()).To(ContainSubstring("counted 2"))
		Expect(res[3].Call.Result.Text()).To(ContainSubstring("<retrieval_status>not_ready</retrieval_status>"))
		Expect(res[3].Call.Result.Text()).To(ContainSubstring("<status>running</status>"))
		Expect(res[4].Call.Result.Text()).To(ContainSubstring("Successfully stopped task: agent_2 (Slow job)"))
		// The next request after agent_1 finished carried the notice.
		var notified bool
		for _, m := range s.Messages() {
			for _, b := range m.Content {
				if b.Type == provider.TextBlock && strings.Contains(b.Text, "<task-id>agent_1</task-id>") {
					notified = true
				}
			}
		}
		Expect(notified).To(BeTrue())
		b, err := subagent.Find(s.ToolContext(), "agent_2")
		Expect(err).NotTo(HaveOccurred())
		Expect(b.State()).To(Equal(subagent.StatusKilled))
	})

	It("runs a custom agent type from a .md file with exactly its tools, in parallel when they are read-only", func() {
		Expect(os.MkdirAll(filepath.Join(dir, ".claude", "agents"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "agents", "reviewer.md"),
			[]byte("---\nname: reviewer\ndescription: Reviews files\ntools: Read, TaskOutput\n---\nYou review files.\n"), 0o644)).To(Succeed())
		types, errs := agents.LoadTypes(dir, home)
		Expect(errs).To(BeEmpty())
		sc, err := replay.Parse([]byte(`{"prompt":"review"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Agent","input":{"description":"Review notes","prompt":"x","subagent_type":"reviewer"}},{"type":"tool_use","id":"r2","name":"Agent","input":{"description":"Review again","prompt":"y","subagent_type":"reviewer"}}]}
{"agent":"r1","blocks":[{"type":"text","text":"reading","duration_ms":300},{"type":"tool_use","id":"r1_r","name":"Read","input":{"file_path":"${CWD}/notes.txt"}},{"type":"tool_use","id":"r1_b","name":"Bash","input":{"command":"ls"}}]}
{"agent":"r1","blocks":[{"type":"text","text":"reviewed"}]}
{"agent":"r2","blocks":[{"type":"text","text":"reading too","duration_ms":300},{"type":"tool_use","id":"r2_g","name":"Read","input":{"file_path":"${CWD}/notes.txt"}}]}
{"agent":"r2","blocks":[{"type":"text","text":"reviewed too"}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		tools := agents.WithTypes(generated.AllBaseTools(), "Agent", types)
		Expect(runtime.Lookup(tools, "Agent").Description()).To(ContainSubstring("- reviewer: Reviews files (Tools: Read, TaskOutput)"))
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: home, Tools: tools,
			Provider: replay.New(sc, replay.Options{Speed: 1, Cwd: dir}), Permissions: permission.Sources{ConfigDir: filepath.Join(home, ".agentcore")}})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		r := run(s, "", nil)
		Expect(r.out.Stop).To(Equal(agent.StopEndTurn))
		s1, e1 := window(r, "r1")
		s2, e2 := window(r, "r2")
		Expect(s1.Before(e2) && s2.Before(e1)).To(BeTrue(), "two read-only reviewers run side by side")
		res := r.sub("r1", agent.EventToolResult)
		Expect(res[0].Call.Result.IsError).To(BeFalse())
		Expect(res[1].Call.Result.Text()).To(ContainSubstring("No such tool"), "Bash is not among the reviewer's tools")
	})

	It("refuses clearly what cannot run", func() {
		s := open(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"u1","name":"Agent","input":{"description":"x","prompt":"x","subagent_type":"Nope"}},{"type":"tool_use","id":"u2","name":"Agent","input":{"description":"x","prompt":"x","isolation":"worktree"}},{"type":"tool_use","id":"u3","name":"Agent","input":{"description":"x","prompt":"x"}}]}
{"blocks":[{"type":"text","text":"ok"}]}`, permission.ModeBypass, nil)
		r := run(s, "", nil)
		res := r.sub("", agent.EventToolResult)
		Expect(res).To(HaveLen(3))
		Expect(res[0].Call.Result.Text()).To(ContainSubstring(`unknown subagent_type "Nope": use one of general-purpose, Explore, Plan`))
		Expect(res[1].Call.Result.Text()).To(ContainSubstring(`isolation "worktree": `))
		Expect(res[1].Call.Result.Text()).To(ContainSubstring("is not inside a git repository"))
		Expect(res[2].Call.Result.Text()).To(ContainSubstring("scripts no sub-agent for the Agent call u3"))
		for _, x := range res {
			Expect(x.Call.Result.IsError).To(BeTrue())
		}
	})
})

func mustRule(s string, b runtime.Behavior) permission.Rule {
	r, err := permission.ParseRule(s, b)
	Expect(err).NotTo(HaveOccurred())
	return r
}

// checkLeaks makes the spec fail when it leaves a goroutine behind: the
// snapshot is taken now, the check runs after the spec's cleanups.
func checkLeaks() {
	before := goleak.IgnoreCurrent()
	DeferCleanup(func() {
		Eventually(func() error {
			return goleak.Find(before, goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1"))
		}).WithTimeout(10 * time.Second).WithPolling(50 * time.Millisecond).Should(Succeed())
	})
}

// replaySession opens a session in dir over every generated tool, played
// by the replay scenario script at real speed; it closes with the spec.
func replaySession(dir, home, script string, mode permission.Mode, asker ask.Asker) *session.Session {
	GinkgoHelper()
	sc, err := replay.Parse([]byte(script))
	Expect(err).NotTo(HaveOccurred())
	s, err := session.Open(context.Background(), session.Options{
		Dir: dir, Home: home, Tools: generated.AllBaseTools(),
		Provider:    replay.New(sc, replay.Options{Speed: 1, Cwd: dir}),
		Permissions: permission.Sources{Mode: mode, Asker: asker, ConfigDir: filepath.Join(home, ".agentcore")},
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(s.Close)
	return s
}
