//go:build !linux

package gnu

import (
	"os"
	"strconv"
	"syscall"
)

// Directory entry types (d_type values, as on Linux).
const (
	dtUnknown = 0
	dtFIFO    = 1
	dtChr     = 2
	dtDir     = 4
	dtBlk     = 6
	dtReg     = 8
	dtLnk     = 10
	dtSock    = 12
)

// dirent is one name of a directory listing.
type dirent struct {
	name string
	typ  uint8
	ino  uint64
}

// listDir reads a directory; without getdents the order is the one
// os.File.ReadDir gives (readdir's on Unix).
func listDir(path string, follow bool) ([]dirent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := make([]dirent, 0, len(ents))
	for _, e := range ents {
		out = append(out, dirent{name: e.Name(), typ: goModeType(e.Type())})
	}
	return out, err
}

func goModeType(m os.FileMode) uint8 {
	switch {
	case m.IsRegular():
		return dtReg
	case m.IsDir():
		return dtDir
	case m&os.ModeSymlink != 0:
		return dtLnk
	case m&os.ModeNamedPipe != 0:
		return dtFIFO
	case m&os.ModeSocket != 0:
		return dtSock
	case m&os.ModeCharDevice != 0:
		return dtChr
	case m&os.ModeDevice != 0:
		return dtBlk
	}
	return dtUnknown
}

// modeType turns a stat mode into a d_type value.
func modeType(mode uint32) uint8 {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return dtReg
	case syscall.S_IFDIR:
		return dtDir
	case syscall.S_IFLNK:
		return dtLnk
	case syscall.S_IFIFO:
		return dtFIFO
	case syscall.S_IFCHR:
		return dtChr
	case syscall.S_IFBLK:
		return dtBlk
	case syscall.S_IFSOCK:
		return dtSock
	}
	return dtUnknown
}

// fileInfo is what the engines need of stat(2).
type fileInfo struct {
	mode                uint32
	size                int64
	dev, ino, nlink     uint64
	uid, gid            uint32
	atime, mtime, ctime int64
}

func (fi *fileInfo) typ() uint8 { return modeType(fi.mode) }

func fromGo(fi os.FileInfo) fileInfo {
	var mode uint32
	switch t := goModeType(fi.Mode().Type()); t {
	case dtReg:
		mode = syscall.S_IFREG
	case dtDir:
		mode = syscall.S_IFDIR
	case dtLnk:
		mode = syscall.S_IFLNK
	case dtFIFO:
		mode = syscall.S_IFIFO
	case dtSock:
		mode = syscall.S_IFSOCK
	case dtChr:
		mode = syscall.S_IFCHR
	case dtBlk:
		mode = syscall.S_IFBLK
	}
	mode |= uint32(fi.Mode().Perm())
	t := fi.ModTime().UnixNano()
	return fileInfo{mode: mode, size: fi.Size(), nlink: 1, atime: t, mtime: t, ctime: t}
}

// statPath is stat(2) (follow) or lstat(2), through package os.
func statPath(path string, follow bool) (fileInfo, error) {
	var fi os.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(path)
	} else {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return fileInfo{}, err
	}
	return fromGo(fi), nil
}

// fstatFD stats an open descriptor through /dev/fd.
func fstatFD(fd int) (fileInfo, error) {
	fi, err := os.Stat("/dev/fd/" + strconv.Itoa(fd))
	if err != nil {
		return fileInfo{}, err
	}
	return fromGo(fi), nil
}
