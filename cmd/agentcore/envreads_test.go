package main_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// envReadExceptions are the library files that may read the process's
// environment, each with its reason; docs/embedding.md lists them too.
// Every other non-test file outside cmd/ takes typed options instead.
var envReadExceptions = map[string]string{
	// Environments handed on to a child process: the child gets the
	// agent's, as in Claude Code.
	"runtime/hooks/hooks.go":         "a hook command's environment: the agent's, plus CLAUDE_PROJECT_DIR",
	"runtime/hooks/http.go":          "an http hook's header values: the variables its allowedEnvVars names, from the agent's environment as a command hook gets them",
	"runtime/mcp/manager.go":         "a stdio MCP server's environment: the agent's, plus the config's env",
	"runtime/lsp/client.go":          "a language server's environment: the agent's, plus the config's env",
	"tooldefs/shell/run.go":          "a shell command's environment: the agent's without the credentials (sandbox.Scrub)",
	"tooldefs/worktree/git.go":       "git's environment: the agent's without GIT_DIR and its kind",
	"tooldefs/bash.go":               "the PATH a command gets, with the embedded grep and find first on it",
	"tooldefs/shell/bash_unix.go":    "finding bash on PATH, as exec.LookPath does",
	"tooldefs/shell/bash_windows.go": "finding Git for Windows' bash on PATH, or at AGENTCORE_GIT_BASH_PATH (to become an option: Windows only, untested here)",
	// Programs, not libraries.
	"tooldefs/search/gnu/find/shared.go":           "ant's multicall find and grep read their own environment (POSIXLY_CORRECT, the locale) as the programs they are",
	"runtime/durable/temporal/internal/cli/cli.go": "the durable module's command line: a front end, like cmd/",
	// Not yet an option.
	"tooldefs/tasklist/store.go": "AGENTCORE_ENABLE_TASKS decides IsEnabled, which takes no tool context to read an option from",
}

var _ = Describe("reading the environment", func() {
	It("happens in cmd/ only: library files outside the listed exceptions call no os.Getenv, os.LookupEnv or os.Environ", func() {
		root := repoRoot()
		fset := token.NewFileSet()
		var found []string
		seen := map[string]bool{}
		for _, top := range []string{"runtime", "tooldefs", "generated", "features", "gen"} {
			err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(root, path)
				rel = filepath.ToSlash(rel)
				if d.IsDir() {
					// testdata holds test programs; tooltest is the
					// specs' helper (AGENTCORE_REQUIRE).
					if d.Name() == "testdata" || rel == "runtime/tooltest" {
						return filepath.SkipDir
					}
					return nil
				}
				if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
					return nil
				}
				f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
				if err != nil {
					return err
				}
				osName := ""
				for _, imp := range f.Imports {
					if p, _ := strconv.Unquote(imp.Path.Value); p == "os" {
						osName = "os"
						if imp.Name != nil {
							osName = imp.Name.Name
						}
					}
				}
				if osName == "" {
					return nil
				}
				ast.Inspect(f, func(n ast.Node) bool {
					sel, ok := n.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == osName {
						switch sel.Sel.Name {
						case "Getenv", "LookupEnv", "Environ":
							seen[rel] = true
							if _, ok := envReadExceptions[rel]; !ok {
								found = append(found, fset.Position(sel.Pos()).String()+": os."+sel.Sel.Name)
							}
						}
					}
					return true
				})
				return nil
			})
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(found).To(BeEmpty(), "take the value as a typed option (session.Options, the provider's Options, runtime.ToolOptions) "+
			"and read the variable in cmd/agentcore/env.go; or, when it is not configuration, list the file in envReadExceptions and docs/embedding.md with its reason")
		Expect(seen).To(HaveKey("tooldefs/shell/run.go"), "the walk reaches the tools' files")
		for file := range envReadExceptions {
			Expect(seen).To(HaveKey(file), "%s reads no environment any more: take it off envReadExceptions and docs/embedding.md", file)
		}
	})
})
