package tooldefs_test

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

// questionAsker answers questions with fixed answers and keeps what it
// was asked.
type questionAsker struct {
	ask.NonInteractive
	answers []ask.QuestionAnswer
	err     error
	asked   []ask.Question
}

func (a *questionAsker) AskQuestions(_ context.Context, _ string, qs []ask.Question) ([]ask.QuestionAnswer, error) {
	a.asked = append(a.asked, qs...)
	return a.answers, a.err
}

var _ = Describe("AskUserQuestion", func() {
	// call runs one AskUserQuestion call with input in a session whose
	// asker is asker, and returns its result.
	call := func(asker ask.Asker, input string) runtime.Result {
		GinkgoHelper()
		dir, home := GinkgoT().TempDir(), GinkgoT().TempDir()
		sc, err := replay.Parse([]byte(`{"prompt":"ask"}
{"blocks":[{"type":"tool_use","id":"q","name":"AskUserQuestion","input":` + input + `}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(context.Background(), session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Provider:    replay.New(sc, replay.Options{Speed: 0, Cwd: dir}),
			Permissions: permission.Sources{Asker: asker, ConfigDir: filepath.Join(home, ".agentcore")},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		var res runtime.Result
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range s.Run(context.Background(), "") {
				if ev.Kind == agent.EventToolResult && ev.ID == "q" {
					res = ev.Call.Result
				}
			}
		}()
		Eventually(done).WithTimeout(20 * time.Second).Should(BeClosed())
		return res
	}
	two := `{"questions":[{"question":"Which library?","header":"Library","multiSelect":false,"options":[{"label":" cobra ","description":"most Go tools"},{"label":"kong","description":""}]},{"question":"Which checks?","header":"Checks","multiSelect":true,"options":[{"label":"vet","description":""},{"label":"race","description":""}]}]}`

	It("puts the questions to the user and returns the answers as Claude Code words them", func() {
		asker := &questionAsker{answers: []ask.QuestionAnswer{{Labels: []string{"cobra"}}, {Labels: []string{"vet", "race"}, Other: "staticcheck"}}}
		res := call(asker, two)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal(`User has answered your questions: "Which library?"="cobra", "Which checks?"="vet, race, staticcheck". You can now continue with the user's answers in mind.`))
		Expect(asker.asked).To(HaveLen(2))
		Expect(asker.asked[0].Options[0]).To(Equal(ask.QuestionOption{Label: "cobra", Description: "most Go tools"}), "labels are trimmed")
		Expect(asker.asked[1].MultiSelect).To(BeTrue())
	})

	It("fails, saying no user is present, in a non-interactive run", func() {
		res := call(ask.NonInteractive{}, two)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("no user is present to answer questions"))
	})

	It("fails when the user dismisses the questions", func() {
		res := call(&questionAsker{err: ask.ErrNotAnswered}, two)
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("dismissed the questions"))
	})

	DescribeTable("refuses malformed questions before asking anyone",
		func(input, want string) {
			asker := &questionAsker{}
			res := call(asker, input)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring(want))
			Expect(asker.asked).To(BeEmpty())
		},
		Entry("no questions", `{"questions":[]}`, "questions"),
		Entry("five questions", `{"questions":[`+strings.Repeat(`{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]},`, 4)+
			`{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "questions"),
		Entry("one option", `{"questions":[{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""}]}]}`, "options"),
		Entry("a long header", `{"questions":[{"question":"q?","header":"much too long a header","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "header"),
		Entry("a repeated question", `{"questions":[{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]},{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"b","description":""}]}]}`, "asked twice"),
		Entry("a repeated label", `{"questions":[{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":" a","description":""}]}]}`, "used twice"),
		Entry("an Other option", `{"questions":[{"question":"q?","header":"h","multiSelect":false,"options":[{"label":"a","description":""},{"label":"other","description":""}]}]}`, `do not add an "Other" option`),
		Entry("a wrong type", `{"questions":"which?"}`, "questions"),
	)
})
