// Package atomicfile writes a file so that a crash or a full disk leaves
// either the old content or the new, never half of one; the Write, Edit
// and NotebookEdit tools, the config store and the rewind checkpoints
// all write through it.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// DefaultFileMode is the mode of files Write creates.
const DefaultFileMode fs.FileMode = 0o644

// Write replaces path's content with data so that a crash leaves
// either the old file or the new one, never half of one: it writes a
// temporary file in the same directory, syncs it, renames it over path and
// syncs the directory. An existing file keeps its permission bits; a new
// one gets perm (DefaultFileMode when perm is 0). path must not be a
// symlink (pass the resolved path): the rename would replace the link.
func Write(path string, data []byte, perm fs.FileMode) (err error) {
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
		return writeError(path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: set mode: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return writeError(path, err)
	}
	if err = tmp.Close(); err != nil {
		return writeError(path, err)
	}
	if beforeRename != nil {
		beforeRename(tmp.Name())
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	syncDir(dir)
	return nil
}

// writeError reports a failure to fill the temporary file as a failure to
// write path (the temporary name means nothing to the caller), and says
// that path is unchanged and what to do when the disk or a limit is full.
func writeError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("write %s: %w: the file is unchanged; free some space and write it again", path, err)
	case errors.Is(err, syscall.EFBIG):
		return fmt.Errorf("write %s: %w: the file is unchanged; the process's file-size limit (ulimit -f) is smaller than the new content", path, err)
	}
	return fmt.Errorf("write %s: %w: the file is unchanged", path, err)
}

// beforeRename, when set (by the package's tests only), runs between the
// complete temporary file and the rename: the fault specs kill the process
// there.
var beforeRename func(tmp string)

// syncDir makes a rename in dir durable; failures are ignored because some
// filesystems do not support syncing directories.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
