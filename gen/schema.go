package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"
	// The schema program toolgen writes imports invopop; this import keeps
	// the module a direct requirement of go.mod, so go mod tidy keeps it.
	_ "github.com/invopop/jsonschema"
)

// invopopPath is the schema reflector the schema program runs.
const invopopPath = "github.com/invopop/jsonschema"

// schemaRun is one run of the schema program: a variant's tags and the
// tools it reflects. Variants that compile the same tooldefs files share
// a run.
type schemaRun struct {
	variant Variant
	tools   []*Tool
}

// addSchemas writes a small program that imports the tooldefs package and
// reflects every input type with invopop/jsonschema, runs it once per
// distinct variant under that variant's tags (gated types only exist
// there), and stores each tool's schema in the model.
func addSchemas(ctx context.Context, dir string, m *Model, pkgs []variantPkg) error {
	if len(m.Tools) == 0 {
		return nil
	}
	mod := pkgs[0].pkg.Module
	if mod == nil || mod.Dir == "" {
		return fmt.Errorf("schemas: %s is not inside a Go module", dir)
	}
	var runs []schemaRun
	seen := map[string]bool{}
	for _, vp := range pkgs {
		files := slices.Clone(vp.pkg.CompiledGoFiles)
		slices.Sort(files)
		key := strings.Join(files, "\n")
		if seen[key] {
			continue
		}
		seen[key] = true
		r := schemaRun{variant: vp.v}
		for _, t := range m.Tools {
			if slices.Contains(t.Variants, vp.v.Name) {
				r.tools = append(r.tools, t)
			}
		}
		if len(r.tools) > 0 {
			runs = append(runs, r)
		}
	}
	// The programs live in a temporary directory outside the module and are
	// overlaid onto a directory inside it that never exists on disk, so
	// they can import the tooldefs package and nothing is left in the tree.
	tmp, err := os.MkdirTemp("", "toolgen")
	if err != nil {
		return fmt.Errorf("schemas: %w", err)
	}
	defer os.RemoveAll(tmp)
	outs := make([]map[string]json.RawMessage, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		var buf bytes.Buffer
		if err := schemaProgram(r.tools, m.PkgPath).Render(&buf); err != nil {
			return fmt.Errorf("schemas: render program: %w", err)
		}
		src := filepath.Join(tmp, r.variant.Name+".go")
		if err := os.WriteFile(src, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("schemas: %w", err)
		}
		virtual := filepath.Join(mod.Dir, "_toolgen_schema_"+r.variant.Name, "main.go")
		overlay, err := json.Marshal(map[string]map[string]string{"Replace": {virtual: src}})
		if err != nil {
			return err
		}
		ov := filepath.Join(tmp, r.variant.Name+".json")
		if err := os.WriteFile(ov, overlay, 0o644); err != nil {
			return fmt.Errorf("schemas: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = runSchemaProgram(ctx, mod.Dir, filepath.Dir(virtual), ov, r.variant)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	for i, r := range runs {
		for _, t := range r.tools {
			raw, ok := outs[i][t.Name]
			if !ok {
				return fmt.Errorf("schemas: the %s program gave no schema for %s", r.variant.Name, t.Name)
			}
			s, err := cleanSchema(raw)
			if err != nil {
				return fmt.Errorf("schemas: tool %s: %w", t.Name, err)
			}
			if t.Schema != nil && !bytes.Equal(t.Schema, s) {
				return fmt.Errorf("schemas: tool %s has a different input schema in the %s variant; "+
					"its input types must not depend on the build variant", t.Name, r.variant.Name)
			}
			t.Schema = s
		}
	}
	for _, t := range m.Tools {
		if t.Schema == nil {
			return fmt.Errorf("schemas: no variant reflected the input of tool %s", t.Name)
		}
	}
	return nil
}

func runSchemaProgram(ctx context.Context, modDir, dir, overlay string, v Variant) (map[string]json.RawMessage, error) {
	rel, err := filepath.Rel(modDir, dir)
	if err != nil {
		return nil, err
	}
	// -s -w: the program runs once; skipping symbol tables and DWARF makes
	// the link, most of its cost, faster.
	args := []string{"run", "-ldflags=-s -w", "-overlay=" + overlay}
	if len(v.Tags) > 0 {
		args = append(args, "-tags="+strings.Join(v.Tags, ","))
	}
	args = append(args, "./"+filepath.ToSlash(rel))
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = modDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("schemas: go %s (variant %s): %w\n%s", strings.Join(args, " "), v.Name, err, stderr.String())
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, fmt.Errorf("schemas: variant %s: bad program output: %w", v.Name, err)
	}
	return out, nil
}

// cleanSchema checks that a schema is what the Anthropic API takes — an
// object schema with no references — and indents it.
func cleanSchema(raw json.RawMessage) ([]byte, error) {
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if v["type"] != "object" {
		return nil, fmt.Errorf("input schema is not an object schema: %s", raw)
	}
	var bad string
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				if k == "$ref" || k == "$defs" || k == "$schema" || k == "$id" {
					bad = k
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	if bad != "" {
		return nil, fmt.Errorf("input schema has %s; nested types must be inlined", bad)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// commentMap is invopop's CommentMap for the tools' input structs: field
// doc comments by "pkgpath.Type.Field". Struct type comments are left out
// so a nested field's own comment describes it.
func commentMap(tools []*Tool) map[string]string {
	m := map[string]string{}
	for _, t := range tools {
		for _, s := range t.Structs {
			for _, f := range s.Fields {
				if f.Doc != "" {
					m[s.Ref.Pkg+"."+s.Ref.Name+"."+f.GoName] = f.Doc
				}
			}
		}
	}
	return m
}

// schemaProgram is the program that prints the tools' schemas as one JSON
// object keyed by tool name.
func schemaProgram(tools []*Tool, pkgPath string) *jen.File {
	f := jen.NewFile("main")
	f.HeaderComment(GeneratedHeader)
	// The tooldefs package is always imported: its init may register what
	// input types need, and a tool's input may live in another package.
	f.Anon(pkgPath)
	cm := commentMap(tools)
	keys := make([]string, 0, len(cm))
	for k := range cm {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// var comments = map[string]string{"pkg.T.F": "doc", ...}
	f.Var().Id("comments").Op("=").Map(jen.String()).String().Values(jen.DictFunc(func(d jen.Dict) {
		for _, k := range keys {
			d[jen.Lit(k)] = jen.Lit(cm[k])
		}
	}))
	// func main() {
	//	r := &jsonschema.Reflector{Anonymous: true, DoNotReference: true, ExpandedStruct: true, CommentMap: comments}
	//	out := map[string]*jsonschema.Schema{}
	//	out["Read"] = r.Reflect(&tooldefs.ReadInput{})
	//	for _, s := range out { s.Version = ""; s.ID = ""; s.Definitions = nil }
	//	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil { os.Exit(1) }
	// }
	f.Func().Id("main").Params().BlockFunc(func(g *jen.Group) {
		g.Id("r").Op(":=").Op("&").Qual(invopopPath, "Reflector").Values(jen.Dict{
			jen.Id("Anonymous"):      jen.True(),
			jen.Id("DoNotReference"): jen.True(),
			jen.Id("ExpandedStruct"): jen.True(),
			jen.Id("CommentMap"):     jen.Id("comments"),
		})
		g.Id("out").Op(":=").Map(jen.String()).Op("*").Qual(invopopPath, "Schema").Values()
		for _, t := range tools {
			g.Id("out").Index(jen.Lit(t.Name)).Op("=").Id("r").Dot("Reflect").Call(
				jen.Op("&").Qual(t.Input.Ref.Pkg, t.Input.Ref.Name).Values())
		}
		g.For(jen.List(jen.Id("_"), jen.Id("s")).Op(":=").Range().Id("out")).Block(
			jen.Id("s").Dot("Version").Op("=").Lit(""),
			jen.Id("s").Dot("ID").Op("=").Lit(""),
			jen.Id("s").Dot("Definitions").Op("=").Nil(),
		)
		g.If(
			jen.Err().Op(":=").Qual("encoding/json", "NewEncoder").Call(jen.Qual("os", "Stdout")).Dot("Encode").Call(jen.Id("out")),
			jen.Err().Op("!=").Nil(),
		).Block(
			jen.Qual("fmt", "Fprintln").Call(jen.Qual("os", "Stderr"), jen.Err()),
			jen.Qual("os", "Exit").Call(jen.Lit(1)),
		)
	})
	return f
}
