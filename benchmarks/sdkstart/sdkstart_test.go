package sdkstart

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkSDKFirstRequest runs b.N interleaved pairs and reports each
// CLI's median (ms/agentcore, ms/claude-code) and their ratio
// (x-claude-code: agentcore's median over Claude Code's).
func BenchmarkSDKFirstRequest(b *testing.B) {
	if _, err := exec.LookPath("node"); err != nil {
		b.Skip("node is not installed")
	}
	entry := SDKEntry()
	if _, err := os.Stat(entry); err != nil {
		b.Skip("the Agent SDK is not installed at " + entry + ": npm install --prefix " + tooltest.NpmDir() + " with .ci/npm/package.json")
	}
	cc := ClaudeCode()
	if _, err := exec.LookPath(cc); err != nil {
		b.Skip("Claude Code is not at " + cc + ": install the Agent SDK with its platform package (npm install --prefix " + tooltest.NpmDir() + " with .ci/npm/package.json) or set AGENTCORE_CLAUDE_CODE")
	}
	bin, err := agentcoreBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cmd := exec.Command("node", "first_request.mjs", entry, itoa(b.N), "agentcore="+bin, "claude-code="+cc)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	b.StopTimer()
	if err != nil {
		b.Fatalf("node first_request.mjs: %v: %s", err, out)
	}
	var ms map[string][]float64
	if err := json.Unmarshal(out, &ms); err != nil {
		b.Fatalf("first_request.mjs printed %q: %v", out, err)
	}
	ac, ccMs := median(ms["agentcore"]), median(ms["claude-code"])
	b.ReportMetric(ac, "ms/agentcore")
	b.ReportMetric(ccMs, "ms/claude-code")
	b.ReportMetric(ac/ccMs, "x-claude-code")
}

var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// agentcoreBinary builds ./cmd/agentcore once per test binary (every run
// of the benchmark, b.N=1 and the -count runs, uses it); TestMain removes
// it.
func agentcoreBinary() (string, error) {
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "agentcore-sdkstart-")
		if built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "agentcore")
		build := exec.Command("go", "build", "-o", bin, "./cmd/agentcore")
		build.Dir = "../.."
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build and make release build it
		if out, err := build.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build ./cmd/agentcore: %w: %s", err, out)
			return
		}
		built.bin = bin
	})
	return built.bin, built.err
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestMain removes the agentcore binary the benchmark built.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}
