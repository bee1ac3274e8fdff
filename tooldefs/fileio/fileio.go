// Package fileio is the file plumbing shared by the file tools and the
// permission engine: confining a path to the working directories with
// symlinks resolved, writing a file atomically with its mode kept, hashing
// content and telling text from binary.
package fileio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// maxLinkDepth bounds symlink chains followed by hand (dangling links).
const maxLinkDepth = 40

// ErrOutside is wrapped by the error Confine returns for a path outside
// every working directory.
var ErrOutside = errors.New("outside the working directories")

// Resolve returns the real location of an absolute path: every symlink on
// it resolved, also when the path, or a tail of it, does not exist yet (the
// nearest existing ancestor is resolved and the rest appended). Dangling
// symlinks are followed to where they point.
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
// clean absolute paths.
func Within(path, root string) bool {
	if path == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(path, root)
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

// Hash returns the hex SHA-256 of data, the form runtime.FileState.Hash
// records.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// HashFile returns the hex SHA-256 of the file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// DefaultFileMode is the mode of files WriteAtomic creates.
const DefaultFileMode fs.FileMode = 0o644

// WriteAtomic replaces path's content with data so that a crash leaves
// either the old file or the new one, never half of one: it writes a
// temporary file in the same directory, syncs it, renames it over path and
// syncs the directory. An existing file keeps its permission bits; a new
// one gets perm (DefaultFileMode when perm is 0). path must not be a
// symlink (pass the resolved path): the rename would replace the link.
func WriteAtomic(path string, data []byte, perm fs.FileMode) (err error) {
	if perm == 0 {
		perm = DefaultFileMode
	}
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("write %s: is a directory", path)
		}
		perm = fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("write %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: set mode: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable; failures are ignored because some
// filesystems do not support syncing directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// sniffLen is how much of a file IsBinary looks at.
const sniffLen = 8000

// IsBinary reports whether data looks like a binary file: a NUL byte in its
// first 8000 bytes, or mostly bytes that are neither valid UTF-8 nor
// printable control characters.
func IsBinary(data []byte) bool {
	if len(data) > sniffLen {
		data = data[:sniffLen]
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return true
	}
	bad := 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			if len(data)-i < utf8.UTFMax && !utf8.FullRune(data[i:]) {
				break // a rune cut by the sniff window
			}
			bad++
		} else if r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != '\b' && r != 0x1b {
			bad++
		}
		i += n
	}
	return bad > 0 && bad*10 > len(data)
}

// binaryExts are extensions of files that are binary whatever their first
// bytes say.
var binaryExts = map[string]bool{
	".exe": true, ".dll": true, ".so": true, ".dylib": true, ".a": true, ".o": true, ".obj": true,
	".class": true, ".jar": true, ".war": true, ".pyc": true, ".pyo": true, ".wasm": true,
	".zip": true, ".gz": true, ".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".7z": true,
	".rar": true, ".tar": true, ".iso": true, ".dmg": true, ".deb": true, ".rpm": true,
	".pdf": true, ".doc": true, ".docx": true, ".xls": true, ".xlsx": true, ".ppt": true, ".pptx": true,
	".odt": true, ".ods": true, ".bmp": true, ".ico": true, ".tif": true, ".tiff": true, ".psd": true,
	".mp3": true, ".mp4": true, ".wav": true, ".flac": true, ".ogg": true, ".avi": true, ".mov": true,
	".mkv": true, ".webm": true, ".ttf": true, ".otf": true, ".woff": true, ".woff2": true,
	".sqlite": true, ".db": true, ".bin": true,
}

// IsBinaryExt reports whether the file name has an extension of a binary
// format (archives, executables, media, office documents, PDF…).
func IsBinaryExt(name string) bool {
	return binaryExts[strings.ToLower(filepath.Ext(name))]
}
