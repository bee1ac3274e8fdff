package filetool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// These specs drive the file tools the way the agent does: raw JSON from
// the model, through the generated wrappers and the batch orchestrator,
// which decodes, validates, runs and applies context modifiers.
var _ = Describe("the file tools through the generated registry and the orchestrator", func() {
	var (
		dir  string
		tc   *runtime.ToolContext
		exec *orchestrate.Executor
	)
	BeforeEach(func() {
		var err error
		dir, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(dir)
		exec = &orchestrate.Executor{Tools: generated.AllBaseTools()}
	})

	use := func(id, name string, input map[string]any) orchestrate.ToolUse {
		raw, err := json.Marshal(input)
		Expect(err).NotTo(HaveOccurred())
		return orchestrate.ToolUse{ID: id, Name: name, Input: raw}
	}
	run := func(uses ...orchestrate.ToolUse) []orchestrate.Event {
		var out []orchestrate.Event
		for ev := range exec.RunTools(context.Background(), uses, tc) {
			if ev.Kind == orchestrate.EventResult {
				out = append(out, ev)
			}
		}
		Expect(out).To(HaveLen(len(uses)))
		return out
	}

	It("registers Read, Edit, Write and NotebookEdit with their scheduling traits", func() {
		tools := generated.AllBaseTools()
		read := runtime.Lookup(tools, "Read")
		Expect(read).NotTo(BeNil())
		Expect(read.Traits().ReadOnly.Value).To(BeTrue())
		Expect(read.Traits().ConcurrencySafe.Value).To(BeTrue())
		edit := runtime.Lookup(tools, "Edit")
		Expect(edit.Traits().Destructive.InputDependent).To(BeTrue())
		Expect(edit.Traits().ConcurrencySafe.Value).To(BeFalse())
		Expect(runtime.Lookup(tools, "Write")).NotTo(BeNil())
		Expect(runtime.Lookup(tools, "NotebookEdit").Traits().Destructive.InputDependent).To(BeTrue())
	})

	It("reads two files in one parallel batch, then edits one without reading it again", func() {
		a := filepath.Join(dir, "a.go")
		b := filepath.Join(dir, "b.go")
		Expect(os.WriteFile(a, []byte("package a\n\nvar X = 1\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(b, []byte("package b\n"), 0o644)).To(Succeed())
		Expect(exec.Plan([]orchestrate.ToolUse{
			use("1", "Read", map[string]any{"file_path": a}),
			use("2", "Read", map[string]any{"file_path": b}),
		})).To(HaveLen(1), "reads share one batch")

		evs := run(
			use("1", "Read", map[string]any{"file_path": a}),
			use("2", "Read", map[string]any{"file_path": b}),
			use("3", "Edit", map[string]any{"file_path": a, "old_string": "X = 1", "new_string": "X = 2"}),
			use("4", "Read", map[string]any{"file_path": a}),
		)
		Expect(evs[0].Result.Text()).To(Equal("1\tpackage a\n2\t\n3\tvar X = 1"))
		Expect(evs[1].Result.Text()).To(Equal("1\tpackage b"))
		Expect(evs[2].Result.IsError).To(BeFalse(), evs[2].Result.Text())
		Expect(evs[2].Result.Text()).To(ContainSubstring("-var X = 1\n+var X = 2"))
		Expect(evs[2].Tool.RenderResult(evs[2].Input, evs[2].Result)).To(HavePrefix(fmt.Sprintf("Updated %s with 1 addition and 1 removal\n@@ ", a)))
		Expect(evs[3].Result.Text()).To(Equal("1\tpackage a\n2\t\n3\tvar X = 2"))
	})

	It("turns every refusal into an is_error result the model can act on", func() {
		p := filepath.Join(dir, "c.txt")
		Expect(os.WriteFile(p, []byte("one\ntwo\n"), 0o644)).To(Succeed())
		evs := run(
			use("1", "Edit", map[string]any{"file_path": p, "old_string": "one", "new_string": "1"}),
			use("2", "Read", map[string]any{"file_path": p, "limit": 0}),
			use("3", "Read", map[string]any{"file_path": "/etc/hostname"}),
			use("4", "NotebookEdit", map[string]any{"notebook_path": p, "new_source": "x", "cell_type": "python"}),
			use("5", "Write", map[string]any{"file_path": p, "content": "x", "mode": "0600"}),
		)
		for _, ev := range evs {
			Expect(ev.Result.IsError).To(BeTrue(), ev.ID)
		}
		Expect(evs[0].Result.Text()).To(ContainSubstring("file has not been read yet"))
		Expect(evs[1].Result.Text()).To(ContainSubstring("limit"))
		Expect(evs[2].Result.Text()).To(ContainSubstring("outside the working directories"))
		Expect(evs[3].Result.Text()).To(ContainSubstring("cell_type"))
		Expect(evs[4].Result.Text()).To(ContainSubstring("mode"))
		Expect(os.ReadFile(p)).To(Equal([]byte("one\ntwo\n")))
	})

	It("answers a repeated read briefly, after the orchestrator applied the first read's modifier", func() {
		p := filepath.Join(dir, "d.txt")
		Expect(os.WriteFile(p, []byte("d\n"), 0o644)).To(Succeed())
		first := run(use("1", "Read", map[string]any{"file_path": p}))
		Expect(first[0].Result.Text()).To(Equal("1\td"))
		second := run(use("2", "Read", map[string]any{"file_path": p}))
		Expect(second[0].Result.Text()).To(HavePrefix("File unchanged since last read"))
	})
})
