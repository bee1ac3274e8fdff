package gen

import (
	"bytes"
	_ "embed" // markerdefs.go, for the marker types' doc comments
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
)

// markerDefsGo is this package's markerdefs.go. The marker table's help
// text is read from its doc comments, so the table cannot drift from the
// types the binary was built with.
//
//go:embed markerdefs.go
var markerDefsGo []byte

// markerHelp maps each type of markerdefs.go to its help text: the first
// paragraph of its doc comment, on one line, without the leading type name
// and the final period. A doc comment that does not start with the type
// name gives no help text.
var markerHelp = sync.OnceValue(func() map[string]string {
	f, err := parser.ParseFile(token.NewFileSet(), "markerdefs.go", markerDefsGo, parser.ParseComments)
	if err != nil {
		panic(fmt.Sprintf("gen: parse the embedded markerdefs.go: %v", err)) // it compiled, so it parses
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE || len(gd.Specs) != 1 {
			continue
		}
		name := gd.Specs[0].(*ast.TypeSpec).Name.Name
		para, _, _ := strings.Cut(gd.Doc.Text(), "\n\n")
		para = strings.Join(strings.Fields(para), " ")
		if help, ok := strings.CutPrefix(para, name+" "); ok {
			out[name] = strings.TrimSuffix(help, ".")
		}
	}
	return out
})

// Help is what the marker means: the doc comment of its Go type
// (markerdefs.go) after the type name, e.g. "makes IsReadOnly true for
// every input".
func (d MarkerDef) Help() string {
	return markerHelp()[d.TypeName]
}

// markerTableHeader is the first row of the marker table.
var markerTableHeader = []string{"key", "value", "example", "meaning"}

// MarkerTable is the marker table of tooldefs/doc.go as doc comment lines
// ("//\t" and a row each): per key of Markers its value kind, an example
// and its help text.
func MarkerTable() string {
	var rows bytes.Buffer
	w := tabwriter.NewWriter(&rows, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(markerTableHeader, "\t"))
	for _, d := range Markers {
		help := d.Help()
		if d.Repeatable {
			help += "; repeatable"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", d.Key, d.Value, d.Example, help)
	}
	w.Flush()
	var out strings.Builder
	for _, l := range strings.SplitAfter(rows.String(), "\n") {
		if l != "" {
			out.WriteString("//\t" + l)
		}
	}
	return out.String()
}

// RewriteMarkerTable returns src, Go source whose doc comment holds the
// marker table, with the table replaced by MarkerTable(). The table is the
// line "//\t" followed by the words key, value, example and meaning, and
// the "//\t" lines after it.
func RewriteMarkerTable(src []byte) ([]byte, error) {
	lines := strings.SplitAfter(string(src), "\n")
	start := -1
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "//\t"); ok && slices.Equal(strings.Fields(rest), markerTableHeader) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no marker table; add a doc comment line %q where it goes", "//\t"+strings.Join(markerTableHeader, " "))
	}
	end := start + 1
	for end < len(lines) && strings.HasPrefix(lines[end], "//\t") {
		end++
	}
	var out strings.Builder
	for _, l := range lines[:start] {
		out.WriteString(l)
	}
	out.WriteString(MarkerTable())
	for _, l := range lines[end:] {
		out.WriteString(l)
	}
	return []byte(out.String()), nil
}
