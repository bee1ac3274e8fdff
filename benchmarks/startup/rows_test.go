package startup

// The rows of issue 36 besides start-up: the binary's size, a -p run's
// exit after its last answer with three stdio MCP servers, and the gap
// from a stream's end to the next request when the server's last write
// waits on Nagle.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

var (
	releaseOnce sync.Once
	releasePath string
	releaseErr  error
)

// releaseBinary builds the external variant as `make release` does
// (-trimpath -ldflags='-s -w'), once per test run, next to binary().
func releaseBinary() (string, error) {
	releaseOnce.Do(func() {
		if _, releaseErr = binary(); releaseErr != nil {
			return
		}
		root, err := moduleRoot()
		if err != nil {
			releaseErr = err
			return
		}
		releasePath = filepath.Join(binDir, "agentcore-release")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", releasePath, "./cmd/agentcore")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make release builds it
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			releaseErr = fmt.Errorf("go build -trimpath -ldflags='-s -w' ./cmd/agentcore: %v: %s", err, out)
		}
	})
	return releasePath, releaseErr
}

// BenchmarkBinarySize reports the external binary's size as `make build`
// makes it (MB/unstripped) and as `make release` does (MB/release), in
// MB of 10^6 bytes. The figures are sizes, not times: b.N does not
// matter.
func BenchmarkBinarySize(b *testing.B) {
	plain, err := binary()
	if err != nil {
		b.Fatal(err)
	}
	release, err := releaseBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer() // ns/op is then a stat, not the builds
	for _, f := range []struct{ path, unit string }{{plain, "MB/unstripped"}, {release, "MB/release"}} {
		st, err := os.Stat(f.path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Size())/1e6, f.unit)
	}
}

// turn is one scripted answer of a scriptAPI: the SSE events of one
// message.
type turn []string

// toolTurn answers with one Bash call of `true`; textTurn ends the turn.
var (
	bashTurn = turn{
		`{"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"test-model","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"command\":\"true\",\"description\":\"nothing\"}"}}`,
		`{"type":"content_block_stop","index":0}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`,
		`{"type":"message_stop"}`,
	}
	textTurn = turn(answer)
)

// scriptAPI is a loopback Messages API answering its requests with turns,
// in order (the last one repeats), each event written and flushed on its
// own as a real server streams them. It stamps each request's arrival and
// the moment each answer's last event was flushed (its stream end). With
// nagle, the accepted connections have TCP_NODELAY off, so a small write
// that follows an unacknowledged one waits for its ACK: the chunked
// body's terminator, written after the last event, is such a write.
type scriptAPI struct {
	srv   *httptest.Server
	turns []turn

	mu      sync.Mutex
	arrived []time.Time
	ended   []time.Time
	last    chan time.Time // the stream end of the last turn, once per run
}

func newScriptAPI(nagle bool, turns ...turn) *scriptAPI {
	a := &scriptAPI{turns: turns, last: make(chan time.Time, 16)}
	a.srv = httptest.NewUnstartedServer(http.HandlerFunc(a.serve))
	if nagle {
		a.srv.Config.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetNoDelay(false)
			}
			return ctx
		}
	}
	a.srv.Start()
	return a
}

func (a *scriptAPI) reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.arrived, a.ended = nil, nil
	for len(a.last) > 0 {
		<-a.last
	}
}

func (a *scriptAPI) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.NotFound(w, r)
		return
	}
	_, _ = io.Copy(io.Discard, r.Body)
	a.mu.Lock()
	n := len(a.arrived)
	a.arrived = append(a.arrived, at)
	a.mu.Unlock()
	t := a.turns[min(n, len(a.turns)-1)]
	w.Header().Set("Content-Type", "text/event-stream")
	for _, ev := range t {
		typ := ev[len(`{"type":"`):]
		typ = typ[:strings.IndexByte(typ, '"')]
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, ev)
		w.(http.Flusher).Flush()
	}
	end := time.Now()
	a.mu.Lock()
	a.ended = append(a.ended, end)
	a.mu.Unlock()
	if n >= len(a.turns)-1 {
		select {
		case a.last <- end:
		default:
		}
	}
}

// gap is the time from the first answer's stream end to the second
// request's arrival.
func (a *scriptAPI) gap() (time.Duration, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.arrived) < 2 || len(a.ended) < 1 {
		return 0, fmt.Errorf("the run made %d requests, want 2 (a Bash call and its result)", len(a.arrived))
	}
	return a.arrived[1].Sub(a.ended[0]), nil
}

// runP runs `agentcore run -p go` against api with extra flags, in home
// and cwd as newStartup sets them, and returns when it exited, with the
// time from the last answer's stream end to its exit.
func runP(bin string, api *scriptAPI, home, cwd string, extra ...string) (time.Duration, error) {
	api.reset()
	s := newStartup(bin, home, cwd)
	s.close() // only its environment: point it at api
	for i, kv := range s.env {
		if strings.HasPrefix(kv, "ANTHROPIC_BASE_URL=") {
			s.env[i] = "ANTHROPIC_BASE_URL=" + api.srv.URL
		}
	}
	args := append([]string{"run", "-p", "go", "--model", "anthropic:test-model"}, extra...)
	cmd, out := s.command(args...)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			return 0, fmt.Errorf("agentcore %s: %v: %s", strings.Join(args, " "), err, out)
		}
		end := time.Time{}
		select {
		case end = <-api.last:
		default:
			return 0, fmt.Errorf("agentcore %s exited before its last answer: %s", strings.Join(args, " "), out)
		}
		if !strings.Contains(out.String(), "hello") {
			return 0, fmt.Errorf("agentcore %s did not print the fake's answer: %s", strings.Join(args, " "), out)
		}
		return time.Since(end), nil
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		return 0, fmt.Errorf("agentcore %s did not exit in 60 s: %s", strings.Join(args, " "), out)
	}
}

