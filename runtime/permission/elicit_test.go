package permission_test

import (
	"bytes"
	"context"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/permission"
)

var _ = Describe("Elicit", func() {
	one, ten := 1.0, 10.0
	form := ask.ElicitRequest{Server: "srv", Message: "Tell me.", Fields: []ask.FormField{
		{Name: "name", Title: "Name", Kind: ask.FieldString, Required: true},
		{Name: "n", Kind: ask.FieldInteger, Min: &one, Max: &ten, Default: 5.0},
		{Name: "ok", Kind: ask.FieldBoolean},
		{Name: "pick", Kind: ask.FieldChoice, Choices: []ask.Choice{{Value: "a", Label: "Apple"}, {Value: "b", Label: "Banana"}}},
		{Name: "many", Kind: ask.FieldMultiChoice, Max: &one, Choices: []ask.Choice{{Value: "x"}, {Value: "y"}}},
		{Name: "when", Kind: ask.FieldString, Format: "date"},
	}}
	elicit := func(req ask.ElicitRequest, input string) (ask.ElicitAnswer, string) {
		GinkgoHelper()
		var out bytes.Buffer
		ans, err := ask.NewPrompt(strings.NewReader(input), &out).Elicit(context.Background(), req)
		Expect(err).NotTo(HaveOccurred())
		return ans, out.String()
	}

	It("asks each field in turn, checks the values and asks again, and takes defaults", func() {
		ans, out := elicit(form, "1\n\nAda\n11\n\nmaybe\nn\nBanana\n1,2\n2\n2024-13-01\n2024-02-29\n")
		Expect(ans.Action).To(Equal(ask.ElicitAccept))
		Expect(ans.Content).To(Equal(map[string]any{"name": "Ada", "n": int64(5), "ok": false, "pick": "b", "many": []string{"y"}, "when": "2024-02-29"}))
		Expect(out).To(ContainSubstring("MCP server \"srv\" asks for input:\nTell me.\n  1. Fill in the form (6 fields)\n  2. Decline\n  3. Cancel\n"))
		Expect(out).To(ContainSubstring("This field is required."))
		Expect(out).To(ContainSubstring("n, 1 to 10 [5]: the number must be at most 10."))
		Expect(out).To(ContainSubstring("answer y or n."))
		Expect(out).To(ContainSubstring("  1. Apple\n  2. Banana\n"))
		Expect(out).To(ContainSubstring("the number of choices must be at most 1."))
		Expect(out).To(ContainSubstring(`"2024-13-01" is not a date such as 2006-01-02.`))
	})

	It("leaves an optional field out when left empty", func() {
		ans, _ := elicit(form, "1\nAda\n\n\n\n\n\n")
		Expect(ans.Content).To(Equal(map[string]any{"name": "Ada", "n": int64(5)}))
	})

	DescribeTable("declines, cancels, and cancels at the end of input",
		func(input string, want ask.ElicitAction) {
			ans, _ := elicit(form, input)
			Expect(ans.Action).To(Equal(want))
			Expect(ans.Content).To(BeNil())
		},
		Entry("2 declines", "2\n", ask.ElicitDecline),
		Entry("3 cancels", "3\n", ask.ElicitCancel),
		Entry("an empty answer cancels", "\n", ask.ElicitCancel),
		Entry("no input cancels", "", ask.ElicitCancel),
		Entry("the end of input in a field cancels the form", "1\nAda\n", ask.ElicitCancel),
		Entry("three bad values cancel the form", "1\nAda\n0\n11\n12\n", ask.ElicitCancel),
	)

	It("shows a URL and accepts when the user opened it", func() {
		ans, out := elicit(ask.ElicitRequest{Server: "srv", Mode: ask.ElicitURL, URL: "https://x.test/a", Message: "Sign in."}, "1\n")
		Expect(ans.Action).To(Equal(ask.ElicitAccept))
		Expect(out).To(ContainSubstring("MCP server \"srv\" asks you to open a URL:\nSign in.\n  URL: https://x.test/a\n  1. I opened it and did what it asks\n"))
	})

	It("is declined with a reason when the engine has nobody to ask", func() {
		for _, asker := range []ask.Asker{ask.NonInteractive{}, &scriptedAsker{}, nil} {
			e, err := permission.NewEngine(permission.Config{Cwd: GinkgoT().TempDir(), Home: GinkgoT().TempDir(), Asker: asker})
			Expect(err).NotTo(HaveOccurred())
			ans, err := e.Elicit(context.Background(), ask.ElicitRequest{Server: "srv", Mode: ask.ElicitURL})
			Expect(err).NotTo(HaveOccurred())
			Expect(ans.Action).To(Equal(ask.ElicitDecline))
			Expect(ans.Reason).To(ContainSubstring(`declined MCP server "srv"'s request for input (url mode) without asking: nobody can answer it in this run`))
		}
	})

	It("goes through the engine to an Asker that can elicit", func() {
		var out bytes.Buffer
		e, err := permission.NewEngine(permission.Config{Cwd: GinkgoT().TempDir(), Home: GinkgoT().TempDir(),
			Asker: ask.NewPrompt(strings.NewReader("2\n"), &out)})
		Expect(err).NotTo(HaveOccurred())
		ans, err := e.Elicit(ask.WithAgent(context.Background(), "Explore agent"), form)
		Expect(err).NotTo(HaveOccurred())
		Expect(ans).To(Equal(ask.ElicitAnswer{Action: ask.ElicitDecline}))
		Expect(out.String()).To(ContainSubstring(`Explore agent: MCP server "srv" asks for input:`))
	})
})
