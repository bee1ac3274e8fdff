package tooldefs_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

// snapshot reads every file directly in dir.
func snapshot(dir string) map[string]string {
	GinkgoHelper()
	ents, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	out := map[string]string{}
	for _, e := range ents {
		if e.Type().IsRegular() {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			Expect(err).NotTo(HaveOccurred())
			out[e.Name()] = string(data)
		}
	}
	return out
}

// rewindExec runs one call through s.Exec and returns its result event.
func rewindExec(ctx context.Context, s *session.Session, name, input string) orchestrate.Event {
	GinkgoHelper()
	var got *orchestrate.Event
	for ev := range s.Exec(ctx, []orchestrate.ToolUse{{ID: "r1", Name: name, Input: json.RawMessage(input)}}) {
		if ev.Kind == orchestrate.EventResult {
			got = &ev
		}
	}
	Expect(got).NotTo(BeNil())
	return *got
}

var _ = Describe("rewinding the files Edit, Write and NotebookEdit wrote", func() {
	var (
		dir, home string
		s         *session.Session
		ctx       context.Context
	)

	call := func(name, input string) {
		GinkgoHelper()
		ev := rewindExec(ctx, s, name, input)
		Expect(ev.Result.IsError).To(BeFalse(), ev.Result.Text())
	}
	read := func(name string) { call("Read", fmt.Sprintf(`{"file_path":%q}`, filepath.Join(dir, name))) }

	BeforeEach(func() {
		ctx = context.Background()
		dir, home = GinkgoT().TempDir(), GinkgoT().TempDir()
		var err error
		s, err = session.Open(ctx, session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: filepath.Join(home, ".agentcore")},
			FileHistory: filepath.Join(home, ".agentcore", "file-history"),
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		Expect(os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nvar x = 1\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(sampleNotebook), 0o644)).To(Succeed())
	})

	It("puts every file back byte-identical after three turns and removes the file created later", func() {
		before1 := snapshot(dir)
		Expect(s.BeginTurn("edit a.go and the notebook")).To(Equal(1))
		read("a.go")
		call("Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"x = 1","new_string":"x = 2"}`, filepath.Join(dir, "a.go")))
		read("nb.ipynb")
		call("NotebookEdit", fmt.Sprintf(`{"notebook_path":%q,"cell_id":"calc","new_source":"print(2)"}`, filepath.Join(dir, "nb.ipynb")))
		before2 := snapshot(dir)

		Expect(s.BeginTurn("create b.go")).To(Equal(2))
		call("Write", fmt.Sprintf(`{"file_path":%q,"content":"package a\n\nvar y = 2\n"}`, filepath.Join(dir, "b.go")))

		Expect(s.BeginTurn("overwrite both")).To(Equal(3))
		call("Write", fmt.Sprintf(`{"file_path":%q,"content":"package a // rewritten\n"}`, filepath.Join(dir, "a.go")))
		call("Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"y = 2","new_string":"y = 3"}`, filepath.Join(dir, "b.go")))
		Expect(snapshot(dir)).NotTo(Equal(before2))

		turns, err := s.FileCheckpoints()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(HaveLen(3))
		Expect(turns[1].Prompt).To(Equal("create b.go"))

		_, err = s.RewindFiles(2, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(snapshot(dir)).To(Equal(before2))

		changes, err := s.RewindFiles(1, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(snapshot(dir)).To(Equal(before1))
		Expect(filepath.Join(dir, "b.go")).NotTo(BeAnExistingFile())
		Expect(changes).To(HaveLen(2)) // b.go went with the rewind to turn 2

		// What a tool read before the rewind is stale: Edit wants a new Read.
		ev := rewindExec(ctx, s, "Edit", fmt.Sprintf(`{"file_path":%q,"old_string":"x = 1","new_string":"x = 5"}`, filepath.Join(dir, "a.go")))
		Expect(ev.Result.IsError).To(BeTrue())
		Expect(ev.Result.Text()).To(ContainSubstring("Read"))
	})

	It("does not keep what a Bash command changes", func() {
		Expect(s.BeginTurn("sed")).To(Equal(1))
		call("Bash", fmt.Sprintf(`{"command":"printf changed > %s"}`, filepath.Join(dir, "a.go")))
		changes, err := s.RewindFiles(1, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(changes).To(BeEmpty())
		Expect(os.ReadFile(filepath.Join(dir, "a.go"))).To(BeEquivalentTo("changed"))
	})

	It("numbers a turn per prompt of Run", func() {
		sc, err := replay.Parse([]byte(fmt.Sprintf(`{"prompt":"one"}
{"blocks":[{"type":"tool_use","id":"w1","name":"Write","input":{"file_path":%q,"content":"a"}}]}
{"blocks":[{"type":"text","text":"wrote a"}]}
{"blocks":[{"type":"tool_use","id":"w2","name":"Write","input":{"file_path":%q,"content":"b"}}]}
{"blocks":[{"type":"text","text":"wrote b"}]}`, filepath.Join(dir, "new-a.txt"), filepath.Join(dir, "new-b.txt"))))
		Expect(err).NotTo(HaveOccurred())
		r, err := session.Open(ctx, session.Options{
			Dir: dir, Home: home, Tools: generated.AllBaseTools(),
			Provider:    replay.New(sc, replay.Options{Cwd: dir}),
			Permissions: permission.Sources{Mode: permission.ModeBypass, ConfigDir: filepath.Join(home, ".agentcore")},
			FileHistory: filepath.Join(home, ".agentcore", "file-history"),
		})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(r.Close)
		for _, p := range []string{"one", "two"} {
			for ev := range r.Run(ctx, p) {
				if ev.Kind == agent.EventDone {
					Expect(ev.Outcome.Err).NotTo(HaveOccurred())
				}
			}
		}
		turns, err := r.FileCheckpoints()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(HaveLen(2))
		Expect([]string{turns[0].Prompt, turns[1].Prompt}).To(Equal([]string{"one", "two"}))
		Expect(turns[1].Files).To(HaveLen(1))
		Expect(turns[1].Files[0].Path).To(Equal(filepath.Join(dir, "new-b.txt")))

		_, err = r.RewindFiles(2, false)
		Expect(err).NotTo(HaveOccurred())
		Expect(filepath.Join(dir, "new-a.txt")).To(BeAnExistingFile())
		Expect(filepath.Join(dir, "new-b.txt")).NotTo(BeAnExistingFile())
	})
})
