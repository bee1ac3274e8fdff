//go:build unix

package permission

import (
	"os"
	"syscall"
)

// hardLinks is the link count of the regular file at the resolved path p,
// 0 when it does not exist or is not a regular file.
func hardLinks(p string) uint64 {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}

// windowsPaths says whether paths follow Windows rules (drive letters, \,
// case-insensitive names).
const windowsPaths = false
