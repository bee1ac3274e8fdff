package gen

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// owned lists the files in dir that toolgen owns: Go files that start with
// the generated header, the schemas and gating.json.
func owned(dir string) ([]string, error) {
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if e.Name() == GatingFile {
			out = append(out, e.Name())
			continue
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if bytes.HasPrefix(b, []byte("// "+GeneratedHeader+"\n")) {
			out = append(out, e.Name())
		}
	}
	schemas, err := os.ReadDir(filepath.Join(dir, "schemas"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range schemas {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, "schemas/"+e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// Change is one difference between the output directory and the files.
type Change struct {
	// Path is relative to the output directory.
	Path string
	// Kind is "new", "changed" or "stale".
	Kind string
}

// String returns "changed: read_tool.go".
func (c Change) String() string { return c.Kind + ": " + c.Path }

// Diff compares dir with files: files missing or different, and owned
// files toolgen no longer produces.
func Diff(dir string, files Files) ([]Change, error) {
	var out []Change
	for _, p := range files.Paths() {
		cur, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, Change{Path: p, Kind: "new"})
		case err != nil:
			return nil, err
		case !bytes.Equal(cur, files[p]):
			out = append(out, Change{Path: p, Kind: "changed"})
		}
	}
	old, err := owned(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range old {
		if _, ok := files[p]; !ok {
			out = append(out, Change{Path: p, Kind: "stale"})
		}
	}
	slices.SortFunc(out, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Write brings dir in line with files: it writes new and changed files
// only, and removes the files toolgen owns but no longer produces.
func Write(dir string, files Files) ([]Change, error) {
	changes, err := Diff(dir, files)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		p := filepath.Join(dir, filepath.FromSlash(c.Path))
		if c.Kind == "stale" {
			if err := os.Remove(p); err != nil {
				return nil, fmt.Errorf("remove stale %s: %w", c.Path, err)
			}
			continue
		}
		if err := writeAtomic(p, files[c.Path]); err != nil {
			return nil, fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return changes, nil
}

// writeAtomic writes through a temporary file renamed into place, so a
// killed run leaves each file either old or new, never half written. The
// temporary name starts with '.', which the go command ignores.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".toolgen-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
