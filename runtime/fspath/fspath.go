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
	"syscall"
)

// maxLinkDepth bounds symlink chains followed by hand (dangling links).
const maxLinkDepth = 40

// ErrOutside is wrapped by the error Confine returns for a path outside
// every working directory.
var ErrOutside = errors.New("outside the working directories")

// Resolve returns the real location of an absolute path the way the
// kernel walks it: component by component, every symlink replaced by its
// target, and a ".." taken from where the walk really is — so "link/.."
// is the parent of the link's target, not the directory holding the link
// (the path is not cleaned first). A component that does not exist yet (a
// file about to be written) is taken as it is, and the walk goes on from
// there. Dangling symlinks are followed to where they point, so a link to
// a file not yet created is judged by its target. Symlink loops and
// chains deeper than 40 links end in an error, as do components that
// cannot be examined (a directory that is not searchable).
func Resolve(path string) (string, error) {
	var r *Resolver
	return r.Resolve(path)
}

// Resolver is Resolve with a memory: it examines each path (lstat, and
// readlink for a symlink) once and answers again from what it saw, so
// the many paths of one decision that share their leading directories
// cost one system call per directory. The file system may change after
// it looked; use one for a single decision and drop it. The zero value is
// ready to use; a nil *Resolver remembers nothing. Not safe for
// concurrent use.
type Resolver struct {
	seen     map[string]entry
	resolved map[string]result
}

// entry is what Resolver learnt of one path.
type entry struct {
	symlink bool
	target  string // the symlink's target
	missing bool   // it does not exist, or a file sits in the middle of it
	err     error  // it could not be examined
}

// result is one earlier Resolve of a path.
type result struct {
	path string
	err  error
}

// Resolve is Resolve answered from what r has already examined.
func (r *Resolver) Resolve(path string) (string, error) {
	if r != nil {
		if res, ok := r.resolved[path]; ok {
			return res.path, res.err
		}
	}
	p, err := r.resolve(path)
	if r != nil {
		if r.resolved == nil {
			r.resolved = map[string]result{}
		}
		r.resolved[path] = result{p, err}
	}
	return p, err
}

// examine lstats next (and reads it when it is a symlink), once per r.
func (r *Resolver) examine(next string) entry {
	if r != nil {
		if e, ok := r.seen[next]; ok {
			return e
		}
	}
	var e entry
	fi, err := os.Lstat(next)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.missing = true
	case err != nil && isNotDir(err):
		// A file in the middle of the path: nothing under it can exist.
		e.missing = true
	case err != nil:
		e.err = err
	case fi.Mode()&fs.ModeSymlink != 0:
		e.symlink = true
		e.target, e.err = os.Readlink(next)
	}
	if r != nil {
		if r.seen == nil {
			r.seen = map[string]entry{}
		}
		r.seen[next] = e
	}
	return e
}

func (r *Resolver) resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("resolve %q: not an absolute path", path)
	}
	vol := filepath.VolumeName(path)
	rest := splitPath(path[len(vol):])
	cur := vol + string(filepath.Separator)
	links := 0
	for len(rest) > 0 {
		part := rest[0]
		rest = rest[1:]
		if part == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := joinClean(cur, part)
		e := r.examine(next)
		switch {
		case e.err != nil:
			return "", fmt.Errorf("resolve %s: %w", path, e.err)
		case e.missing || !e.symlink:
			cur = next
			continue
		}
		links++
		if links > maxLinkDepth {
			return "", fmt.Errorf("resolve %s: too many levels of symbolic links", path)
		}
		target := e.target
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			cur = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		rest = append(splitPath(target), rest...)
	}
	return filepath.Clean(cur), nil
}

// joinClean joins a clean directory and one component that is neither
// empty, "." nor "..": the result is clean without filepath.Join's pass.
func joinClean(dir, part string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + part
	}
	return dir + string(filepath.Separator) + part
}

// splitPath returns the components of a path, without empty ones and ".".
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return os.IsPathSeparator(uint8(r)) }) {
		if part != "." {
			out = append(out, part)
		}
	}
	return out
}

// isNotDir reports whether err says a component of the path is not a
// directory.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

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
	real, err := Resolve(path)
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
