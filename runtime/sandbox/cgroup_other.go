//go:build !linux

package sandbox

import (
	"errors"
	"os"
)

// cgroup is nothing off Linux: limits are rlimits there.
type cgroup struct{}

func newCgroup(l Limits) (*cgroup, Limits) { return nil, l }
func (c *cgroup) prefix() string           { return "" }
func (c *cgroup) handed()                  {}
func (c *cgroup) finish() string           { return "" }
func (c *cgroup) fds() []*os.File          { return nil }

// LiveCgroups is empty off Linux.
func LiveCgroups() []string { return nil }

// CgroupLimits says cgroups are Linux's.
func CgroupLimits() error {
	return errors.New("cgroups are Linux's: sandbox.limits are rlimits here")
}
