package find

import (
	"bytes"
	"sort"
	"sync"
	"syscall"
	"unsafe"
)

func init() {
	listDir, statPath, fstatFD = listDirLinux, statPathLinux, fstatFDLinux
}

// The portable constants are Linux's: an index that is not 0 fails the
// build.
func _() {
	var same [1]struct{}
	_ = same[DTUnknown-syscall.DT_UNKNOWN]
	_ = same[DTFIFO-syscall.DT_FIFO]
	_ = same[DTChr-syscall.DT_CHR]
	_ = same[DTDir-syscall.DT_DIR]
	_ = same[DTBlk-syscall.DT_BLK]
	_ = same[DTReg-syscall.DT_REG]
	_ = same[DTLnk-syscall.DT_LNK]
	_ = same[DTSock-syscall.DT_SOCK]
	_ = same[sIFMT-syscall.S_IFMT]
	_ = same[sIFSOCK-syscall.S_IFSOCK]
	_ = same[sIFLNK-syscall.S_IFLNK]
	_ = same[sIFREG-syscall.S_IFREG]
	_ = same[sIFBLK-syscall.S_IFBLK]
	_ = same[sIFDIR-syscall.S_IFDIR]
	_ = same[sIFCHR-syscall.S_IFCHR]
	_ = same[sIFIFO-syscall.S_IFIFO]
}

// inodeSortThreshold is gnulib fts's: a directory with more entries is
// visited in inode order (on file systems where that helps), not in the
// order readdir returns.
const inodeSortThreshold = 10000

// Linux file system magic numbers on which fts does not sort by inode.
const (
	magicTmpfs = 0x01021994
	magicNFS   = 0x6969
	magicCIFS  = 0xFF534D42
)

// listDirLinux reads a directory in readdir order, as fts does: getdents64 on
// the open directory, then the inode sort for large directories.
func listDirLinux(path string, follow bool, into []Dirent) ([]Dirent, error) {
	flags := syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC | syscall.O_NOCTTY | syscall.O_NONBLOCK
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	fd, err := syscall.Open(path, flags, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, flags, 0)
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	sc := direntScratches.Get().(*direntScratch)
	defer direntScratches.Put(sc)
	buf := sc.buf[:]
	// The names are gathered in one byte slice and made one string, of
	// which each entry's name is a part: one allocation per directory,
	// not one per name.
	names, ends, ents := sc.names[:0], sc.ends[:0], sc.ents[:0]
	defer func() { sc.names, sc.ends, sc.ents = names, ends, ents }()
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return direntNames(into, ents, names, ends), err
		}
		if n <= 0 {
			break
		}
		for off := 0; off+19 <= n; {
			ino := *(*uint64)(unsafe.Pointer(&buf[off]))
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			if reclen == 0 || off+reclen > n {
				break
			}
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.' {
				continue
			}
			names = append(names, name...)
			ends = append(ends, len(names))
			ents = append(ents, Dirent{typ: typ, ino: ino})
		}
	}
	out := direntNames(into, ents, names, ends)
	if len(out) > inodeSortThreshold {
		var st syscall.Statfs_t
		if syscall.Fstatfs(fd, &st) == nil {
			switch uint32(st.Type) {
			case magicTmpfs, magicNFS, magicCIFS:
			default:
				sort.SliceStable(out, func(i, j int) bool { return out[i].ino < out[j].ino })
			}
		}
	}
	return out, nil
}

// direntScratch is what listing a directory needs only while it runs.
type direntScratch struct {
	buf   [32 << 10]byte // for getdents64
	names []byte
	ends  []int
	ents  []Dirent
}

// direntScratches are kept for the next directory, so that each one
// listed does not clear 32 KiB of a new buffer.
var direntScratches = sync.Pool{New: func() any { return new(direntScratch) }}

// direntNames copies the entries of scratch to into[:0] and gives them
// their names: names holds them one after another, the i-th ending at
// ends[i].
func direntNames(into, scratch []Dirent, names []byte, ends []int) []Dirent {
	if len(scratch) == 0 {
		return into[:0]
	}
	out := append(into[:0], scratch...)
	all := string(names)
	start := 0
	for i, end := range ends {
		out[i].name = all[start:end]
		start = end
	}
	return out
}

func fromStat(st *syscall.Stat_t) FileInfo {
	return FileInfo{
		mode: st.Mode, size: st.Size, dev: st.Dev, ino: st.Ino, nlink: uint64(st.Nlink), uid: st.Uid, gid: st.Gid,
		atime: st.Atim.Nano(), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// statPathLinux is stat(2) (follow) or lstat(2).
func statPathLinux(path string, follow bool) (FileInfo, error) {
	var st syscall.Stat_t
	var err error
	for {
		if follow {
			err = syscall.Stat(path, &st)
		} else {
			err = syscall.Lstat(path, &st)
		}
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return FileInfo{}, err
	}
	return fromStat(&st), nil
}

// fstatFDLinux is fstat(2).
func fstatFDLinux(fd int) (FileInfo, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return FileInfo{}, err
	}
	return fromStat(&st), nil
}
