package gen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// The check step: what must hold across files, variants and tools, and
// of a tool's type before its methods and input are read.

// checkTags reports build tags outside the three variants in every file of
// the package, including files no variant compiles.
func (b *builder) checkTags() {
	seen := map[string]bool{}
	check := func(fset *token.FileSet, f *ast.File, name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		g, err := FileGate(fset, f)
		if err != nil {
			b.e.add(g.Pos, "%v", err)
			return
		}
		if bad := BadTags(g.Expr); len(bad) > 0 {
			b.e.add(g.Pos, "//go:build %s: build tag %s is not a variant; only %s may gate a tooldef",
				g.Expr, strings.Join(bad, ", "), strings.Join(AllowedTags, ", "))
			return
		}
		if _, err := g.In(Variants[0]); err != nil {
			b.e.add(g.Pos, "%v", err)
		}
	}
	for _, vp := range b.pkgs {
		for i, f := range vp.pkg.Syntax {
			name := ""
			if i < len(vp.pkg.CompiledGoFiles) {
				name = vp.pkg.CompiledGoFiles[i]
			}
			if name == "" {
				name = vp.pkg.Fset.Position(f.Package).Filename
			}
			check(vp.pkg.Fset, f, name)
		}
		for _, name := range vp.pkg.IgnoredFiles {
			if seen[name] || strings.HasSuffix(name, "_test.go") || !strings.HasSuffix(name, ".go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.PackageClauseOnly)
			if err != nil {
				b.e.add(token.Position{Filename: name}, "%v", err)
				continue
			}
			check(fset, f, name)
		}
	}
}

// checkNames reports a name or alias used twice within a variant, once
// per clash, naming the variants where it clashes.
func (b *builder) checkNames(tools []*Tool) {
	type clash struct {
		t, o     *Tool
		what, n  string
		variants []string
	}
	var clashes []*clash
	find := func(t, o *Tool, n string) *clash {
		for _, c := range clashes {
			if c.t == t && c.o == o && c.n == n {
				return c
			}
		}
		return nil
	}
	for _, v := range Variants {
		owner := map[string]*Tool{}
		for _, t := range tools {
			if !slices.Contains(t.Variants, v.Name) {
				continue
			}
			for i, n := range append([]string{t.Name}, t.Aliases...) {
				o := owner[n]
				if o == nil || o == t {
					owner[n] = t
					continue
				}
				c := find(t, o, n)
				if c == nil {
					what := "name"
					if i > 0 {
						what = "alias"
					}
					c = &clash{t: t, o: o, what: what, n: n}
					clashes = append(clashes, c)
				}
				c.variants = append(c.variants, v.Name)
			}
		}
	}
	for _, c := range clashes {
		where := "the " + c.variants[0] + " variant"
		if len(c.variants) > 1 {
			where = "variants " + variantNames(c.variants)
		}
		b.e.add(c.t.Pos, "%s %q of tool %s is already used by tool %s (%s) in %s; names and aliases must be unique",
			c.what, c.n, c.t.TypeName, c.o.TypeName, b.e.rel(c.o.Pos), where)
	}
	files := map[string]*Tool{}
	for _, t := range tools {
		if o := files[t.FileBase]; o != nil && o.Name != t.Name {
			b.e.add(t.Pos, "tools %s and %s would both generate %s_tool.go; rename one", o.Name, t.Name, t.FileBase)
		}
		files[t.FileBase] = t
	}
}

// checkVariants records the tool's build line and variants and checks
// them against the variant loads that compiled its type. It reports false
// when the type is declared more than once, which cannot be generated.
func (b *builder) checkVariants(t *Tool, c *candidate, pos token.Position) bool {
	if len(c.files) > 1 {
		var rel []string
		for _, f := range c.files {
			rel = append(rel, b.e.rel(token.Position{Filename: f}).Filename)
		}
		b.e.add(pos, "type %s is declared in %s for different variants; declare a tool type once and gate it with its file's //go:build line",
			c.name, strings.Join(rel, " and "))
		return false
	}
	gate, err := FileGate(c.vp.pkg.Fset, c.file)
	if err != nil || len(BadTags(gate.Expr)) > 0 {
		return true // reported by checkTags
	}
	t.BuildLine = gate.Line()
	for _, v := range Variants {
		in, err := gate.In(v)
		if err != nil {
			break // reported by checkTags
		}
		if in {
			t.Variants = append(t.Variants, v.Name)
		}
	}
	if !slices.Equal(t.Variants, c.variants) {
		b.e.add(pos, "type %s is compiled into variants %s but its //go:build line says %s",
			c.name, variantNames(c.variants), variantNames(t.Variants))
	}
	return true
}

// toolType returns the candidate's type from the type-checked package, or
// nil when it cannot be a tool.
func (b *builder) toolType(c *candidate, pos token.Position) *types.Named {
	obj, _ := c.vp.pkg.Types.Scope().Lookup(c.name).(*types.TypeName)
	if obj == nil {
		b.e.add(pos, "type %s: not found in the type-checked package", c.name)
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	if named == nil {
		b.e.add(pos, "type %s: a tool must be a defined struct type, not an alias", c.name)
		return nil
	}
	if named.TypeParams().Len() > 0 {
		b.e.add(pos, "type %s is generic; a tool type cannot have type parameters", c.name)
		return nil
	}
	return named
}

// isToolName reports whether s is a name the Anthropic API takes for a
// tool.
func isToolName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
