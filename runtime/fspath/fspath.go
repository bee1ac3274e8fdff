// Package fspath resolves and confines file-system paths: the one place
// that decides where a path really leads once symlinks are followed and
// whether it lies inside a set of directories. The file tools use it to
// refuse paths outside the working directories and the permission engine
// uses it to judge them, so both agree on every symlink, dangling ones
// included.
package fspath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// maxLinkDepth bounds symlink chains followed by hand (dangling links).
const maxLinkDepth = 40

// ErrOutside is wrapped by the error Confine returns for a path outside
// every working directory.
var ErrOutside = errors.New("outside the working directories")

// Resolve returns the real location of an absolute path: every symlink on
// it resolved, also when the path, or a tail of it, does not exist yet (the
// nearest existing ancestor is resolved and the rest appended). Dangling
// symlinks are followed to where they point, so a link to a file not yet
// created is judged by its target. Symlink loops and chains deeper than 40
// links end in an error.
func Resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("resolve %q: not an absolute path", path)
	}
	return resolve(filepath.Clean(path), 0)
}

func resolve(path string, depth int) (string, error) {
	if depth > maxLinkDepth {
		return "", fmt.Errorf("resolve %s: too many levels of symbolic links", path)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	}
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		// A dangling link: resolve its target by hand.
		target, err := os.Readlink(path)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", path, err)
		}
		if !filepath.IsAbs(target) {
			dir, err := resolve(filepath.Dir(path), depth+1)
			if err != nil {
				return "", err
			}
			target = filepath.Join(dir, target)
		}
		return resolve(filepath.Clean(target), depth+1)
	case err == nil:
		// Exists but EvalSymlinks failed (e.g. a parent is not searchable).
		return "", fmt.Errorf("resolve %s: cannot resolve symbolic links", path)
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path, nil
	}
	dir, err := resolve(parent, depth)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(path)), nil
}

// Within reports whether path is root itself or inside it. Both must be
// clean absolute paths. On Windows names compare case-insensitively, as
// NTFS does.
func Within(path, root string) bool {
	return within(path, root, filepath.Separator, runtime.GOOS == "windows")
}

// within is Within for paths separated by sep, ignoring case when fold.
func within(path, root string, sep byte, fold bool) bool {
	eq := func(a, b string) bool { return a == b }
	if fold {
		eq = strings.EqualFold
	}
	if eq(path, root) {
		return true
	}
	if !strings.HasSuffix(root, string(sep)) {
		root += string(sep)
	}
	return len(path) >= len(root) && eq(path[:len(root)], root)
}

// Confine checks that the absolute path lies inside one of roots once every
// symlink on it (and on the roots) is resolved, and returns the resolved
// path, which is where reads and writes should go. A symlink inside a root
// that points outside every root is refused like a path outside.
func Confine(path string, roots []string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q is not an absolute path", path)
	}
	clean := filepath.Clean(path)
	real, err := Resolve(clean)
	if err != nil {
		return "", err
	}
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) {
			continue
		}
		rr, err := Resolve(filepath.Clean(r))
		if err != nil {
			continue
		}
		if Within(real, rr) {
			return real, nil
		}
	}
	if real != clean {
		return "", fmt.Errorf("%s resolves to %s, which is %w (%s); only files inside them can be used",
			clean, real, ErrOutside, strings.Join(roots, ", "))
	}
	return "", fmt.Errorf("%s is %w (%s); only files inside them can be used",
		clean, ErrOutside, strings.Join(roots, ", "))
}
