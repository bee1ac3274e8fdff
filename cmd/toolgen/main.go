// Command toolgen generates agentcore's tool definitions, JSON schemas and
// per-variant registries from the tooldefs package.
//
// Usage:
//
//	toolgen -dir tooldefs -out generated         # write generated/
//	toolgen -dir tooldefs -out generated -check  # fail if generated/ is stale
//	toolgen ... -markerdoc tooldefs/doc.go       # also write the marker table there
//
// It loads the package once per build variant (external, internal, ant),
// reads the +tool markers (see tooldefs/doc.go), checks every tool and
// reports all problems as file:line:col errors, then writes only the files
// that changed and removes those it no longer produces. Beside the
// registries it writes gating.json, what each variant leaves out, for the
// absence specs. With -markerdoc it also rewrites the marker table in that
// file's doc comment from the marker types of package gen, so the table is
// never edited by hand. With -check it writes nothing and lists the files
// that differ. It exits 1 on any error.
package main

import (
	"bytes"
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
	markerDoc := flag.String("markerdoc", "", "also write the marker table into the doc comment of this Go file (tooldefs/doc.go)")
	check := flag.Bool("check", false, "compare with the output directory instead of writing it; exit 1 when it differs")
	verbose := flag.Bool("v", false, "list the files written or removed")
	flag.Parse()
	if err := run(*dir, *out, *markerDoc, *check, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(dir, out, markerDoc string, check, verbose bool) error {
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
	var doc, docNext []byte
	if markerDoc != "" {
		if doc, err = os.ReadFile(markerDoc); err != nil {
			return err
		}
		if docNext, err = gen.RewriteMarkerTable(doc); err != nil {
			return fmt.Errorf("%s: %w", markerDoc, err)
		}
	}
	docChanged := !bytes.Equal(doc, docNext)
	if check {
		changes, err := gen.Diff(out, files)
		if err != nil {
			return err
		}
		for _, c := range changes {
			fmt.Fprintf(os.Stderr, "toolgen: %s is out of date (%s)\n", filepath.Join(out, c.Path), c.Kind)
		}
		stale := len(changes)
		if docChanged {
			fmt.Fprintf(os.Stderr, "toolgen: the marker table in %s is out of date\n", markerDoc)
			stale++
		}
		if stale == 0 {
			return nil
		}
		return fmt.Errorf("toolgen: %d generated file(s) differ from the tooldefs; run `make generate` and commit the result", stale)
	}
	changes, err := gen.Write(out, files)
	if err != nil {
		return err
	}
	if docChanged {
		if err := os.WriteFile(markerDoc, docNext, 0o644); err != nil {
			return err
		}
	}
	if verbose {
		for _, c := range changes {
			fmt.Println(c)
		}
		if docChanged {
			fmt.Println("changed: " + markerDoc)
		}
	}
	return nil
}
