package editengine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/tooldefs/editengine"
)

// benchSource is a Go-like file of n lines.
func benchSource(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\tresult%d := compute(ctx, %d, \"name-%d\")\n", i, i, i)
	}
	return b.String()
}

// BenchmarkApply edits one line in the middle of a 10 000-line file;
// BenchmarkApplyBaseline is strings.Count + strings.Replace on the same
// input, the least any exact replacement must do.
func BenchmarkApply(b *testing.B) {
	src := benchSource(10_000)
	old := "result5000 := compute(ctx, 5000,"
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := editengine.Apply(src, editengine.Edit{Old: old, New: "x := f("}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyBaseline(b *testing.B) {
	src := benchSource(10_000)
	old := "result5000 := compute(ctx, 5000,"
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if strings.Count(src, old) != 1 {
			b.Fatal("count")
		}
		_ = strings.Replace(src, old, "x := f(", 1)
	}
}

// BenchmarkApplyNotFound is the error path: a 20-line old_string with one
// wrong line, in a 10 000-line file, quoting the closest region.
func BenchmarkApplyNotFound(b *testing.B) {
	src := benchSource(10_000)
	old := strings.Replace(benchSource(5020)[len(benchSource(5000)):], "compute(ctx, 5010", "compute(ctx2, 5010", 1)
	for b.Loop() {
		_, err := editengine.Apply(src, editengine.Edit{Old: old, New: "x"})
		if err == nil {
			b.Fatal("expected not found")
		}
	}
}

// BenchmarkLineDiff diffs a 10 000-line file against itself with one line
// changed, as Edit does after every edit.
func BenchmarkLineDiff(b *testing.B) {
	src := benchSource(10_000)
	dst := strings.Replace(src, "result5000 :=", "renamed :=", 1)
	for b.Loop() {
		ops := editengine.LineDiff(src, dst)
		_ = editengine.Unified(ops, "a", "b", 3)
	}
}
