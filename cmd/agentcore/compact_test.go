//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var _ = Describe("agentcore -p near the context window and with large tool results", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("writes a real Bash command's 200k characters to the session's directory, shows the model a preview, and compacts at the threshold with a compact_boundary", func() {
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"toolu_big","name":"Bash","input":{"command":"for i in $(seq 1 20000); do echo line-$i-xxxx; done","description":"print a lot"}}]}
{"blocks":[{"type":"tool_use","id":"toolu_small","name":"Bash","input":{"command":"echo small","description":"print a little"}}],"usage":{"input_tokens":3000,"cache_read_input_tokens":170000,"output_tokens":40}}
{"blocks":[{"type":"text","text":"<summary>Printed a lot, then a little.</summary>"}]}
{"blocks":[{"type":"text","text":"all done"}]}
`), 0o644)).To(Succeed())
		stdout, stderr, code := rootIn(dir, nil, "-p", "--model", "replay:scn.jsonl", "--output-format", "stream-json", "--verbose",
			"--allowedTools", "Bash", "print things")
		Expect(code).To(Equal(0), stderr)

		var boundary map[string]any
		var results []string
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var m map[string]any
			Expect(json.Unmarshal([]byte(line), &m)).To(Succeed(), line)
			if m["type"] == "system" && m["subtype"] == "compact_boundary" {
				boundary = m
			}
			if m["type"] == "user" && strings.Contains(line, "tool_result") {
				results = append(results, line)
			}
		}
		Expect(boundary).NotTo(BeNil(), stdout)
		meta, _ := boundary["compact_metadata"].(map[string]any)
		Expect(meta).To(HaveKeyWithValue("trigger", "auto"))
		Expect(meta["pre_tokens"]).To(BeNumerically(">=", 173_040))
		Expect(boundary).To(HaveKey("session_id"))
		Expect(boundary).To(HaveKey("uuid"))

		Expect(results).NotTo(BeEmpty())
		var first struct {
			Message struct {
				Content []struct {
					Content string `json:"content"`
				} `json:"content"`
			} `json:"message"`
		}
		Expect(json.Unmarshal([]byte(results[0]), &first)).To(Succeed())
		seen := first.Message.Content[0].Content
		Expect(seen).To(HavePrefix("<persisted-output>\nOutput too large ("))
		Expect(seen).To(ContainSubstring("Preview (first 2KB):\nline-1-xxxx\n"))
		Expect(len(seen)).To(BeNumerically("<", 2500), "the model sees a preview, not the output")
		m := regexp.MustCompile(`Full output saved to: (\S+?\.txt)`).FindStringSubmatch(seen)
		Expect(m).NotTo(BeNil(), seen)
		Expect(m[1]).To(HavePrefix(filepath.Join(dir, "projects")))
		Expect(m[1]).To(HaveSuffix(filepath.Join("tool-results", "toolu_big.txt")))
		full, err := os.ReadFile(m[1])
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(full), "line-")).To(Equal(20000))
		Expect(string(full)).To(ContainSubstring("line-20000-xxxx"))
	})
})

var _ = Describe("what a compaction leaves alone", func() {
	It("keeps the file-read state (Edit after the compaction needs no new Read) and the todo list", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("old text\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"prompt":"x"}
{"blocks":[{"type":"tool_use","id":"r","name":"Read","input":{"file_path":"${CWD}/notes.txt"}},{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"fix notes","status":"in_progress","activeForm":"Fixing notes"}]}}]}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"echo thinking","description":"think"}}],"usage":{"input_tokens":180000,"output_tokens":10}}
{"blocks":[{"type":"text","text":"<summary>Read notes.txt; todo: fix notes.</summary>"}]}
{"blocks":[{"type":"tool_use","id":"e","name":"Edit","input":{"file_path":"${CWD}/notes.txt","old_string":"old","new_string":"new"}},{"type":"tool_use","id":"t2","name":"TodoWrite","input":{"todos":[{"content":"fix notes","status":"completed","activeForm":"Fixing notes"}]}}]}
{"blocks":[{"type":"text","text":"fixed"}]}
`), 0o644)).To(Succeed())
		stdout, stderr, code := rootIn(dir, nil, "-p", "--model", "replay:scn.jsonl", "--output-format", "stream-json", "--verbose",
			"--allowedTools", "Read,Edit,TodoWrite,Bash", "fix the notes")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`"subtype":"compact_boundary"`))
		Expect(os.ReadFile(filepath.Join(dir, "notes.txt"))).To(Equal([]byte("new text\n")), stdout)
		var old any
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var m struct {
				Type   string `json:"type"`
				Result *struct {
					OldTodos []map[string]any `json:"oldTodos"`
					NewTodos []map[string]any `json:"newTodos"`
				} `json:"tool_use_result"`
			}
			Expect(json.Unmarshal([]byte(line), &m)).To(Succeed())
			if m.Type == "user" && m.Result != nil && len(m.Result.NewTodos) > 0 && m.Result.NewTodos[0]["status"] == "completed" {
				old = m.Result.OldTodos
			}
		}
		Expect(old).To(Equal([]map[string]any{{"content": "fix notes", "status": "in_progress", "activeForm": "Fixing notes"}}))
	})
})