// referenceServers is an --mcp-config of the three npm reference servers
// of issue 13 (everything, filesystem, memory) over stdio, rooted in dir.
func referenceServers(dir string) (string, error) {
	bins := map[string]string{}
	for _, b := range []string{"mcp-server-everything", "mcp-server-filesystem", "mcp-server-memory"} {
		path, why := tooltest.NpmBin(b)
		if path == "" {
			return "", fmt.Errorf("%s", why)
		}
		bins[b] = path
	}
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"everything": map[string]any{"command": bins["mcp-server-everything"]},
		"filesystem": map[string]any{"command": bins["mcp-server-filesystem"], "args": []string{dir}},
		"memory": map[string]any{"command": bins["mcp-server-memory"],
			"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(dir, "memory.jsonl")}},
	}})
	return string(cfg), err
}

// BenchmarkMCPExit: each iteration is one `run -p` with the three stdio
// reference servers and one without, alternating which goes first, each
// timed from the fake's end of its answer to the process's exit. Reports
// both medians (ms/exit-mcp, ms/exit-bare) and their difference
// (ms-more/exit).
func BenchmarkMCPExit(b *testing.B) {
	bin, err := binary()
	if err != nil {
		b.Fatal(err)
	}
	home, cwd := b.TempDir(), b.TempDir()
	cfg, err := referenceServers(cwd)
	if err != nil {
		b.Fatal(err)
	}
	api := newScriptAPI(false, textTurn)
	defer api.srv.Close()
	with := []string{"--mcp-config", cfg, "--strict-mcp-config"}
	if _, err := runP(bin, api, home, cwd, with...); err != nil { // warm the page cache and npm's
		b.Fatal(err)
	}
	var mcp, bare []time.Duration
	b.ResetTimer()
	for i := range b.N {
		for j := range 2 {
			var extra []string
			if (i+j)%2 == 0 {
				extra = with
			}
			d, err := runP(bin, api, home, cwd, extra...)
			if err != nil {
				b.Fatal(err)
			}
			if extra != nil {
				mcp = append(mcp, d)
			} else {
				bare = append(bare, d)
			}
		}
	}
	b.StopTimer()
	mm, mb := median(mcp), median(bare)
	b.ReportMetric(float64(mm.Microseconds())/1e3, "ms/exit-mcp")
	b.ReportMetric(float64(mb.Microseconds())/1e3, "ms/exit-bare")
	b.ReportMetric(float64((mm-mb).Microseconds())/1e3, "ms-more/exit")
}

// BenchmarkNagleGap: each iteration is two `run -p` turns of one Bash
// `true` call, one against a fake whose connections have Nagle on and
// one against a fake with TCP_NODELAY, alternating which goes first; each
// is timed from the end of the tool_use answer's last event to the
// arrival of the request with the tool's result. Reports both medians
// (ms/gap-nagle, ms/gap-nodelay) and their ratio (x-nodelay).
func BenchmarkNagleGap(b *testing.B) {
	bin, err := binary()
	if err != nil {
		b.Fatal(err)
	}
	home, cwd := b.TempDir(), b.TempDir()
	nagle, nodelay := newScriptAPI(true, bashTurn, textTurn), newScriptAPI(false, bashTurn, textTurn)
	defer nagle.srv.Close()
	defer nodelay.srv.Close()
	flags := []string{"--allowedTools", "Bash"}
	one := func(api *scriptAPI) (time.Duration, error) {
		if _, err := runP(bin, api, home, cwd, flags...); err != nil {
			return 0, err
		}
		return api.gap()
	}
	if _, err := one(nodelay); err != nil { // warm the page cache
		b.Fatal(err)
	}
	var on, off []time.Duration
	b.ResetTimer()
	for i := range b.N {
		for j := range 2 {
			api := nodelay
			if (i+j)%2 == 0 {
				api = nagle
			}
			d, err := one(api)
			if err != nil {
				b.Fatal(err)
			}
			if api == nagle {
				on = append(on, d)
			} else {
				off = append(off, d)
			}
		}
	}
	b.StopTimer()
	mon, moff := median(on), median(off)
	b.ReportMetric(float64(mon.Microseconds())/1e3, "ms/gap-nagle")
	b.ReportMetric(float64(moff.Microseconds())/1e3, "ms/gap-nodelay")
	b.ReportMetric(float64(mon)/float64(moff), "x-nodelay")
}

var _ = Describe("the exit and Nagle benchmarks", func() {
	It("time a Bash turn against a fake with Nagle on: two requests, the gap measured", func() {
		bin, err := binary()
		Expect(err).NotTo(HaveOccurred())
		api := newScriptAPI(true, bashTurn, textTurn)
		DeferCleanup(api.srv.Close)
		exit, err := runP(bin, api, GinkgoT().TempDir(), GinkgoT().TempDir(), "--allowedTools", "Bash")
		Expect(err).NotTo(HaveOccurred())
		Expect(exit).To(BeNumerically(">", 0))
		gap, err := api.gap()
		Expect(err).NotTo(HaveOccurred())
		Expect(gap).To(BeNumerically(">", 0))
	})
})
