package ask_test

import (
	"context"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/ask"
)

var _ = Describe("Prompt", func() {
	It("prints the request's detail and words choice 2 with its AlwaysLabel", func() {
		var out strings.Builder
		p := ask.NewPrompt(strings.NewReader("2\n"), &out)
		ans, err := p.Ask(context.Background(), ask.AskRequest{Tool: "Planner", Use: "Add a flag",
			Message: "Approve this plan?", Detail: "# Add a flag\n1. parse it\n2. test it\n", AlwaysLabel: "Yes, and accept edits"})
		Expect(err).NotTo(HaveOccurred())
		Expect(ans).To(Equal(ask.AnswerAllowSession))
		Expect(out.String()).To(Equal("\nPlanner: Add a flag\n  │ # Add a flag\n  │ 1. parse it\n  │ 2. test it\nApprove this plan?\n" +
			"  1. Yes\n  2. Yes, and accept edits\n  3. No\nAllow? [1/2/3]: "))
	})
	DescribeTable("maps the answers with an AlwaysLabel",
		func(answer string, want ask.Answer) {
			p := ask.NewPrompt(strings.NewReader(answer+"\n"), &strings.Builder{})
			got, err := p.Ask(context.Background(), ask.AskRequest{Tool: "Planner", AlwaysLabel: "Yes, and accept edits"})
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("1", "1", ask.AnswerAllowOnce),
		Entry("2", "2", ask.AnswerAllowSession),
		Entry("3", "3", ask.AnswerDeny),
		Entry("no", "no", ask.AnswerDeny),
	)
})
