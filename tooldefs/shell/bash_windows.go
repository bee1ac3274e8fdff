//go:build windows

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// bashMissingHelp says what to do when Git for Windows' bash is not found.
const bashMissingHelp = "on Windows the Bash tool runs Git for Windows' bash: install Git for Windows (https://git-scm.com/downloads/win), " +
	`or, when it is installed but git is not on PATH, set AGENTCORE_GIT_BASH_PATH to its bash.exe (e.g. C:\Program Files\Git\bin\bash.exe)`

// bashPath is Git for Windows' bash.exe, found as Claude Code finds it:
// AGENTCORE_GIT_BASH_PATH when set, else bin\bash.exe of the Git for
// Windows whose git.exe is on PATH (never the bash.exe of WSL in
// System32). It is looked up again only when either changes; "" when
// nothing is found (startCommand then fails with exec.ErrNotFound, which
// startError explains).
func bashPath() string {
	key := os.Getenv("AGENTCORE_GIT_BASH_PATH") + "\x00" + os.Getenv("PATH")
	bashCache.Lock()
	defer bashCache.Unlock()
	if bashCache.key != key || bashCache.bash == "" {
		bashCache.key, bashCache.bash = key, findGitBash()
	}
	return bashCache.bash
}

var bashCache struct {
	sync.Mutex
	key, bash string
}

func findGitBash() string {
	if p := strings.Trim(strings.TrimSpace(os.Getenv("AGENTCORE_GIT_BASH_PATH")), `"`); p != "" {
		if isFile(p) {
			return p
		}
		return "" // a wrong setting is not silently replaced
	}
	if git, err := exec.LookPath("git"); err == nil {
		// <Git>\cmd\git.exe, <Git>\bin\git.exe or
		// <Git>\mingw64\bin\git.exe: bash is <Git>\bin\bash.exe.
		dir := filepath.Dir(git)
		for range 3 {
			if p := filepath.Join(dir, "bin", "bash.exe"); isFile(p) {
				return p
			}
			dir = filepath.Dir(dir)
		}
	}
	return ""
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
