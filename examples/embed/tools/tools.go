// Package tools holds this program's own tools, next to agentcore's
// built-ins: annotated structs that toolgen turns into runtime.Tools in
// ../gen (see ../main.go's go:generate line).
package tools

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

// Greet says hello to someone by name.
//
// +tool:name=Greet
// +tool:readOnly
// +tool:concurrencySafe
type Greet struct{}

// GreetInput is Greet's input.
type GreetInput struct {
	// The name of the person to greet.
	Name string `json:"name" jsonschema:"minLength=1"`
}

// Call greets.
func (Greet) Call(_ context.Context, in *GreetInput, _ *runtime.Call) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

// CountLines counts the lines of a text file.
//
// +tool:name=CountLines
// +tool:readOnly
// +tool:concurrencySafe
// +tool:permissionFamily=read-path
type CountLines struct{}

// CountLinesInput is CountLines' input.
type CountLinesInput struct {
	// The absolute path of the file.
	Path string `json:"path" jsonschema:"minLength=1"`
}

// PermissionTarget lets Read's path rules and the working directories
// govern the file read.
func (CountLines) PermissionTarget(in *CountLinesInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.Path)}
}

// Call counts the file's lines.
func (CountLines) Call(_ context.Context, in *CountLinesInput, _ *runtime.Call) (string, error) {
	data, err := os.ReadFile(in.Path)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d lines", bytes.Count(data, []byte("\n"))), nil
}
