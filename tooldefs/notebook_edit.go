package tooldefs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/atomicfile"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/notebook"
)

// NotebookEdit replaces, inserts or deletes one cell of a Jupyter notebook
// (.ipynb), keeping the notebook valid with its metadata.
//
// Usage:
// - notebook_path must be an absolute path; Read the notebook first (the
// Read result shows each cell's id).
// - edit_mode replace (the default) sets the source of cell cell_id, and its
// type when cell_type is given; a code cell's outputs are cleared.
// - edit_mode insert adds a new cell of type cell_type after cell_id, or at
// the start when cell_id is omitted.
// - edit_mode delete removes cell cell_id.
// - Cells without an id can be named "cell-N", N being the 0-based index.
//
// +tool:name=NotebookEdit
// +tool:localOnly
// +tool:searchHint="edit a Jupyter notebook cell"
type NotebookEdit struct{}

// NotebookEditInput is the input of NotebookEdit.
type NotebookEditInput struct {
	// The absolute path of the .ipynb notebook to edit.
	NotebookPath string `json:"notebook_path" jsonschema:"minLength=1"`
	// The id of the cell to edit. For insert, the new cell goes after it (at the start when omitted).
	CellID string `json:"cell_id,omitempty"`
	// The new source of the cell (ignored for delete).
	NewSource string `json:"new_source"`
	// The cell's type, code or markdown. Required for insert; replace keeps the type when omitted.
	CellType string `json:"cell_type,omitempty" jsonschema:"enum=code,enum=markdown"`
	// What to do: replace (the default), insert or delete.
	EditMode string `json:"edit_mode,omitempty" jsonschema:"enum=replace,enum=insert,enum=delete"`
}

// NotebookEditOutput is what NotebookEdit did.
type NotebookEditOutput struct {
	// NotebookPath is the absolute path edited.
	NotebookPath string `json:"notebook_path"`
	// EditMode is replace, insert or delete.
	EditMode string `json:"edit_mode"`
	// CellID is the cell changed (the new cell's id for insert).
	CellID string `json:"cell_id"`
	// CellType is the cell's type after the edit (empty for delete).
	CellType string `json:"cell_type,omitempty"`
	// NewSource is the cell's new source.
	NewSource string `json:"new_source,omitempty"`
	// Cells is the number of cells after the edit.
	Cells int `json:"cells"`
}

func editMode(in *NotebookEditInput) string {
	if in.EditMode == "" {
		return "replace"
	}
	return in.EditMode
}

type notebookPlan struct {
	key, real string
	nb        *notebook.Notebook
	out       NotebookEditOutput
}

// planNotebookEdit applies the edit in memory.
func planNotebookEdit(in *NotebookEditInput, tc *runtime.ToolContext) (*notebookPlan, error) {
	key, real, err := filetool.Path(tc, "notebook_path", in.NotebookPath)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(filepath.Ext(key), ".ipynb") {
		return nil, fmt.Errorf("%s is not a Jupyter notebook (.ipynb); edit other files with Edit", key)
	}
	if _, err := filetool.Stat(tc, key, real); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	if err := filetool.CheckFresh(tc, key, data); err != nil {
		return nil, err
	}
	nb, err := notebook.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("cannot edit notebook %s: %w", key, err)
	}
	mode := editMode(in)
	out := NotebookEditOutput{NotebookPath: key, EditMode: mode, CellID: in.CellID, CellType: in.CellType, NewSource: in.NewSource}
	switch mode {
	case "replace":
		if in.CellID == "" {
			return nil, fmt.Errorf("cell_id is required to replace a cell; the Read result of the notebook shows the ids")
		}
		if err := nb.Replace(in.CellID, in.NewSource, in.CellType); err != nil {
			return nil, err
		}
		i, _ := nb.Find(in.CellID)
		out.CellType = nb.Cells()[i].Type
	case "insert":
		id, err := nb.Insert(in.CellID, in.NewSource, in.CellType)
		if err != nil {
			return nil, err
		}
		out.CellID = id
	case "delete":
		if in.CellID == "" {
			return nil, fmt.Errorf("cell_id is required to delete a cell")
		}
		if err := nb.Delete(in.CellID); err != nil {
			return nil, err
		}
		out.CellType, out.NewSource = "", ""
	default:
		return nil, fmt.Errorf("edit_mode must be replace, insert or delete (got %q)", in.EditMode)
	}
	out.Cells = nb.Len()
	return &notebookPlan{key: key, real: real, nb: nb, out: out}, nil
}

