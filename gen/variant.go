package gen

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/token"
	"slices"
	"strings"
)

// Variant is one build variant of agentcore (DESIGN §4).
type Variant struct {
	// Name is external, internal or ant.
	Name string
	// Tags are the build tags the variant is compiled with.
	Tags []string
	// Constraint is the //go:build expression of the variant's registry
	// file: true exactly when the variant is built.
	Constraint string
}

// Variants lists the build variants in registry order.
var Variants = []Variant{
	{Name: "external", Constraint: "!internal && !ant"},
	{Name: "internal", Tags: []string{"internal"}, Constraint: "internal && !ant"},
	{Name: "ant", Tags: []string{"ant"}, Constraint: "ant"},
}

// AllowedTags are the only build tags a tooldef file may use.
var AllowedTags = []string{"external", "internal", "ant"}

// Gate is a tooldef file's //go:build line.
type Gate struct {
	// Expr is the parsed constraint; nil for a file without one.
	Expr constraint.Expr
	// Pos is where the line is.
	Pos token.Position
}

// Line returns the constraint in canonical form ("internal || ant"), or ""
// for an ungated file.
func (g Gate) Line() string {
	if g.Expr == nil {
		return ""
	}
	return g.Expr.String()
}

// FileGate returns the //go:build line of a parsed file.
func FileGate(fset *token.FileSet, f *ast.File) (Gate, error) {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			pos := fset.Position(c.Pos())
			x, err := constraint.Parse(c.Text)
			if err != nil {
				return Gate{Pos: pos}, fmt.Errorf("bad //go:build line: %w", err)
			}
			return Gate{Expr: x, Pos: pos}, nil
		}
	}
	return Gate{}, nil
}

// BadTags returns the tags of x outside AllowedTags, sorted.
func BadTags(x constraint.Expr) []string {
	var bad []string
	var walk func(constraint.Expr)
	walk = func(x constraint.Expr) {
		switch x := x.(type) {
		case *constraint.TagExpr:
			if !slices.Contains(AllowedTags, x.Tag) && !slices.Contains(bad, x.Tag) {
				bad = append(bad, x.Tag)
			}
		case *constraint.NotExpr:
			walk(x.X)
		case *constraint.AndExpr:
			walk(x.X)
			walk(x.Y)
		case *constraint.OrExpr:
			walk(x.X)
			walk(x.Y)
		}
	}
	if x != nil {
		walk(x)
	}
	slices.Sort(bad)
	return bad
}

// In reports whether a file gated by g is compiled into variant v. The
// external variant is built with no tag or with -tags external, so a line
// that gives different answers for the two is an error.
func (g Gate) In(v Variant) (bool, error) {
	if g.Expr == nil {
		return true, nil
	}
	eval := func(tags []string) bool {
		return g.Expr.Eval(func(tag string) bool { return slices.Contains(tags, tag) })
	}
	in := eval(v.Tags)
	if v.Name == "external" && in != eval([]string{"external"}) {
		return false, fmt.Errorf("//go:build %s: the external variant is built with no tag or with -tags external, "+
			"and this line includes the file in only one of them; write it with !internal and !ant instead", g.Expr)
	}
	return in, nil
}

// variantNames joins variant names for messages.
func variantNames(vs []string) string { return strings.Join(vs, ", ") }
