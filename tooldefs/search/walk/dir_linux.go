package walk

import (
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// On Linux, directories are read with open and getdents64 directly:
// os.File would register each with the network poller. Only package
// syscall is used, not golang.org/x/sys/unix, so that the ant build's
// grep and find depend on no package outside the standard library and
// this module.
func init() { openDir = openDirLinux }

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

type linuxDir struct{ fd int }

func openDirLinux(path string) (dirHandle, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &linuxDir{fd: fd}, nil
}

func (d *linuxDir) close() { syscall.Close(d.fd) }

func (d *linuxDir) modTime(path, _ string) time.Time {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
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
		n, err := syscall.Getdents(d.fd, buf)
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
			case syscall.DT_REG:
				t = typeFile
			case syscall.DT_DIR:
				t = typeDir
			case syscall.DT_UNKNOWN:
				t = typeUnknown
			}
			out = append(out, dirEntry{name: name, typ: t})
		}
	}
}
