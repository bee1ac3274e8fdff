package tooldefs

import (
	"context"
	"os"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// FileRead reads a text file and returns it with line numbers.
//
// +tool:name=FileRead
// +tool:alias=ReadFile
// +tool:alias=Cat
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="read a file"
type FileRead struct{}

// FileReadInput is a typical Read-like input.
type FileReadInput struct {
	// The absolute path of the file to read.
	FilePath string `json:"file_path" jsonschema:"minLength=1"`
	// The 1-based line to start at.
	Offset int `json:"offset,omitempty" jsonschema:"minimum=0"`
	// How many lines to read.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1,default=2000"`
}

// Call reads the file.
func (FileRead) Call(_ context.Context, in *FileReadInput, _ *runtime.Call) (string, error) {
	b, err := os.ReadFile(in.FilePath)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(b), "\n")
	if in.Offset > 0 && in.Offset <= len(lines) {
		lines = lines[in.Offset-1:]
	}
	if in.Limit > 0 && in.Limit < len(lines) {
		lines = lines[:in.Limit]
	}
	return strings.Join(lines, "\n"), nil
}
