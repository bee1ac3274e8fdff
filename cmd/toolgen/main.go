// Command toolgen generates agentcore's tool wrappers, JSON schemas and
// per-variant registries from the tooldefs package.
//
// Usage:
//
//	toolgen -dir tooldefs -out generated         # write generated/
//	toolgen -dir tooldefs -out generated -check  # fail if generated/ is stale
//
// It loads the package once per build variant (external, internal, ant),
// reads the +tool markers (see tooldefs/doc.go), checks every tool and
// reports all problems as file:line:col errors, then writes only the files
// that changed and removes those it no longer produces. Beside the
// registries it writes gating.json, what each variant leaves out, for the
// absence specs. With -check it writes nothing and lists the files that
// differ. It exits 1 on any error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentcore/agentcore/gen"
)

func main() {
	dir := flag.String("dir", ".", "the tooldefs package directory")
	out := flag.String("out", "generated", "the output directory (its base name is the package name)")
	check := flag.Bool("check", false, "compare with the output directory instead of writing it; exit 1 when it differs")
	verbose := flag.Bool("v", false, "list the files written or removed")
	flag.Parse()
	if err := run(*dir, *out, *check, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(dir, out string, check, verbose bool) error {
	m, err := gen.Load(context.Background(), gen.LoadConfig{Dir: dir})
	if err != nil {
		return err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	files, err := gen.Emit(m, gen.EmitConfig{Package: filepath.Base(abs)})
	if err != nil {
		return err
	}
	if check {
		changes, err := gen.Diff(out, files)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			return nil
		}
		for _, c := range changes {
			fmt.Fprintf(os.Stderr, "toolgen: %s is out of date (%s)\n", filepath.Join(out, c.Path), c.Kind)
		}
		return fmt.Errorf("toolgen: %d generated file(s) differ from the tooldefs; run `make generate` and commit the result", len(changes))
	}
	changes, err := gen.Write(out, files)
	if err != nil {
		return err
	}
	if verbose {
		for _, c := range changes {
			fmt.Println(c)
		}
	}
	return nil
}
