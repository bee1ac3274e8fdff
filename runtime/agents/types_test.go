package agents_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agents"
)

var _ = Describe("agent types", func() {
	var dir, home string
	write := func(path, body string) {
		Expect(os.MkdirAll(filepath.Dir(path), 0o755)).To(Succeed())
		Expect(os.WriteFile(path, []byte(body), 0o644)).To(Succeed())
	}
	names := func(types []agents.Type) []string {
		var out []string
		for _, t := range types {
			out = append(out, t.Name)
		}
		return out
	}
	BeforeEach(func() { dir, home = GinkgoT().TempDir(), GinkgoT().TempDir() })

	It("has the built-ins, Explore and Plan read-only", func() {
		types, errs := agents.LoadTypes(dir, home)
		Expect(errs).To(BeEmpty())
		Expect(names(types)).To(Equal([]string{"general-purpose", "Explore", "Plan"}))
		Expect(types[0].ReadOnly).To(BeFalse())
		Expect(types[1].ReadOnly && types[2].ReadOnly).To(BeTrue())
		Expect(types[2].System).To(ContainSubstring("Critical files for implementation"))
	})

	It("loads custom types from .md files: project over user over built-in, .agentcore over .claude", func() {
		write(filepath.Join(home, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: user reviewer\n---\nuser prompt\n")
		write(filepath.Join(dir, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: project reviewer\ntools: Read, Grep, Read\nmodel: haiku\ncolor: blue\n---\n\nReview carefully.\n")
		write(filepath.Join(dir, ".claude", "agents", "tester.md"), "---\nname: tester\ndescription: from .claude\n---\nclaude\n")
		write(filepath.Join(dir, ".agentcore", "agents", "tester.md"), "---\nname: tester\ndescription: from .agentcore\ntools: [Bash, Read]\n---\nagentcore\n")
		write(filepath.Join(dir, ".agentcore", "agents", "Explore.md"), "---\nname: Explore\ndescription: my explorer\ntools: \"*\"\n---\nexplore my way\n")
		types, errs := agents.LoadTypes(dir, home)
		Expect(errs).To(BeEmpty())
		Expect(names(types)).To(Equal([]string{"general-purpose", "Explore", "Plan", "reviewer", "tester"}))
		r, err := agents.FindType(types, "reviewer")
		Expect(err).NotTo(HaveOccurred())
		Expect(r).To(Equal(agents.Type{Name: "reviewer", Description: "project reviewer", Tools: []string{"Read", "Grep"}, Model: "haiku",
			System: "Review carefully.", Source: filepath.Join(dir, ".claude", "agents", "reviewer.md")}))
		t, _ := agents.FindType(types, "tester")
		Expect(t.Description).To(Equal("from .agentcore"))
		Expect(t.Tools).To(Equal([]string{"Bash", "Read"}))
		e, _ := agents.FindType(types, "Explore")
		Expect(e.ReadOnly).To(BeFalse(), "a custom Explore replaces the built-in, read-only flag included")
		Expect(e.Tools).To(BeNil())
		Expect(agents.DescribeTypes(types)).To(ContainSubstring("- reviewer: project reviewer (Tools: Read, Grep)\n"))
	})

	It("reports each broken file by path and keeps the rest", func() {
		bad := map[string]string{
			"noname.md":  "---\ndescription: d\n---\nbody\n",
			"nodesc.md":  "---\nname: x\n---\nbody\n",
			"nohead.md":  "# just markdown\n",
			"nobody.md":  "---\nname: y\ndescription: d\n---\n",
			"badyaml.md": "---\nname: [z\n---\nbody\n",
			"badtool.md": "---\nname: w\ndescription: d\ntools: {a: 1}\n---\nbody\n",
		}
		for n, body := range bad {
			write(filepath.Join(dir, ".agentcore", "agents", n), body)
		}
		write(filepath.Join(dir, ".agentcore", "agents", "good.md"), "---\nname: good\ndescription: fine\n---\nok\n")
		types, errs := agents.LoadTypes(dir, home)
		Expect(errs).To(HaveLen(len(bad)))
		for _, err := range errs {
			Expect(err.Error()).To(ContainSubstring(filepath.Join(dir, ".agentcore", "agents")))
		}
		Expect(names(types)).To(ContainElement("good"))
		_, err := agents.FindType(types, "nope")
		Expect(err).To(MatchError(`unknown subagent_type "nope": use one of general-purpose, Explore, Plan, good`))
	})

	It("knows a custom type is read-only only when every listed tool is, and fails closed on a tool it cannot see", func() {
		tools := generated.AllBaseTools()
		ro := agents.Type{Name: "ro", Tools: []string{"Read", "TaskOutput"}} // in every variant (ant has no Grep or Glob)
		rw := agents.Type{Name: "rw", Tools: []string{"Read", "Write"}}
		missing := agents.Type{Name: "missing", Tools: []string{"Read", "mcp__db__query"}}
		all := agents.Type{Name: "all"}
		Expect(agents.ReadOnlyOver(ro, tools, "Agent")).To(BeTrue())
		Expect(agents.ReadOnlyOver(rw, tools, "Agent")).To(BeFalse())
		Expect(agents.ReadOnlyOver(missing, tools, "Agent")).To(BeFalse())
		Expect(agents.ReadOnlyOver(all, tools, "Agent")).To(BeFalse())
		agents.Remember([]agents.Type{ro, rw}, tools, "Agent")
		Expect(agents.IsReadOnlyType("ro")).To(BeTrue())
		Expect(agents.IsReadOnlyType("rw")).To(BeFalse())
		Expect(agents.IsReadOnlyType("Explore")).To(BeTrue())
		Expect(agents.IsReadOnlyType("")).To(BeFalse())
		Expect(agents.IsReadOnlyType("never-seen")).To(BeFalse())
	})
})
