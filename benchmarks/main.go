// Command benchmarks runs agentcore's benchmarks and writes BENCHMARKS.md,
// the whole file, from this one run: every figure is a ratio against a
// baseline measured in the same run (same process or same script),
// because these machines are noisy, and every section records when and
// where it ran, the load, and the versions of the tools it compares with.
// It exits with status 1 when a row misses its target (or a suite could
// not be measured), after writing the file and naming the rows.
//
//	go run ./benchmarks [-out BENCHMARKS.md] [-count 5]
//	go run ./benchmarks -only 'Bash cost'   # some suites, printed to stdout
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// suite is one `go test -bench` invocation and the ratios read from it.
type suite struct {
	title string
	// dir is the module the suite's package is in, relative to the
	// repository's root, for a nested module; empty: the main module.
	dir       string
	pkg       string
	bench     string
	benchtime string
	tags      string
	env       []string
	// count overrides the -count flag for a suite whose runs are long.
	count int
	// needs lists commands that must be on PATH; the suite is not run,
	// and its rows with a target count as missed, when one is missing.
	needs []string
	// tools are the programs the suite compares with; their versions are
	// detected when it runs and written in its section.
	tools []tool
	// ratios are the rows of the section's verdict; a label may name a
	// tool as {name}, replaced by its detected version.
	ratios []ratio
	// notes is fixed explanatory prose: it holds no measured figure.
	notes string
}

// ratio compares one benchmark's metric with another's.
type ratio struct {
	label    string
	num, den string // benchmark names (without the -N suffix); no den: num's value itself
	metric   string // "ns/op" or a custom b.ReportMetric unit
	// computed says the metric is a ratio the benchmark computed itself,
	// as every x-… metric is.
	computed bool
	// target is the largest acceptable ratio; 0 means informational.
	target float64
}

// tool is a program a suite compares with and how to learn its version.
type tool struct {
	name    string
	version func() string // "" when the program is not installed
}

// versionOf runs the first of the commands found on PATH with args and
// returns the first line it prints, or "" when none is installed.
func versionOf(args []string, names ...string) func() string {
	return func() string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return firstLine(p, args...)
			}
		}
		return ""
	}
}

// firstLine runs path with args (10 s at most) and returns the first line
// of its output, or "" when it cannot run.
func firstLine(path string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, args...).CombinedOutput()
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	if err != nil && line == "" {
		return ""
	}
	return strings.TrimSpace(line)
}

// miss is a row with a target that the run did not meet.
type miss struct{ section, row, why string }

