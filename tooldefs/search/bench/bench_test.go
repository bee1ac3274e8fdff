package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentcore/agentcore/tooldefs/search/globengine"
	"github.com/agentcore/agentcore/tooldefs/search/grepengine"
	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// goroot is gorootSrc for a benchmark, which skips when go is missing.
func goroot(b *testing.B) string {
	src, err := gorootSrc()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	return src
}

// repo is this module's root, the small tree.
func repo(b *testing.B) string {
	dir, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			b.Skip("go.mod not found")
		}
		dir = parent
	}
}

func need(b *testing.B, names ...string) string {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	b.Skipf("%s is not installed: this comparison is skipped", strings.Join(names, " / "))
	return ""
}

// query is one search run both ways.
type query struct {
	name string
	args []string // rg flags and pattern
	opts grepengine.Options
}

var queries = []query{
	{"literal", []string{"-n", "ErrUnexpectedEOF"}, grepengine.Options{Pattern: "ErrUnexpectedEOF", Mode: grepengine.Content, LineNumbers: true}},
	{"regex", []string{"-n", `func \w+Reader`}, grepengine.Options{Pattern: `func \w+Reader`, Mode: grepengine.Content, LineNumbers: true}},
	{"ignorecase", []string{"-n", "-i", `http\w+error`}, grepengine.Options{Pattern: `http\w+error`, IgnoreCase: true, Mode: grepengine.Content, LineNumbers: true}},
	{"count", []string{"-c", "return err"}, grepengine.Options{Pattern: "return err", Mode: grepengine.Count}},
	{"files", []string{"-l", "TODO"}, grepengine.Options{Pattern: "TODO"}},
}

// native runs the engine and renders rg's output, as the tool does.
func native(b *testing.B, root string, o grepengine.Options) int {
	n, err := nativeLines(root, o)
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// nativeLines is the number of output lines native renders.
func nativeLines(root string, o grepengine.Options) (int, error) {
	res, err := grepengine.Search(context.Background(), root, o)
	if err != nil {
		return 0, err
	}
	return len(res.Format(func(f *grepengine.FileResult) string { return f.Path })), nil
}

// spawn runs a command and reads its whole output through a pipe (rg
// would stop early if it saw /dev/null). It adds the child's CPU time to
// *cpu.
func spawn(b *testing.B, cpu *time.Duration, dir, bin string, args ...string) int {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		b.Fatalf("%s %v: %v", bin, args, err)
	}
	if cpu != nil && cmd.ProcessState != nil {
		*cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return strings.Count(string(out), "\n")
}

// measure runs f b.N times and reports, besides wall time, the CPU time
// per operation: on a loaded machine it is the steadier figure. child says
// whether f's CPU is spent in child processes (reported through cpu).
func measure(b *testing.B, unit string, child bool, f func(cpu *time.Duration) int) {
	var cpu time.Duration
	n := f(nil) // warm the cache
	b.ResetTimer()
	start := selfCPU()
	for i := 0; i < b.N; i++ {
		f(&cpu)
	}
	b.StopTimer()
	if !child {
		cpu = selfCPU() - start
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(n), unit)
}

func BenchmarkGrepGoroot(b *testing.B) {
	root := goroot(b)
	for _, q := range queries {
		b.Run(q.name+"/native", func(b *testing.B) {
			measure(b, "lines", false, func(*time.Duration) int { return native(b, root, q.opts) })
		})
		b.Run(q.name+"/rg", func(b *testing.B) {
			rg := need(b, "rg")
			args := append(append([]string{"--no-config"}, q.args...), root)
			measure(b, "lines", true, func(cpu *time.Duration) int { return spawn(b, cpu, root, rg, args...) })
		})
	}
}

func BenchmarkGlobGoroot(b *testing.B) {
	root := goroot(b)
	b.Run("native", func(b *testing.B) {
		// Every .go file, stat'ed and sorted newest first (the tool then
		// keeps 100).
		opts := globengine.Options{Limit: -1}
		measure(b, "files", false, func(*time.Duration) int {
			res, err := globengine.Glob(context.Background(), root, "**/*.go", opts)
			if err != nil {
				b.Fatal(err)
			}
			return len(res.Files)
		})
	})
	b.Run("fd", func(b *testing.B) {
		fd := need(b, "fd", "fdfind")
		measure(b, "files", true, func(cpu *time.Duration) int { return spawn(b, cpu, root, fd, "-t", "f", "-e", "go") })
	})
	b.Run("rg", func(b *testing.B) {
		rg := need(b, "rg")
		measure(b, "files", true, func(cpu *time.Duration) int {
			return spawn(b, cpu, root, rg, "--no-config", "--files", "-g", "*.go")
		})
	})
}

// BenchmarkWalkGoroot is the bare parallel walk, for reference.
func BenchmarkWalkGoroot(b *testing.B) {
	root := goroot(b)
	for i := 0; i < b.N; i++ {
		err := walk.Walk(context.Background(), root, walk.Options{}, func(*walk.Entry) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGrepRepo(b *testing.B) {
	root := repo(b)
	q := grepengine.Options{Pattern: "func", Mode: grepengine.Content, LineNumbers: true}
	b.Run("native", func(b *testing.B) {
		measure(b, "lines", false, func(*time.Duration) int { return native(b, root, q) })
	})
	b.Run("rg", func(b *testing.B) {
		rg := need(b, "rg")
		measure(b, "lines", true, func(cpu *time.Duration) int { return spawn(b, cpu, root, rg, "--no-config", "-n", "func", root) })
	})
}
