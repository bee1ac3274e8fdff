//go:build unix

package tooldefs_test

import (
	"syscall"

	. "github.com/onsi/gomega"
)

// mkfifo makes a named pipe at p.
func mkfifo(p string) { Expect(syscall.Mkfifo(p, 0o644)).To(Succeed()) }
