// Package fileinfo is the tool of docs/writing-a-tool.md: FileInfo, which
// returns a path's metadata. It lives outside the shipped registry; its
// generated wrapper is in ./generated (make generate writes it).
package fileinfo

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
)

// FileInfo returns the metadata of a file or directory: its size, kind,
// permissions, modification time and, for a symbolic link, its target.
// Use it instead of reading a file when you only need to know whether it
// exists, how big it is or when it changed.
//
// +tool:name=FileInfo
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="file size, permissions and modification time"
type FileInfo struct{}

// FileInfoInput is the input of FileInfo.
type FileInfoInput struct {
	// The path to describe, absolute or relative to the working directory.
	Path string `json:"path" jsonschema:"minLength=1"`
}

// FileInfoOutput is a path's metadata.
type FileInfoOutput struct {
	Path       string    `json:"path"`
	Kind       string    `json:"kind"`
	Size       int64     `json:"size"`
	Mode       string    `json:"mode"`
	ModTime    time.Time `json:"mod_time"`
	LinkTarget string    `json:"link_target,omitempty"`
}

// PermissionTarget is the path, read: rules like FileInfo(./secrets/**)
// match it, and it must lie inside the working directories.
func (FileInfo) PermissionTarget(in *FileInfoInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: in.Path}
}

// Call stats the path (without following a final symlink).
func (FileInfo) Call(_ context.Context, in *FileInfoInput, c *runtime.Call) (FileInfoOutput, error) {
	path := c.Context.Resolve(in.Path)
	if _, err := fspath.Confine(path, c.Context.WorkingDirs); err != nil {
		return FileInfoOutput{}, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return FileInfoOutput{}, fmt.Errorf("%s does not exist; check the path, or list the directory with Glob", in.Path)
		}
		return FileInfoOutput{}, err
	}
	out := FileInfoOutput{Path: path, Kind: "file", Size: fi.Size(), Mode: fi.Mode().Perm().String(), ModTime: fi.ModTime().UTC()}
	switch {
	case fi.IsDir():
		out.Kind = "directory"
	case fi.Mode()&os.ModeSymlink != 0:
		out.Kind = "symlink"
		out.LinkTarget, _ = os.Readlink(path)
	}
	return out, nil
}

// RenderUse shows the path: FileInfo(src/main.go).
func (FileInfo) RenderUse(in *FileInfoInput) string { return in.Path }

// RenderResult summarises the answer: "file, 1204 bytes".
func (FileInfo) RenderResult(_ *FileInfoInput, out FileInfoOutput) string {
	return fmt.Sprintf("%s, %d bytes", out.Kind, out.Size)
}
