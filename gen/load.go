package gen

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
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

// Load runs the pipeline up to the model: load the tooldefs package once
// per variant (this file), parse the markers of its marked types
// (parse.go), check them (check.go), build each tool's model (build.go,
// methods.go, input.go) and reflect the schemas (schema.go). All problems
// found are returned together as an ErrorList.
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
	packageErrors(e, pkgs)
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

// packageErrors reports every error go/packages found in the loads;
// packages.Load does not return them.
func packageErrors(e *errs, pkgs []variantPkg) {
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
}

// parsePos reads a go/packages error position: "file:line:col",
// "file:line", "file", or "" and "-" for none.
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