// ValidateInput runs every check of the edit without writing.
func (NotebookEdit) ValidateInput(_ context.Context, in *NotebookEditInput, tc *runtime.ToolContext) error {
	_, err := planNotebookEdit(in, tc)
	return err
}

// PermissionTarget is the notebook written.
func (NotebookEdit) PermissionTarget(in *NotebookEditInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.NotebookPath), Writes: true}
}

// IsDestructive is true for deleting a cell.
func (NotebookEdit) IsDestructive(in *NotebookEditInput) bool { return in.EditMode == "delete" }

// Call edits the notebook, writes it atomically and records it in the
// file-state cache.
func (NotebookEdit) Call(ctx context.Context, in *NotebookEditInput, c *runtime.Call) (NotebookEditOutput, error) {
	p, err := planNotebookEdit(in, c.Context)
	if err != nil {
		return NotebookEditOutput{}, err
	}
	if err := ctx.Err(); err != nil {
		return NotebookEditOutput{}, err
	}
	data, err := p.nb.Marshal()
	if err != nil {
		return NotebookEditOutput{}, fmt.Errorf("encode notebook %s: %w", p.key, err)
	}
	if err := filetool.Checkpoint(c.Context, p.key, p.real); err != nil {
		return NotebookEditOutput{}, err
	}
	if err := atomicfile.Write(p.real, data, 0); err != nil {
		return NotebookEditOutput{}, err
	}
	filetool.RecordWrite(c, p.key, p.real, data)
	return p.out, nil
}

// ResultBlocks tells the model what changed.
func (NotebookEdit) ResultBlocks(out NotebookEditOutput) []runtime.Block {
	var msg string
	switch out.EditMode {
	case "insert":
		msg = fmt.Sprintf("Inserted %s cell %s in %s.", out.CellType, out.CellID, out.NotebookPath)
	case "delete":
		msg = fmt.Sprintf("Deleted cell %s from %s.", out.CellID, out.NotebookPath)
	default:
		msg = fmt.Sprintf("Updated cell %s of %s with:\n%s", out.CellID, out.NotebookPath, out.NewSource)
	}
	return []runtime.Block{runtime.TextBlock(msg)}
}

// RenderUse shows the notebook relative to the working directory and the
// cell.
func (NotebookEdit) RenderUse(in *NotebookEditInput) string {
	s := filetool.Display(in.NotebookPath)
	if in.CellID != "" {
		s += " · cell " + in.CellID
	}
	return s
}

// RenderResult summarises the edit, e.g. "Replaced cell a1b2".
func (NotebookEdit) RenderResult(_ *NotebookEditInput, out NotebookEditOutput) string {
	switch out.EditMode {
	case "insert":
		return "Inserted " + out.CellType + " cell " + out.CellID
	case "delete":
		return "Deleted cell " + out.CellID
	}
	return "Replaced cell " + out.CellID
}

// RenderRejected says the edit was refused.
func (NotebookEdit) RenderRejected(in *NotebookEditInput) string {
	return "Edit of " + filetool.Display(in.NotebookPath) + " was rejected"
}

// RenderError shows the first line of the error.
func (NotebookEdit) RenderError(_ *NotebookEditInput, err error) string {
	return filetool.FirstLine(err)
}

// RenderGrouped renders parallel notebook edits as one line.
func (NotebookEdit) RenderGrouped(ins []*NotebookEditInput) string {
	names := filetool.DisplayNames(ins, func(in *NotebookEditInput) string { return in.NotebookPath })
	return fmt.Sprintf("Edited %d cells in %s", len(ins), strings.Join(names, ", "))
}
