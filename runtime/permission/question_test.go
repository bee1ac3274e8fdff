package permission_test

import (
	"bytes"
	"context"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

var _ = Describe("AskQuestions", func() {
	questions := []ask.Question{
		{Question: "Which library?", Header: "Library", Options: []ask.QuestionOption{
			{Label: "cobra", Description: "most Go tools"}, {Label: "urfave/cli"}}},
		{Question: "Which checks?", Header: "Checks", MultiSelect: true, Options: []ask.QuestionOption{
			{Label: "vet"}, {Label: "lint"}, {Label: "race"}}},
	}

	engine := func(asker ask.Asker) *permission.Engine {
		GinkgoHelper()
		e, err := permission.NewEngine(permission.Config{Cwd: GinkgoT().TempDir(), Home: GinkgoT().TempDir(), Asker: asker})
		Expect(err).NotTo(HaveOccurred())
		return e
	}

	It("is ErrNoUser in a non-interactive run, and for an Asker that cannot show questions", func() {
		_, err := engine(ask.NonInteractive{}).AskQuestions(context.Background(), questions)
		Expect(err).To(MatchError(ask.ErrNoUser))
		_, err = engine(&scriptedAsker{}).AskQuestions(context.Background(), questions)
		Expect(err).To(MatchError(ask.ErrNoUser))
		Expect(ask.ErrNoUser.Error()).To(ContainSubstring("no user is present"))
	})

	DescribeTable("reads numbers, several for multi-select, Other and the user's own words on the prompt",
		func(input string, want []string) {
			var out bytes.Buffer
			p := ask.NewPrompt(strings.NewReader(input), &out)
			answers, err := engine(p).AskQuestions(context.Background(), questions)
			Expect(err).NotTo(HaveOccurred())
			var got []string
			for _, a := range answers {
				got = append(got, a.String())
			}
			Expect(got).To(Equal(want))
			Expect(out.String()).To(ContainSubstring("[Library] Which library?\n  1. cobra — most Go tools\n  2. urfave/cli\n  3. Other (type your answer)\n"))
			Expect(out.String()).To(ContainSubstring("Answer [numbers 1-4 separated by commas, or your own words]: "))
		},
		Entry("one number, then two", "2\n3, 1\n", []string{"urfave/cli", "vet, race"}),
		Entry("spaces between numbers, repeats dropped", "1\n2 2 1\n", []string{"cobra", "vet, lint"}),
		Entry("free text is the user's own answer", "neither, use flag\n4\nsemgrep\n", []string{"neither, use flag", "semgrep"}),
		Entry("Other asks for the text; an empty line asks again", "\n3\nkong\n1,4\nstaticcheck\n", []string{"kong", "vet, staticcheck"}),
	)

	It("is ErrNotAnswered at the end of input, and names the sub-agent that asks", func() {
		var out bytes.Buffer
		p := ask.NewPrompt(strings.NewReader("1\n"), &out)
		_, err := p.AskQuestions(ask.WithAgent(context.Background(), "Plan agent"), "Plan agent", questions)
		Expect(errors.Is(err, ask.ErrNotAnswered)).To(BeTrue())
		Expect(out.String()).To(HavePrefix("\nPlan agent asks:\n"))
	})
})
