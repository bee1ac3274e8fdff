//go:build !windows

package shell

import (
	"os"
	"os/exec"
	"sync"
)

// bashMissingHelp says what to do when bash cannot be started.
const bashMissingHelp = "the Bash tool needs bash on PATH: install it, or fix PATH"

// bashPath is bash as found on PATH, looked up again only when PATH
// changes; "bash" when it is not found (Start then says so).
func bashPath() string {
	path := os.Getenv("PATH")
	bashCache.Lock()
	defer bashCache.Unlock()
	if bashCache.path != path || bashCache.bash == "" {
		bashCache.path, bashCache.bash = path, "bash"
		if p, err := exec.LookPath("bash"); err == nil {
			bashCache.bash = p
		}
	}
	return bashCache.bash
}

var bashCache struct {
	sync.Mutex
	path, bash string
}
