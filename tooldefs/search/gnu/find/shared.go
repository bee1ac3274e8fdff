// Package find is agentcore's find, with GNU findutils 4.9's expression,
// output and exit statuses for the predicates models type, and what GNU's
// find and grep share (their gnulib parts), which package gnu's grep
// uses: directory listing in fts's order, fnmatch globs, the quoting of
// file names and strerror's texts.
//
// It imports only standard packages that a Go program initialises among
// its first: no fmt, strings, bufio, path/filepath, os/exec or regexp
// (package lite has the string functions it needs, on package bytes, and
// exec.go starts commands with package os). So package multicall/early's
// initialiser runs a find before the rest of a large program has been
// initialised; see that package.
package find

import (
	"io"
	"os"
)

// Stdio is what a program run by this package, or by package gnu's grep,
// reads and writes.
type Stdio struct {
	Stdin          *os.File
	Stdout, Stderr io.Writer
	// Getenv reads the environment (locale, POSIXLY_CORRECT); os.Getenv
	// when nil.
	Getenv func(string) string
}

// Env reads the environment variable k through Getenv.
func (s *Stdio) Env(k string) string {
	if s.Getenv == nil {
		return os.Getenv(k)
	}
	return s.Getenv(k)
}

// ListDir reads a directory in fts's order (readdir's, by inode for a
// large one); follow opens a symbolic link to a directory.
func ListDir(path string, follow bool) ([]Dirent, error) { return listDir(path, follow, nil) }

// StatPath is stat(2) (follow) or lstat(2) of path.
func StatPath(path string, follow bool) (FileInfo, error) { return statPath(path, follow) }

// FstatFD is fstat(2) of an open file descriptor.
func FstatFD(fd int) (FileInfo, error) { return fstatFD(fd) }

// Name is the entry's name in its directory.
func (d *Dirent) Name() string { return d.name }

// Type is the entry's d_type (DTUnknown when the file system gave none).
func (d *Dirent) Type() uint8 { return d.typ }

// Size is the file's size in bytes.
func (fi *FileInfo) Size() int64 { return fi.size }

// ID is the file's device and inode numbers, which identify it.
func (fi *FileInfo) ID() [2]uint64 { return [2]uint64{fi.dev, fi.ino} }

// ChildPath is fts's path of a directory entry: the parent's path, less
// one trailing slash, then / and the name.
func ChildPath(parent, name string) string {
	if len(parent) > 0 && parent[len(parent)-1] == '/' {
		return parent[:len(parent)-1] + "/" + name
	}
	return parent + "/" + name
}

// exitError ends find with a status and a message for stderr (--help and
// --version end with status 0).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
