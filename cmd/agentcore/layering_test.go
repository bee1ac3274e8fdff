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

	// Tools see the capabilities the session provides (runtime.Need), not
	// the session: runtime/session is for front ends.
	It("imports runtime/session from no tooldefs package", func() {
		for _, tags := range []string{"", "internal", "ant"} {
			cmd := exec.Command("go", "list", "-tags", tags, "-deps", "./tooldefs/...")
			cmd.Dir = repoRoot()
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			Expect(strings.Fields(string(out))).To(ContainElement("github.com/agentcore/agentcore/runtime"), "tags %q: the listing is the tooldefs' dependencies", tags)
			Expect(strings.Fields(string(out))).NotTo(ContainElement("github.com/agentcore/agentcore/runtime/session"),
				"tags %q: ask the ToolContext for a capability (runtime.Need) instead", tags)
		}
	})

	It("keeps the CLI off every tooldefs package: it reaches the tools through generated and the engine through runtime", func() {
		// The session owns the sandbox (runtime/sandbox); the Bash tool's
		// engine is the generated tool's business; agent types and skills
		// are runtime/agents' and runtime/skills'. The one exception is
		// the ant build's grep and find dispatch, which only a program's
		// main may link in (multicall_ant.go; issue 36 asked for it there).
		const tooldefs = "github.com/agentcore/agentcore/tooldefs"
		const dispatch = tooldefs + "/search/gnu/multicall/dispatch"
		for _, tags := range []string{"", "internal", "ant"} {
			cmd := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "./cmd/...")
			cmd.Dir = repoRoot()
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "%s", out)
			Expect(string(out)).To(ContainSubstring("github.com/agentcore/agentcore/cmd/agentcore: "), "tags %q: the listing has the CLI", tags)
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				pkg, imports, _ := strings.Cut(line, ": ")
				for _, imp := range strings.Fields(imports) {
					if imp == dispatch && pkg == "github.com/agentcore/agentcore/cmd/agentcore" && tags == "ant" {
						continue
					}
					Expect(imp).NotTo(Or(Equal(tooldefs), HavePrefix(tooldefs+"/")), "%s imports %s (tags %q)", pkg, imp, tags)
				}
			}
		}
	})
})
