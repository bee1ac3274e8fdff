package tooldefs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
)

// One call, bound once: a Bash command is parsed once per call, however
// many readers it has (scheduling, interrupt behaviour, the permission
// engine's shell analysis, the prompt, the tool's exit-status reading and
// rendering). shellsyntax.OnParse counts the parses of the call's line.
var _ = Describe("A Bash call's parses", func() {
	var (
		dir    string
		mu     sync.Mutex
		parses map[string]int
	)

	BeforeEach(func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		Expect(os.Mkdir(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		parses = map[string]int{}
		DeferCleanup(shellsyntax.OnParse(func(src string) {
			mu.Lock()
			defer mu.Unlock()
			parses[src]++
		}))
	})

	count := func(command string) int {
		mu.Lock()
		defer mu.Unlock()
		return parses[command]
	}

	run := func(asker ask.Asker, command string) runtime.Result {
		GinkgoHelper()
		s, err := session.Open(context.Background(), session.Options{
			Dir: dir, Home: dir, Tools: generated.AllBaseTools(),
			Permissions: permission.Sources{Mode: permission.ModeDefault, Asker: asker},
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		in, err := json.Marshal(map[string]string{"command": command})
		Expect(err).NotTo(HaveOccurred())
		var res *runtime.Result
		for ev := range s.Exec(context.Background(), []orchestrate.ToolUse{{ID: "b1", Name: "Bash", Input: in}}) {
			if ev.Kind == orchestrate.EventResult {
				res = &ev.Result
				// What a renderer reads of the call reads the same parse.
				Expect(ev.Tool.RenderUse(ev.Input)).NotTo(BeEmpty())
				Expect(ev.Tool.RenderResult(ev.Input, ev.Result)).NotTo(BeEmpty())
			}
		}
		Expect(res).NotTo(BeNil())
		return *res
	}

	It("is one on the plain path: a read-only command allowed without asking", func() {
		command := "ls -a sub && grep -c zzz-plain-path-marker sub/none 2>/dev/null; ls sub"
		res := run(ask.NonInteractive{}, command)
		Expect(res.IsError).To(BeFalse(), "%s", res.Content)
		Expect(count(command)).To(Equal(1))
	})

	It("is one when the call is asked about and approved", func() {
		asker := &toolAsker{answers: map[string]ask.Answer{"Bash": ask.AnswerAllowOnce}}
		command := "touch sub/prompted-path-marker && grep -q absent sub/prompted-path-marker"
		res := run(asker, command)
		Expect(asker.tools()).To(Equal([]string{"Bash"}))
		// grep's 1 (no match) as the last command is an answer, not an
		// error: the exit status was read from the parse.
		Expect(res.IsError).To(BeFalse(), "%s", res.Content)
		Expect(filepath.Join(dir, "sub", "prompted-path-marker")).To(BeAnExistingFile())
		Expect(count(command)).To(Equal(1))
	})
})
