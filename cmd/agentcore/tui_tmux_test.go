//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// tmuxTerm is a styled terminal (no NO_COLOR) in a tmux session on a
// private server, running the interactive session.
type tmuxTerm struct {
	name string
}

func (t tmuxTerm) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-L", t.name}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=")
	return cmd
}

// screen is the visible pane; all adds the scrollback (capture-pane
// -S -), since a transcript outgrows 40 rows.
func (t tmuxTerm) screen() string {
	out, _ := t.cmd("capture-pane", "-p", "-t", t.name).Output()
	return string(out)
}

func (t tmuxTerm) all() string {
	out, _ := t.cmd("capture-pane", "-p", "-S", "-", "-t", t.name).Output()
	return string(out)
}

func (t tmuxTerm) keys(k ...string) {
	GinkgoHelper()
	Expect(t.cmd(append([]string{"send-keys", "-t", t.name}, k...)...).Run()).To(Succeed())
}

// typeLine types text literally and presses Enter.
func (t tmuxTerm) typeLine(text string) {
	GinkgoHelper()
	t.keys("-l", text)
	t.keys("Enter")
}

func (t tmuxTerm) resize(w, h int) {
	GinkgoHelper()
	Expect(t.cmd("resize-window", "-t", t.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)).Run()).To(Succeed())
}

// startSession runs `agentcore run args…` in dir in a w×h tmux pane,
// styled (TERM from tmux, no NO_COLOR), and waits for the input box.
func startSession(dir string, w, h int, args ...string) tmuxTerm {
	GinkgoHelper()
	return startSessionEnv(dir, w, h, nil, args...)
}

// startSessionEnv is startSession with more environment (NAME=VALUE,
// no shell quoting needed), which overrides the defaults.
func startSessionEnv(dir string, w, h int, env []string, args ...string) tmuxTerm {
	GinkgoHelper()
	t := tmuxTerm{name: fmt.Sprintf("agentcore-tui-%d-%d", os.Getpid(), time.Now().UnixNano())}
	line := "cd " + dir + " && env -u NO_COLOR TMPDIR=" + GinkgoT().TempDir() + " HOME=" + dir + " AGENTCORE_CONFIG_DIR=" + dir + " ANTHROPIC_API_KEY= AGENTCORE_REPLAY_SPEED=0 " +
		strings.Join(append(env, ""), " ") + binaries["external"] + " run " + strings.Join(args, " ") + "; echo EXIT=$?; sleep 60"
	out, err := t.cmd("-f", "/dev/null", "new-session", "-d", "-s", t.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), line).CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "tmux: %s", out)
	DeferCleanup(func() { _ = t.cmd("kill-server").Run() })
	Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
	return t
}

// tuiScenario edits a file after reading it, runs a command with output
// (both need approval in the default mode: the command writes count.txt
// through tee) and answers in markdown.
const tuiScenario = `{"name":"tui"}
{"blocks":[{"type":"text","text":"Reading the file first."},{"type":"tool_use","id":"r","name":"Read","input":{"file_path":"${CWD}/greet.txt"}}]}
{"blocks":[{"type":"text","text":"Now I change the second line."},{"type":"tool_use","id":"e","name":"Edit","input":{"file_path":"${CWD}/greet.txt","old_string":"world","new_string":"there"}}]}
{"when":{"ok":["e"]},"blocks":[{"type":"text","text":"And count."},{"type":"tool_use","id":"b","name":"Bash","input":{"command":"seq 101 112 | tee count.txt; echo to-stderr >&2","description":"Count from 101"}}]}
{"when":{"ok":["b"]},"blocks":[{"type":"text","text":"## Summary\n\n- edited **greet.txt**\n- counted to 112\n\nA closing sentence that is long enough to be wrapped at a word boundary when the terminal is narrow."}]}
{"when":{"errors":["b"]},"blocks":[{"type":"text","text":"The count was refused."}]}
`

