package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/atomicfile"
	"github.com/agentcore/agentcore/tooldefs/editengine"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

// Edit performs exact string replacements in files.
//
// Usage:
// - Read the file with the Read tool before editing it: Edit refuses a file
// not read yet, or changed since it was read.
// - When taking old_string from Read's output, keep the indentation exactly
// as it appears after the line number and tab; never include the line
// number or the tab.
// - The edit fails when old_string is not in the file (the error quotes the
// closest region, to copy from), or when it occurs more than once: give
// more surrounding context to make it unique, or set replace_all to change
// every occurrence (e.g. to rename a variable).
// - new_string must differ from old_string.
// - Line endings and the file's permissions are kept; the write is atomic.
// - An empty old_string creates a new file with new_string as its content.
// - Prefer editing existing files to writing new ones.
// - For .ipynb notebooks use NotebookEdit.
//
// +tool:name=Edit
// +tool:localOnly
// +tool:permissionFamily=edit-path
// +tool:searchHint="modify a file by replacing exact text"
type Edit struct{}

// EditInput is the input of Edit.
type EditInput struct {
	// The absolute path of the file to modify.
	FilePath string `json:"file_path" jsonschema:"minLength=1"`
	// The text to replace, exactly as in the file.
	OldString string `json:"old_string"`
	// The text to replace it with (must differ from old_string).
	NewString string `json:"new_string"`
	// Replace every occurrence of old_string (default false).
	ReplaceAll bool `json:"replace_all,omitempty"`
}

// EditOutput is what Edit did.
type EditOutput struct {
	// FilePath is the absolute path edited.
	FilePath string `json:"file_path"`
	// Created is true when the edit created the file.
	Created bool `json:"created,omitempty"`
	// Replacements is the number of occurrences replaced.
	Replacements int `json:"replacements"`
	// Additions counts the lines added.
	Additions int `json:"additions"`
	// Removals counts the lines removed.
	Removals int `json:"removals"`
	// Diff is a unified diff of the change.
	Diff string `json:"diff"`
	// QuotesNormalized is true when old_string only matched once curly and
	// straight quotes were treated as equal.
	QuotesNormalized bool `json:"quotes_normalized,omitempty"`
	// Diagnostics are the problems a running language server newly
	// reports in the file (runtime.FileDiagnostics).
	Diagnostics string `json:"diagnostics,omitempty"`
}

// editPlan is a checked edit, ready to write.
type editPlan struct {
	key, real string
	before    string
	after     string
	created   bool
	res       editengine.Result
}

// planEdit checks everything an edit needs and computes the new content,
// writing nothing.
func planEdit(in *EditInput, tc *runtime.ToolContext) (*editPlan, error) {
	key, real, err := filetool.Path(tc, "file_path", in.FilePath)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(key), ".ipynb") {
		return nil, fmt.Errorf("%s is a Jupyter notebook: edit it with the NotebookEdit tool", key)
	}
	if in.OldString == in.NewString {
		return nil, editengine.ErrNoChange
	}
	if _, err := os.Lstat(real); errors.Is(err, fs.ErrNotExist) {
		if in.OldString == "" {
			return &editPlan{key: key, real: real, after: in.NewString, created: true}, nil
		}
		return nil, fmt.Errorf("%w To create a new file, use Write, or Edit with an empty old_string", filetool.NotExist(tc, key))
	}
	if _, err := filetool.Stat(tc, key, real); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	if filetool.IsBinary(data) {
		return nil, fmt.Errorf("%s is a binary file; Edit changes text files only", key)
	}
	if err := filetool.CheckFresh(tc, key, data); err != nil {
		return nil, err
	}
	p := &editPlan{key: key, real: real, before: string(data)}
	if in.OldString == "" {
		if strings.TrimSpace(p.before) != "" {
			return nil, fmt.Errorf("old_string is empty but %s already exists and is not empty; give the exact text to replace, or use Write to replace the whole file", key)
		}
		p.after = in.NewString
		return p, nil
	}
	p.res, err = editengine.Apply(p.before, editengine.Edit{Old: in.OldString, New: in.NewString, ReplaceAll: in.ReplaceAll})
	if err != nil {
		return nil, err
	}
	p.after = p.res.Content
	return p, nil
}

// ValidateInput runs every check of the edit (path, read-before-write,
// old_string found once) without writing, so a bad call fails before any
// permission prompt.
func (Edit) ValidateInput(_ context.Context, in *EditInput, tc *runtime.ToolContext) error {
	_, err := planEdit(in, tc)
	return err
}

// PermissionTarget is the file written.
func (Edit) PermissionTarget(in *EditInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.FilePath), Writes: true}
}

// editDestructiveBytes is how much net removal makes an edit destructive.
const editDestructiveBytes = 200

// IsDestructive is true when the edit removes much more than it adds: at
// least 200 more bytes removed than added, and what is added is at most a
// quarter of what is removed (replace_all multiplies both alike).
func (Edit) IsDestructive(in *EditInput) bool {
	removed, added := len(in.OldString), len(in.NewString)
	return removed-added >= editDestructiveBytes && added*4 <= removed
}

