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

// Write writes a file to the local filesystem, replacing it when it exists.
//
// Usage:
// - file_path must be an absolute path, inside the working directories;
// missing parent directories are created.
// - To overwrite an existing file, Read it first: Write refuses a file not
// read yet, or changed since it was read.
// - The write is atomic and keeps an existing file's permissions.
// - Prefer Edit for changing part of an existing file; never create
// documentation files (*.md, README) unless asked to.
//
// +tool:name=Write
// +tool:permissionFamily=edit-path
// +tool:localOnly
// +tool:destructive
// +tool:searchHint="create or overwrite a file"
type Write struct{}

// WriteInput is the input of Write.
type WriteInput struct {
	// The absolute path of the file to write.
	FilePath string `json:"file_path" jsonschema:"minLength=1"`
	// The content to write to the file.
	Content string `json:"content"`
}

// WriteOutput is what Write did.
type WriteOutput struct {
	// Type is "create" or "update".
	Type string `json:"type"`
	// FilePath is the absolute path written.
	FilePath string `json:"file_path"`
	// Lines is the number of lines written.
	Lines int `json:"lines"`
	// Additions counts the lines an update added.
	Additions int `json:"additions"`
	// Removals counts the lines an update removed.
	Removals int `json:"removals"`
	// Diff is a unified diff of an update.
	Diff string `json:"diff,omitempty"`
	// Diagnostics are the problems a running language server newly
	// reports in the file (runtime.FileDiagnostics).
	Diagnostics string `json:"diagnostics,omitempty"`
}

// writePlan is a checked write.
type writePlan struct {
	key, real string
	before    []byte
	exists    bool
}

func planWrite(in *WriteInput, tc *runtime.ToolContext) (*writePlan, error) {
	key, real, err := filetool.Path(tc, "file_path", in.FilePath)
	if err != nil {
		return nil, err
	}
	p := &writePlan{key: key, real: real}
	fi, err := os.Stat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case err != nil:
		return nil, fmt.Errorf("stat %s: %w", key, err)
	case fi.IsDir():
		return nil, fmt.Errorf("%s is a directory; give the path of a file", key)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (it is a device, pipe or socket); Write only replaces regular files", key)
	}
	p.exists = true
	if p.before, err = os.ReadFile(real); err != nil {
		return nil, fmt.Errorf("read %s: %w", key, err)
	}
	if err := filetool.CheckFresh(tc, key, p.before); err != nil {
		return nil, err
	}
	return p, nil
}

// ValidateInput checks the path and, for an existing file, that it was
// read and has not changed since.
func (Write) ValidateInput(_ context.Context, in *WriteInput, tc *runtime.ToolContext) error {
	_, err := planWrite(in, tc)
	return err
}

// PermissionTarget is the file written.
func (Write) PermissionTarget(in *WriteInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.FilePath), Writes: true}
}

// Call creates the parent directories, writes the file atomically and
// records the new content in the file-state cache.
func (Write) Call(ctx context.Context, in *WriteInput, c *runtime.Call) (WriteOutput, error) {
	p, err := planWrite(in, c.Context)
	if err != nil {
		return WriteOutput{}, err
	}
	if err := ctx.Err(); err != nil {
		return WriteOutput{}, err
	}
	if err := os.MkdirAll(filepath.Dir(p.real), 0o755); err != nil {
		return WriteOutput{}, fmt.Errorf("create the directory of %s: %w", p.key, err)
	}
	if err := filetool.Checkpoint(c.Context, p.key, p.real); err != nil {
		return WriteOutput{}, err
	}
	data := []byte(in.Content)
	if err := atomicfile.Write(p.real, data, 0); err != nil {
		return WriteOutput{}, err
	}
	filetool.RecordWrite(c, p.key, p.real, data)
	out := WriteOutput{Type: "create", FilePath: p.key, Lines: countLines(in.Content), Diagnostics: filetool.Diagnose(ctx, c.Context, p.real)}
	ops := editengine.LineDiff(string(p.before), in.Content)
	out.Additions, out.Removals = editengine.Stats(ops)
	if p.exists {
		out.Type = "update"
		name := strings.TrimPrefix(filetool.Display(p.key), "/")
		out.Diff = editengine.Unified(ops, "a/"+name, "b/"+name, 3)
	}
	return out, nil
}

// countLines counts lines as an editor shows them.
func countLines(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// ResultBlocks tells the model what was written.
func (Write) ResultBlocks(out WriteOutput) []runtime.Block {
	diags := ""
	if out.Diagnostics != "" {
		diags = "\n\n" + out.Diagnostics
	}
	if out.Type == "create" {
		return []runtime.Block{runtime.TextBlock(fmt.Sprintf("File created successfully at: %s (%s)", out.FilePath, filetool.Plural(out.Lines, "line")) + diags)}
	}
	msg := fmt.Sprintf("The file %s has been updated (%s, %s).", out.FilePath, filetool.Plural(out.Additions, "addition"), filetool.Plural(out.Removals, "removal"))
	if out.Diff != "" {
		msg += "\n" + strings.TrimSuffix(filetool.CapDiff(out.Diff), "\n")
	}
	return []runtime.Block{runtime.TextBlock(msg + diags)}
}

// RenderUse shows the path relative to the working directory.
func (Write) RenderUse(in *WriteInput) string { return filetool.Display(in.FilePath) }

// RenderPreview shows what the write will do, for its permission prompt:
// the diff against the file it overwrites, or a new file's first lines.
func (Write) RenderPreview(in *WriteInput, tc *runtime.ToolContext) string {
	p, err := planWrite(in, tc)
	if err != nil {
		return ""
	}
	if !p.exists {
		return filetool.HeadLines(in.Content, filetool.PreviewLines)
	}
	return filetool.DiffBody(editengine.Unified(editengine.LineDiff(string(p.before), in.Content), "a", "b", 3), filetool.PreviewLines)
}

// RenderResult summarises the write, e.g. "Wrote 12 lines to x.go", and
// shows it under the summary: a new file's first lines, or the diff of
// the file it overwrote (capped, "… +N lines").
func (Write) RenderResult(in *WriteInput, out WriteOutput) string {
	name := filetool.Display(out.FilePath)
	if out.Type == "create" {
		content := ""
		if in != nil {
			content = in.Content
		}
		return filetool.WithBody("Wrote "+filetool.Plural(out.Lines, "line")+" to "+name, filetool.HeadLines(content, filetool.ContentLines))
	}
	return filetool.WithBody("Updated "+name+" with "+filetool.Plural(out.Additions, "addition")+" and "+filetool.Plural(out.Removals, "removal"),
		filetool.DiffBody(out.Diff, filetool.DiffLines))
}

// RenderRejected says the write was refused.
func (Write) RenderRejected(in *WriteInput) string {
	return "Write to " + filetool.Display(in.FilePath) + " was rejected"
}

// RenderError shows the first line of the error.
func (Write) RenderError(_ *WriteInput, err error) string { return filetool.FirstLine(err) }

// RenderGrouped renders parallel writes as one line.
func (Write) RenderGrouped(ins []*WriteInput) string {
	names := filetool.DisplayNames(ins, func(in *WriteInput) string { return in.FilePath })
	return "Wrote " + filetool.Plural(len(names), "file") + ": " + strings.Join(names, ", ")
}