func main() {
	out := flag.String("out", "", "file to write, - for stdout (default BENCHMARKS.md; stdout with -only)")
	count := flag.Int("count", 5, "runs of each benchmark; the median is reported")
	only := flag.String("only", "", "run only the suites whose title contains this, for development; the result goes to stdout")
	into := flag.String("into", "", "with -only: rewrite the chosen suites' sections in this file (BENCHMARKS.md), keeping the others, and name them in its header as run alone")
	flag.Parse()
	if *into != "" {
		if *only == "" {
			fmt.Fprintln(os.Stderr, "benchmarks: -into rewrites some sections: name them with -only")
			os.Exit(2)
		}
		os.Exit(runInto(*into, *only, *count))
	}
	if *out == "" {
		*out = "BENCHMARKS.md"
		if *only != "" {
			*out = "-"
		}
	}
	if *only != "" && *out != "-" {
		fmt.Fprintln(os.Stderr, "benchmarks: -only writes a partial report: use -out - (BENCHMARKS.md is written whole, by a run without -only)")
		os.Exit(2)
	}

	start := time.Now().UTC()
	load0 := loadavg()
	var body strings.Builder
	var misses []miss
	ran := 0
	for _, s := range suites {
		if *only != "" && !strings.Contains(s.title, *only) {
			continue
		}
		ran++
		n := *count
		if s.count > 0 {
			n = s.count
		}
		fmt.Fprintf(os.Stderr, "== %s\n", s.title)
		t0 := time.Now()
		section, m := run(s, n)
		fmt.Fprintf(os.Stderr, "   %s, rows missed: %d\n", time.Since(t0).Round(time.Second), len(m))
		misses = append(misses, m...)
		body.WriteString(section)
	}
	if ran == 0 {
		fmt.Fprintf(os.Stderr, "benchmarks: no suite's title contains %q\n", *only)
		os.Exit(2)
	}
	end := time.Now().UTC()

	var b strings.Builder
	b.WriteString("# Benchmarks\n\n")
	fmt.Fprintf(&b, "Written whole by `make bench` (`go run ./benchmarks -count %d`) in one run on one machine, %s to %s (%s);\n"+
		"every figure below comes from this run. Machine: %s. Load average (1, 5, 15 min): %s at the start, %s at the end.\n\n",
		*count, start.Format("2006-01-02 15:04"), end.Format("15:04 MST"), end.Sub(start).Round(time.Second),
		machine(), load0, loadavg())
	b.WriteString("Each figure is the median of the runs its section names; ratios compare benchmarks measured in the same run,\n" +
		"so they hold on a noisy machine where absolute times do not. A section's verdict is computed from its rows.\n\n")
	b.WriteString(verdict(misses, "Verdict of the whole run", true))
	b.WriteString(body.String())
	if *out == "-" {
		os.Stdout.WriteString(b.String())
	} else if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchmarks:", err)
		os.Exit(1)
	}
	if len(misses) > 0 {
		fmt.Fprintf(os.Stderr, "benchmarks: wrote %s; rows that missed their target: %d\n", *out, len(misses))
		for _, m := range misses {
			fmt.Fprintf(os.Stderr, "  %s: %s: %s\n", m.section, m.row, m.why)
		}
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "benchmarks: wrote %s; every row with a target met it\n", *out)
}

// runInto runs the suites whose title contains only and rewrites their
// sections in the report file path, leaving every other section as the
// whole run wrote it; the header names the sections run alone. It returns
// the exit status: 1 when a row missed its target or a run failed.
func runInto(path, only string, count int) int {
	old, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchmarks: %v (write the whole report first with `make bench`)\n", err)
		return 2
	}
	doc := string(old)
	var misses []miss
	ran := 0
	for _, s := range suites {
		if !strings.Contains(s.title, only) {
			continue
		}
		ran++
		n := count
		if s.count > 0 {
			n = s.count
		}
		fmt.Fprintf(os.Stderr, "== %s\n", s.title)
		t0 := time.Now()
		section, m := run(s, n)
		fmt.Fprintf(os.Stderr, "   %s, rows missed: %d\n", time.Since(t0).Round(time.Second), len(m))
		misses = append(misses, m...)
		doc = markAlone(splice(doc, s.title, section), s.title)
	}
	if ran == 0 {
		fmt.Fprintf(os.Stderr, "benchmarks: no suite's title contains %q\n", only)
		return 2
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchmarks:", err)
		return 1
	}
	if len(misses) > 0 {
		fmt.Fprintf(os.Stderr, "benchmarks: rewrote %d section(s) of %s; rows that missed their target: %d\n", ran, path, len(misses))
		for _, m := range misses {
			fmt.Fprintf(os.Stderr, "  %s: %s: %s\n", m.section, m.row, m.why)
		}
		return 1
	}
	fmt.Fprintf(os.Stderr, "benchmarks: rewrote %d section(s) of %s; every row with a target met it\n", ran, path)
	return 0
}

// splice replaces the section titled title in doc with section (which
// starts with its "\n## title" line), or appends it when doc has none.
func splice(doc, title, section string) string {
	head := "\n## " + title + "\n"
	i := strings.Index(doc, head)
	if i < 0 {
		return strings.TrimRight(doc, "\n") + "\n" + section
	}
	rest := doc[i+len(head):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		return doc[:i] + section + rest[j:]
	}
	return doc[:i] + section
}

// aloneNote starts the header line naming the sections run alone.
const aloneNote = "Sections run alone after the whole run, by `go run ./benchmarks -only … -into` (each one's Run line says when; the verdict of the whole run above does not count their rows): "

