package shell_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentcore/agentcore/runtime/sandbox"
	"github.com/agentcore/agentcore/runtime/sandbox/egress"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

// BenchmarkDownloadInterleaved downloads 1 MB with curl from a loopback
// HTTP server, in turn and in a rotating order: through shell.Run
// unsandboxed (direct), and through shell.Run in the session's sandbox
// whose settings allow the server's address (sandbox.network.
// allowedDomains), curl reaching it through the egress HTTP proxy
// (proxied). First byte is the time from the call of shell.Run to curl's
// first byte of the body: the call's wall time less curl's own time after
// its first byte (time_total - time_starttransfer). It reports each
// way's median first byte (ms/direct, ms/proxied) and their ratio
// (proxied/direct), curl's own connect-to-first-byte medians and their
// ratio (curl-ttfb/…: the proxy hop alone, without the command's start),
// and the proxied download's whole run (ms/proxied-total). `make bench`
// writes them to BENCHMARKS.md ("Sandbox network").
func BenchmarkDownloadInterleaved(b *testing.B) {
	if err := sandbox.Check(""); err != nil {
		b.Skip("bwrap cannot run here: " + err.Error())
	}
	if _, err := exec.LookPath("curl"); err != nil {
		b.Skip("curl is not on PATH")
	}
	body := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	host := "127.0.0.1"
	port := strconv.Itoa(srv.Listener.Addr().(*net.TCPAddr).Port)
	network := &egress.Network{Policy: &egress.Policy{Allowed: []string{host}}}
	sb := sandbox.New(&sandbox.Config{AllowedDomains: []string{host}}, sandbox.Options{Network: network})
	b.Cleanup(func() {
		sb.Close()
		_ = network.Close()
	})
	dir, tmp := b.TempDir(), b.TempDir()
	spec, err := sb.Spec([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	command := "curl -sS -o /dev/null -w '%{time_starttransfer} %{time_total} %{size_download}' http://" + host + ":" + port + "/1mb"
	// The unsandboxed download goes straight to the server, whatever
	// proxy this machine's environment names.
	direct := []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"}
	type sample struct{ firstByte, curlTTFB, total time.Duration }
	download := func(sp *sandbox.Spec) sample {
		o := shell.Options{Command: command, Dir: dir, TempDir: tmp, Sandbox: sp}
		if sp == nil {
			o.Unset = direct
		}
		start := time.Now()
		res, err := shell.Run(context.Background(), o)
		wall := time.Since(start)
		var ttfb, total float64
		var size int
		if err == nil {
			_, err = fmt.Sscan(strings.TrimSpace(res.Output), &ttfb, &total, &size)
		}
		if err != nil || res.ExitCode != 0 || size != len(body) {
			b.Fatalf("download: %v, exit %d: %q", err, res.ExitCode, res.Output)
		}
		after := time.Duration((total - ttfb) * float64(time.Second))
		return sample{firstByte: wall - after, curlTTFB: time.Duration(ttfb * float64(time.Second)), total: wall}
	}
	ways := []*sandbox.Spec{nil, spec}
	download(spec) // the sandbox and its proxies start once per session
	samples := make([][]sample, len(ways))
	i := 0
	for b.Loop() {
		for k := range ways {
			j := (i + k) % len(ways)
			samples[j] = append(samples[j], download(ways[j]))
		}
		i++
	}
	median := func(j int, f func(sample) time.Duration) float64 {
		d := make([]time.Duration, 0, len(samples[j]))
		for _, s := range samples[j] {
			d = append(d, f(s))
		}
		slices.Sort(d)
		return float64(d[len(d)/2]) / float64(time.Millisecond)
	}
	first := func(s sample) time.Duration { return s.firstByte }
	curl := func(s sample) time.Duration { return s.curlTTFB }
	directFB, proxiedFB := median(0, first), median(1, first)
	b.ReportMetric(directFB, "ms/direct")
	b.ReportMetric(proxiedFB, "ms/proxied")
	b.ReportMetric(proxiedFB/directFB, "proxied/direct")
	b.ReportMetric(median(0, curl), "ms/curl-ttfb-direct")
	b.ReportMetric(median(1, curl), "ms/curl-ttfb-proxied")
	b.ReportMetric(median(1, curl)/median(0, curl), "curl-ttfb/proxied-direct")
	b.ReportMetric(median(1, func(s sample) time.Duration { return s.total }), "ms/proxied-total")
}
