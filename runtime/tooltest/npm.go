package tooltest

import (
	"os"
	"os/exec"
	"path/filepath"
)

// NpmDir is where .ci/run installs the npm packages the specs drive
// (.ci/npm/package.json): AGENTCORE_NPM_DIR, else ~/.cache/agentcore-npm.
func NpmDir() string {
	if d := os.Getenv("AGENTCORE_NPM_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "agentcore-npm")
}

// NpmBin returns the path of the command bin of an npm package installed
// in NpmDir, or, when node or the package is missing, why not: a spec
// skips with that reason. NeedNpm is the same check that also fails the
// spec when AGENTCORE_REQUIRE names node or npm: prefer it.
//
//	bin, why := tooltest.NpmBin("mcp-server-everything")
//	if why != "" {
//		Skip(why)
//	}
func NpmBin(bin string) (path, why string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed: the specs that drive npm packages need it (.ci/run installs them when node is present)"
	}
	path = filepath.Join(NpmDir(), "node_modules", ".bin", bin)
	if _, err := os.Stat(path); err != nil {
		return "", bin + " is not installed at " + path + ": run .ci/run, or copy .ci/npm/package.json to " + NpmDir() + " and run npm install there"
	}
	return path, ""
}
