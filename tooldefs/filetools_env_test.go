package tooldefs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs"
)

// Shared by the specs of the file tools (read_test.go, edit_test.go,
// write_test.go, notebook_edit_test.go).

// fileEnv is a working directory in a temp dir with a tool context rooted
// at it, and helpers that run the file tools the way the orchestrator
// does: call, then apply the context modifier.
type fileEnv struct {
	dir     string
	outside string
	tc      *runtime.ToolContext
}

func newFileEnv() *fileEnv {
	base, err := filepath.EvalSymlinks(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	e := &fileEnv{dir: filepath.Join(base, "work"), outside: filepath.Join(base, "outside")}
	Expect(os.MkdirAll(e.dir, 0o755)).To(Succeed())
	Expect(os.MkdirAll(e.outside, 0o755)).To(Succeed())
	e.tc = runtime.NewToolContext(e.dir)
	return e
}

func (e *fileEnv) path(name string) string { return filepath.Join(e.dir, name) }

func (e *fileEnv) put(name, content string) string {
	p := e.path(name)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
	return p
}

func (e *fileEnv) content(p string) string {
	b, err := os.ReadFile(p)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// runCall runs fn with a fresh call handle and applies its modifier.
func runCall[O any](e *fileEnv, fn func(context.Context, *runtime.Call) (O, error)) (O, error) {
	c := runtime.NewCall("toolu_1", e.tc, nil)
	out, err := fn(context.Background(), c)
	if m := c.Modifier(); m != nil {
		m(e.tc)
	}
	return out, err
}

func (e *fileEnv) read(in tooldefs.ReadInput) (tooldefs.ReadOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.ReadOutput, error) {
		return tooldefs.Read{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) mustRead(p string) tooldefs.ReadOutput {
	out, err := e.read(tooldefs.ReadInput{FilePath: p})
	Expect(err).NotTo(HaveOccurred())
	return out
}

func (e *fileEnv) edit(in tooldefs.EditInput) (tooldefs.EditOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.EditOutput, error) {
		return tooldefs.Edit{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) write(in tooldefs.WriteInput) (tooldefs.WriteOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.WriteOutput, error) {
		return tooldefs.Write{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) nbEdit(in tooldefs.NotebookEditInput) (tooldefs.NotebookEditOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.NotebookEditOutput, error) {
		return tooldefs.NotebookEdit{}.Call(ctx, &in, c)
	})
}

func linesFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line%d\n", i)
	}
	return b.String()
}

const sampleNotebook = `{
 "cells": [
  {"cell_type": "markdown", "id": "intro", "metadata": {"tags": ["t"]}, "source": ["# Title\n", "text"]},
  {"cell_type": "code", "execution_count": 1, "id": "calc", "metadata": {}, "source": ["print(1)"],
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["1\n"]},
    {"data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"}
   ]}
 ],
 "metadata": {"kernelspec": {"name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`
