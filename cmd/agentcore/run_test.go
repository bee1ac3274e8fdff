//go:build !internal && !ant

package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// runIn runs `agentcore run args…` in dir (also its HOME and config
// directory) with extra environment and returns stdout, stderr and the
// exit code.
func runIn(dir string, env []string, args ...string) (string, string, int) {
	return invoke(invocation{dir: dir, home: dir, configDir: dir, env: env}, append([]string{"run"}, args...)...)
}

var _ = Describe("agentcore run", func() {
	It("plays the make-run demo on a scratch copy: parallel reads, grep, edit, a cancelled sibling, a denial, a cd", func() {
		cmd := exec.Command(filepath.Join(repoRoot(), "examples", "run-demo.sh"))
		tmp := GinkgoT().TempDir()
		cmd.Env = append(os.Environ(), "AGENTCORE_BIN="+binaries["external"], "AGENTCORE_REPLAY_SPEED=0", "NO_COLOR=1", "TMPDIR="+tmp)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		text := string(out)
		for _, want := range []string{
			"● Read 2 files: README.md, go.mod · in parallel",
			"● Grep(",
			"Updated README.md",
			"Cancelled: parallel tool call Bash(ls CHANGELOG.md) errored",
			"Rejected",
			"working directory is now ",
			"─ 6 turns · 11 tool calls (3 failed)",
		} {
			Expect(text).To(ContainSubstring(want))
		}
		Expect(text).NotTo(ContainSubstring("\x1b["), "plain when not a terminal")
		Expect(filepath.Glob(filepath.Join(tmp, "agentcore-demo.*"))).To(BeEmpty(), "make run removes its scratch copy")
	})

	It("prints one result object with --output-format json", func() {
		dir := GinkgoT().TempDir()
		stdout, stderr, code := runIn(dir, nil, "--model", "replay", "--output-format", "json", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		var res map[string]any
		Expect(json.Unmarshal([]byte(stdout), &res)).To(Succeed(), stdout)
		Expect(res).To(HaveKeyWithValue("type", "result"))
		Expect(res).To(HaveKeyWithValue("subtype", "success"))
		Expect(res).To(HaveKeyWithValue("num_turns", BeNumerically("==", 3)))
	})

	It("prints one JSON event per line with --output-format stream-json", func() {
		dir := GinkgoT().TempDir()
		stdout, stderr, code := runIn(dir, nil, "--output-format", "stream-json", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		var types []string
		sc := bufio.NewScanner(strings.NewReader(stdout))
		for sc.Scan() {
			var ev map[string]any
			Expect(json.Unmarshal(sc.Bytes(), &ev)).To(Succeed(), sc.Text())
			types = append(types, ev["type"].(string))
		}
		Expect(types[0]).To(Equal("system"))
		Expect(types[len(types)-1]).To(Equal("result"))
		Expect(types).To(ContainElements("user", "assistant"))
	})

	It("records a session that replays to the same answer", func() {
		dir := GinkgoT().TempDir()
		rec := filepath.Join(dir, "session.jsonl")
		first, stderr, code := runIn(dir, nil, "--output-format", "json", "--record", rec, "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		again, stderr, code := runIn(dir, nil, "--model", "replay:"+rec, "--output-format", "json", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(0), stderr)
		var a, b map[string]any
		Expect(json.Unmarshal([]byte(first), &a)).To(Succeed())
		Expect(json.Unmarshal([]byte(again), &b)).To(Succeed())
		Expect(b["result"]).To(Equal(a["result"]))
		Expect(b["num_turns"]).To(Equal(a["num_turns"]))
	})

	It("drives the Messages API through the SDK when given a key (fake API on loopback)", func() {
		srv, requests := answeringAPI("pong")
		stdout, stderr, code := runIn(GinkgoT().TempDir(), []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"--model", "anthropic:fake", "-p", "ping", "--output-format", "json")
		Expect(code).To(Equal(0), stderr)
		var res map[string]any
		Expect(json.Unmarshal([]byte(stdout), &res)).To(Succeed(), stdout)
		Expect(res).To(HaveKeyWithValue("result", "pong"))
		bodies := requests()
		Expect(bodies).To(HaveLen(1))
		Expect(bodies[0]).To(HaveKeyWithValue("model", "fake"))
		Expect(bodies[0]).To(HaveKeyWithValue("stream", true))
		Expect(bodies[0]["tools"]).NotTo(BeEmpty())
		Expect(bodies[0]["system"].([]any)[0]).To(HaveKeyWithValue("cache_control", HaveKeyWithValue("type", "ephemeral")))
	})

	It("holds a Claude Code project's .claude/settings.json deny rule, even in bypassPermissions", func() {
		dir := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"), []byte(`{"permissions":{"deny":["Bash(touch:*)"]}}`), 0o644)).To(Succeed())
		scn := `{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"touch denied.txt"}}]}
{"blocks":[{"type":"text","text":"done"}]}`
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
		stdout, stderr, code := runIn(dir, nil, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions", "--output-format", "stream-json")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring("has been denied by the rule Bash(touch:*)"))
		Expect(stdout).To(ContainSubstring(filepath.Join(dir, ".claude", "settings.json")))
		Expect(filepath.Join(dir, "denied.txt")).NotTo(BeAnExistingFile())
	})

	DescribeTable("refuses bad flags with a message that says what to do",
		func(want string, args ...string) {
			_, stderr, code := runIn(GinkgoT().TempDir(), nil, args...)
			Expect(code).To(Equal(1))
			Expect(stderr).To(ContainSubstring(want))
		},
		Entry("an unknown model", "use replay, replay:FILE, anthropic or anthropic:NAME", "--model", "gpt:4"),
		Entry("a missing scenario", "no such file", "--model", "replay:nope.jsonl"),
		Entry("an unknown output format", "use text, json or stream-json", "--output-format", "yaml"),
		Entry("a negative turn limit", "--max-turns must be", "--max-turns", "-1"),
		Entry("an unknown permission mode", "bogus", "--permission-mode", "bogus"),
	)

	It("fails AskUserQuestion in a non-interactive run with a result that says no user is present", func() {
		dir := GinkgoT().TempDir()
		scn := `{"prompt":"ask"}
{"blocks":[{"type":"tool_use","id":"q","name":"AskUserQuestion","input":{"questions":[{"question":"Tabs or spaces?","header":"Indent","multiSelect":false,"options":[{"label":"tabs","description":""},{"label":"spaces","description":""}]}]}}]}
{"when":{"errors":["q"]},"blocks":[{"type":"text","text":"Nobody to ask."}]}`
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
		stdout, stderr, code := runIn(dir, nil, "--model", "replay:scn.jsonl", "--output-format", "stream-json", "-p", "ask")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`no user is present to answer questions in this run`))
		Expect(stdout).To(ContainSubstring(`"is_error":true`))
		Expect(stdout).To(ContainSubstring("Nobody to ask."))
	})

	It("exits non-zero with --max-turns when the model wants more", func() {
		_, stderr, code := runIn(GinkgoT().TempDir(), nil, "--max-turns", "1", "--permission-mode", "bypassPermissions")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("stopped after --max-turns 1"))
	})

	Context("on a terminal (tmux)", Label("tmux"), func() {
		BeforeEach(func() {
			tooltest.Need(tooltest.Tmux)
		})

		// shellSession starts a shell line in a detached tmux session on a tmux
		// server of its own (a private socket: a server shared with other
		// suites or users can exit under it) and returns functions to
		// capture the pane and to send keys; session runs agentcore run there.
		shellSession := func(shell string) (func() string, func(...string)) {
			name := fmt.Sprintf("agentcore-test-%d-%d", os.Getpid(), time.Now().UnixNano())
			tmux := func(args ...string) *exec.Cmd {
				cmd := exec.Command("tmux", append([]string{"-L", name}, args...)...)
				cmd.Env = append(os.Environ(), "TMUX=")
				return cmd
			}
			out, err := tmux("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "150", "-y", "50", shell).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "tmux: %s", out)
			DeferCleanup(func() { _ = tmux("kill-server").Run() })
			pane := func() string {
				out, _ := tmux("capture-pane", "-p", "-t", name).Output()
				return string(out)
			}
			keys := func(k ...string) {
				Expect(tmux(append([]string{"send-keys", "-t", name}, k...)...).Run()).To(Succeed())
			}
			return pane, keys
		}
		session := func(dir string, args ...string) (func() string, func(...string)) {
			// The user directory is apart from the project: the session
			// store writes there, and the tour checks git status.
			return shellSession("cd " + dir + " && HOME=" + dir + " AGENTCORE_CONFIG_DIR=" + GinkgoT().TempDir() + " NO_COLOR=1 ANTHROPIC_API_KEY= AGENTCORE_REPLAY_SPEED=0 " +
				binaries["external"] + " run " + strings.Join(args, " ") + "; echo EXIT=$?; sleep 60")
		}
		scenario := `{"prompt":"make a file"}
{"blocks":[{"type":"tool_use","id":"mk","name":"Bash","input":{"command":"touch made-by-agent.txt","description":"Create a file"}}]}
{"when":{"ok":["mk"]},"blocks":[{"type":"text","text":"The file is there."}]}
{"when":{"errors":["mk"]},"blocks":[{"type":"text","text":"I was not allowed."}]}`

		DescribeTable("asks before a call that needs approval, and obeys the answer",
			func(answer, final string, created bool) {
				dir := GinkgoT().TempDir()
				Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scenario), 0o644)).To(Succeed())
				pane, keys := session(dir, "--model", "replay:scn.jsonl")
				Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Allow?"))
				Expect(pane()).To(ContainSubstring("touch made-by-agent.txt"))
				keys(answer, "Enter")
				Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
				Expect(pane()).To(ContainSubstring(final))
				_, err := os.Stat(filepath.Join(dir, "made-by-agent.txt"))
				Expect(err == nil).To(Equal(created))
			},
			Entry("yes", "1", "The file is there.", true),
			Entry("no", "n", "I was not allowed.", false),
		)

		It("asks on the terminal for a sub-agent's call, naming the agent, and obeys the answer", func() {
			dir := GinkgoT().TempDir()
			scn := `{"prompt":"delegate"}
{"blocks":[{"type":"tool_use","id":"sub","name":"Agent","input":{"description":"Make the file","prompt":"touch it"}}]}
{"agent":"sub","blocks":[{"type":"tool_use","id":"sub_mk","name":"Bash","input":{"command":"touch made-by-sub-agent.txt"}}]}
{"agent":"sub","when":{"ok":["sub_mk"]},"blocks":[{"type":"text","text":"Made it."}]}
{"when":{"ok":["sub"]},"blocks":[{"type":"text","text":"The sub-agent made the file."}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Allow?"))
			Expect(pane()).To(ContainSubstring("general-purpose agent (Make the file) asks: Bash: touch made-by-sub-agent.txt"))
			keys("1", "Enter")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
			Expect(pane()).To(ContainSubstring("The sub-agent made the file."))
			Expect(filepath.Join(dir, "made-by-sub-agent.txt")).To(BeAnExistingFile())
		})

		It("asks on the terminal to enter plan mode and to approve the plan, shows the plan, and obeys the answers", func() {
			dir := GinkgoT().TempDir()
			scn := `{"prompt":"greet"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":"${CWD}/hello.txt","content":"hi\n"}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"# Add a greeting\n1. Write hello.txt.\n2. Read it back."}}]}
{"blocks":[{"type":"tool_use","id":"w2","name":"Write","input":{"file_path":"${CWD}/hello.txt","content":"hi\n"}}]}
{"when":{"ok":["w2"]},"blocks":[{"type":"text","text":"The greeting is written."}]}
{"when":{"errors":["w2"]},"blocks":[{"type":"text","text":"Writing failed."}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Enter plan mode?"))
			keys("1", "Enter")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("2. Yes, and accept edits"))
			Expect(pane()).To(ContainSubstring("ExitPlanMode: Add a greeting"))
			Expect(pane()).To(ContainSubstring("│ # Add a greeting"))
			Expect(pane()).To(ContainSubstring("│ 2. Read it back."))
			Expect(pane()).To(ContainSubstring("Yes goes back to default mode"))
			Expect(filepath.Join(dir, "hello.txt")).NotTo(BeAnExistingFile(), "plan mode refused the first write")
			keys("2", "Enter")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
			Expect(pane()).To(ContainSubstring("Plan approved · now in acceptEdits mode"))
			Expect(pane()).To(ContainSubstring("The greeting is written."), "acceptEdits: the second write needed no prompt")
			Expect(os.ReadFile(filepath.Join(dir, "hello.txt"))).To(BeEquivalentTo("hi\n"))
		})

		It("puts AskUserQuestion's questions in a picker: arrows, numbers, multi-select, the user's own words", func() {
			dir := GinkgoT().TempDir()
			scn := `{"prompt":"set up"}
{"blocks":[{"type":"text","text":"A few questions first."},{"type":"tool_use","id":"q","name":"AskUserQuestion","input":{"questions":[` +
				`{"question":"Which CLI library?","header":"Library","multiSelect":false,"options":[{"label":"cobra","description":"what most Go tools use"},{"label":"urfave/cli","description":"smaller"}]},` +
				`{"question":"Which checks should CI run?","header":"Checks","multiSelect":true,"options":[{"label":"vet","description":"go vet"},{"label":"lint","description":"golangci-lint"},{"label":"race","description":"tests with -race"}]},` +
				`{"question":"What should the binary be called?","header":"Name","multiSelect":false,"options":[{"label":"tool","description":""},{"label":"app","description":""}]}]}}]}
{"when":{"ok":["q"]},"blocks":[{"type":"text","text":"Thanks, setting it up."}]}
{"when":{"errors":["q"]},"blocks":[{"type":"text","text":"No answers."}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Library] Which CLI library? (1/3)"))
			Expect(pane()).To(ContainSubstring("A few questions first."), "the model's text comes before the picker")
			Expect(pane()).To(ContainSubstring("3. Other"))
			keys("Down")
			Eventually(pane, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("❯ 2. urfave/cli"))
			keys("Enter")
			Eventually(pane, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Checks] Which checks should CI run? (2/3)"))
			keys("1")
			keys("3")
			Eventually(pane, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("[x] race"))
			Expect(pane()).To(ContainSubstring("[ ] lint"))
			keys("Enter")
			Eventually(pane, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Name] What should the binary be called? (3/3)"))
			keys("3")
			Eventually(pane, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("type your answer"))
			keys("-l", "agentcore-x")
			keys("Enter")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
			Expect(pane()).To(ContainSubstring("Library: urfave/cli"))
			Expect(pane()).To(ContainSubstring("Checks: vet, race"))
			Expect(pane()).To(ContainSubstring("Name: agentcore-x"))
			Expect(pane()).To(ContainSubstring("Thanks, setting it up."))
		})

		It("dismisses AskUserQuestion's picker on Esc, and the model hears it", func() {
			dir := GinkgoT().TempDir()
			scn := `{"prompt":"ask"}
{"blocks":[{"type":"tool_use","id":"q","name":"AskUserQuestion","input":{"questions":[{"question":"Tabs or spaces?","header":"Indent","multiSelect":false,"options":[{"label":"tabs","description":""},{"label":"spaces","description":""}]}]}}]}
{"when":{"ok":["q"]},"blocks":[{"type":"text","text":"Answered."}]}
{"when":{"errors":["q"]},"blocks":[{"type":"text","text":"No answer, going with gofmt."}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Indent] Tabs or spaces?"))
			keys("Escape")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
			Expect(pane()).To(ContainSubstring("No answer, going with gofmt."))
		})

		DescribeTable("plays the tour: plan mode, a question, plan approval, a worktree, an edit, the commit skill, a commit",
			func(pick []string, answer, section, subject string) {
				dir := GinkgoT().TempDir()
				readme, err := os.ReadFile(filepath.Join(repoRoot(), "README.md"))
				Expect(err).NotTo(HaveOccurred())
				skill, err := os.ReadFile(filepath.Join(repoRoot(), ".agentcore", "skills", "commit", "SKILL.md"))
				Expect(err).NotTo(HaveOccurred())
				Expect(os.WriteFile(filepath.Join(dir, "README.md"), readme, 0o644)).To(Succeed())
				Expect(os.MkdirAll(filepath.Join(dir, ".agentcore", "skills", "commit"), 0o755)).To(Succeed())
				Expect(os.WriteFile(filepath.Join(dir, ".agentcore", "skills", "commit", "SKILL.md"), skill, 0o644)).To(Succeed())
				git := func(args ...string) string {
					GinkgoHelper()
					cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@localhost"}, args...)...)
					cmd.Dir = dir
					out, err := cmd.CombinedOutput()
					Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
					return string(out)
				}
				git("init", "-q")
				git("config", "user.name", "tour")
				git("config", "user.email", "tour@localhost")
				git("add", "-A")
				git("commit", "-qm", "start")

				pane, keys := session(dir, "--model", "replay:"+filepath.Join(repoRoot(), "examples", "tour.jsonl"))
				Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Enter plan mode?"))
				keys("1", "Enter")
				Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Format] How should the section present the tools?"))
				keys(pick...)
				Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("2. Yes, and accept edits"))
				Expect(pane()).To(ContainSubstring("Format: " + answer))
				keys("2", "Enter")
				Eventually(pane, 30*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
				Expect(pane()).To(ContainSubstring("Loaded commit from"))
				Expect(pane()).NotTo(ContainSubstring("Allow? [1/2/3]: 1"), "the skill's allowed-tools let the commit through")

				Expect(git("log", "--oneline", "-1", "agentcore/tools-note")).To(ContainSubstring("README: a Tools at a glance section, " + subject))
				Expect(os.ReadFile(filepath.Join(dir, ".agentcore", "worktrees", "tools-note", "README.md"))).To(ContainSubstring("## Tools at a glance\n\n" + section))
				Expect(os.ReadFile(filepath.Join(dir, "README.md"))).To(Equal(readme), "the main checkout is unchanged")
				Expect(git("status", "--short")).To(BeEmpty())
			},
			Entry("with the recommended answer", []string{"Enter"}, "Short list (Recommended)", "- files: Read", "one line per group of tools"),
			Entry("with Table picked: the turns conditioned on the answer play", []string{"2"}, "Table", "| group | tools |", "a table of the tool groups"),
		)

		It("interrupts the turn on Ctrl+C, lets a test suite run, and exits on a second Ctrl+C", func() {
			dir := GinkgoT().TempDir()
			Expect(os.WriteFile(filepath.Join(dir, "Makefile"), []byte("test:\n\ttouch started\n\tsleep 30\n"), 0o644)).To(Succeed())
			scn := `{"prompt":"wait"}
{"blocks":[{"type":"text","text":"Testing."},{"type":"tool_use","id":"s","name":"Bash","input":{"command":"make test"}}]}
{"blocks":[{"type":"text","text":"never reached"}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Bash(make test)"))
			// Press Ctrl+C once make runs: a SIGINT from the terminal that
			// lands between the fork and the child's setpgid (a starved
			// child on a loaded machine) reaches the command too.
			Eventually(filepath.Join(dir, "started"), 20*time.Second, 50*time.Millisecond).Should(BeAnExistingFile())
			keys("C-c")
			Eventually(pane, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Ctrl+C again to exit"))
			Consistently(pane, time.Second, 100*time.Millisecond).ShouldNot(ContainSubstring("EXIT="), "a test suite blocks: it keeps running")
			keys("C-c")
			Eventually(pane, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=130"))
			Expect(pane()).NotTo(ContainSubstring("never reached"))
		})

		It("stops a command that is not a test suite or a build at the first Ctrl+C", func() {
			dir := GinkgoT().TempDir()
			scn := `{"prompt":"wait"}
{"blocks":[{"type":"text","text":"Sleeping."},{"type":"tool_use","id":"s","name":"Bash","input":{"command":"sleep 30"}}]}
{"blocks":[{"type":"text","text":"never reached"}]}`
			Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(scn), 0o644)).To(Succeed())
			pane, keys := session(dir, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions")
			Eventually(pane, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Bash(sleep 30)"))
			keys("C-c")
			Eventually(pane, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=130"))
			Expect(pane()).To(ContainSubstring("interrupted by the user"))
			Expect(pane()).NotTo(ContainSubstring("never reached"))
		})

		It("removes make run's scratch copy when the demo is stopped with Ctrl+C", func() {
			dir, tmp := GinkgoT().TempDir(), GinkgoT().TempDir()
			scn := filepath.Join(dir, "slow.jsonl")
			Expect(os.WriteFile(scn, []byte(`{"prompt":"wait"}
{"blocks":[{"type":"text","text":"Sleeping."},{"type":"tool_use","id":"s","name":"Bash","input":{"command":"sleep 30"}}]}
{"blocks":[{"type":"text","text":"never reached"}]}`), 0o644)).To(Succeed())
			pane, keys := shellSession("HOME=" + dir + " AGENTCORE_CONFIG_DIR=" + dir + " ANTHROPIC_API_KEY= AGENTCORE_REPLAY_SPEED=0 TMPDIR=" + tmp +
				" AGENTCORE_BIN=" + binaries["external"] + " SCENARIO=" + scn + " " + filepath.Join(repoRoot(), "examples", "run-demo.sh") + "; echo EXIT=$?; sleep 60")
			Eventually(pane, 30*time.Second, 100*time.Millisecond).Should(ContainSubstring("Bash(sleep 30)"))
			Expect(filepath.Glob(filepath.Join(tmp, "agentcore-demo.*"))).To(HaveLen(1), "the scratch copy is there while the demo runs")
			keys("C-c")
			Eventually(pane, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=130"))
			Expect(filepath.Glob(filepath.Join(tmp, "agentcore-demo.*"))).To(BeEmpty(), "and gone after Ctrl+C")
		})
	})
})
