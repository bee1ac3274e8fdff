//go:build windows

package permission

import (
	"os"

	"golang.org/x/sys/windows"
)

// hardLinks is the link count of the regular file at the resolved path p,
// 0 when it does not exist or is not a regular file.
func hardLinks(p string) uint64 {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return 0
	}
	h, err := windows.CreateFile(name, 0, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return 0
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return 0
	}
	return uint64(info.NumberOfLinks)
}

// windowsPaths says whether paths follow Windows rules (drive letters, \,
// case-insensitive names).
const windowsPaths = true
