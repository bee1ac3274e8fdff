package shell_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/agentcore/agentcore/runtime/sandbox"
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

// BenchmarkRunEchoSandboxed is BenchmarkRunEcho in the session's
// long-lived sandbox (sandbox.Sandbox: one bwrap for the whole run,
// each command forked inside it), with the protected paths a session adds
// (settings.SandboxProtected under the working directory, the ones that
// exist bound read-only): the cost issue 15 bounds at 1.5×
// BenchmarkRunEcho.
func BenchmarkRunEchoSandboxed(b *testing.B) {
	benchSandboxed(b, true)
}

// BenchmarkRunEchoSandboxedPerCommand is BenchmarkRunEchoSandboxed with a
// bwrap of its own for each command (no session sandbox), as a session
// without one runs.
func BenchmarkRunEchoSandboxedPerCommand(b *testing.B) {
	benchSandboxed(b, false)
}

// BenchmarkRunEchoInterleaved runs, in turn and in a rotating order, the
// five ways of running `echo hi` the other benchmarks here measure one
// after another: ExecBaseline's bare spawn, RunEcho's shell.Run,
// RunEchoSandboxed's run in the session's kept-alive sandbox (with the
// session's protected paths), RunEchoSandboxedPerCommand's run in a bwrap
// of its own, and BwrapBaseline's bare bwrap. It reports each one's
// median (ms/exec, ms/run, ms/sandboxed, ms/per-command, ms/bwrap) and
// the ratios of the medians (run/exec and sandboxed/run, the two issue 15
// bounds; per-command/run; bwrap/exec): on a shared machine whose load
// drifts between one benchmark and the next, the ratios of runs made side
// by side are the steadier figure. ns/op is the five together. `make
// bench` writes them to BENCHMARKS.md ("Bash cost").
func BenchmarkRunEchoInterleaved(b *testing.B) {
	if err := sandbox.Check(""); err != nil {
		b.Skip("bwrap cannot run here: " + err.Error())
	}
	dir, tmp := b.TempDir(), b.TempDir()
	session := protectedSandbox(b, dir)
	session.Session = &sandbox.Sandbox{}
	b.Cleanup(session.Session.Close)
	perCommand := protectedSandbox(b, dir)
	ctx := context.Background()
	run := func(sb *sandbox.Spec) {
		res, err := shell.Run(ctx, shell.Options{Command: "echo hi", Dir: dir, TempDir: tmp, Sandbox: sb})
		if err != nil || res.Output != "hi" {
			b.Fatalf("%v %q", err, res.Output)
		}
	}
	combined := func(cmd *exec.Cmd) {
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil || string(out) != "hi\n" {
			b.Fatalf("%s: %v %q", cmd.Args[0], err, out)
		}
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"exec", func() { combined(exec.Command("bash", "-c", "echo hi")) }},
		{"run", func() { run(nil) }},
		{"sandboxed", func() { run(session) }},
		{"per-command", func() { run(perCommand) }},
		{"bwrap", func() { combined(bwrapCommand(dir)) }},
	}
	steps[2].do() // the sandbox starts once per session
	times := make([][]time.Duration, len(steps))
	i := 0
	for b.Loop() {
		for k := range steps {
			j := (i + k) % len(steps)
			start := time.Now()
			steps[j].do()
			times[j] = append(times[j], time.Since(start))
		}
		i++
	}
	med := make([]float64, len(steps))
	for j, d := range times {
		slices.Sort(d)
		med[j] = float64(d[len(d)/2]) / float64(time.Millisecond)
		b.ReportMetric(med[j], "ms/"+steps[j].name)
	}
	b.ReportMetric(med[1]/med[0], "run/exec")
	b.ReportMetric(med[2]/med[1], "sandboxed/run")
	b.ReportMetric(med[3]/med[1], "per-command/run")
	b.ReportMetric(med[4]/med[0], "bwrap/exec")
}

// protectedSandbox is a confinement of dir as a session makes it: dir
// writable, and the protected paths a session adds under it
// (settings.SandboxProtected), some of them existing.
func protectedSandbox(b *testing.B, dir string) *sandbox.Spec {
	for _, d := range []string{".git/hooks", ".claude"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", ".claude/settings.json"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	sb := &sandbox.Spec{Writable: []string{dir}}
	for _, p := range []string{".git/hooks", ".git/config", ".mcp.json", ".claude/settings.json", ".claude/settings.local.json",
		".agentcore/settings.json", ".agentcore/settings.local.json"} {
		sb.Protected = append(sb.Protected, filepath.Join(dir, p))
	}
	return sb
}

// bwrapCommand is BwrapBaseline's command: bwrap with a sandbox's mounts
// around bash -c 'echo hi', and nothing else.
func bwrapCommand(dir string) *exec.Cmd {
	return exec.Command("bwrap", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--tmpfs", "/tmp", "--unshare-net", "--bind", dir, dir, "--chdir", dir, "--", "bash", "-c", "echo hi")
}

func benchSandboxed(b *testing.B, session bool) {
	if err := sandbox.Check(""); err != nil {
		b.Skip("bwrap cannot run here: " + err.Error())
	}
	dir, tmp := b.TempDir(), b.TempDir()
	sb := protectedSandbox(b, dir)
	if session {
		sb.Session = &sandbox.Sandbox{}
		b.Cleanup(sb.Session.Close)
	}
	ctx := context.Background()
	if session { // the sandbox starts once per session, not per command
		if _, err := shell.Run(ctx, shell.Options{Command: "true", Dir: dir, TempDir: tmp, Sandbox: sb}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		res, err := shell.Run(ctx, shell.Options{Command: "echo hi", Dir: dir, TempDir: tmp, Sandbox: sb})
		if err != nil || res.Output != "hi" {
			b.Fatalf("%v %q", err, res.Output)
		}
	}
}

// BenchmarkBwrapBaseline is the floor of a sandboxed run: bwrap with the
// same mounts around bash -c, combined output and nothing else, the
// baseline that shows what BenchmarkRunEchoSandboxed adds beyond bwrap
// itself.
func BenchmarkBwrapBaseline(b *testing.B) {
	if err := sandbox.Check(""); err != nil {
		b.Skip("bwrap cannot run here: " + err.Error())
	}
	dir := b.TempDir()
	for b.Loop() {
		cmd := bwrapCommand(dir)
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "hi\n" {
			b.Fatalf("%v %q", err, out)
		}
	}
}
