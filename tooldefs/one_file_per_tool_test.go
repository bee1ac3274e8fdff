package tooldefs_test

import (
	"encoding/json"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/features"
)

// toolFile is a file of this package that declares tools.
type toolFile struct {
	name  string   // e.g. "glob.go"
	tools []string // the +tool:name values of its types
}

var toolNameMarker = regexp.MustCompile(`(?m)^\+tool:name=(\S+)`)

// variantTags is the -tags value of the variant this suite was built as.
func variantTags() string {
	if features.Variant == "external" {
		return ""
	}
	return features.Variant
}

// toolFiles lists the files of the package in the current directory that
// the variant compiles and that declare a tool (a type whose doc comment
// has +tool:name), sorted by name.
func toolFiles(tags string) ([]toolFile, error) {
	ctxt := build.Default
	if tags != "" {
		ctxt.BuildTags = []string{tags}
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		return nil, err
	}
	var files []toolFile
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := ctxt.MatchFile(".", name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		tf := toolFile{name: name}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				doc := s.(*ast.TypeSpec).Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if m := toolNameMarker.FindStringSubmatch(doc.Text()); m != nil {
					tf.tools = append(tf.tools, m[1])
				}
			}
		}
		if len(tf.tools) > 0 {
			files = append(files, tf)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	return files, nil
}

// snake is a tool name as its file names it, as toolgen names the
// generated file: NotebookEdit → notebook_edit, an acronym stays one
// word (REPL → repl, MCPSearch → mcp_search).
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if !unicode.IsUpper(prev) || nextLower {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// One file per tool: a tool's file can be deleted alone (with its
// generated wrapper and registry entry, which toolgen drops) and the
// package still builds, because nothing another tool uses lives in it;
// shared helpers live in named sub-packages (filetool, search/searchtool,
// shell). Proved for the variant the suite is built as, by building the
// package with each tool file replaced by an empty one (go build
// -overlay); generated/ is not needed, tooldefs does not import it.
var _ = Describe("one file per tool", Label("slow"), func() {
	tags := variantTags()
	files, listErr := toolFiles(tags)

	It("finds the tool files of the variant, one tool a file, named after it, each with its wrapper", func() {
		Expect(listErr).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		for _, f := range files {
			Expect(f.tools).To(HaveLen(1), "%s declares %v: give each tool its own file", f.name, f.tools)
			Expect(f.name).To(Equal(snake(f.tools[0])+".go"), "the file of %s", f.tools[0])
			Expect(filepath.Join("..", "generated", snake(f.tools[0])+"_tool.go")).To(BeAnExistingFile())
		}
	})

	for _, f := range files {
		It("builds without "+f.name, func() {
			dir := GinkgoT().TempDir()
			empty := filepath.Join(dir, "empty.go")
			Expect(os.WriteFile(empty, []byte("package tooldefs\n"), 0o644)).To(Succeed())
			abs, err := filepath.Abs(f.name)
			Expect(err).NotTo(HaveOccurred())
			overlay, err := json.Marshal(map[string]map[string]string{"Replace": {abs: empty}})
			Expect(err).NotTo(HaveOccurred())
			ov := filepath.Join(dir, "overlay.json")
			Expect(os.WriteFile(ov, overlay, 0o644)).To(Succeed())

			cmd := exec.Command("go", "build", "-tags", tags, "-overlay", ov, ".")
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(),
				"deleting %s alone breaks the build: move what other files use out of it, into a shared sub-package (filetool, search/searchtool, shell)\n%s", f.name, out)
		})
	}
})
