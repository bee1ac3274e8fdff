package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// GatingFile is the name, in the output directory, of the gating list.
const GatingFile = "gating.json"

// Gating is what toolgen knows about which code each variant leaves out,
// written as gating.json for the absence specs to read (they cannot
// import a gated package to ask). Everything in it is sorted.
//
// The banned packages of a variant follow one rule. Take the tooldefs
// files the variant does not compile (gated tools and gated helper files)
// and the packages under the tooldefs directory that each reaches through
// its imports, in the variants that do compile it. Remove every package the
// kept code reaches: the tooldefs package as the variant compiles it, plus
// the runtime and jsonin packages every generated tool file imports. What is
// left is reached only from code the variant leaves out, so the variant's
// binary must not contain it.
//
// Only packages under the tooldefs directory are banned: by the layering
// (cmd → generated → tooldefs → runtime) nothing but tooldefs and the
// definitions generated from it may import them, so toolgen sees every user.
// A package outside it, from the runtime or a library, may be imported by
// the program for its own reasons (doublestar is reached only from Glob
// among the tooldefs, yet runtime/permission uses it in every variant), so
// its presence proves nothing about a tool. The tool's strings and symbols
// prove the rest.
type Gating struct {
	// Comment is the generated-file marker, GeneratedHeader.
	Comment string `json:"comment"`
	// Package is the import path of the tooldefs package.
	Package string `json:"package"`
	// AllowedTags are the only build tags a file may use.
	AllowedTags []string `json:"allowedTags"`
	// Variants are in registry order (external, internal, ant).
	Variants []GatingVariant `json:"variants"`
	// Tools are sorted by name.
	Tools []GatingTool `json:"tools"`
}

// GatingVariant is one variant: its tools, the tools it leaves out and the
// packages its binary must not contain.
type GatingVariant struct {
	// Name, Tags and Constraint are the Variant's.
	Name       string   `json:"name"`
	Tags       []string `json:"tags"`
	Constraint string   `json:"constraint"`
	// Tools are the names of the tools compiled in; Absent those left out.
	Tools  []string `json:"tools"`
	Absent []string `json:"absent"`
	// Banned are the packages under the tooldefs directory that only
	// left-out code reaches, by path.
	Banned []BannedPackage `json:"banned"`
}

// BannedPackage is a package a variant's binary must not contain.
type BannedPackage struct {
	// Path is the import path.
	Path string `json:"path"`
	// Reason names the left-out files that reach it, e.g. "imported only by
	// tooldefs/config.go (tool Config, variants internal, ant)".
	Reason string `json:"reason"`
	// In are the variants whose tooldefs package reaches it: their binaries
	// contain it, which shows the path is real.
	In []string `json:"in"`
}

// GatingTool is one tool and what identifies it in a binary.
type GatingTool struct {
	// Name is the tool's name; Type its tooldef type.
	Name string `json:"name"`
	Type string `json:"type"`
	// File is the tooldef file, relative to the module root.
	File string `json:"file"`
	// Build is the file's //go:build expression, "" when ungated.
	Build string `json:"build"`
	// Variants are the variants the tool is compiled into.
	Variants []string `json:"variants"`
	// Strings are texts only this tool carries, as the binary holds them:
	// its description first, then the long parameter descriptions of its
	// schema, JSON-encoded as in the embedded schema file.
	Strings []string `json:"strings"`
	// Schema is the schema file, relative to the output directory; "" when
	// another tool has the same schema.
	Schema string `json:"schema"`
	// Symbols are the package-level names declared by the tool's file
	// (Tooldefs) and by its generated file (Generated).
	Symbols GatingSymbols `json:"symbols"`
	// Packages are the banned packages the tool's file reaches, in any
	// variant that leaves the tool out.
	Packages []string `json:"packages"`
}

// GatingSymbols are the package-level names of a tool's code.
type GatingSymbols struct {
	Tooldefs  []string `json:"tooldefs"`
	Generated []string `json:"generated"`
}

