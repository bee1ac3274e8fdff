package gnu

import (
	"os"
	"strconv"
)

// Directory entry types: the d_type values of Linux's getdents64 (and of
// the BSDs'), so that a listing and a stat give the same numbers.
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

// The S_IFMT type bits of a stat mode, as POSIX numbers them.
const (
	sIFMT   = 0o170000
	sIFSOCK = 0o140000
	sIFLNK  = 0o120000
	sIFREG  = 0o100000
	sIFBLK  = 0o060000
	sIFDIR  = 0o040000
	sIFCHR  = 0o020000
	sIFIFO  = 0o010000
)

// dirent is one name of a directory listing.
type dirent struct {
	name string
	typ  uint8
	ino  uint64
}

// fileInfo is what the engines need of stat(2).
type fileInfo struct {
	mode                uint32 // S_IFMT type bits and permissions
	size                int64
	dev, ino, nlink     uint64
	uid, gid            uint32
	atime, mtime, ctime int64 // nanoseconds since the epoch
}

func (fi *fileInfo) typ() uint8 { return modeType(fi.mode) }

// modeType turns a stat mode into a d_type value.
func modeType(mode uint32) uint8 {
	switch mode & sIFMT {
	case sIFREG:
		return dtReg
	case sIFDIR:
		return dtDir
	case sIFLNK:
		return dtLnk
	case sIFIFO:
		return dtFIFO
	case sIFCHR:
		return dtChr
	case sIFBLK:
		return dtBlk
	case sIFSOCK:
		return dtSock
	}
	return dtUnknown
}

// The system calls the engines make, through package os here; on Linux
// dir_linux.go replaces them with getdents64 and stat(2) themselves, which
// give fts's order, inode numbers and all the times.
var (
	// listDir reads a directory in readdir order; follow opens a
	// symbolic link to one.
	listDir = listDirOS
	// statPath is stat(2) (follow) or lstat(2).
	statPath = statPathOS
	// fstatFD is fstat(2).
	fstatFD = fstatFDOS
)

// listDirOS lists in the order os.File.ReadDir gives (readdir's on Unix).
func listDirOS(path string, follow bool) ([]dirent, error) {
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

func fromGo(fi os.FileInfo) fileInfo {
	var mode uint32
	switch goModeType(fi.Mode().Type()) {
	case dtReg:
		mode = sIFREG
	case dtDir:
		mode = sIFDIR
	case dtLnk:
		mode = sIFLNK
	case dtFIFO:
		mode = sIFIFO
	case dtSock:
		mode = sIFSOCK
	case dtChr:
		mode = sIFCHR
	case dtBlk:
		mode = sIFBLK
	}
	mode |= uint32(fi.Mode().Perm())
	t := fi.ModTime().UnixNano()
	return fileInfo{mode: mode, size: fi.Size(), nlink: 1, atime: t, mtime: t, ctime: t}
}

func statPathOS(path string, follow bool) (fileInfo, error) {
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

// fstatFDOS stats an open descriptor through /dev/fd.
func fstatFDOS(fd int) (fileInfo, error) {
	fi, err := os.Stat("/dev/fd/" + strconv.Itoa(fd))
	if err != nil {
		return fileInfo{}, err
	}
	return fromGo(fi), nil
}
