package main_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
)

// The runtime knows no concrete tool (DESIGN §1): what differs between
// tools is data they declare or the caller passes, never a name the
// runtime matches on.
var _ = Describe("the runtime's layering", func() {
	It("has no tool name or alias as a string literal outside tests", func() {
		names := map[string]bool{}
		for _, t := range generated.AllBaseTools() {
			names[t.Name()] = true
			for _, a := range t.Aliases() {
				names[a] = true
			}
		}
		Expect(names).To(HaveKey("Bash"), "the registry lists the built-ins")
		var found []string
		fset := token.NewFileSet()
		root := filepath.Join(repoRoot(), "runtime")
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					found = append(found, fset.Position(lit.Pos()).String()+": "+lit.Value)
				}
				return true
			})
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(found).To(BeEmpty(), "declare the difference on the tool (a marker, Traits) or take it from the caller (Options)")
	})

	It("imports neither tooldefs nor generated from any runtime package", func() {
		for _, tags := range []string{"", "internal", "ant"} {
			cmd := exec.Command("go", "list", "-tags", tags, "-deps", "./runtime/...")
			cmd.Dir = repoRoot()
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			for _, pkg := range strings.Fields(string(out)) {
				Expect(pkg).NotTo(HavePrefix("github.com/agentcore/agentcore/tooldefs"), "tags %q", tags)
				Expect(pkg).NotTo(HavePrefix("github.com/agentcore/agentcore/generated"), "tags %q", tags)
			}
		}
	})

	It("keeps the CLI off the sandbox's and the shell's packages: it reaches them through runtime and generated", func() {
		// The session owns the sandbox (runtime/sandbox); the Bash tool's
		// engine is the generated tool's business.
		for _, tags := range []string{"", "internal", "ant"} {
			cmd := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "./cmd/...")
			cmd.Dir = repoRoot()
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				pkg, imports, _ := strings.Cut(line, ": ")
				for _, imp := range strings.Fields(imports) {
					Expect(imp).NotTo(Or(HavePrefix("github.com/agentcore/agentcore/tooldefs/shell"), HavePrefix("github.com/agentcore/agentcore/tooldefs/tool_search")),
						"%s imports %s (tags %q)", pkg, imp, tags)
				}
			}
		}
	})
})