// graphMode is what the dependency graphs need: names and imports of every
// package reached, without parsing or type-checking any of them.
const graphMode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule

// gatingFile is one non-test file of the tooldefs package.
type gatingFile struct {
	path     string // absolute
	rel      string // relative to the module root, with '/'
	imports  []string
	decls    []string
	variants []string
	tool     *Tool
}

// addGating loads the import graph of the tooldefs package for each variant
// and stores in m what each variant leaves out (see Gating).
func addGating(ctx context.Context, dir string, m *Model, pkgs []variantPkg) error {
	mod := pkgs[0].pkg.Module
	if mod == nil || mod.Dir == "" {
		return fmt.Errorf("gating: %s is not inside a Go module", dir)
	}
	graphs, err := loadGraphs(ctx, dir)
	if err != nil {
		return err
	}
	files := gatingFiles(mod.Dir, m, pkgs)

	g := &Gating{Comment: GeneratedHeader, Package: m.PkgPath, AllowedTags: slices.Sorted(slices.Values(AllowedTags)),
		Variants: []GatingVariant{}, Tools: []GatingTool{}}
	// kept[i] is every package the code variant i compiles reaches.
	kept := make([]map[string]bool, len(Variants))
	for i := range Variants {
		kept[i] = map[string]bool{}
		for _, root := range []string{m.PkgPath, RuntimePath, jsoninPath} {
			reach(graphs[i], root, kept[i])
		}
	}
	// reached[f] is every package under the tooldefs directory that f's
	// imports reach, in the variants that compile f.
	reached := map[*gatingFile]map[string]bool{}
	for _, f := range files {
		r := map[string]bool{}
		for i, v := range Variants {
			if slices.Contains(f.variants, v.Name) {
				for _, imp := range f.imports {
					reach(graphs[i], imp, r)
				}
			}
		}
		for p := range r {
			if p != m.PkgPath && !strings.HasPrefix(p, m.PkgPath+"/") {
				delete(r, p)
			}
		}
		reached[f] = r
	}
	toolPkgs := map[*Tool]map[string]bool{}
	for i, v := range Variants {
		gv := GatingVariant{Name: v.Name, Tags: append([]string{}, v.Tags...), Constraint: v.Constraint,
			Tools: []string{}, Absent: []string{}, Banned: []BannedPackage{}}
		for _, t := range m.Tools {
			if slices.Contains(t.Variants, v.Name) {
				gv.Tools = append(gv.Tools, t.Name)
			} else {
				gv.Absent = append(gv.Absent, t.Name)
			}
		}
		from := map[string][]*gatingFile{}
		for _, f := range files {
			if slices.Contains(f.variants, v.Name) {
				continue
			}
			for p := range reached[f] {
				if !kept[i][p] {
					from[p] = append(from[p], f)
				}
			}
		}
		for _, p := range slices.Sorted(maps.Keys(from)) {
			b := BannedPackage{Path: p, Reason: bannedReason(p, from[p]), In: []string{}}
			for j, w := range Variants {
				if kept[j][p] {
					b.In = append(b.In, w.Name)
				}
			}
			gv.Banned = append(gv.Banned, b)
			for _, f := range from[p] {
				if f.tool != nil {
					if toolPkgs[f.tool] == nil {
						toolPkgs[f.tool] = map[string]bool{}
					}
					toolPkgs[f.tool][p] = true
				}
			}
		}
		g.Variants = append(g.Variants, gv)
	}
	declaredBy := map[string]int{}
	for _, f := range files {
		for _, d := range f.decls {
			declaredBy[d]++
		}
	}
	for _, t := range m.Tools {
		gt := GatingTool{Name: t.Name, Type: t.TypeName, Build: t.BuildLine, Variants: append([]string{}, t.Variants...),
			Strings: uniqueStrings(t, m.Tools), Symbols: GatingSymbols{Tooldefs: []string{}, Generated: []string{}}, Packages: []string{}}
		for _, f := range files {
			if f.tool != t {
				continue
			}
			gt.File = f.rel
			for _, d := range f.decls {
				// A name declared in two files gated apart is not this tool's.
				if declaredBy[d] == 1 {
					gt.Symbols.Tooldefs = append(gt.Symbols.Tooldefs, d)
				}
			}
		}
		if sameSchema(t, m.Tools) == nil {
			gt.Schema = "schemas/" + t.FileBase + ".json"
		}
		for p := range toolPkgs[t] {
			gt.Packages = append(gt.Packages, p)
		}
		slices.Sort(gt.Packages)
		g.Tools = append(g.Tools, gt)
	}
	m.Gating = g
	return nil
}

