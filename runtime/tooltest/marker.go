package tooltest

import (
	"crypto/rand"
	"os"
	"path/filepath"

	"github.com/onsi/ginkgo/v2"
)

// Marker returns a path in dir, named after name, that no other spec or
// run uses and that does not exist now, for a spec that checks a command
// did not write it (dir is often outside the sandbox: /etc, /tmp). The
// path is removed when the spec ends: a write that did happen fails that
// spec only, and leaves nothing for a later run to trip on.
func Marker(dir, name string) string {
	p := filepath.Join(dir, "agentcore-"+name+"-"+rand.Text()[:10])
	if _, err := os.Lstat(p); err == nil {
		ginkgo.Fail("marker "+p+" exists before the spec ran: remove it", 1)
	}
	ginkgo.DeferCleanup(os.RemoveAll, p)
	return p
}
