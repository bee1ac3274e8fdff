package skills

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

func TestSkills(t *testing.T) {
	RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, "Skills Suite")
}

var _ = ginkgo.Describe("the skills a compaction shows again", func() {
	ginkgo.It("lists the newest launch first, once per skill, cuts a long one and leaves out what the budget cannot hold", func() {
		tc := runtime.NewToolContext(ginkgo.GinkgoT().TempDir())
		in := invokedOf(tc)
		Expect(in).NotTo(BeNil())
		in.add(Skill{Name: "a", Path: "/s/a/SKILL.md"}, "<skill name=\"a\">older text</skill>")
		in.add(Skill{Name: "b", Path: "/s/b/SKILL.md"}, "<skill name=\"b\">"+strings.Repeat("x", 30_000)+"</skill>")
		in.add(Skill{Name: "a", Path: "/s/a/SKILL.md"}, "<skill name=\"a\">again</skill>")
		all := runtime.RemindersOf(tc).All()
		Expect(all).To(HaveLen(1))
		text := all[0]
		Expect(text).To(HavePrefix("The following skills were invoked EARLIER in this session"))
		Expect(strings.Count(text, "### Skill: a")).To(Equal(1))
		Expect(text).To(ContainSubstring("again"))
		Expect(text).NotTo(ContainSubstring("older text"))
		Expect(strings.Index(text, "### Skill: a")).To(BeNumerically("<", strings.Index(text, "### Skill: b")), "newest first")
		Expect(text).To(ContainSubstring("[... skill content truncated for compaction; use Read on the skill path if you need the full text]"))
		Expect(len(text)).To(BeNumerically("<", RestoreSkillTokens*4+2_000))

		var list []invokedSkill
		for i := range 8 {
			list = append(list, invokedSkill{name: string(rune('c' + i)), path: "/p", text: strings.Repeat("y", 19_000)})
		}
		out := compactText(list)
		Expect(strings.Count(out, "### Skill: ")).To(Equal(5), "25k tokens hold five texts of 19,000 characters")
		Expect(out).To(ContainSubstring("### Skill: j"), "the newest is kept")
		Expect(out).NotTo(ContainSubstring("### Skill: c"), "the oldest is left out")
	})

	ginkgo.It("records nothing outside a session", func() {
		var in *invoked
		in.add(Skill{Name: "a"}, "text")
	})
})