// loadGraphs loads the import graph of the package in dir, and of the
// runtime packages generated code imports, once per variant.
func loadGraphs(ctx context.Context, dir string) ([]map[string]*packages.Package, error) {
	out := make([]map[string]*packages.Package, len(Variants))
	errs := make([]error, len(Variants))
	var wg sync.WaitGroup
	for i, v := range Variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := &packages.Config{Context: ctx, Mode: graphMode, Dir: dir}
			if len(v.Tags) > 0 {
				cfg.BuildFlags = []string{"-tags=" + strings.Join(v.Tags, ",")}
			}
			roots, err := packages.Load(cfg, ".", RuntimePath, jsoninPath)
			if err != nil {
				errs[i] = fmt.Errorf("gating: load the imports of %s (variant %s): %w", dir, v.Name, err)
				return
			}
			g := map[string]*packages.Package{}
			packages.Visit(roots, nil, func(p *packages.Package) { g[p.PkgPath] = p })
			out[i] = g
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

// reach adds path and every package it imports, directly or not, to seen.
func reach(g map[string]*packages.Package, path string, seen map[string]bool) {
	if seen[path] {
		return
	}
	p := g[path]
	if p == nil {
		return
	}
	seen[path] = true
	for _, imp := range p.Imports {
		reach(g, imp.PkgPath, seen)
	}
}

// gatingFiles lists the non-test files of the tooldefs package with the
// variants that compile each, its imports, its package-level names and
// the tool it declares.
func gatingFiles(modDir string, m *Model, pkgs []variantPkg) []*gatingFile {
	byPath := map[string]*gatingFile{}
	for _, vp := range pkgs {
		for i, syn := range vp.pkg.Syntax {
			if i >= len(vp.pkg.CompiledGoFiles) {
				break
			}
			path := vp.pkg.CompiledGoFiles[i]
			f := byPath[path]
			if f == nil {
				f = &gatingFile{path: path, rel: path, decls: declNames(syn)}
				if r, err := filepath.Rel(modDir, path); err == nil {
					f.rel = filepath.ToSlash(r)
				}
				for _, is := range syn.Imports {
					if p, err := strconv.Unquote(is.Path.Value); err == nil {
						f.imports = append(f.imports, p)
					}
				}
				for _, t := range m.Tools {
					if slices.Contains(f.decls, t.TypeName) && f.tool == nil {
						f.tool = t
					}
				}
				byPath[path] = f
			}
			f.variants = append(f.variants, vp.v.Name)
		}
	}
	out := make([]*gatingFile, 0, len(byPath))
	for _, f := range byPath {
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b *gatingFile) int { return strings.Compare(a.rel, b.rel) })
	return out
}

