package tooldefs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
)

// A Bash command's writes are judged as Write calls (runtime/permission,
// "Writes in shell commands"): a prefix rule for the command does not let
// it write a file. The commands really run in bash, or do not.
var _ = Describe("Bash writes under a prefix rule", func() {
	var dir string

	BeforeEach(func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)).To(Succeed())
	})

	open := func(mode permission.Mode, rules ...permission.Rule) *session.Session {
		GinkgoHelper()
		s, err := session.Open(context.Background(), session.Options{
			Dir: dir, Home: dir, Tools: generated.AllBaseTools(),
			Permissions: permission.Sources{
				Mode: mode, Asker: ask.NonInteractive{},
				Rules: append([]permission.Rule{mustRule("Bash(echo:*)", runtime.Allow), mustRule("Bash(tee:*)", runtime.Allow)}, rules...),
			},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		return s
	}
	bash := func(s *session.Session, command string) runtime.Result {
		GinkgoHelper()
		in, err := json.Marshal(map[string]string{"command": command})
		Expect(err).NotTo(HaveOccurred())
		var res *runtime.Result
		for ev := range s.Exec(context.Background(), []orchestrate.ToolUse{{ID: "b1", Name: "Bash", Input: in}}) {
			if ev.Kind == orchestrate.EventResult {
				res = &ev.Result
			}
		}
		Expect(res).NotTo(BeNil())
		return *res
	}

	DescribeTable("a non-interactive run does not write what it would have to ask for",
		func(command, file string) {
			s := open(permission.ModeDefault)
			res := bash(s, command)
			Expect(res.IsError).To(BeTrue(), "%s", res.Content)
			Expect(res.Text()).To(ContainSubstring("approval"))
			Expect(res.Text()).To(ContainSubstring(file))
			Expect(filepath.Join(dir, file)).NotTo(BeAnExistingFile())
		},
		Entry(">", "echo hi > notes.txt", "notes.txt"),
		Entry(">>", "echo hi >> notes.txt", "notes.txt"),
		Entry("2>", "echo hi 2> notes.txt", "notes.txt"),
		Entry(">|", "echo hi >| notes.txt", "notes.txt"),
		Entry("&>", "echo hi &> notes.txt", "notes.txt"),
		Entry("&>>", "echo hi &>> notes.txt", "notes.txt"),
		Entry("1>", "echo hi 1> notes.txt", "notes.txt"),
		Entry("tee", "echo hi | tee notes.txt", "notes.txt"),
		Entry("a hook", "echo hi > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
	)

	It("runs the command when nothing is written, and writes in acceptEdits mode", func() {
		s := open(permission.ModeDefault)
		res := bash(s, "echo hi > /dev/null 2>&1")
		Expect(res.IsError).To(BeFalse(), "%s", res.Content)
		s.Engine().SetMode(permission.ModeAcceptEdits)
		res = bash(s, "echo hi > notes.txt")
		Expect(res.IsError).To(BeFalse(), "%s", res.Content)
		Expect(os.ReadFile(filepath.Join(dir, "notes.txt"))).To(Equal([]byte("hi\n")))
		// A protected path is not written in acceptEdits mode either.
		res = bash(s, "echo hi > .git/hooks/pre-commit")
		Expect(res.IsError).To(BeTrue())
		Expect(filepath.Join(dir, ".git", "hooks", "pre-commit")).NotTo(BeAnExistingFile())
	})

	It("writes what an Edit rule allows and not what an Edit rule denies", func() {
		s := open(permission.ModeAcceptEdits, mustRule("Edit(*.txt)", runtime.Allow), mustRule("Edit(secret.md)", runtime.Deny))
		res := bash(s, "echo hi | tee out.txt")
		Expect(res.IsError).To(BeFalse(), "%s", res.Content)
		Expect(filepath.Join(dir, "out.txt")).To(BeAnExistingFile())
		res = bash(s, "echo hi > secret.md")
		Expect(res.IsError).To(BeTrue())
		Expect(res.Text()).To(ContainSubstring("Edit(secret.md)"))
		Expect(filepath.Join(dir, "secret.md")).NotTo(BeAnExistingFile())
	})
})
