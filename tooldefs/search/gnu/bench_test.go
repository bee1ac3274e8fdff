package gnu_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The whole-command benchmarks run what a model types in ant's Bash —
// bash -c 'grep -rn … .' in GOROOT/src — twice: with the PATH ant's Bash
// gives (a directory of grep and find links to the agentcore-ant binary
// first) and with the system's PATH (GNU grep and find). Each figure
// covers the whole command: bash's start, the program's start (for the
// embedded one, agentcore's), the search and the output through a pipe to
// this process, which discards it. CPU time is the child's user+system
// (bash and what it waited for).

var antBinary struct {
	once  sync.Once
	links string
	err   error
}

// antLinks builds cmd/agentcore with -tags ant once and returns a
// directory of grep and find links to it.
func antLinks(b *testing.B) string {
	antBinary.once.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			antBinary.err = err
			return
		}
		dir, err := os.MkdirTemp("", "agentcore-gnu-bench-")
		if err != nil {
			antBinary.err = err
			return
		}
		bin := filepath.Join(dir, "agentcore-ant")
		cmd := exec.Command("go", "build", "-tags", "ant", "-o", bin, "./cmd/agentcore")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			antBinary.err = &buildError{string(out), err}
			return
		}
		for _, p := range []string{"grep", "find"} {
			if err := os.Symlink(bin, filepath.Join(dir, p)); err != nil {
				antBinary.err = err
				return
			}
		}
		antBinary.links = dir
	})
	if antBinary.err != nil {
		b.Fatalf("build agentcore-ant: %v", antBinary.err)
	}
	return antBinary.links
}

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// wholeCommands are the commands measured, as typed.
var wholeCommands = []struct{ name, command string }{
	{"grep-rn-literal", `grep -rn 'func main' .`},
	{"grep-rn-regex", `grep -rnE 'func \(\w+ \*?\w+\) Close\(' .`},
	{"grep-rni", `grep -rni 'deadline exceeded' .`},
	{"grep-rl-include", `grep -rl --include='*_test.go' 't.Parallel()' .`},
	{"find-name", `find . -name '*.go'`},
	{"find-name-wc", `find . -name '*.go' | wc -l`},
	// The start alone: a grep and a find with next to nothing to do.
	{"start-grep", `echo x | grep x`},
	{"start-find", `find /dev/null`},
}

func BenchmarkWholeCommand(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, p := range []string{"grep", "find"} {
		if gnuTool(p) == "" {
			b.Skipf("GNU %s is not on PATH: the comparison is skipped", p)
		}
	}
	links := antLinks(b)
	path := os.Getenv("PATH")
	for _, c := range wholeCommands {
		var sizes [2]int64
		for i, v := range []struct{ name, path string }{{"embedded", links + ":" + path}, {"gnu", path}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				var cpu time.Duration
				var n int64
				for b.Loop() {
					cmd := exec.Command("bash", "-c", c.command)
					cmd.Dir = src
					cmd.Env = append(os.Environ(), "PATH="+v.path)
					stdout, err := cmd.StdoutPipe()
					if err != nil {
						b.Fatal(err)
					}
					if err := cmd.Start(); err != nil {
						b.Fatal(err)
					}
					n, _ = io.Copy(io.Discard, stdout)
					if err := cmd.Wait(); err != nil {
						b.Fatalf("%s (%s): %v", c.command, v.name, err)
					}
					cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				}
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(n), "bytes")
				sizes[i] = n
			})
		}
		if sizes[0] != sizes[1] {
			b.Errorf("%s: the embedded command wrote %d bytes, GNU's %d", c.command, sizes[0], sizes[1])
		}
	}
}