// markAlone names title in doc's header line of sections run alone,
// adding the line before the paragraph on medians when it is missing.
func markAlone(doc, title string) string {
	lines := strings.Split(doc, "\n")
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, aloneNote); ok {
			titles := strings.Split(strings.TrimSuffix(rest, "."), "; ")
			if !slices.Contains(titles, title) {
				titles = append(titles, title)
			}
			lines[i] = aloneNote + strings.Join(titles, "; ") + "."
			return strings.Join(lines, "\n")
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "Each figure is the median") {
			lines = slices.Insert(lines, i, aloneNote+title+".", "")
			return strings.Join(lines, "\n")
		}
	}
	return doc
}

// verdict says which rows missed their target, or that none did.
func verdict(misses []miss, what string, withSection bool) string {
	if len(misses) == 0 {
		return what + ": every row with a target met it.\n"
	}
	var b strings.Builder
	if len(misses) == 1 {
		fmt.Fprintf(&b, "%s: **1 row missed its target**:\n\n", what)
	} else {
		fmt.Fprintf(&b, "%s: **%d rows missed their target**:\n\n", what, len(misses))
	}
	for _, m := range misses {
		if withSection {
			fmt.Fprintf(&b, "- %s: %s: %s\n", m.section, m.row, m.why)
		} else {
			fmt.Fprintf(&b, "- %s: %s\n", m.row, m.why)
		}
	}
	return b.String()
}

// machine describes this machine: CPU model from /proc/cpuinfo, CPUs,
// OS/architecture and the Go toolchain.
func machine() string {
	model := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d CPUs, %s/%s, %s", model, goruntime.NumCPU(), goruntime.GOOS, goruntime.GOARCH, goruntime.Version())
}

// loadavg is the three load averages of /proc/loadavg.
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func run(s suite, count int) (string, []miss) {
	var b strings.Builder // the section's body, below its Run and Tools lines
	start, load0 := time.Now().UTC(), loadavg()
	versions := map[string]string{}
	var tools []string
	for _, t := range s.tools {
		v := t.version()
		if v == "" {
			v = "not installed"
		}
		versions[t.name] = v
		tools = append(tools, fmt.Sprintf("%s: %s", t.name, v))
	}
	label := func(r ratio) string {
		l := r.label
		for name, v := range versions {
			l = strings.ReplaceAll(l, "{"+name+"}", v)
		}
		return l
	}
	// notMeasured fails every row with a target.
	notMeasured := func(why string) []miss {
		var m []miss
		for _, r := range s.ratios {
			if r.target > 0 {
				m = append(m, miss{s.title, label(r), why})
			}
		}
		return m
	}
	closing := func(m []miss) string {
		var head strings.Builder
		fmt.Fprintf(&head, "\n## %s\n\n", s.title)
		fmt.Fprintf(&head, "Run: %s to %s, %s; load average %s at the start, %s at the end; %d runs of each benchmark.\n",
			start.Format("2006-01-02 15:04:05"), time.Now().UTC().Format("15:04:05 MST"), machine(), load0, loadavg(), count)
		if len(tools) > 0 {
			fmt.Fprintf(&head, "Tools: %s.\n", strings.Join(tools, "; "))
		}
		head.WriteString("\n")
		b.WriteString("\n")
		withTarget := 0
		for _, r := range s.ratios {
			if r.target > 0 {
				withTarget++
			}
		}
		if withTarget == 0 {
			b.WriteString("Verdict: no row here has a target; the figures are tracked.\n")
		} else {
			b.WriteString(verdict(m, "Verdict", false))
		}
		if s.notes != "" {
			fmt.Fprintf(&b, "\n%s\n", s.notes)
		}
		return head.String() + b.String()
	}
	for _, n := range s.needs {
		if _, err := exec.LookPath(n); err != nil {
			why := fmt.Sprintf("not measured: `%s` is not installed on this machine", n)
			fmt.Fprintf(&b, "Not run: `%s` is not installed on this machine.\n", n)
			m := notMeasured(why)
			return closing(m), m
		}
	}
	args := []string{"test", "-run", "^$", "-bench", s.bench, "-count", strconv.Itoa(count)}
	if s.benchtime != "" {
		args = append(args, "-benchtime", s.benchtime)
	}
	if s.tags != "" {
		args = append(args, "-tags", s.tags)
	}
	args = append(args, s.pkg)
	env := strings.Join(s.env, " ")
	if env != "" {
		env += " "
	}
	cd := ""
	if s.dir != "" {
		cd = "cd " + s.dir + " && "
	}
	fmt.Fprintf(&b, "Reproduce: `%s%sgo %s`\n\n", cd, env, strings.Join(args, " "))
	// go test's own 10-minute limit is shorter than a loaded machine's
	// slowest suites; the printed command leaves the flag out.
	cmd := exec.Command("go", append([]string{args[0], "-timeout", "60m"}, args[1:]...)...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.Dir = s.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outBytes, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(&b, "**The run failed**: %v\n\n```\n%s%s```\n", err, tail(string(outBytes), 20), tail(stderr.String(), 20))
		m := notMeasured("not measured: the run failed")
		if len(m) == 0 { // a suite of tracked rows: its failure still counts
			m = []miss{{s.title, "the run", "failed"}}
		}
		return closing(m), m
	}
	results := parse(string(outBytes))
	names := make([]string, 0, len(results))
	for n := range results {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("| benchmark | metric | median |\n|---|---|---|\n")
	for _, n := range names {
		units := make([]string, 0, len(results[n]))
		for u := range results[n] {
			units = append(units, u)
		}
		sort.Strings(units)
		for _, u := range units {
			if u == "B/op" || u == "allocs/op" {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", n, u, format(median(results[n][u])))
		}
	}
	table, misses := ratioTable(s, results, label)
	b.WriteString(table)
	return closing(misses), misses
}

// ratioTable renders the section's rows from the parsed results and
// returns the rows with a target that missed it: over the target, or not
// measured (a metric the benchmark did not report).
func ratioTable(s suite, results map[string]map[string][]float64, label func(ratio) string) (string, []miss) {
	var b strings.Builder
	var misses []miss
	if len(s.ratios) > 0 {
		b.WriteString("\n| ratio | value | target | |\n|---|---|---|---|\n")
		for _, r := range s.ratios {
			metric := r.metric
			if metric == "" {
				metric = "ns/op"
			}
			num, den := median(results[r.num][metric]), median(results[r.den][metric])
			if r.den == "" {
				// An absolute figure, e.g. a ratio the benchmark computed
				// itself against a bound measured in the same run.
				den = 1
			}
			if len(results[r.num][metric]) == 0 || den == 0 {
				fmt.Fprintf(&b, "| %s | missing (%s or %s) | | |\n", label(r), r.num, r.den)
				if r.target > 0 {
					misses = append(misses, miss{s.title, label(r), "not measured: the benchmark reported no " + metric})
				}
				continue
			}
			v := num / den
			unit := "×"
			// x-… metrics are ratios the benchmark computed itself.
			computed := r.computed || strings.HasPrefix(metric, "x-")
			absolute := r.den == "" && !computed && !strings.Contains(metric, "/")
			if r.den == "" && !computed {
				unit = " " + metric
			}
			value := fmt.Sprintf("%.3f%s", v, unit)
			if absolute && v == float64(int64(v)) {
				value = fmt.Sprintf("%d %s", int64(v), metric)
			}
			verdict, target := "", ""
			if r.target > 0 {
				target = fmt.Sprintf("≤ %.2f×", r.target)
				if unit != "×" {
					target = fmt.Sprintf("≤ %g", r.target)
				}
				verdict = "ok"
				if v > r.target {
					verdict = "**over target**"
					misses = append(misses, miss{s.title, label(r), fmt.Sprintf("%s > %s", value, strings.TrimPrefix(target, "≤ "))})
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", label(r), value, target, verdict)
		}
	}
	return b.String(), misses
}

// parse reads `go test -bench` output: name → unit → values.
func parse(out string) map[string]map[string][]float64 {
	res := map[string]map[string][]float64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		if res[name] == nil {
			res[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			res[name][f[i+1]] = append(res[name][f[i+1]], v)
		}
	}
	return res
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func format(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
