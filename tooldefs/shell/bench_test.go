package shell_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/agentcore/agentcore/tooldefs/shell"
)

// BenchmarkRunEcho measures a whole foreground run of a trivial command:
// temp files, process group, cwd side channel, output read.
func BenchmarkRunEcho(b *testing.B) {
	dir, tmp := b.TempDir(), b.TempDir()
	ctx := context.Background()
	for b.Loop() {
		res, err := shell.Run(ctx, shell.Options{Command: "echo hi", Dir: dir, TempDir: tmp})
		if err != nil || res.Output != "hi" {
			b.Fatalf("%v %q", err, res.Output)
		}
	}
}

// BenchmarkExecBaseline is the floor: bash -c with combined output and
// nothing else, the baseline for BenchmarkRunEcho.
func BenchmarkExecBaseline(b *testing.B) {
	dir := b.TempDir()
	for b.Loop() {
		cmd := exec.Command("bash", "-c", "echo hi")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "hi\n" {
			b.Fatalf("%v %q", err, out)
		}
	}
}

// BenchmarkRunEchoSandboxed is BenchmarkRunEcho inside bubblewrap.
func BenchmarkRunEchoSandboxed(b *testing.B) {
	if shell.CheckSandbox("") != nil {
		b.Skip("bwrap cannot run here")
	}
	dir, tmp := b.TempDir(), b.TempDir()
	sb := &shell.Sandbox{Writable: []string{dir}}
	ctx := context.Background()
	for b.Loop() {
		res, err := shell.Run(ctx, shell.Options{Command: "echo hi", Dir: dir, TempDir: tmp, Sandbox: sb})
		if err != nil || res.Output != "hi" {
			b.Fatalf("%v %q", err, res.Output)
		}
	}
}
