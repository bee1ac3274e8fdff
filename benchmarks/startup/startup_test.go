package startup

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var (
	buildOnce sync.Once
	binDir    string
	binPath   string
	buildErr  error
)

// binary builds the external variant of cmd/agentcore once per test run.
func binary() (string, error) {
	buildOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			buildErr = err
			return
		}
		if binDir, err = os.MkdirTemp("", "agentcore-startup"); err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(binDir, "agentcore")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/agentcore")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as make build and make release build it
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build ./cmd/agentcore: %v: %s", err, out)
		}
	})
	return binPath, buildErr
}

func removeBinary() {
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
}

// moduleRoot is the directory of the nearest go.mod above this package.
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
			return "", fmt.Errorf("no go.mod above %s: run from inside the module", dir)
		}
		dir = parent
	}
}

// answer is the smallest complete Messages stream: one text block, end_turn.
var answer = []string{
	`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"test-model","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hello"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`,
	`{"type":"message_stop"}`,
}

// fakeAPI is a loopback Messages API that stamps each POST /v1/messages
// as it arrives, before reading the body, and answers with answer.
type fakeAPI struct {
	srv      *httptest.Server
	arrivals chan time.Time
	mu       sync.Mutex
	stray    []string // requests other than POST /v1/messages
}

func newFakeAPI() *fakeAPI {
	f := &fakeAPI{arrivals: make(chan time.Time, 16)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		f.mu.Lock()
		f.stray = append(f.stray, r.Method+" "+r.URL.Path)
		f.mu.Unlock()
		http.NotFound(w, r)
		return
	}
	select {
	case f.arrivals <- at:
	default:
	}
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range answer {
		typ := ev[len(`{"type":"`):]
		typ = typ[:strings.IndexByte(typ, '"')]
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, ev)
	}
	w.(http.Flusher).Flush()
}

func (f *fakeAPI) strays() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.stray)
}

// startup is one benchmark setup: the binary, the fake, and an empty
// home, config directory and working directory (so no settings files and
// no .mcp.json are found).
type startup struct {
	bin string
	api *fakeAPI
	env []string
	cwd string
}

func newStartup(bin, home, cwd string) *startup {
	api := newFakeAPI()
	var env []string
	for _, kv := range os.Environ() {
		// No key, gateway, model or config of the caller's leaks in.
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "AGENTCORE_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	env = append(env, "ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL="+api.srv.URL, "HOME="+home, "AGENTCORE_CONFIG_DIR="+home)
	return &startup{bin: bin, api: api, env: env, cwd: cwd}
}

func (s *startup) close() { s.api.srv.Close() }

func (s *startup) command(args ...string) (*exec.Cmd, *strings.Builder) {
	cmd := exec.Command(s.bin, args...)
	cmd.Env, cmd.Dir = s.env, s.cwd
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, &out
}

// version times `agentcore version` from exec to exit.
func (s *startup) version() (time.Duration, error) {
	cmd, out := s.command("version")
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("agentcore version: %v: %s", err, out)
	}
	return time.Since(start), nil
}

// firstRequest times `agentcore run -p hi --model anthropic:test-model`
// from exec to the fake's receipt of its first request, then waits for a
// clean exit with the fake's answer printed.
func (s *startup) firstRequest() (time.Duration, error) {
	for len(s.api.arrivals) > 0 {
		<-s.api.arrivals
	}
	cmd, out := s.command("run", "-p", "hi", "--model", "anthropic:test-model")
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var took time.Duration
	select {
	case at := <-s.api.arrivals:
		took = at.Sub(start)
	case err := <-exited:
		return 0, fmt.Errorf("agentcore run exited before its first request (%v): %s", err, out)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return 0, fmt.Errorf("agentcore run sent no request in 30 s: %s", out)
	}
	if err := <-exited; err != nil {
		return 0, fmt.Errorf("agentcore run: %v: %s", err, out)
	}
	if !strings.Contains(out.String(), "hello") {
		return 0, fmt.Errorf("agentcore run did not print the fake's answer: %s", out)
	}
	if stray := s.api.strays(); len(stray) > 0 {
		return 0, fmt.Errorf("agentcore run sent requests the fake does not serve: %v", stray)
	}
	return took, nil
}

// pair runs both measurements, version first when versionFirst.
func (s *startup) pair(versionFirst bool) (version, first time.Duration, err error) {
	if versionFirst {
		if version, err = s.version(); err == nil {
			first, err = s.firstRequest()
		}
		return
	}
	if first, err = s.firstRequest(); err == nil {
		version, err = s.version()
	}
	return
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkStartup: each iteration is one `agentcore version` and one
// `agentcore run` against the fake, alternating which goes first, so
// noise on the machine falls on both alike. Reports the medians of each
// (ns/version, ns/first-request) and first-request over version
// (x-version).
func BenchmarkStartup(b *testing.B) {
	bin, err := binary()
	if err != nil {
		b.Fatal(err)
	}
	s := newStartup(bin, b.TempDir(), b.TempDir())
	defer s.close()
	if _, _, err := s.pair(true); err != nil { // warm the page cache
		b.Fatal(err)
	}
	versions := make([]time.Duration, 0, b.N)
	firsts := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		v, f, err := s.pair(i%2 == 0)
		if err != nil {
			b.Fatal(err)
		}
		versions, firsts = append(versions, v), append(firsts, f)
	}
	b.StopTimer()
	mv, mf := median(versions), median(firsts)
	b.ReportMetric(float64(mv.Nanoseconds()), "ns/version")
	b.ReportMetric(float64(mf.Nanoseconds()), "ns/first-request")
	b.ReportMetric(float64(mf.Microseconds())/1e3, "ms/first-request")
	b.ReportMetric(float64(mf)/float64(mv), "x-version")
}

var _ = Describe("the start-up benchmark", func() {
	It("times a version run and a run whose one request the fake answers, both exiting cleanly", func() {
		bin, err := binary()
		Expect(err).NotTo(HaveOccurred())
		s := newStartup(bin, GinkgoT().TempDir(), GinkgoT().TempDir())
		DeferCleanup(s.close)
		version, first, err := s.pair(false)
		Expect(err).NotTo(HaveOccurred())
		Expect(version).To(BeNumerically(">", 0))
		Expect(first).To(BeNumerically(">", 0))
	})
})
