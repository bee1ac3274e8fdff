package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/lsp"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

// LSP asks a language server about code: goToDefinition, findReferences,
// hover (type and docs), documentSymbol, workspaceSymbol,
// goToImplementation, and the call hierarchy (prepareCallHierarchy,
// incomingCalls, outgoingCalls) of the function at a position. line and
// character are 1-based, as editors show them.
//
// +tool:name=LSP
// +tool:localOnly
// +tool:permissionFamily=read-path
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="code intelligence: definitions, references, symbols"
type LSP struct{}

// LSPInput is the input of LSP.
type LSPInput struct {
	// The LSP operation to perform.
	Operation string `json:"operation" jsonschema:"enum=goToDefinition,enum=findReferences,enum=hover,enum=documentSymbol,enum=workspaceSymbol,enum=goToImplementation,enum=prepareCallHierarchy,enum=incomingCalls,enum=outgoingCalls"`
	// The absolute path to the file.
	FilePath string `json:"filePath" jsonschema:"minLength=1"`
	// The line number (1-based).
	Line int `json:"line" jsonschema:"minimum=1"`
	// The character offset (1-based).
	Character int `json:"character" jsonschema:"minimum=1"`
	// workspaceSymbol's search (default: the name at the position).
	Query string `json:"query,omitempty"`
}

// LSPOutput is a language server's answer, rendered as text.
type LSPOutput struct {
	Operation string `json:"operation"`
	FilePath  string `json:"filePath"`
	// Result is the answer with paths relative to the working directory
	// and 1-based line:character positions.
	Result      string `json:"result"`
	ResultCount int    `json:"resultCount"`
	FileCount   int    `json:"fileCount"`
}

// ValidateInput checks the file and that a language server handles it.
func (LSP) ValidateInput(_ context.Context, in *LSPInput, tc *runtime.ToolContext) error {
	_, _, err := lspTarget(in, tc)
	return err
}

// lspTarget checks the file and finds the session's servers.
func lspTarget(in *LSPInput, tc *runtime.ToolContext) (string, *lsp.Manager, error) {
	key, real, err := filetool.Path(tc, "filePath", in.FilePath)
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Stat(real)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil, filetool.NotExist(tc, key)
	}
	if err != nil {
		return "", nil, err
	}
	if fi.IsDir() {
		return "", nil, fmt.Errorf("%s is a directory; give a source file", key)
	}
	m, err := runtime.Need[*lsp.Manager](tc, "LSP")
	if err != nil {
		return "", nil, err
	}
	if _, ok := m.Servers().For(filepath.Ext(real)); !ok {
		return "", nil, m.NoServerError(real)
	}
	return real, m, nil
}

// PermissionTarget is the file asked about: read rules govern it.
func (LSP) PermissionTarget(in *LSPInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.FilePath)}
}

// Call asks the server, starting it on the first call for its language.
func (LSP) Call(ctx context.Context, in *LSPInput, c *runtime.Call) (LSPOutput, error) {
	real, m, err := lspTarget(in, c.Context)
	if err != nil {
		return LSPOutput{}, err
	}
	root := c.Context.Cwd
	if info, ok := runtime.Service[runtime.SessionInfo](c.Context); ok && info.Dir() != "" {
		root = info.Dir()
	}
	res, err := m.Query(ctx, lsp.Request{Operation: in.Operation, Path: real, Line: in.Line, Character: in.Character, Query: in.Query, Root: root})
	if err != nil {
		return LSPOutput{}, fmt.Errorf("%s failed: %w", in.Operation, err)
	}
	return LSPOutput{Operation: in.Operation, FilePath: in.FilePath, Result: res.Text, ResultCount: res.Count, FileCount: res.Files}, nil
}

// ResultBlocks is the rendered answer.
func (LSP) ResultBlocks(out LSPOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(out.Result)}
}

// RenderUse shows the operation and the position.
func (LSP) RenderUse(in *LSPInput) string {
	return fmt.Sprintf("%s %s:%d:%d", in.Operation, filetool.Display(in.FilePath), in.Line, in.Character)
}

// RenderResult is the answer's first line.
func (LSP) RenderResult(_ *LSPInput, out LSPOutput) string {
	first, _, _ := strings.Cut(out.Result, "\n")
	return first
}