var _ = Describe("/compact in the interactive session (tmux)", Label("tmux"), func() {
	BeforeEach(func() {
		tooltest.Need(tooltest.Tmux)
	})

	It("summarises the conversation on demand with the user's instructions and goes on from the summary", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "scn.jsonl"), []byte(`{"name":"compact"}
{"blocks":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"echo hello","description":"say hello"}}]}
{"blocks":[{"type":"text","text":"Said hello."}]}
{"blocks":[{"type":"text","text":"<summary>The user had hello printed.</summary>"}]}
{"blocks":[{"type":"text","text":"Going on from the summary."}]}
`), 0o644)).To(Succeed())
		t := startSession(dir, 120, 40, "--model", "replay:scn.jsonl", "--allowedTools", "Bash")
		t.typeLine("say hello")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Said hello."))
		t.typeLine("/compact keep the greeting")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(MatchRegexp(`Compacted: 3 messages summarised, 1 kept; the conversation went from about \d+ to \d+ tokens\.`))
		t.typeLine("and now?")
		Eventually(t.screen, 20*time.Second, 100*time.Millisecond).Should(ContainSubstring("Going on from the summary."))
	})
})

var _ = Describe("what a compaction shows the model again", func() {
	It("attaches the files read last (a long one cut) and the todo list to the summary, and a later Read sends what the summary dropped", func() {
		dir := GinkgoT().TempDir()
		small := filepath.Join(dir, "small.go")
		big := filepath.Join(dir, "big.txt")
		Expect(os.WriteFile(small, []byte("package small\n\nconst Answer = 42\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(big, []byte(strings.Repeat("a long line of the big file\n", 2000)), 0o644)).To(Succeed())
		read := func(id, path string) fakeBlock {
			return fakeBlock{ID: id, Tool: "Read", Input: `{"file_path":` + jsonQuote(path) + `}`}
		}
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				fakeReply{InputTokens: 100, Blocks: []fakeBlock{read("r1", small), read("r2", big),
					{ID: "t1", Tool: "TodoWrite", Input: `{"todos":[{"content":"change the answer","status":"in_progress","activeForm":"Changing the answer"}]}`}}}.write(w)
			case 2:
				fakeReply{InputTokens: 180_000, Blocks: []fakeBlock{{ID: "b1", Tool: "Bash", Input: `{"command":"echo thinking","description":"think"}`}}}.write(w)
			case 3:
				fakeReply{Blocks: []fakeBlock{{Text: "<summary>Read small.go and big.txt.</summary>"}}}.write(w)
			case 4:
				fakeReply{InputTokens: 9000, Blocks: []fakeBlock{read("r3", small), read("r4", big)}}.write(w)
			default:
				fakeReply{Blocks: []fakeBlock{{Text: "done"}}}.write(w)
			}
		})
		stdout, stderr, code := rootIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "go", "--model", "claude-fake-1", "--output-format", "stream-json", "--verbose", "--allowedTools", "Read,TodoWrite,Bash")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`"subtype":"compact_boundary"`))

		bodies := requests()
		Expect(bodies).To(HaveLen(5))
		text := firstMessageText(bodies[3])
		Expect(text).To(ContainSubstring("<summary>\nRead small.go and big.txt.\n</summary>"))
		Expect(text).To(ContainSubstring("Called the Read tool with the following input: {\"file_path\":" + jsonQuote(small) + "}\nResult of calling the Read tool:\n1\tpackage small\n2\t\n3\tconst Answer = 42\n"))
		Expect(text).To(ContainSubstring("Called the Read tool with the following input: {\"file_path\":" + jsonQuote(big) + "}"))
		Expect(text).To(ContainSubstring("[Only the first "))
		Expect(len(text)).To(BeNumerically("<", 25_000), "a long file is cut at 5k tokens")
		Expect(text).To(ContainSubstring("1. [in_progress] change the answer"))

		// The small file was shown whole: a Read answers that it is
		// unchanged. The big one was cut: a Read sends its content.
		msgs := bodies[4]["messages"].([]any)
		last, _ := json.Marshal(msgs[len(msgs)-1])
		Expect(string(last)).To(ContainSubstring("File unchanged since last read"))
		Expect(strings.Count(string(last), "File unchanged since last read")).To(Equal(1), string(last))
		Expect(string(last)).To(ContainSubstring("a long line of the big file"))
	})
})

