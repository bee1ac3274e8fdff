package walk

import (
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux, directories are read with open, getdents64 and fstatat
// directly: os.File would register each with the network poller, and
// fstatat on the open directory resolves one name instead of a path.
func init() { openDir = openDirLinux }

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

type linuxDir struct{ fd int }

func openDirLinux(path string) (dirHandle, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &linuxDir{fd: fd}, nil
}

func (d *linuxDir) close() { unix.Close(d.fd) }

func (d *linuxDir) modTime(_, name string) time.Time {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return time.Time{}
	}
	return time.Unix(st.Mtim.Unix())
}

// list parses linux_dirent64 records: ino u64, off s64, reclen u16,
// type u8, then the NUL-terminated name.
func (d *linuxDir) list() []dirEntry {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var out []dirEntry
	for {
		n, err := unix.Getdents(d.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return out
		}
		for off := 0; off+19 <= n; {
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			if reclen == 0 || off+reclen > n {
				break
			}
			typ := buf[off+18]
			nameb := buf[off+19 : off+reclen]
			for i, c := range nameb {
				if c == 0 {
					nameb = nameb[:i]
					break
				}
			}
			off += reclen
			name := string(nameb)
			if name == "." || name == ".." {
				continue
			}
			t := typeOther
			switch typ {
			case unix.DT_REG:
				t = typeFile
			case unix.DT_DIR:
				t = typeDir
			case unix.DT_UNKNOWN:
				t = typeUnknown
			}
			out = append(out, dirEntry{name: name, typ: t})
		}
	}
}
