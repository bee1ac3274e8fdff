package tooldefs_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
)

// specGit runs git in dir with a fixed identity and no user configuration.
func specGit(dir string, args ...string) string {
	GinkgoHelper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Spec", "-c", "user.email=spec@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
	return string(out)
}

func specBranchExists(repo, branch string) bool {
	return exec.Command("git", "-C", repo, "show-ref", "--verify", "--quiet", "refs/heads/"+branch).Run() == nil
}

var _ = Describe("EnterWorktree and ExitWorktree", func() {
	var repo, home string

	BeforeEach(func() {
		before := goleak.IgnoreCurrent()
		DeferCleanup(func() {
			Eventually(func() error {
				return goleak.Find(before, goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1"))
			}).WithTimeout(10 * time.Second).WithPolling(50 * time.Millisecond).Should(Succeed())
		})
		var err error
		repo, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		home = GinkgoT().TempDir()
		specGit(repo, "init", "-q")
		Expect(os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("alpha\nbeta\n"), 0o644)).To(Succeed())
		specGit(repo, "add", ".")
		specGit(repo, "commit", "-q", "-m", "first")
	})

	open := func(dir, script string, mode permission.Mode, asker ask.Asker) *session.Session {
		GinkgoHelper()
		return replaySession(dir, home, script, mode, asker)
	}
	// results runs the scenario to its end and returns the parent's tool
	// results, by tool_use id.
	results := func(s *session.Session) map[string]runtime.Result {
		GinkgoHelper()
		res := map[string]runtime.Result{}
		var out *agent.Outcome
		for ev := range s.Run(context.Background(), "") {
			if ev.ParentToolUseID != "" {
				continue
			}
			if ev.Kind == agent.EventToolResult {
				res[ev.ID] = ev.Call.Result
			}
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		Expect(out).NotTo(BeNil())
		Expect(out.Stop).To(Equal(agent.StopEndTurn), "%v", out.Err)
		return res
	}
	wt := func(name string) string { return filepath.Join(repo, ".agentcore", "worktrees", name) }

	It("enters a worktree, works there, and leaves it kept; the main checkout stays clean", func() {
		s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{"name":"feat"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"${CWD}/.agentcore/worktrees/feat/new.txt","content":"new\n"}},{"type":"tool_use","id":"b","name":"Bash","input":{"command":"pwd && echo rel > rel.txt"}}]}
{"blocks":[{"type":"tool_use","id":"x","name":"ExitWorktree","input":{"action":"keep"}}]}
{"blocks":[{"type":"tool_use","id":"p","name":"Bash","input":{"command":"pwd"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeAcceptEdits, nil)
		s.Engine().AddSessionRule(mustRule("Bash", runtime.Allow))
		res := results(s)
		Expect(res["e"].IsError).To(BeFalse(), res["e"].Text())
		Expect(res["e"].Text()).To(ContainSubstring("Created worktree at " + wt("feat") + " on branch agentcore/feat"))
		Expect(res["w"].IsError).To(BeFalse(), res["w"].Text())
		Expect(res["b"].Text()).To(HavePrefix(wt("feat")))
		Expect(os.ReadFile(filepath.Join(wt("feat"), "new.txt"))).To(BeEquivalentTo("new\n"))
		Expect(filepath.Join(wt("feat"), "rel.txt")).To(BeAnExistingFile())
		Expect(filepath.Join(repo, "new.txt")).NotTo(BeAnExistingFile())
		Expect(filepath.Join(repo, "rel.txt")).NotTo(BeAnExistingFile())

		Expect(res["x"].Text()).To(ContainSubstring("it is kept at " + wt("feat") + " on branch agentcore/feat"))
		Expect(res["x"].Text()).To(ContainSubstring("The session is back in " + repo))
		Expect(strings.TrimSpace(res["p"].Text())).To(Equal(repo))
		Expect(s.ToolContext().Cwd).To(Equal(repo))
		Expect(s.ToolContext().WorkingDirs).NotTo(ContainElement(wt("feat")))
		Expect(wt("feat")).To(BeADirectory())
		Expect(specBranchExists(repo, "agentcore/feat")).To(BeTrue())
		Expect(specGit(repo, "status", "--porcelain", "--untracked-files=all")).To(BeEmpty())
	})

	It("refuses to remove a worktree with uncommitted changes, and removes it when told to discard them", func() {
		s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{"name":"scratch"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"${CWD}/.agentcore/worktrees/scratch/draft.txt","content":"draft\n"}}]}
{"blocks":[{"type":"tool_use","id":"r1","name":"ExitWorktree","input":{"action":"remove"}}]}
{"blocks":[{"type":"tool_use","id":"p","name":"Bash","input":{"command":"pwd"}}]}
{"blocks":[{"type":"tool_use","id":"r2","name":"ExitWorktree","input":{"action":"remove","discard_changes":true}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
		res := results(s)
		Expect(res["r1"].IsError).To(BeTrue())
		Expect(res["r1"].Text()).To(ContainSubstring("has 1 uncommitted change(s):\n?? draft.txt"))
		Expect(res["r1"].Text()).To(ContainSubstring("discard_changes true"))
		Expect(strings.TrimSpace(res["p"].Text())).To(Equal(wt("scratch")), "a refused removal leaves the session in the worktree")

		Expect(res["r2"].IsError).To(BeFalse(), res["r2"].Text())
		Expect(res["r2"].Text()).To(ContainSubstring("Exited and removed the worktree " + wt("scratch") + ", discarding 1 uncommitted change(s), and its branch agentcore/scratch."))
		Expect(wt("scratch")).NotTo(BeADirectory())
		Expect(specBranchExists(repo, "agentcore/scratch")).To(BeFalse())
		Expect(s.ToolContext().Cwd).To(Equal(repo))
		Expect(specGit(repo, "status", "--porcelain", "--untracked-files=all")).To(BeEmpty())
	})

	It("removes a worktree whose work was committed, but keeps its branch and says so", func() {
		s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{}}]}
{"blocks":[{"type":"tool_use","id":"c","name":"Bash","input":{"command":"echo x > x.txt && git add x.txt && git -c user.name=Spec -c user.email=spec@example.com -c commit.gpgsign=false commit -q -m work"}}]}
{"blocks":[{"type":"tool_use","id":"r","name":"ExitWorktree","input":{"action":"remove"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
		res := results(s)
		Expect(res["c"].IsError).To(BeFalse(), res["c"].Text())
		Expect(res["r"].IsError).To(BeFalse(), res["r"].Text())
		Expect(res["r"].Text()).To(MatchRegexp(`Its branch (agentcore/[a-z]+-[a-z]+-[0-9a-f]{4}) was kept: it has 1 commit\(s\) of its own \(delete it with git branch -D agentcore/`))
		branch := strings.TrimSpace(specGit(repo, "branch", "--list", "agentcore/*", "--format=%(refname:short)"))
		Expect(branch).To(HavePrefix("agentcore/"))
		Expect(strings.TrimSpace(specGit(repo, "log", "-1", "--format=%s", branch))).To(Equal("work"))
		Expect(os.ReadDir(filepath.Join(repo, ".agentcore", "worktrees"))).To(BeEmpty(), "the worktree itself is gone")
	})

	It("refuses clearly: outside a repository, twice, and leaving when not in one", func() {
		plain := GinkgoT().TempDir()
		s := open(plain, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{}},{"type":"tool_use","id":"x","name":"ExitWorktree","input":{"action":"keep"}},{"type":"tool_use","id":"n","name":"EnterWorktree","input":{"name":"a/b"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
		res := results(s)
		Expect(res["e"].IsError).To(BeTrue())
		Expect(res["e"].Text()).To(ContainSubstring("is not inside a git repository"))
		Expect(res["x"].IsError).To(BeTrue())
		Expect(res["x"].Text()).To(ContainSubstring("no worktree session is active"))
		Expect(res["n"].Text()).To(ContainSubstring(`invalid worktree name "a/b"`))

		s = open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e1","name":"EnterWorktree","input":{"name":"one"}}]}
{"blocks":[{"type":"tool_use","id":"e2","name":"EnterWorktree","input":{"name":"two"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
		res = results(s)
		Expect(res["e1"].IsError).To(BeFalse(), res["e1"].Text())
		Expect(res["e2"].IsError).To(BeTrue())
		Expect(res["e2"].Text()).To(ContainSubstring("already in the worktree " + wt("one")))
		Expect(wt("two")).NotTo(BeADirectory())
	})

	It("asks only before discarding changes, and stays out in plan mode", func() {
		asker := &recordingAsker{answer: ask.AnswerAllowOnce}
		s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{"name":"ask"}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Bash","input":{"command":"touch junk.txt"}}]}
{"blocks":[{"type":"tool_use","id":"r","name":"ExitWorktree","input":{"action":"remove","discard_changes":true}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeDefault, asker)
		s.Engine().AddSessionRule(mustRule("Bash(touch:*)", runtime.Allow))
		// touch writes junk.txt: a Bash rule alone does not allow that.
		s.Engine().AddSessionRule(mustRule("Edit(junk.txt)", runtime.Allow))
		res := results(s)
		Expect(res["e"].IsError).To(BeFalse(), res["e"].Text())
		Expect(res["r"].IsError).To(BeFalse(), res["r"].Text())
		Expect(asker.asked).To(HaveLen(1))
		Expect(asker.asked[0].Tool).To(Equal("ExitWorktree"))
		Expect(wt("ask")).NotTo(BeADirectory())

		s = open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{"name":"planned"}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModePlan, nil)
		res = results(s)
		Expect(res["e"].IsError).To(BeTrue())
		Expect(res["e"].Text()).To(ContainSubstring("Plan mode"))
		Expect(wt("planned")).NotTo(BeADirectory())
	})

	It("removes an untouched worktree when the session ends in it, and keeps one with changes", func() {
		script := `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"e","name":"EnterWorktree","input":{"name":"NAME"}}]}
{"blocks":[{"type":"text","text":"done"}]}`
		s := open(repo, strings.Replace(script, "NAME", "idle", 1), permission.ModeBypass, nil)
		results(s)
		Expect(wt("idle")).To(BeADirectory())
		Expect(s.Close()).To(Succeed())
		Expect(wt("idle")).NotTo(BeADirectory())
		Expect(specBranchExists(repo, "agentcore/idle")).To(BeFalse())

		s = open(repo, strings.Replace(script, "NAME", "busy", 1), permission.ModeBypass, nil)
		results(s)
		Expect(os.WriteFile(filepath.Join(wt("busy"), "work.txt"), []byte("x"), 0o644)).To(Succeed())
		Expect(s.Close()).To(Succeed())
		Expect(filepath.Join(wt("busy"), "work.txt")).To(BeAnExistingFile())
	})

	Describe("Agent with isolation worktree", func() {
		It("runs the sub-agent in a fresh worktree: its writes land there, and the result names the kept worktree", func() {
			s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"w1","name":"Agent","input":{"description":"Write in isolation","prompt":"write made.txt","isolation":"worktree"}}]}
{"agent":"w1","blocks":[{"type":"tool_use","id":"w1_w","name":"Write","input":{"file_path":"${CWD}/.agentcore/worktrees/agent-w1/made.txt","content":"made\n"}},{"type":"tool_use","id":"w1_b","name":"Bash","input":{"command":"pwd && echo rel > rel.txt"}}]}
{"agent":"w1","blocks":[{"type":"text","text":"wrote made.txt"}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
			res := results(s)
			Expect(res["w1"].IsError).To(BeFalse(), res["w1"].Text())
			Expect(res["w1"].Text()).To(HavePrefix("wrote made.txt"))
			Expect(res["w1"].Text()).To(ContainSubstring("The agent's changes are kept in the worktree " + wt("agent-w1") + " on branch agentcore/agent-w1"))
			Expect(os.ReadFile(filepath.Join(wt("agent-w1"), "made.txt"))).To(BeEquivalentTo("made\n"))
			Expect(filepath.Join(wt("agent-w1"), "rel.txt")).To(BeAnExistingFile())
			Expect(filepath.Join(repo, "made.txt")).NotTo(BeAnExistingFile())
			Expect(filepath.Join(repo, "rel.txt")).NotTo(BeAnExistingFile())
			Expect(specGit(repo, "status", "--porcelain", "--untracked-files=all")).To(BeEmpty())
			Expect(s.ToolContext().Cwd).To(Equal(repo), "the parent stays where it was")
		})

		It("removes the worktree of a sub-agent that changed nothing", func() {
			s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"r1","name":"Agent","input":{"description":"Only read","prompt":"read notes.txt","isolation":"worktree"}}]}
{"agent":"r1","blocks":[{"type":"tool_use","id":"r1_b","name":"Bash","input":{"command":"pwd && cat notes.txt"}}]}
{"agent":"r1","blocks":[{"type":"text","text":"notes has alpha"}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
			res := results(s)
			Expect(res["r1"].IsError).To(BeFalse(), res["r1"].Text())
			Expect(res["r1"].Text()).NotTo(ContainSubstring("worktree"))
			Expect(wt("agent-r1")).NotTo(BeADirectory())
			Expect(specBranchExists(repo, "agentcore/agent-r1")).To(BeFalse())
		})

		It("keeps a background agent's worktree when it leaves changes, and TaskOutput says where", func() {
			s := open(repo, `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"g1","name":"Agent","input":{"description":"Background write","prompt":"x","isolation":"worktree","run_in_background":true}}]}
{"agent":"g1","blocks":[{"type":"tool_use","id":"g1_b","name":"Bash","input":{"command":"echo bg > bg.txt"}}]}
{"agent":"g1","blocks":[{"type":"text","text":"wrote bg.txt"}]}
{"blocks":[{"type":"tool_use","id":"o","name":"TaskOutput","input":{"task_id":"agent_1","timeout":10000}}]}
{"blocks":[{"type":"text","text":"done"}]}`, permission.ModeBypass, nil)
			res := results(s)
			Expect(res["o"].Text()).To(ContainSubstring("wrote bg.txt"))
			Expect(res["o"].Text()).To(ContainSubstring("Its changes are kept in the worktree " + wt("agent-g1") + " on branch agentcore/agent-g1"))
			Expect(filepath.Join(wt("agent-g1"), "bg.txt")).To(BeAnExistingFile())
			Expect(filepath.Join(repo, "bg.txt")).NotTo(BeAnExistingFile())
		})
	})
})
