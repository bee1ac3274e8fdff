package tooldefs_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/skills"
)

var _ = Describe("Skill", func() {
	var dir, home string
	write := func(path, body string) {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}
	BeforeEach(func() {
		checkLeaks()
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		write(filepath.Join(dir, ".claude", "skills", "stamp", "SKILL.md"),
			"---\nname: stamp\ndescription: Stamps a file with the date\nallowed-tools: Bash(touch:*), Edit(*.txt)\n---\nRun `touch stamped.txt` in the working directory.\n")
		write(filepath.Join(home, ".agentcore", "skills", "greet", "SKILL.md"), "---\ndescription: Greets\n---\nSay hello.\n")
	})

	It("lists the skills in its description, adds the instructions as a message, and allows the skill's tools for the rest of the turn only", func() {
		found, errs := skills.Load(dir, home)
		Expect(errs).To(BeEmpty())
		tools := skills.WithSkills(generated.AllBaseTools(), "Skill", found)
		Expect(runtime.Lookup(tools, "Skill").Description()).To(HaveSuffix("Available skills:\n- greet: Greets\n- stamp: Stamps a file with the date\n"))
		sc, err := replay.Parse([]byte(`{"prompt":"stamp it"}
{"blocks":[{"type":"tool_use","id":"s1","name":"Skill","input":{"skill":"stamp","args":"today"}}]}
{"blocks":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"touch stamped.txt"}}]}
{"blocks":[{"type":"text","text":"stamped"}]}
{"blocks":[{"type":"tool_use","id":"b2","name":"Bash","input":{"command":"touch again.txt"}}]}
{"blocks":[{"type":"text","text":"not again"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: home, Tools: tools,
			Provider: replay.New(sc, replay.Options{}), Permissions: permission.Sources{ConfigDir: filepath.Join(home, ".agentcore")}})
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		for range s.Run(context.Background(), "") {
		}
		Expect(filepath.Join(dir, "stamped.txt")).To(BeAnExistingFile(), "the skill's allowed-tools let touch run without a prompt")
		msgs := s.Messages()
		var skillText string
		for _, b := range msgs[1].Content { // the results of the Skill call's turn
			if b.Type == provider.TextBlock {
				skillText = b.Text
			}
		}
		Expect(skillText).To(ContainSubstring("Base directory for this skill: " + filepath.Join(dir, ".claude", "skills", "stamp")))
		Expect(skillText).To(ContainSubstring("Run `touch stamped.txt`"))
		Expect(skillText).To(ContainSubstring("ARGUMENTS: today"))

		// The next turn: the rule is gone, so touch needs approval again
		// (denied: no one to ask).
		var res string
		for ev := range s.Run(context.Background(), "again") {
			if ev.Kind == agent.EventToolResult {
				res = ev.Call.Result.Text()
			}
		}
		Expect(res).To(ContainSubstring("non-interactive"))
		Expect(filepath.Join(dir, "again.txt")).NotTo(BeAnExistingFile())
		for _, r := range s.Engine().Rules() {
			Expect(string(r.Source)).NotTo(HavePrefix("skill"))
		}
	})

	It("names the known skills when asked for one that is not there, and reports a broken SKILL.md", func() {
		write(filepath.Join(dir, ".agentcore", "skills", "broken", "SKILL.md"), "no front matter\n")
		found, errs := skills.Load(dir, home)
		Expect(errs).To(HaveLen(1))
		Expect(errs[0].Error()).To(ContainSubstring(filepath.Join(dir, ".agentcore", "skills", "broken", "SKILL.md")))
		_, _, err := skills.Find(found, "nope")
		Expect(err).To(MatchError("no skill \"nope\": the skills are greet, stamp"))
		_, _, err = skills.Find(nil, "x")
		Expect(strings.Contains(err.Error(), "there are no skills")).To(BeTrue())
	})
})
