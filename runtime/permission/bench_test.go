//go:build unix

package permission_test

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

func benchEngine(b *testing.B) (*permission.Engine, *runtime.ToolContext) {
	dir, err := os.MkdirTemp("", "bench")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	var rules []permission.Rule
	for _, l := range []struct {
		list []string
		bh   runtime.Behavior
	}{
		{[]string{"Bash(git status:*)", "Bash(git diff:*)", "Bash(go test:*)", "Bash(ls *)", "Read(src/**)", "Edit(src/**)"}, runtime.Allow},
		{[]string{"Bash(rm:*)", "Bash(git push:*)", "Read(./secrets/**)"}, runtime.Deny},
	} {
		rs, err := permission.ParseRules(l.list, l.bh, permission.SourceFlag, "")
		if err != nil {
			b.Fatal(err)
		}
		rules = append(rules, rs...)
	}
	e, err := permission.NewEngine(permission.Config{Cwd: dir, Home: dir, Rules: rules})
	if err != nil {
		b.Fatal(err)
	}
	return e, runtime.NewToolContext(dir)
}

// BenchmarkCheckShellCompound measures one permission check of a
// compound shell line (parse + analysis + rule matching).
func BenchmarkCheckShellCompound(b *testing.B) {
	e, tc := benchEngine(b)
	bash := &fakeTool{name: "Bash", kind: runtime.TargetCommand}
	ctx := context.Background()
	cmd := `git status --short && go test ./... 2>&1 | tee out.txt; ls -la src || echo "failed: $?"`
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		e.Check(ctx, bash, cmd, tc)
	}
	reportCPU(b, cpu0)
}

// BenchmarkCheckShellSimple measures one permission check of a single
// command an allow rule covers.
func BenchmarkCheckShellSimple(b *testing.B) {
	e, tc := benchEngine(b)
	bash := &fakeTool{name: "Bash", kind: runtime.TargetCommand}
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		e.Check(ctx, bash, "git status", tc)
	}
	reportCPU(b, cpu0)
}

// BenchmarkCheckPath measures one permission check of a file path
// (symlink resolution, confinement, path rules).
func BenchmarkCheckPath(b *testing.B) {
	e, tc := benchEngine(b)
	edit := &fakeTool{name: "Edit", kind: runtime.TargetPath, writes: true}
	ctx := context.Background()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		e.Check(ctx, edit, "src/pkg/file.go", tc)
	}
	reportCPU(b, cpu0)
}

// reportCPU reports the process's CPU time (user and system, the
// garbage collector's included) per iteration since cpu0: on a shared,
// loaded machine the wall time per check measures the queue for a CPU
// as much as the check.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/check")
}

// cpuTime is the CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
