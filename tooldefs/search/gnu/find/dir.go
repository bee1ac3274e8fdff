package find

import (
	"os"
	"strconv"
)

// Directory entry types: the d_type values of Linux's getdents64 (and of
// the BSDs'), so that a listing and a stat give the same numbers.
const (
	DTUnknown = 0
	DTFIFO    = 1
	DTChr     = 2
	DTDir     = 4
	DTBlk     = 6
	DTReg     = 8
	DTLnk     = 10
	DTSock    = 12
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

// Dirent is one name of a directory listing.
type Dirent struct {
	name string
	typ  uint8
	ino  uint64
}

// FileInfo is what the engines need of stat(2).
type FileInfo struct {
	mode                uint32 // S_IFMT type bits and permissions
	size                int64
	dev, ino, nlink     uint64
	uid, gid            uint32
	atime, mtime, ctime int64 // nanoseconds since the epoch
}

func (fi *FileInfo) Type() uint8 { return modeType(fi.mode) }

// modeType turns a stat mode into a d_type value.
func modeType(mode uint32) uint8 {
	switch mode & sIFMT {
	case sIFREG:
		return DTReg
	case sIFDIR:
		return DTDir
	case sIFLNK:
		return DTLnk
	case sIFIFO:
		return DTFIFO
	case sIFCHR:
		return DTChr
	case sIFBLK:
		return DTBlk
	case sIFSOCK:
		return DTSock
	}
	return DTUnknown
}

// The system calls the engines make, through package os here; on Linux
// dir_linux.go replaces them with getdents64 and stat(2) themselves, which
// give fts's order, inode numbers and all the times.
var (
	// listDir reads a directory in readdir order; follow opens a
	// symbolic link to one. The entries are appended to into[:0], whose
	// storage a caller can so reuse (nil for new).
	listDir = listDirOS
	// statPath is stat(2) (follow) or lstat(2).
	statPath = statPathOS
	// fstatFD is fstat(2).
	fstatFD = fstatFDOS
)

// listDirOS lists in the order os.File.ReadDir gives (readdir's on Unix).
func listDirOS(path string, follow bool, into []Dirent) ([]Dirent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	out := into[:0]
	for _, e := range ents {
		out = append(out, Dirent{name: e.Name(), typ: goModeType(e.Type())})
	}
	return out, err
}

func goModeType(m os.FileMode) uint8 {
	switch {
	case m.IsRegular():
		return DTReg
	case m.IsDir():
		return DTDir
	case m&os.ModeSymlink != 0:
		return DTLnk
	case m&os.ModeNamedPipe != 0:
		return DTFIFO
	case m&os.ModeSocket != 0:
		return DTSock
	case m&os.ModeCharDevice != 0:
		return DTChr
	case m&os.ModeDevice != 0:
		return DTBlk
	}
	return DTUnknown
}

func fromGo(fi os.FileInfo) FileInfo {
	var mode uint32
	switch goModeType(fi.Mode().Type()) {
	case DTReg:
		mode = sIFREG
	case DTDir:
		mode = sIFDIR
	case DTLnk:
		mode = sIFLNK
	case DTFIFO:
		mode = sIFIFO
	case DTSock:
		mode = sIFSOCK
	case DTChr:
		mode = sIFCHR
	case DTBlk:
		mode = sIFBLK
	}
	mode |= uint32(fi.Mode().Perm())
	t := fi.ModTime().UnixNano()
	return FileInfo{mode: mode, size: fi.Size(), nlink: 1, atime: t, mtime: t, ctime: t}
}

func statPathOS(path string, follow bool) (FileInfo, error) {
	var fi os.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(path)
	} else {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		return FileInfo{}, err
	}
	return fromGo(fi), nil
}

// fstatFDOS stats an open descriptor through /dev/fd.
func fstatFDOS(fd int) (FileInfo, error) {
	fi, err := os.Stat("/dev/fd/" + strconv.Itoa(fd))
	if err != nil {
		return FileInfo{}, err
	}
	return fromGo(fi), nil
}
