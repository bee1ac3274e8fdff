package classify_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/shellsyntax"
	"github.com/agentcore/agentcore/tooldefs/shell/classify"
)

// corpusSources are the spec files whose command lines make the
// differential corpus, relative to the module root: the classifier's
// tables and fuzz seeds, the permission engine's shell tables and fuzz
// seeds, and shellsyntax's own.
var corpusSources = []string{
	"tooldefs/shell/classify/classify_test.go",
	"tooldefs/shell/classify/fuzz_test.go",
	"runtime/permission/shell_table_test.go",
	"runtime/permission/fuzz_test.go",
	"runtime/shellsyntax/word_test.go",
	"runtime/shellsyntax/commands_test.go",
	"runtime/shellsyntax/fuzz_test.go",
}

// corpusDirs hold go fuzz corpus files ("go test fuzz v1").
var corpusDirs = []string{"tooldefs/shell/classify/testdata/fuzz/FuzzClassify"}

// moduleRoot is the module root: specs run in the package directory,
// three levels below it.
func moduleRoot() string {
	root := filepath.Join("..", "..", "..")
	_, err := os.Stat(filepath.Join(root, "go.mod"))
	Expect(err).NotTo(HaveOccurred(), "the module root is three levels above tooldefs/shell/classify")
	return root
}

// specStrings returns the string literals a spec file feeds its subjects:
// every argument of an Entry call and every element of a []string in a
// Fuzz function (the seeds), with the arguments of f.Add.
func specStrings(path string) []string {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	add := func(e ast.Expr) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			Expect(err).NotTo(HaveOccurred())
			out = append(out, s)
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if !strings.HasPrefix(n.Name.Name, "Fuzz") {
				return true
			}
			ast.Inspect(n.Body, func(m ast.Node) bool {
				if cl, ok := m.(*ast.CompositeLit); ok {
					if at, ok := cl.Type.(*ast.ArrayType); ok {
						if id, ok := at.Elt.(*ast.Ident); ok && id.Name == "string" {
							for _, e := range cl.Elts {
								add(e)
							}
						}
					}
				}
				if call, ok := m.(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Add" {
						for _, a := range call.Args {
							add(a)
						}
					}
				}
				return true
			})
			return false
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "Entry" {
				for _, a := range n.Args {
					add(a)
				}
			}
		case *ast.CompositeLit:
			// Tables kept as data: wordCase{src, …} rows.
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == "wordCase" && len(n.Elts) > 0 {
				add(n.Elts[0])
			}
		}
		return true
	})
	return out
}

// fuzzCorpus returns the string inputs of a go fuzz corpus directory.
func fuzzCorpus(dir string) []string {
	entries, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
				Expect(err).NotTo(HaveOccurred(), "%s: %s", e.Name(), line)
				out = append(out, s)
			}
		}
	}
	return out
}

// corpus is every distinct command line of the corpus sources, sorted.
func corpus() []string {
	root := moduleRoot()
	seen := map[string]bool{}
	for _, p := range corpusSources {
		for _, s := range specStrings(filepath.Join(root, p)) {
			seen[s] = true
		}
	}
	for _, d := range corpusDirs {
		for _, s := range fuzzCorpus(filepath.Join(root, d)) {
			seen[s] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// seen is one simple command as a consumer holds it: its number of
// assignments and its words, each a literal word's value or another
// word's source.
type seen struct {
	Assigns int
	Words   []string
	Literal []bool
}

// byClassifier is what the classifier reads in line, without bare
// assignments (the permission engine taints those instead of listing
// them); nil when the line does not parse.
func byClassifier(line string) []seen {
	_, cmds, err := classify.Commands(line)
	if err != nil {
		return nil
	}
	var out []seen
	for _, c := range cmds {
		if len(c.Args) == 0 {
			continue
		}
		s := seen{Assigns: len(c.Assigns)}
		for i, w := range c.Args {
			// The engine reads words after brace expansion, as bash makes
			// them ({rm,-rf,x} is rm -rf x); the classifier judges a brace
			// word whole, which only makes it less ready to call a command
			// read-only. Compare the words bash makes.
			if c.Call != nil {
				if alts, ok := braceWords(c.Call.Args[i]); ok {
					for _, a := range alts {
						s.Words = append(s.Words, a)
						s.Literal = append(s.Literal, true)
					}
					continue
				}
			}
			if w.Literal {
				s.Words = append(s.Words, w.Value)
			} else {
				s.Words = append(s.Words, w.Source)
			}
			s.Literal = append(s.Literal, w.Literal)
		}
		out = append(out, s)
	}
	return out
}

// braceWords returns the words brace expansion makes of w, when it makes
// literal ones.
func braceWords(w *syntax.Word) ([]string, bool) {
	cp := *w
	cp.Parts = append([]syntax.WordPart(nil), w.Parts...)
	if !syntax.SplitBraces(&cp) {
		return nil, false
	}
	var out []string
	for x, err := range expand.BracesSeq(nil, &cp) {
		if err != nil || len(out) >= 256 {
			return nil, false
		}
		v := shellsyntax.EvalWord(x)
		if !v.Literal {
			return nil, false
		}
		out = append(out, v.Value)
	}
	return out, len(out) > 0
}

// byPermission is what the permission engine's rules read in line.
func byPermission(line string) []seen {
	var out []seen
	for _, c := range permission.ShellCommands(line) {
		out = append(out, seen{Assigns: len(c.Assigns), Words: c.Words, Literal: c.Literal})
	}
	return out
}

var _ = Describe("the classifier and the permission engine", func() {
	lines := corpus()

	It("draw on a corpus of every table and fuzz seed", func() {
		Expect(len(lines)).To(BeNumerically(">", 500))
		Expect(lines).To(ContainElements("git status --short", "ls -la src", `$'\x72m' -rf x`, "x=$("))
	})

	It("see the same simple commands in every line of it", func() {
		for _, line := range lines {
			Expect(byPermission(line)).To(Equal(byClassifier(line)), "command %q", line)
		}
	})
})
