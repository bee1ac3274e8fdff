package gen

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// RuntimePath is the import path of the tool contract the generated code
// implements.
const RuntimePath = "github.com/agentcore/agentcore/runtime"

// LoadConfig says what to load.
type LoadConfig struct {
	// Dir is the tooldefs package directory.
	Dir string
	// BaseDir makes error positions relative; the working directory when
	// empty.
	BaseDir string
	// SkipSchemas leaves Tool.Schema empty instead of running the schema
	// program (for tests of the model alone).
	SkipSchemas bool
}

// loadMode is what toolgen needs from go/packages: syntax with comments
// for markers and docs, and full type information.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedModule

// variantPkg is the tooldefs package as one variant compiles it.
type variantPkg struct {
	v   Variant
	pkg *packages.Package
}

// Load loads the tooldefs package once per variant, parses and checks every
// tool, and returns the model with each tool's schema. All problems found
// are returned together as an ErrorList.
func Load(ctx context.Context, cfg LoadConfig) (*Model, error) {
	base := cfg.BaseDir
	if base == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		base = wd
	}
	base, err := filepath.Abs(base)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	pkgs, err := loadVariants(ctx, dir)
	if err != nil {
		return nil, err
	}
	e := &errs{base: base}
	for _, vp := range pkgs {
		typed := false
		for _, pe := range vp.pkg.Errors {
			typed = typed || pe.Kind != packages.ListError
		}
		for _, pe := range vp.pkg.Errors {
			// The go command's compile output repeats the type errors.
			if typed && pe.Kind == packages.ListError && strings.HasPrefix(pe.Msg, "# ") {
				continue
			}
			e.add(parsePos(pe.Pos), "%s", pe.Msg)
		}
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	b := &builder{e: e, pkgs: pkgs}
	m := b.build()
	if err := e.err(); err != nil {
		return nil, err
	}
	if !cfg.SkipSchemas {
		if err := addSchemas(ctx, dir, m, pkgs); err != nil {
			return nil, err
		}
	}
	if err := addGating(ctx, dir, m, pkgs); err != nil {
		return nil, err
	}
	return m, nil
}

func parsePos(s string) token.Position {
	var p token.Position
	if s == "" || s == "-" {
		return p
	}
	parts := strings.Split(s, ":")
	p.Filename = s
	if len(parts) >= 3 {
		line, err1 := strconv.Atoi(parts[len(parts)-2])
		col, err2 := strconv.Atoi(parts[len(parts)-1])
		if err1 == nil && err2 == nil {
			p.Filename, p.Line, p.Column = strings.Join(parts[:len(parts)-2], ":"), line, col
		}
	} else if len(parts) == 2 {
		if line, err := strconv.Atoi(parts[1]); err == nil {
			p.Filename, p.Line = parts[0], line
		}
	}
	return p
}

