package permission_test

import (
	"context"
	"os"
	"testing"

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
	for b.Loop() {
		e.Check(ctx, bash, cmd, tc)
	}
}

// BenchmarkCheckShellSimple measures one permission check of a single
// command an allow rule covers.
func BenchmarkCheckShellSimple(b *testing.B) {
	e, tc := benchEngine(b)
	bash := &fakeTool{name: "Bash", kind: runtime.TargetCommand}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e.Check(ctx, bash, "git status", tc)
	}
}

// BenchmarkCheckPath measures one permission check of a file path
// (symlink resolution, confinement, path rules).
func BenchmarkCheckPath(b *testing.B) {
	e, tc := benchEngine(b)
	edit := &fakeTool{name: "Edit", kind: runtime.TargetPath, writes: true}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e.Check(ctx, edit, "src/pkg/file.go", tc)
	}
}
