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
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build and make release build it
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
	variants := [2]string{links + ":" + path, path} // embedded, gnu
	for _, c := range wholeCommands {
		// Each iteration runs the command both ways, the order swapped
		// every time, so that load on this shared machine that comes and
		// goes falls on both alike; x-wall and x-cpu are embedded's totals
		// over GNU's.
		b.Run(c.name, func(b *testing.B) {
			var wall, cpu [2]time.Duration
			var sizes [2]int64
			i := 0
			for b.Loop() {
				for k := range 2 {
					v := (i + k) % 2
					w, u, n := runWhole(b, c.command, src, variants[v])
					wall[v] += w
					cpu[v] += u
					sizes[v] = n
				}
				i++
			}
			if sizes[0] != sizes[1] {
				b.Fatalf("%s: the embedded command wrote %d bytes, GNU's %d", c.command, sizes[0], sizes[1])
			}
			per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(b.N) }
			b.ReportMetric(per(wall[0]), "embedded-ns/op")
			b.ReportMetric(per(wall[1]), "gnu-ns/op")
			b.ReportMetric(per(cpu[0]), "embedded-cpu-ns/op")
			b.ReportMetric(per(cpu[1]), "gnu-cpu-ns/op")
			b.ReportMetric(float64(wall[0])/float64(wall[1]), "x-wall")
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "x-cpu")
			b.ReportMetric(float64(sizes[0]), "bytes")
		})
	}
}

// runWhole runs command under bash -c in dir with PATH set to path,
// reading its output through a pipe, and returns its wall time, its CPU
// time (user+system of bash and what it waited for) and its output size.
func runWhole(b *testing.B, command, dir, path string) (time.Duration, time.Duration, int64) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s (PATH=%s): %v", command, path, err)
	}
	wall := time.Since(start)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), n
}
