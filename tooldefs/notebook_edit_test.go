package tooldefs_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("NotebookEdit", func() {
	var (
		e *fileEnv
		p string
	)
	BeforeEach(func() {
		e = newFileEnv()
		p = e.put("nb.ipynb", sampleNotebook)
	})

	// saved parses the notebook on disk, failing on invalid JSON.
	saved := func() map[string]any {
		var m map[string]any
		Expect(json.Unmarshal([]byte(e.content(p)), &m)).To(Succeed())
		Expect(m["metadata"]).To(HaveKeyWithValue("kernelspec", HaveKeyWithValue("name", "python3")))
		return m
	}
	cells := func() []any { return saved()["cells"].([]any) }

	Context("after the notebook was read", func() {
		BeforeEach(func() { e.mustRead(p) })

		It("replaces a cell's source by id, clearing its outputs", func() {
			out, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "print(2)\n"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.EditMode).To(Equal("replace"))
			Expect(out.CellType).To(Equal("code"))
			c := cells()[1].(map[string]any)
			Expect(c["source"]).To(Equal([]any{"print(2)\n"}))
			Expect(c["outputs"]).To(BeEmpty())
			Expect(tooldefs.NotebookEdit{}.RenderResult(nil, out)).To(Equal("Replaced cell calc"))
			Expect(tooldefs.NotebookEdit{}.ResultBlocks(out)[0].Text).To(HavePrefix("Updated cell calc of " + p))
		})

		It("inserts a cell after another, and at the start without cell_id", func() {
			out, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "intro", NewSource: "x = 1", CellType: "code", EditMode: "insert"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()).To(HaveLen(3))
			Expect(cells()[1].(map[string]any)["id"]).To(Equal(out.CellID))
			out2, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "# top", CellType: "markdown", EditMode: "insert"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()[0].(map[string]any)["id"]).To(Equal(out2.CellID))
			Expect(tooldefs.NotebookEdit{}.RenderResult(nil, out2)).To(Equal("Inserted markdown cell " + out2.CellID))
		})

		It("deletes a cell, which is destructive", func() {
			in := tooldefs.NotebookEditInput{NotebookPath: p, CellID: "intro", EditMode: "delete"}
			Expect(tooldefs.NotebookEdit{}.IsDestructive(&in)).To(BeTrue())
			Expect(tooldefs.NotebookEdit{}.IsDestructive(&tooldefs.NotebookEditInput{EditMode: "insert"})).To(BeFalse())
			_, err := e.nbEdit(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()).To(HaveLen(1))
			Expect(cells()[0].(map[string]any)["id"]).To(Equal("calc"))
		})

		It("lists the cell ids when the cell is unknown", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "zzz", NewSource: "x"})
			Expect(err).To(MatchError(ContainSubstring(`cell "zzz" not found; the notebook's cells are: intro, calc`)))
		})

		It("requires cell_id to replace or delete, and cell_type to insert", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "x"})
			Expect(err).To(MatchError(ContainSubstring("cell_id is required to replace")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, EditMode: "delete"})
			Expect(err).To(MatchError(ContainSubstring("cell_id is required to delete")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "x", EditMode: "insert"})
			Expect(err).To(MatchError(ContainSubstring("cell_type is required")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", EditMode: "move"})
			Expect(err).To(MatchError(ContainSubstring("edit_mode must be replace, insert or delete")))
		})

		It("records what it wrote, so a second edit needs no new read", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "a"})
			Expect(err).NotTo(HaveOccurred())
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "b"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()[1].(map[string]any)["source"]).To(Equal([]any{"b"}))
		})
	})

	It("refuses a notebook that was not read, or changed since", func() {
		_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "x"})
		Expect(errors.Is(err, filetool.ErrNotRead)).To(BeTrue())
		e.mustRead(p)
		Expect(os.WriteFile(p, []byte(strings.Replace(sampleNotebook, "print(1)", "print(9)", 1)), 0o644)).To(Succeed())
		_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "x"})
		Expect(errors.Is(err, filetool.ErrModified)).To(BeTrue())
	})

	It("refuses files that are not notebooks, and paths outside the working directories", func() {
		q := e.put("x.py", "print(1)")
		_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: q, CellID: "a", NewSource: "x"})
		Expect(err).To(MatchError(ContainSubstring("not a Jupyter notebook")))
		_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: filepath.Join(e.outside, "n.ipynb"), CellID: "a", NewSource: "x"})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("targets the path as a write and renders", func() {
		wd, _ := os.Getwd()
		in := &tooldefs.NotebookEditInput{NotebookPath: filepath.Join(wd, "a.ipynb"), CellID: "c1"}
		n := tooldefs.NotebookEdit{}
		Expect(n.PermissionTarget(in)).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: in.NotebookPath, Writes: true}))
		Expect(n.RenderUse(in)).To(Equal("a.ipynb · cell c1"))
		Expect(n.RenderResult(in, tooldefs.NotebookEditOutput{EditMode: "delete", CellID: "c1"})).To(Equal("Deleted cell c1"))
		Expect(n.RenderRejected(in)).To(Equal("Edit of a.ipynb was rejected"))
		Expect(n.RenderError(in, errors.New("x\ny"))).To(Equal("x"))
		Expect(n.RenderGrouped([]*tooldefs.NotebookEditInput{in, in})).To(Equal("Edited 2 cells in a.ipynb"))
	})
})