// loadVariants runs one packages.Load per variant, concurrently.
func loadVariants(ctx context.Context, dir string) ([]variantPkg, error) {
	out := make([]variantPkg, len(Variants))
	errs := make([]error, len(Variants))
	var wg sync.WaitGroup
	for i, v := range Variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := &packages.Config{Context: ctx, Mode: loadMode, Dir: dir}
			if len(v.Tags) > 0 {
				cfg.BuildFlags = []string{"-tags=" + strings.Join(v.Tags, ",")}
			}
			ps, err := packages.Load(cfg, ".")
			switch {
			case err != nil:
				errs[i] = fmt.Errorf("load %s (variant %s): %w", dir, v.Name, err)
			case len(ps) != 1:
				errs[i] = fmt.Errorf("load %s (variant %s): want one package, got %d", dir, v.Name, len(ps))
			default:
				out[i] = variantPkg{v: v, pkg: ps[0]}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// builder turns the loaded packages into the model, collecting errors.
type builder struct {
	e    *errs
	pkgs []variantPkg
}

// candidate is a type declaration carrying markers.
type candidate struct {
	name     string
	spec     *ast.TypeSpec
	doc      *ast.CommentGroup
	file     *ast.File
	vp       variantPkg
	variants []string
	files    []string
}

func (b *builder) build() *Model {
	m := &Model{PkgPath: b.pkgs[0].pkg.PkgPath, PkgName: b.pkgs[0].pkg.Name}
	b.checkTags()
	b.checkStrayMarkers()
	var order []string
	cands := map[string]*candidate{}
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
					c := cands[ts.Name.Name]
					if c == nil {
						c = &candidate{name: ts.Name.Name, spec: ts, doc: doc, file: f, vp: vp}
						cands[ts.Name.Name] = c
						order = append(order, ts.Name.Name)
					}
					c.variants = append(c.variants, vp.v.Name)
					if file := vp.pkg.Fset.Position(ts.Pos()).Filename; !slices.Contains(c.files, file) {
						c.files = append(c.files, file)
					}
				}
			}
		}
	}
	slices.Sort(order)
	for _, name := range order {
		if t := b.tool(cands[name]); t != nil {
			m.Tools = append(m.Tools, t)
		}
	}
	slices.SortFunc(m.Tools, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	b.checkNames(m.Tools)
	return m
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

// tool checks one marked type and builds its model.
func (b *builder) tool(c *candidate) *Tool {
	pkg := c.vp.pkg
	fset := pkg.Fset
	pos := fset.Position(c.spec.Name.Pos())
	ms, bad := ParseMarkers(commentLines(fset, c.doc), ScopeType)
	for _, e := range bad {
		b.e.add(e.Pos, "%s", e.Msg)
	}
	set := markerSet(ms)
	t := &Tool{TypeName: c.name, Pos: b.e.rel(pos), Methods: map[string]bool{}}
	nameM, ok := set.get("name")
	if !ok {
		b.e.add(pos, "type %s has +tool markers but no +tool:name; add: // +tool:name=%s", c.name, c.name)
		return nil
	}
	t.Name = nameM.Value
	if !isToolName(t.Name) {
		b.e.add(nameM.Pos, "+tool:name: %q is not a valid tool name; use letters, digits, '_' and '-' (at most 64)", t.Name)
	}
	for _, a := range set.all("alias") {
		switch {
		case a.Value == t.Name:
			b.e.add(a.Pos, "+tool:alias: %q is the tool's own name; remove the alias", a.Value)
		case slices.Contains(t.Aliases, a.Value):
			b.e.add(a.Pos, "+tool:alias: %q is given twice; remove one", a.Value)
		case !isToolName(a.Value):
			b.e.add(a.Pos, "+tool:alias: %q is not a valid tool name; use letters, digits, '_' and '-' (at most 64)", a.Value)
		default:
			t.Aliases = append(t.Aliases, a.Value)
		}
	}
	if m, ok := set.get("searchHint"); ok {
		t.SearchHint = m.Value
	}
	if m, ok := set.get("userFacingName"); ok {
		t.UserFacingName = m.Value
	}
	if m, ok := set.get("interrupt"); ok {
		t.InterruptCancel = m.Value == "cancel"
	}
	t.ReadOnly, t.ConcurrencySafe, t.Destructive = set.has("readOnly"), set.has("concurrencySafe"), set.has("destructive")
	t.Disabled, t.ShouldDefer, t.AlwaysLoad = set.has("disabled"), set.has("shouldDefer"), set.has("alwaysLoad")
	if t.ShouldDefer && t.AlwaysLoad {
		m, _ := set.get("alwaysLoad")
		b.e.add(m.Pos, "+tool:alwaysLoad: contradicts +tool:shouldDefer; keep one")
	}
	t.Description = docText(c.doc)
	if t.Description == "" {
		b.e.add(pos, "type %s has no description; write its doc comment (the tool's description for the model) above the markers", c.name)
	}
	t.FileBase = snake(t.Name)

	if len(c.files) > 1 {
		var rel []string
		for _, f := range c.files {
			rel = append(rel, b.e.rel(token.Position{Filename: f}).Filename)
		}
		b.e.add(pos, "type %s is declared in %s for different variants; declare a tool type once and gate it with its file's //go:build line",
			c.name, strings.Join(rel, " and "))
		return nil
	}
	gate, err := FileGate(fset, c.file)
	if err == nil && len(BadTags(gate.Expr)) == 0 {
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
	}

	obj, _ := pkg.Types.Scope().Lookup(c.name).(*types.TypeName)
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
	if !b.methods(t, named, set, pkg, pos) {
		return nil
	}
	return t
}

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

// snake turns a tool name into a file name stem: "NotebookEdit" →
// "notebook_edit", "MCPSearch" → "mcp_search".
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		lower := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
				if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || (prev >= 'A' && prev <= 'Z' && nextLower) {
					b.WriteByte('_')
				}
			}
			b.WriteRune(r + 'a' - 'A')
			continue
		}
		if !lower {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