var _ = Describe("the skills a compaction shows the model again", func() {
	It("attaches the skills launched before it, with their path and arguments, under Claude Code's preamble", func() {
		dir := GinkgoT().TempDir()
		skillFile := filepath.Join(dir, ".agentcore", "skills", "release", "SKILL.md")
		Expect(os.MkdirAll(filepath.Dir(skillFile), 0o755)).To(Succeed())
		Expect(os.WriteFile(skillFile, []byte("---\nname: release\ndescription: Cut a release of this project\n---\n"+
			"# Releasing\n\nAlways tag with a v prefix and write the changelog first.\n"), 0o644)).To(Succeed())
		srv, requests := recordingAPI(func(n int, w http.ResponseWriter) {
			switch n {
			case 1:
				fakeReply{InputTokens: 100, Blocks: []fakeBlock{{ID: "s1", Tool: "Skill", Input: `{"skill":"release","args":"1.4.0"}`}}}.write(w)
			case 2:
				fakeReply{InputTokens: 180_000, Blocks: []fakeBlock{{ID: "b1", Tool: "Bash", Input: `{"command":"echo thinking","description":"think"}`}}}.write(w)
			case 3:
				fakeReply{Blocks: []fakeBlock{{Text: "<summary>Started the 1.4.0 release.</summary>"}}}.write(w)
			default:
				fakeReply{Blocks: []fakeBlock{{Text: "done"}}}.write(w)
			}
		})
		stdout, stderr, code := rootIn(dir, []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "release it", "--model", "claude-fake-1", "--output-format", "stream-json", "--verbose", "--allowedTools", "Skill,Bash")
		Expect(code).To(Equal(0), stderr)
		Expect(stdout).To(ContainSubstring(`"subtype":"compact_boundary"`))
		bodies := requests()
		Expect(len(bodies)).To(BeNumerically(">=", 4))
		text := firstMessageText(bodies[3])
		Expect(text).To(ContainSubstring("Started the 1.4.0 release."))
		Expect(text).To(ContainSubstring("The following skills were invoked EARLIER in this session (before the conversation was compacted)"))
		Expect(text).To(ContainSubstring("### Skill: release\nPath: " + skillFile + "\n\n<skill name=\"release\">"))
		Expect(text).To(ContainSubstring("Always tag with a v prefix and write the changelog first."))
		Expect(text).To(ContainSubstring("ARGUMENTS: 1.4.0"))
	})
})

// firstMessageText is the text blocks of the first message of a recorded
// request body, joined by "\n---\n": after a compaction, the summary
// and what it carries again.
func firstMessageText(body map[string]any) string {
	GinkgoHelper()
	first, _ := json.Marshal(body["messages"].([]any)[0])
	var msg struct {
		Content []struct{ Text string } `json:"content"`
	}
	Expect(json.Unmarshal(first, &msg)).To(Succeed())
	var texts []string
	for _, c := range msg.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n---\n")
}

func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
