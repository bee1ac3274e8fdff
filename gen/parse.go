package gen

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
)

// The parse step: find the marked type declarations in the variant loads
// and parse their markers; report markers where toolgen does not read
// them.

// candidate is a type declaration carrying markers, merged across the
// variant loads that compile it.
type candidate struct {
	name     string
	spec     *ast.TypeSpec
	doc      *ast.CommentGroup
	file     *ast.File
	vp       variantPkg
	variants []string
	files    []string
}

// candidates returns every type declaration whose doc comment carries
// markers, sorted by type name, with the variants and files that declare
// it.
func (b *builder) candidates() []*candidate {
	var out []*candidate
	byName := map[string]*candidate{}
	for _, vp := range b.pkgs {
		for _, f := range vp.pkg.Syntax {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					if !hasMarkers(doc) {
						continue
					}
					c := byName[ts.Name.Name]
					if c == nil {
						c = &candidate{name: ts.Name.Name, spec: ts, doc: doc, file: f, vp: vp}
						byName[ts.Name.Name] = c
						out = append(out, c)
					}
					c.variants = append(c.variants, vp.v.Name)
					if file := vp.pkg.Fset.Position(ts.Pos()).Filename; !slices.Contains(c.files, file) {
						c.files = append(c.files, file)
					}
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b *candidate) int { return strings.Compare(a.name, b.name) })
	return out
}

// typeMarkers parses the markers of a candidate's doc comment, reporting
// the bad ones.
func (b *builder) typeMarkers(c *candidate) markerSet {
	ms, bad := ParseMarkers(commentLines(c.vp.pkg.Fset, c.doc), ScopeType)
	for _, e := range bad {
		b.e.add(e.Pos, "%s", e.Msg)
	}
	return ms
}

func hasMarkers(cg *ast.CommentGroup) bool {
	for _, l := range commentLines(nil, cg) {
		if IsMarkerLine(l.Text) {
			return true
		}
	}
	return false
}

// commentLines splits a comment group into lines with positions. fset may
// be nil when positions are not needed.
func commentLines(fset *token.FileSet, cg *ast.CommentGroup) []CommentLine {
	if cg == nil {
		return nil
	}
	var out []CommentLine
	for _, c := range cg.List {
		var pos token.Position
		if fset != nil {
			pos = fset.Position(c.Slash)
		}
		if strings.HasPrefix(c.Text, "//") {
			pos.Column += 2
			pos.Offset += 2
			out = append(out, CommentLine{Text: c.Text[2:], Pos: pos})
			continue
		}
		body := strings.TrimSuffix(strings.TrimPrefix(c.Text, "/*"), "*/")
		for i, l := range strings.Split(body, "\n") {
			p := pos
			p.Line += i
			if i == 0 {
				p.Column += 2
			} else {
				p.Column = 1
			}
			out = append(out, CommentLine{Text: l, Pos: p})
		}
	}
	return out
}

// docText is a doc comment's text without marker lines, trimmed.
func docText(cg *ast.CommentGroup) string {
	if cg == nil {
		return ""
	}
	var keep []string
	for _, l := range strings.Split(cg.Text(), "\n") {
		if !IsMarkerLine(l) {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// checkStrayMarkers reports markers where toolgen would not read them: on
// functions, variables and constants, on a parenthesised type group, and
// in any struct field's doc comment.
func (b *builder) checkStrayMarkers() {
	for _, vp := range b.pkgs {
		fset := vp.pkg.Fset
		report := func(cg *ast.CommentGroup, where string) {
			for _, l := range commentLines(fset, cg) {
				if IsMarkerLine(l.Text) {
					p := l.Pos
					p.Column += len(l.Text) - len(strings.TrimLeft(l.Text, " \t"))
					b.e.add(p, "%s: markers on %s are not read; put them in the doc comment of the tool's struct type", strings.TrimSpace(l.Text), where)
				}
			}
		}
		for _, f := range vp.pkg.Syntax {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					report(d.Doc, "a function")
				case *ast.GenDecl:
					switch {
					case d.Tok == token.VAR || d.Tok == token.CONST:
						report(d.Doc, "a "+d.Tok.String()+" declaration")
						for _, sp := range d.Specs {
							if vs, ok := sp.(*ast.ValueSpec); ok {
								report(vs.Doc, "a "+d.Tok.String()+" declaration")
							}
						}
					case d.Tok == token.TYPE && len(d.Specs) > 1:
						report(d.Doc, "a parenthesised type group")
					}
				}
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if st, ok := n.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						_, bad := ParseMarkers(commentLines(fset, fl.Doc), ScopeField)
						for _, e := range bad {
							b.e.add(e.Pos, "%s", e.Msg)
						}
					}
				}
				return true
			})
		}
	}
}