var _ = Describe("the interactive session on a terminal (tmux)", Label("tmux"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Tmux)
	})

	newDir := func() string {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(tuiScenario), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "greet.txt"), []byte("hello\nworld\n"), 0o644)).To(Succeed())
		mcp := fmt.Sprintf(`{"mcpServers":{"self":{"command":%q,"args":["mcp","serve"]}}}`, binaries["external"])
		Expect(os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(mcp), 0o644)).To(Succeed())
		return dir
	}

	It("shows the edit's diff, a picker with the diff in it, the command's first lines, and answers /tools and /mcp (120×40)", func() {
		dir := newDir()
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl")
		t.typeLine("/tools")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(`\d+ tools: .*Bash`))
		t.typeLine("/mcp")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(`self \(stdio\): connected, \d+ tools`))

		t.typeLine("tidy up")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Do you want to proceed?"))
		scr := t.screen()
		Expect(scr).To(ContainSubstring("Now I change the second line."), "the model's text comes before the picker")
		Expect(scr).To(ContainSubstring("Edit: greet.txt"))
		Expect(scr).To(ContainSubstring("│ @@ -1,2 +1,2 @@"))
		Expect(scr).To(ContainSubstring("│ -world"))
		Expect(scr).To(ContainSubstring("│ +there"))
		Expect(scr).To(MatchRegexp(`❯ 1\. Yes`))
		Expect(scr).To(ContainSubstring("2. Yes, and allow Edit("))
		Expect(scr).NotTo(ContainSubstring("Type a prompt"), "the picker takes the input box's place")
		Expect(os.ReadFile(filepath.Join(dir, "greet.txt"))).To(BeEquivalentTo("hello\nworld\n"))

		t.keys("Enter") // Yes, under the cursor
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Bash: seq 101 112"))
		Expect(t.screen()).To(ContainSubstring("│ Count from 101"), "the command's description is in the picker")
		Expect(t.screen()).To(ContainSubstring("Updated greet.txt with 1 addition and 1 removal"))
		Expect(os.ReadFile(filepath.Join(dir, "greet.txt"))).To(BeEquivalentTo("hello\nthere\n"))
		_, err := os.Stat(filepath.Join(dir, "count.txt"))
		Expect(err).To(MatchError(os.ErrNotExist), "the command waits for its approval")
		t.keys("1")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("counted to 112"))
		Expect(os.ReadFile(filepath.Join(dir, "count.txt"))).To(HavePrefix("101\n102\n"))
		all := t.all()
		Expect(all).To(MatchRegexp(`● Update\(greet\.txt\)\s+⎿  Updated greet\.txt with 1 addition and 1 removal\s+@@ -1,2 \+1,2 @@\s+hello\s+-world\s+\+there`))
		Expect(all).To(MatchRegexp(`● Bash\(seq 101 112 \| tee count\.txt; echo to-stderr >&2\)\s+⎿  Ran in [^\n]*, 13 lines\s+101\s+102\s+103\s+104\s+… \+9 lines`))
		Expect(all).NotTo(ContainSubstring("**"), "the answer's markdown is rendered")
		Expect(all).NotTo(ContainSubstring("- edited"))
		Expect(all).To(ContainSubstring("Summary"))
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))

		t.keys("C-o")
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("in full (Ctrl+O)"))
		Expect(t.screen()).To(MatchRegexp(`110\s+111\s+112`), "Ctrl+O shows the last result in full")
	})

	It("declines on Esc in the picker, and the model hears it", func() {
		dir := newDir()
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl")
		t.typeLine("tidy up")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Edit: greet.txt"))
		t.keys("Enter")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Bash: seq 101 112"))
		t.keys("Escape")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("The count was refused."))
		Expect(t.screen()).To(ContainSubstring("→ No, and tell the model"))
	})

	It("interrupts a running turn on Esc and takes the next prompt", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"name":"slow"}
{"blocks":[{"type":"text","text":"Sleeping."},{"type":"tool_use","id":"s","name":"Bash","input":{"command":"sleep 30"}}]}
{"when":{"ok":["s"]},"blocks":[{"type":"text","text":"never reached"}]}
{"blocks":[{"type":"text","text":"Back after the interruption."}]}`), 0o644)).To(Succeed())
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions")
		t.typeLine("wait")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("working… (Esc interrupts)"))
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Sleeping."))
		t.keys("Escape")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
		Expect(t.all()).To(ContainSubstring("Interrupted"))
		Expect(t.all()).NotTo(ContainSubstring("never reached"))
		t.typeLine("again")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Back after the interruption."))
	})

	It("answers /help, /permissions, /model (and switches the model), an unknown command, clears with /clear and ends with /exit", func() {
		dir := newDir()
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl", "--allowedTools", "'Bash(git log:*)'")
		t.typeLine("/help")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("/permissions"))
		Expect(t.screen()).To(ContainSubstring("/exit"))
		Expect(t.screen()).To(ContainSubstring("Ctrl+O"))
		t.typeLine("/permissions")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Mode: default"))
		Expect(t.screen()).To(ContainSubstring("Bash(git log:*)"))
		Expect(t.screen()).To(ContainSubstring("--allowedTools"))
		t.typeLine("/model")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Model: replay:tui"))
		t.typeLine("/model nope:x")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring(`The model stays replay:tui: unknown model "nope:x"`))
		Expect(os.WriteFile(filepath.Join(dir, "other.jsonl"), []byte(`{"name":"other"}
{"blocks":[{"type":"text","text":"From the other model."}]}`), 0o644)).To(Succeed())
		t.typeLine("/model replay:other.jsonl")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Model: replay:other from the next request"))
		// The status line is redrawn in the frame after the answer's.
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("replay:other · default · 0 tokens"), "the status line names the new model")
		t.typeLine("hi")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("From the other model."))
		t.typeLine("/nope")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Unknown command /nope; /help lists them."))
		t.typeLine("/clear")
		Eventually(t.all, 10*time.Second, 100*time.Millisecond).ShouldNot(ContainSubstring("Unknown command"))
		t.typeLine("/exit")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
	})

	It("switches the running session to an earlier one on /resume ID or from /resume's picker: the next request carries the old conversation (fake API on loopback)", func() {
		dir := GinkgoT().TempDir()
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			fakeReply{InputTokens: 5, OutputTokens: 2, Blocks: []fakeBlock{{Text: fmt.Sprintf("Reply %d.", n)}}}.write(w)
		})
		env := []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL}

		first := startSessionEnv(dir, 120, 40, env, "--model", "anthropic:fake")
		first.typeLine("remember the word PAPAYA")
		Eventually(first.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Reply 1."))
		Eventually(first.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
		first.typeLine("/exit")
		Eventually(first.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("EXIT=0"))
		logs, err := filepath.Glob(filepath.Join(dir, "projects", "*", "*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(logs).To(HaveLen(1))
		id := strings.TrimSuffix(filepath.Base(logs[0]), ".jsonl")

		second := startSessionEnv(dir, 120, 40, env, "--model", "anthropic:fake")
		second.typeLine("/resume not-an-id")
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Cannot resume not-an-id: "))
		second.typeLine("/resume")
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Which session should this one become?"))
		Expect(second.screen()).To(MatchRegexp(`❯ 1\. ` + id))
		Expect(second.screen()).To(ContainSubstring("remember the word PAPAYA"), "the picker shows each session's first prompt")
		second.keys("Escape")
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Kept this session."))
		second.typeLine("/resume")
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(`❯ 1\. ` + id))
		second.keys("Enter")
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Resumed session " + id + " (2 messages)"))
		Expect(second.screen()).To(ContainSubstring("> remember the word PAPAYA"))
		Expect(second.screen()).To(ContainSubstring("● Reply 1."))
		second.typeLine("/resume " + id)
		Eventually(second.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Cannot resume " + id + ": session " + id + " is the one running"))
		second.typeLine("which word?")
		Eventually(second.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Reply 2."))

		bodies := requests()
		Expect(bodies).To(HaveLen(2))
		msgs, _ := json.Marshal(bodies[1]["messages"])
		Expect(string(msgs)).To(MatchRegexp(`(?s)remember the word PAPAYA.*Reply 1\..*which word\?`), "the old conversation comes first")
		Expect(bodies[1]["messages"]).To(HaveLen(3))
		Expect(os.ReadFile(logs[0])).To(ContainSubstring("which word?"), "the resumed session's transcript goes on")
		logs, _ = filepath.Glob(filepath.Join(dir, "projects", "*", "*.jsonl"))
		Expect(logs).To(HaveLen(1), "the second session, resumed before its first message, leaves no transcript of its own")
	})

	It("wraps at word boundaries and re-flows the transcript when the terminal is resized", func() {
		dir := newDir()
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl", "--permission-mode", "bypassPermissions")
		t.typeLine("tidy up")
		// The turn's summary line ends its transcript ("· ready" shows
		// before the turn starts too).
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(MatchRegexp(`─ 4 turns · 3 tool calls`))
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
		Expect(t.all()).To(ContainSubstring("A closing sentence that is long enough to be wrapped at a word boundary when the terminal is narrow."))
		t.resize(50, 40)
		// The transcript is printed again, whole, re-flowed to 50 columns.
		Eventually(t.all, 10*time.Second, 100*time.Millisecond).Should(And(
			ContainSubstring("A closing sentence"), MatchRegexp(`(?m)^\s*(\S+ )*narrow\.`), ContainSubstring("Updated greet.txt"),
			Not(ContainSubstring("word boundary when the terminal is narrow."))))
		all := t.all()
		for _, l := range strings.Split(all, "\n") {
			Expect(len([]rune(strings.TrimRight(l, " ")))).To(BeNumerically("<=", 50), l)
		}
		// Every word is whole on some line: nothing was cut mid-word.
		for _, w := range strings.Fields("A closing sentence that is long enough to be wrapped at a word boundary when the terminal is narrow.") {
			Expect(all).To(MatchRegexp(`(^|\s)`+regexp.QuoteMeta(w)+`(\s|$)`), w)
		}
		Expect(all).To(ContainSubstring("> tidy up"), "the whole transcript is printed again")
		Expect(strings.Count(all, "Updated greet.txt")).To(Equal(1), "once")
	})
	It("runs a skill as a slash command: /help lists it, its instructions are the turn's prompt, the tools it allows need no approval in that turn", func() {
		dir := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, ".agentcore", "skills", "stamp"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, ".agentcore", "skills", "stamp", "SKILL.md"), []byte("---\nname: stamp\ndescription: leave a stamp file\nallowed-tools: Bash(git init:*)\n---\nMake a repository in stamp/, then say STAMP-INSTRUCTIONS-READ.\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"name":"skill"}
{"blocks":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"git init -q stamp"}}]}
{"when":{"ok":["t"]},"blocks":[{"type":"text","text":"Stamped."}]}
{"when":{"errors":["t"]},"blocks":[{"type":"text","text":"Not stamped."}]}`), 0o644)).To(Succeed())
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl")
		t.typeLine("/help")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(MatchRegexp(`/stamp\s+skill: leave a stamp file`))
		t.typeLine("/stamp with care")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Stamped."))
		Expect(t.all()).NotTo(ContainSubstring("Do you want to proceed?"), "the skill's rule allows the command")
		Expect(t.all()).To(ContainSubstring("> /stamp with care"))
		Expect(t.all()).NotTo(ContainSubstring("STAMP-INSTRUCTIONS-READ"), "the instructions go to the model, not on the screen")
		Expect(filepath.Join(dir, "stamp", ".git")).To(BeADirectory())
		logs, err := filepath.Glob(filepath.Join(dir, "projects", "*", "*.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		Expect(logs).To(HaveLen(1))
		Expect(os.ReadFile(logs[0])).To(And(ContainSubstring("STAMP-INSTRUCTIONS-READ"), ContainSubstring("ARGUMENTS: with care")), "the prompt is the skill's instructions")
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("· ready"))
		t.typeLine("/permissions")
		Eventually(t.screen, 10*time.Second, 100*time.Millisecond).Should(ContainSubstring("Mode: default"))
		Expect(t.screen()).NotTo(ContainSubstring("skill stamp"), "the skill's rule ends with its turn")
	})
	It("puts plan approval and AskUserQuestion's questions in the input box's place too", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"name":"plan"}
{"blocks":[{"type":"tool_use","id":"enter","name":"EnterPlanMode","input":{}}]}
{"blocks":[{"type":"tool_use","id":"exit","name":"ExitPlanMode","input":{"plan":"# Add a greeting\n1. Write hello.txt."}}]}
{"blocks":[{"type":"tool_use","id":"w","name":"Write","input":{"file_path":"${CWD}/hello.txt","content":"hi\n"}}]}
{"blocks":[{"type":"text","text":"One question."},{"type":"tool_use","id":"q","name":"AskUserQuestion","input":{"questions":[{"question":"Tabs or spaces?","header":"Indent","multiSelect":false,"options":[{"label":"tabs","description":"one per level"},{"label":"spaces","description":"four"}]}]}}]}
{"when":{"ok":["q"]},"blocks":[{"type":"text","text":"Thanks for the answer."}]}`), 0o644)).To(Succeed())
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl")
		t.typeLine("plan it")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Enter plan mode?"))
		Expect(t.screen()).NotTo(ContainSubstring("Type a prompt"), "the picker takes the input box's place")
		t.keys("1")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("2. Yes, and accept edits"))
		Expect(t.screen()).To(ContainSubstring("│ # Add a greeting"))
		t.keys("2")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("[Indent] Tabs or spaces?"))
		Expect(t.screen()).To(ContainSubstring("One question."), "the model's text comes before the picker")
		Expect(t.screen()).NotTo(ContainSubstring("Type a prompt"))
		Expect(os.ReadFile(filepath.Join(dir, "hello.txt"))).To(BeEquivalentTo("hi\n"), "acceptEdits: the write needed no prompt")
		t.keys("Down")
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("❯ 2. spaces"))
		t.keys("Enter")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Thanks for the answer."))
		Expect(t.screen()).To(ContainSubstring("Indent: spaces"))
		Eventually(t.screen, 5*time.Second, 100*time.Millisecond).Should(ContainSubstring("acceptEdits · "))
	})
})
