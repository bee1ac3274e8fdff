//go:build unix

package tasklist

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive lock on f, waiting for it (flock).
func lockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_EX) }

func unlockFile(f *os.File) { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }
