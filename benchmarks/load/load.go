// Command load runs many agent sessions at once in one process, each a
// replay conversation with mixed tools on its own temporary tree, and
// reports throughput, per-call engine overhead, peak memory and
// goroutines, and what was left behind (goroutines, file descriptors).
//
//	go run ./benchmarks/load [-sessions 200] [-turns 20] [-timeout 5m] [-nogc] [-out RELIABILITY.md]
//
// With -out, the figures replace the block between the load markers of
// that file. With -nogc no finalizer runs during the run, so a descriptor
// dropped without Close is counted as left behind (the spec runs so).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/pool"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
)

// Config is one load run.
type Config struct {
	// Sessions run at once; each plays Turns tool turns and a last text
	// turn.
	Sessions, Turns int
	// Timeout bounds the whole run; sessions still running then are
	// cancelled and counted as unfinished.
	Timeout time.Duration
	// Root holds the sessions' trees (and their homes).
	Root string
	// GoleakOptions are passed to goleak.Find after the run (e.g. the
	// test framework's own goroutines).
	GoleakOptions []goleak.Option
	// NoGC turns the garbage collector off from the baseline counts to
	// the last count of descriptors, so that no finalizer can close what
	// the run leaked (an *os.File dropped without Close) before it is
	// counted. The heap then only grows: for small runs (the spec's),
	// not for the peak-memory figures.
	NoGC bool
}

// LoadReport is what a run measured.
type LoadReport struct {
	Sessions, Turns int
	Calls           int           // tool results received
	ErrorResults    []string      // is_error results (tool: text), first few
	Unfinished      int           // sessions that did not end with end_turn
	Wall            time.Duration // from the first Open to the last Close
	CallsPerSec     float64
	// Overhead is the engine's time per call: from the tool_use handed to
	// the executor to its result, minus the tool's own Call.
	OverheadP50, OverheadP99 time.Duration
	ToolP50, ToolP99         time.Duration
	// OverheadByTool is "p50 / p99" of the overhead by tool name.
	OverheadByTool    map[string][2]time.Duration
	PeakHeapInuse     uint64 // bytes, sampled
	PeakSys           uint64 // bytes obtained from the OS, sampled
	VmHWM             uint64 // bytes, the process's peak resident set
	BaseGoroutines    int
	PeakGoroutines    int
	Leaked            string // goleak's report; empty: none
	BaseFDs, AfterFDs int
	LeakedFDs         []string // what the extra descriptors point to
	// LoadAvg is /proc/loadavg's 1-minute figure before and after: the
	// machine's other work, which the latencies include.
	LoadAvg [2]string
}

// noSearchTools is true in the ant build, whose Bash serves grep and find.
var noSearchTools = !slices.ContainsFunc(generated.AllBaseTools(), func(t runtime.Tool) bool { return t.Name() == "Grep" })

// cycle is the tools a session's turns go through, in order.
var cycle = []string{"Write", "Read", "Edit", "Bash", "Grep", "Glob"}

// scenario is a session's conversation: turns tool calls, each on the
// session's own tree (${CWD}), then a text turn.
func scenario(turns int) *replay.Scenario {
	sc := &replay.Scenario{Name: "load", Prompt: "work on the tree"}
	in := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	note := func(k int) string { return "${CWD}/out/n" + strconv.Itoa(k) + ".txt" }
	for k := range turns {
		var input json.RawMessage
		switch cycle[k%len(cycle)] {
		case "Write":
			input = in(map[string]any{"file_path": note(k), "content": fmt.Sprintf("line alpha %d\nline beta\n", k)})
		case "Read":
			input = in(map[string]any{"file_path": note(k - 1)})
		case "Edit":
			input = in(map[string]any{"file_path": note(k - 2), "old_string": "line beta", "new_string": fmt.Sprintf("line gamma %d", k)})
		case "Bash":
			input = in(map[string]any{"command": "grep -c gamma out/*.txt; ls src | wc -l"})
		case "Grep":
			input = in(map[string]any{"pattern": "gamma|func", "path": "${CWD}"})
		case "Glob":
			input = in(map[string]any{"pattern": "**/*.txt"})
		}
		name := cycle[k%len(cycle)]
		if noSearchTools && (name == "Grep" || name == "Glob") {
			// The ant build has no Grep or Glob: Bash's grep and find
			// are its search engines.
			cmd := "grep -rlE 'gamma|func' ."
			if name == "Glob" {
				cmd = "find . -name '*.txt'"
			}
			name, input = "Bash", in(map[string]any{"command": cmd})
		}
		sc.Turns = append(sc.Turns, replay.Turn{Blocks: []replay.ScriptBlock{
			{Type: "text", Text: "Next step."},
			{Type: "tool_use", ID: "t" + strconv.Itoa(k), Name: name, Input: input},
		}})
	}
	sc.Turns = append(sc.Turns, replay.Turn{Blocks: []replay.ScriptBlock{{Type: "text", Text: "Done."}}})
	return sc
}

// tree writes a session's starting files under dir.
func tree(dir string) error {
	files := map[string]string{
		"src/main.go":    "package main\n\nfunc main() {}\n",
		"src/util.go":    "package main\n\nfunc helper() int { return 1 }\n",
		"docs/readme.md": "# project\n\nSome words.\n",
		"docs/notes.txt": "alpha\nbeta\n",
		"out/.keep":      "",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// timed measures a tool's own Call, by tool_use id.
type timed struct {
	runtime.Tool
	rec *calls
}

func (t timed) Call(ctx context.Context, input any, call *runtime.Call) (runtime.Result, error) {
	start := time.Now()
	res, err := t.Tool.Call(ctx, input, call)
	t.rec.toolTime(call.ID, time.Since(start))
	return res, err
}

// calls is one session's timings.
type calls struct {
	mu    sync.Mutex
	tool  map[string]time.Duration
	queue map[string]time.Time
	over  []time.Duration
	tools []time.Duration
}

func (c *calls) toolTime(id string, d time.Duration) {
	c.mu.Lock()
	c.tool[id] = d
	c.mu.Unlock()
}

// sessionResult is what one session reports.
type sessionResult struct {
	calls    int
	errs     []string
	finished bool
	over     []time.Duration
	tools    []time.Duration
	byTool   map[string][]time.Duration // overhead by tool name
	err      error
}

func runSession(ctx context.Context, cfg Config, i int, tools []runtime.Tool) sessionResult {
	dir := filepath.Join(cfg.Root, "s"+strconv.Itoa(i))
	home := filepath.Join(cfg.Root, "home"+strconv.Itoa(i))
	if err := tree(dir); err != nil {
		return sessionResult{err: err}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return sessionResult{err: err}
	}
	rec := &calls{tool: map[string]time.Duration{}, queue: map[string]time.Time{}}
	wrapped := make([]runtime.Tool, len(tools))
	for j, t := range tools {
		wrapped[j] = timed{Tool: t, rec: rec}
	}
	s, err := session.Open(ctx, session.Options{
		Dir:         dir,
		Home:        home,
		Tools:       wrapped,
		Permissions: permission.Sources{Mode: permission.ModeAcceptEdits, ConfigDir: filepath.Join(home, ".agentcore")},
		Pool:        pool.Options{Defer: pool.DeferMode{Kind: pool.DeferNever}},
		Provider:    replay.New(scenario(cfg.Turns), replay.Options{Speed: 0, Cwd: dir}),
		System:      "load test",
	})
	if err != nil {
		return sessionResult{err: err}
	}
	defer s.Close()
	r := sessionResult{byTool: map[string][]time.Duration{}}
	for ev := range s.Run(ctx, "work on the tree") {
		switch ev.Kind {
		case agent.EventToolQueued:
			rec.queue[ev.ID] = ev.At
		case agent.EventToolResult:
			r.calls++
			rec.mu.Lock()
			td := rec.tool[ev.ID]
			rec.mu.Unlock()
			o := ev.At.Sub(rec.queue[ev.ID]) - td
			r.over = append(r.over, o)
			r.byTool[ev.Name] = append(r.byTool[ev.Name], o)
			r.tools = append(r.tools, td)
			if ev.Call.Result.IsError {
				r.errs = append(r.errs, ev.Name+": "+ev.Call.Result.Text())
			}
		case agent.EventDone:
			r.finished = ev.Outcome.Stop == agent.StopEndTurn
			if ev.Outcome.Err != nil {
				r.err = ev.Outcome.Err
			}
		}
	}
	return r
}

// pick keeps the tools the load uses.
func pick(all []runtime.Tool) []runtime.Tool {
	var out []runtime.Tool
	for _, t := range all {
		if slices.Contains(cycle, t.Name()) {
			out = append(out, t)
		}
	}
	return out
}

// Run runs cfg and reports. The returned error is a run that could not be
// set up; what went wrong inside sessions is in the report.
func Run(cfg Config) (*LoadReport, error) {
	tools := pick(generated.AllBaseTools())
	if len(tools) != len(cycle) && !noSearchTools {
		var names []string
		for _, t := range tools {
			names = append(names, t.Name())
		}
		return nil, fmt.Errorf("load: want the tools %v, this build has %v (the ant build has no Grep or Glob)", cycle, names)
	}
	// The runtime's poller (an epoll and an eventfd, process-wide, never
	// closed) starts on first use: start it before the baseline count.
	if r, w, err := os.Pipe(); err == nil {
		r.Close()
		w.Close()
	}
	goruntime.GC()
	if cfg.NoGC {
		// Nothing is collected, so no finalizer runs, until the counts
		// below are taken.
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	rep := &LoadReport{Sessions: cfg.Sessions, Turns: cfg.Turns, BaseGoroutines: goruntime.NumGoroutine()}
	baseFDs, err := fds()
	if err != nil {
		return nil, err
	}
	rep.BaseFDs = len(baseFDs)
	rep.LoadAvg[0] = loadAvg()
	snapshot := goleak.IgnoreCurrent()

	ctx, cancel := context.WithTimeout(context.Background(), cfg.Timeout)
	defer cancel()
	stopSampling := sample(rep)
	start := time.Now()
	results := make([]sessionResult, cfg.Sessions)
	var wg sync.WaitGroup
	for i := range cfg.Sessions {
		wg.Go(func() { results[i] = runSession(ctx, cfg, i, tools) })
	}
	wg.Wait()
	rep.Wall = time.Since(start)
	stopSampling()

	var over, toolTimes []time.Duration
	byTool := map[string][]time.Duration{}
	var firstErr error
	for _, r := range results {
		for name, ds := range r.byTool {
			byTool[name] = append(byTool[name], ds...)
		}
		rep.Calls += r.calls
		over = append(over, r.over...)
		toolTimes = append(toolTimes, r.tools...)
		if len(rep.ErrorResults) < 5 {
			rep.ErrorResults = append(rep.ErrorResults, r.errs...)
		}
		if !r.finished {
			rep.Unfinished++
			if firstErr == nil && r.err != nil {
				firstErr = r.err
			}
		}
	}
	if firstErr != nil && rep.Unfinished > 0 {
		rep.ErrorResults = append(rep.ErrorResults, "session: "+firstErr.Error())
	}
	rep.CallsPerSec = float64(rep.Calls) / rep.Wall.Seconds()
	rep.OverheadP50, rep.OverheadP99 = percentile(over, 50), percentile(over, 99)
	rep.ToolP50, rep.ToolP99 = percentile(toolTimes, 50), percentile(toolTimes, 99)
	rep.OverheadByTool = map[string][2]time.Duration{}
	for name, ds := range byTool {
		rep.OverheadByTool[name] = [2]time.Duration{percentile(ds, 50), percentile(ds, 99)}
	}
	rep.VmHWM = vmHWM()
	rep.LoadAvg[1] = loadAvg()

	// Everything is closed: nothing of the sessions may be left.
	if err := goleak.Find(append([]goleak.Option{snapshot}, cfg.GoleakOptions...)...); err != nil {
		rep.Leaked = err.Error()
	}
	after, err := fds()
	if err != nil {
		return nil, err
	}
	// A descriptor closes when its last user does; give stragglers (a
	// child's pipe end) a moment.
	for deadline := time.Now().Add(2 * time.Second); len(after) > len(baseFDs) && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		if after, err = fds(); err != nil {
			return nil, err
		}
	}
	rep.AfterFDs = len(after)
	for fd, target := range after {
		if _, ok := baseFDs[fd]; !ok {
			rep.LeakedFDs = append(rep.LeakedFDs, fd+" -> "+target)
		}
	}
	slices.Sort(rep.LeakedFDs)
	return rep, nil
}

// sample records peak heap, memory from the OS and goroutines until the
// returned stop is called.
func sample(rep *LoadReport) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	take := func() {
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		rep.PeakHeapInuse = max(rep.PeakHeapInuse, ms.HeapInuse)
		rep.PeakSys = max(rep.PeakSys, ms.Sys)
		rep.PeakGoroutines = max(rep.PeakGoroutines, goruntime.NumGoroutine())
	}
	wg.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				take()
			}
		}
	})
	return func() { close(done); wg.Wait(); take() }
}

// fds lists the process's open file descriptors and what they point to.
func fds() (map[string]string, error) {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return nil, fmt.Errorf("load: count file descriptors: %w (needs Linux /proc)", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("load: count file descriptors: %w", err)
	}
	self := strconv.Itoa(int(d.Fd()))
	out := map[string]string{}
	for _, n := range names {
		if n == self { // the listing's own descriptor
			continue
		}
		target, _ := os.Readlink(filepath.Join("/proc/self/fd", n))
		out[n] = target
	}
	return out, nil
}

// loadAvg is the 1-minute load average, or "?".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// vmHWM is the process's peak resident set size from /proc/self/status.
func vmHWM() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}

// Problems lists what makes the run a failure: unfinished sessions,
// error results, leaked goroutines or descriptors.
func (r *LoadReport) Problems() []string {
	var out []string
	if r.Unfinished > 0 {
		out = append(out, fmt.Sprintf("%d of %d sessions did not finish", r.Unfinished, r.Sessions))
	}
	if want := r.Sessions * r.Turns; r.Calls != want {
		out = append(out, fmt.Sprintf("%d tool results, want %d", r.Calls, want))
	}
	for _, e := range r.ErrorResults {
		out = append(out, "error result: "+e)
	}
	if r.Leaked != "" {
		out = append(out, "leaked goroutines: "+r.Leaked)
	}
	if len(r.LeakedFDs) > 0 {
		out = append(out, fmt.Sprintf("%d file descriptors beyond the %d before the run: %s", len(r.LeakedFDs), r.BaseFDs, strings.Join(r.LeakedFDs, ", ")))
	}
	return out
}

// Markdown renders the report as RELIABILITY.md's load figures.
func (r *LoadReport) Markdown() string {
	var b strings.Builder
	mib := func(n uint64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }
	fmt.Fprintf(&b, "%d sessions at once, each %d tool turns (Write, Read, Edit, Bash, Grep, Glob in turn) and a text turn; %s, %d CPUs, %s.\n\n",
		r.Sessions, r.Turns, goruntime.GOOS+"/"+goruntime.GOARCH, goruntime.NumCPU(), goruntime.Version())
	fmt.Fprintf(&b, "| figure | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| tool calls | %d in %.1f s: %.0f calls/s |\n", r.Calls, r.Wall.Seconds(), r.CallsPerSec)
	fmt.Fprintf(&b, "| engine overhead per call (queued → result, minus the tool's Call) | p50 %s, p99 %s |\n", round(r.OverheadP50), round(r.OverheadP99))
	var parts []string
	for _, name := range cycle {
		if v, ok := r.OverheadByTool[name]; ok {
			parts = append(parts, fmt.Sprintf("%s %s / %s", name, round(v[0]), round(v[1])))
		}
	}
	fmt.Fprintf(&b, "| overhead by tool, p50 / p99 | %s |\n", strings.Join(parts, "; "))
	fmt.Fprintf(&b, "| the tools' own Call | p50 %s, p99 %s |\n", round(r.ToolP50), round(r.ToolP99))
	fmt.Fprintf(&b, "| peak heap in use / from the OS / resident (VmHWM) | %s / %s / %s |\n", mib(r.PeakHeapInuse), mib(r.PeakSys), mib(r.VmHWM))
	fmt.Fprintf(&b, "| goroutines: before / peak | %d / %d |\n", r.BaseGoroutines, r.PeakGoroutines)
	leaked := "none"
	if r.Leaked != "" {
		leaked = "**some** (see the run's output)"
	}
	fmt.Fprintf(&b, "| goroutines left after Close | %s |\n", leaked)
	fmt.Fprintf(&b, "| file descriptors: before / after | %d / %d |\n", r.BaseFDs, r.AfterFDs)
	fmt.Fprintf(&b, "| unfinished sessions, error results | %d, %d |\n", r.Unfinished, len(r.ErrorResults))
	fmt.Fprintf(&b, "| machine load average (1 min) before / after | %s / %s |\n", r.LoadAvg[0], r.LoadAvg[1])
	return b.String()
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// Markers delimit the load figures in the -out file.
const (
	beginMarker = "<!-- load figures: go run ./benchmarks/load -out RELIABILITY.md -->"
	endMarker   = "<!-- end of load figures -->"
)

// splice puts figures between the markers of doc.
func splice(doc, figures string) (string, error) {
	i := strings.Index(doc, beginMarker)
	j := strings.Index(doc, endMarker)
	if i < 0 || j < i {
		return "", errors.New("load: the file has no load markers; add the lines\n" + beginMarker + "\n" + endMarker)
	}
	return doc[:i+len(beginMarker)] + "\n" + figures + doc[j:], nil
}