// UserFacingName is "Create" for an edit that makes a new file, "Update"
// otherwise.
func (Edit) UserFacingName(in *EditInput) string {
	if in.OldString == "" {
		return "Create"
	}
	return "Update"
}

// Call checks the edit again (the file may have changed since
// ValidateInput), writes it atomically and records the new content in the
// file-state cache.
func (Edit) Call(ctx context.Context, in *EditInput, c *runtime.Call) (EditOutput, error) {
	p, err := planEdit(in, c.Context)
	if err != nil {
		return EditOutput{}, err
	}
	if err := ctx.Err(); err != nil {
		return EditOutput{}, err
	}
	if err := filetool.Checkpoint(c.Context, p.key, p.real); err != nil {
		return EditOutput{}, err
	}
	if p.created {
		if err := os.MkdirAll(filepath.Dir(p.real), 0o755); err != nil {
			return EditOutput{}, fmt.Errorf("create the directory of %s: %w", p.key, err)
		}
	}
	if err := atomicfile.Write(p.real, []byte(p.after), 0); err != nil {
		return EditOutput{}, err
	}
	filetool.RecordWrite(c, p.key, p.real, []byte(p.after))
	ops := editengine.LineDiff(p.before, p.after)
	add, rem := editengine.Stats(ops)
	name := filetool.Display(p.key)
	return EditOutput{
		FilePath:         p.key,
		Created:          p.created,
		Replacements:     max(p.res.Count, 1),
		Additions:        add,
		Removals:         rem,
		Diff:             editengine.Unified(ops, "a/"+strings.TrimPrefix(name, "/"), "b/"+strings.TrimPrefix(name, "/"), 3),
		QuotesNormalized: p.res.QuotesNormalized,
		Diagnostics:      filetool.Diagnose(ctx, c.Context, p.real),
	}, nil
}

// ResultBlocks tells the model the edit was made and shows the diff.
func (Edit) ResultBlocks(out EditOutput) []runtime.Block {
	var b strings.Builder
	if out.Created {
		fmt.Fprintf(&b, "File created successfully at: %s", out.FilePath)
		if out.Diagnostics != "" {
			b.WriteString("\n\n" + out.Diagnostics)
		}
		return []runtime.Block{runtime.TextBlock(b.String())}
	}
	fmt.Fprintf(&b, "The file %s has been updated", out.FilePath)
	if out.Replacements > 1 {
		fmt.Fprintf(&b, " (%d replacements)", out.Replacements)
	}
	b.WriteString(".")
	if out.QuotesNormalized {
		b.WriteString(" old_string matched once curly and straight quotes were treated as equal; the file's quote style was kept.")
	}
	if out.Diff != "" {
		b.WriteString("\n")
		b.WriteString(filetool.CapDiff(out.Diff))
	}
	text := strings.TrimSuffix(b.String(), "\n")
	if out.Diagnostics != "" {
		text += "\n\n" + out.Diagnostics
	}
	return []runtime.Block{runtime.TextBlock(text)}
}

// RenderUse shows the path relative to the working directory.
func (Edit) RenderUse(in *EditInput) string { return filetool.Display(in.FilePath) }

// RenderPreview shows the change the edit will make, as the diff's hunks
// (a new file's first lines), for its permission prompt; "" when the edit
// cannot be planned (ValidateInput says why).
func (Edit) RenderPreview(in *EditInput, tc *runtime.ToolContext) string {
	p, err := planEdit(in, tc)
	if err != nil {
		return ""
	}
	if p.created {
		return filetool.HeadLines(p.after, filetool.PreviewLines)
	}
	return filetool.DiffBody(editengine.Unified(editengine.LineDiff(p.before, p.after), "a", "b", 3), filetool.PreviewLines)
}

// RenderResult summarises the change, e.g. "Updated src/x.go with 2
// additions and 1 removal", and shows it under the summary: the diff's
// hunks, or a new file's first lines (capped, "… +N lines").
func (Edit) RenderResult(in *EditInput, out EditOutput) string {
	name := filetool.Display(out.FilePath)
	if out.Created {
		content := ""
		if in != nil {
			content = in.NewString
		}
		return filetool.WithBody("Created "+name+" with "+filetool.Plural(out.Additions, "line"), filetool.HeadLines(content, filetool.ContentLines))
	}
	return filetool.WithBody("Updated "+name+" with "+filetool.Plural(out.Additions, "addition")+" and "+filetool.Plural(out.Removals, "removal"),
		filetool.DiffBody(out.Diff, filetool.DiffLines))
}

// RenderRejected says the edit was refused.
func (Edit) RenderRejected(in *EditInput) string {
	return "Edit of " + filetool.Display(in.FilePath) + " was rejected"
}

// RenderError shows the first line of the error.
func (Edit) RenderError(_ *EditInput, err error) string { return filetool.FirstLine(err) }

// RenderGrouped renders parallel edits as one line.
func (Edit) RenderGrouped(ins []*EditInput) string {
	names := filetool.DisplayNames(ins, func(in *EditInput) string { return in.FilePath })
	return "Edited " + filetool.Plural(len(names), "file") + ": " + strings.Join(names, ", ")
}
