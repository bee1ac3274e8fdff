//go:build linux

package gnu

import (
	"sort"
	"syscall"
	"unsafe"
)

// Directory entry types, as getdents64 reports them (d_type).
const (
	dtUnknown = syscall.DT_UNKNOWN
	dtFIFO    = syscall.DT_FIFO
	dtChr     = syscall.DT_CHR
	dtDir     = syscall.DT_DIR
	dtBlk     = syscall.DT_BLK
	dtReg     = syscall.DT_REG
	dtLnk     = syscall.DT_LNK
	dtSock    = syscall.DT_SOCK
)

// dirent is one name of a directory listing.
type dirent struct {
	name string
	typ  uint8
	ino  uint64
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

// listDir reads a directory in readdir order, as fts does: getdents64 on
// the open directory, then the inode sort for large directories.
func listDir(path string, follow bool) ([]dirent, error) {
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
	var buf [32 << 10]byte
	var out []dirent
	for {
		n, err := syscall.Getdents(fd, buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, err
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
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			if len(name) == 1 && name[0] == '.' || len(name) == 2 && name[0] == '.' && name[1] == '.' {
				continue
			}
			out = append(out, dirent{name: string(name), typ: typ, ino: ino})
		}
	}
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
	mode                uint32 // S_IFMT type bits and permissions
	size                int64
	dev, ino, nlink     uint64
	uid, gid            uint32
	atime, mtime, ctime int64 // nanoseconds since the epoch
}

func (fi *fileInfo) typ() uint8 { return modeType(fi.mode) }

func fromStat(st *syscall.Stat_t) fileInfo {
	return fileInfo{
		mode: st.Mode, size: st.Size, dev: st.Dev, ino: st.Ino, nlink: st.Nlink, uid: st.Uid, gid: st.Gid,
		atime: st.Atim.Nano(), mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
	}
}

// statPath is stat(2) (follow) or lstat(2).
func statPath(path string, follow bool) (fileInfo, error) {
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
		return fileInfo{}, err
	}
	return fromStat(&st), nil
}

// fstatFD is fstat(2).
func fstatFD(fd int) (fileInfo, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fileInfo{}, err
	}
	return fromStat(&st), nil
}
