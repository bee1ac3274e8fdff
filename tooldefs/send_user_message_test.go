package tooldefs_test

import (
	"context"
	"os"
	"path/filepath"
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

var _ = Describe("SendUserMessage", func() {
	var dir string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "build.log"), []byte("ok\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "shot.PNG"), []byte("\x89PNG"), 0o644)).To(Succeed())
		Expect(os.Mkdir(filepath.Join(dir, "out"), 0o755)).To(Succeed())
	})

	// call runs one call of name with input in a session in dir, in plan
	// mode (the tool is read-only, so it runs there), and returns its
	// result.
	call := func(name, input string) runtime.Result {
		GinkgoHelper()
		home := GinkgoT().TempDir()
		sc, err := replay.Parse([]byte(`{"prompt":"tell me"}
{"blocks":[{"type":"tool_use","id":"m","name":"` + name + `","input":` + input + `}]}
{"blocks":[{"type":"text","text":"done"}]}`))
		Expect(err).NotTo(HaveOccurred())
		s, err := session.Open(context.Background(), session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Provider: replay.New(sc, replay.Options{Speed: 0, Cwd: dir}),
			Permissions: permission.Sources{Asker: ask.NonInteractive{}, Mode: permission.ModePlan,
				ConfigDir: filepath.Join(home, ".agentcore")},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		var res runtime.Result
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range s.Run(context.Background(), "") {
				if ev.Kind == agent.EventToolResult && ev.ID == "m" {
					res = ev.Call.Result
				}
			}
		}()
		Eventually(done).WithTimeout(20 * time.Second).Should(BeClosed())
		return res
	}

	It("delivers the message with its attachments resolved against the working directory", func() {
		res := call("SendUserMessage", `{"message":"Done: the build passes.","attachments":["build.log","`+filepath.Join(dir, "shot.PNG")+`"],"status":"proactive"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("Message delivered to the user with 2 attachment(s)."))
		m, ok := runtime.UserMessageOf(res)
		Expect(ok).To(BeTrue(), "the output carries the message for renderers")
		Expect(m).To(Equal(runtime.UserMessage{Text: "Done: the build passes.", Status: "proactive", Attachments: []runtime.Attachment{
			{Path: filepath.Join(dir, "build.log"), Size: 3},
			{Path: filepath.Join(dir, "shot.PNG"), Size: 4, IsImage: true},
		}}))
	})

	It("answers to its alias Brief, and says normal when no status is given", func() {
		res := call("Brief", `{"message":"hi"}`)
		Expect(res.IsError).To(BeFalse(), res.Text())
		Expect(res.Text()).To(Equal("Message delivered to the user."))
		m, _ := runtime.UserMessageOf(res)
		Expect(m.Status).To(Equal("normal"))
	})

	DescribeTable("refuses bad input with one error result that says what is wrong",
		func(input, want string) {
			res := call("SendUserMessage", input)
			Expect(res.IsError).To(BeTrue())
			Expect(res.Text()).To(ContainSubstring(want))
		},
		Entry("a blank message", `{"message":"  "}`, "message must not be blank"),
		Entry("a missing attachment", `{"message":"x","attachments":["nope.txt"]}`, "nope.txt does not exist"),
		Entry("a directory", `{"message":"x","attachments":["out"]}`, "is not a regular file"),
		Entry("an unknown status", `{"message":"x","status":"loud"}`, "status"),
	)
})
