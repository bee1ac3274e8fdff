package walk

import (
	"fmt"
	"slices"
	"strings"
)

// TypeNames returns ripgrep's file-type names, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(defaultTypes()))
	for n := range defaultTypes() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// TypeGlobs returns the file-name globs of a ripgrep file type.
func TypeGlobs(name string) ([]string, bool) {
	g, ok := defaultTypes()[name]
	return g, ok
}

// typeFilter selects files whose name matches one of the selected types,
// like `rg --type`. A type name prefixed with `!` negates it (`rg -T`).
type typeFilter struct {
	selected []*Pattern
	negated  []*Pattern
}

func compileTypes(names []string) (*typeFilter, error) {
	if len(names) == 0 {
		return nil, nil
	}
	t := &typeFilter{}
	for _, n := range names {
		neg := strings.HasPrefix(n, "!")
		n = strings.TrimPrefix(n, "!")
		globs, ok := defaultTypes()[n]
		if !ok {
			return nil, fmt.Errorf("unrecognized file type %q; use a ripgrep type name such as go, py, js, ts, rust, java, c, cpp, md, json, yaml or sh", n)
		}
		for _, g := range globs {
			p, err := CompilePattern(g)
			if err != nil {
				return nil, err
			}
			if neg {
				t.negated = append(t.negated, p)
			} else {
				t.selected = append(t.selected, p)
			}
		}
	}
	return t, nil
}

// match applies to files only; name is the file's base name.
func (t *typeFilter) match(name string) Match {
	if t == nil {
		return None
	}
	for _, p := range t.negated {
		if p.Match(name) {
			return Ignore
		}
	}
	for _, p := range t.selected {
		if p.Match(name) {
			return Whitelist
		}
	}
	if len(t.selected) > 0 {
		return Ignore
	}
	return None
}