// declNames lists a file's package-level names, sorted: types, functions,
// variables and constants (methods are found through their type).
func declNames(f *ast.File) []string {
	var out []string
	add := func(id *ast.Ident) {
		if id.Name != "_" && id.Name != "init" {
			out = append(out, id.Name)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(n)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// bannedReason says which left-out files reach p: "imported only by
// tooldefs/config.go (tool Config, variants internal, ant)", then "; reached
// too from …" for the files that reach it through another package.
func bannedReason(p string, from []*gatingFile) string {
	var direct, indirect []string
	for _, f := range from {
		d := f.rel + " ("
		if f.tool != nil {
			d += "tool " + f.tool.Name + ", "
		}
		d += "variants " + variantNames(f.variants) + ")"
		if slices.Contains(f.imports, p) {
			direct = append(direct, d)
		} else {
			indirect = append(indirect, d)
		}
	}
	switch {
	case len(direct) == 0:
		return "reached only from " + strings.Join(indirect, " and ")
	case len(indirect) == 0:
		return "imported only by " + strings.Join(direct, " and ")
	}
	return "imported only by " + strings.Join(direct, " and ") + "; reached too from " + strings.Join(indirect, " and ")
}

// uniqueStrings returns t's description and the parameter descriptions
// of its schema longer than 20 bytes, as the schema file spells them,
// leaving out any text another tool carries too: each is in a binary
// exactly when the tool is.
func uniqueStrings(t *Tool, tools []*Tool) []string {
	var cands []string
	switch {
	case len(t.DescriptionParts) > 0:
		// Only the literal parts are the same in every variant's binary.
		for _, p := range t.DescriptionParts {
			if p.Const == "" && len(strings.TrimSpace(p.Text)) > 20 {
				cands = append(cands, p.Text)
			}
		}
	case t.Description != "":
		cands = append(cands, t.Description)
	}
	var descs []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if d, ok := v["description"].(string); ok && len(d) > 20 {
				descs = append(descs, d)
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	var schema any
	if len(t.Schema) > 0 && json.Unmarshal(t.Schema, &schema) == nil {
		walk(schema)
	}
	// In the binary a description is in the embedded schema, JSON-encoded.
	var encoded []string
	for _, d := range descs {
		if e, ok := encodedIn(t.Schema, d); ok {
			encoded = append(encoded, e)
		}
	}
	slices.Sort(encoded)
	cands = append(cands, slices.Compact(encoded)...)
	out := []string{}
	for _, s := range cands {
		shared := false
		for _, o := range tools {
			if o != t && (strings.Contains(o.Description, s) || bytes.Contains(o.Schema, []byte(s))) {
				shared = true
			}
		}
		if !shared && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// encodedIn returns s as a JSON string body the way schema spells it,
// with or without HTML escaping.
func encodedIn(schema []byte, s string) (string, bool) {
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(s) != nil {
			continue
		}
		body := bytes.TrimSuffix(bytes.TrimSpace(b.Bytes()), []byte(`"`))
		body = bytes.TrimPrefix(body, []byte(`"`))
		if bytes.Contains(schema, body) {
			return string(body), true
		}
	}
	return "", false
}

// sameSchema returns another tool whose schema is byte for byte t's, or
// nil.
func sameSchema(t *Tool, tools []*Tool) *Tool {
	for _, o := range tools {
		if o != t && len(t.Schema) > 0 && bytes.Equal(o.Schema, t.Schema) {
			return o
		}
	}
	return nil
}

// gatingJSON renders m.Gating, completed with the package-level names of
// each tool's generated file in files.
func gatingJSON(m *Model, files Files) ([]byte, error) {
	g := *m.Gating
	g.Tools = slices.Clone(g.Tools)
	for i, gt := range g.Tools {
		for _, t := range m.Tools {
			if t.Name != gt.Name {
				continue
			}
			name := t.FileBase + "_tool.go"
			f, err := parser.ParseFile(token.NewFileSet(), name, files[name], parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("emit %s: parse %s: %w", GatingFile, name, err)
			}
			g.Tools[i].Symbols.Generated = declNames(f)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		return nil, fmt.Errorf("emit %s: %w", GatingFile, err)
	}
	return b.Bytes(), nil
}
