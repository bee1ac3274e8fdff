// Command benchmarks runs agentcore's benchmarks and writes BENCHMARKS.md:
// every figure is a ratio against a baseline measured in the same run
// (same process or same script), because these machines are noisy.
//
//	go run ./benchmarks [-out BENCHMARKS.md] [-count 5] [-only substring]
package main

import (
	"bufio"
	"bytes"
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
	title     string
	pkg       string
	bench     string
	benchtime string
	tags      string
	env       []string
	// needs lists commands that must be on PATH; the suite is skipped,
	// and the report says so, when one is missing.
	needs  []string
	ratios []ratio
	notes  string
}

// ratio compares one benchmark's metric with another's.
type ratio struct {
	label    string
	num, den string // benchmark names (without the -N suffix); no den: num's value itself
	metric   string // "ns/op" or a custom b.ReportMetric unit
	// target is the largest acceptable ratio; 0 means informational.
	target float64
}

func main() {
	out := flag.String("out", "BENCHMARKS.md", "file to write")
	count := flag.Int("count", 5, "runs of each benchmark; the median is reported")
	only := flag.String("only", "", "run only suites whose title contains this")
	flag.Parse()

	var b strings.Builder
	fmt.Fprintf(&b, "# Benchmarks\n\nWritten by `make bench` (`go run ./benchmarks -count %d`) on %s.\n",
		*count, time.Now().UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Machine: %s/%s, %d CPUs, %s. Each figure is the median of %d runs; ratios compare\n"+
		"benchmarks measured in the same run, so they hold on a noisy machine where absolute times do not.\n",
		goruntime.GOOS, goruntime.GOARCH, goruntime.NumCPU(), goruntime.Version(), *count)
	failed := 0
	for _, s := range suites {
		if *only != "" && !strings.Contains(s.title, *only) {
			continue
		}
		fmt.Fprintf(os.Stderr, "== %s\n", s.title)
		section, bad := run(s, *count)
		failed += bad
		b.WriteString(section)
	}
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchmarks:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %s (%d ratios over target)\n", *out, failed)
}

func run(s suite, count int) (string, int) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s\n\n", s.title)
	for _, n := range s.needs {
		if _, err := exec.LookPath(n); err != nil {
			fmt.Fprintf(&b, "Skipped: `%s` is not installed on this machine.\n", n)
			return b.String(), 0
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
	fmt.Fprintf(&b, "Reproduce: `%sgo %s`\n\n", env, strings.Join(args, " "))
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), s.env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outBytes, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(&b, "**The run failed**: %v\n\n```\n%s%s```\n", err, tail(string(outBytes), 20), tail(stderr.String(), 20))
		return b.String(), 1
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
	bad := 0
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
			if num == 0 || den == 0 {
				fmt.Fprintf(&b, "| %s | missing (%s or %s) | | |\n", r.label, r.num, r.den)
				bad++
				continue
			}
			v := num / den
			verdict, target := "", ""
			if r.target > 0 {
				target = fmt.Sprintf("≤ %.2f×", r.target)
				verdict = "ok"
				if v > r.target {
					verdict = "**over target**"
					bad++
				}
			}
			unit := "×"
			// x-… metrics are ratios the benchmark computed itself.
			if r.den == "" && !strings.HasPrefix(metric, "x-") {
				unit = " " + metric
				if r.target > 0 {
					target = fmt.Sprintf("≤ %g", r.target)
				}
			}
			fmt.Fprintf(&b, "| %s | %.3f%s | %s | %s |\n", r.label, v, unit, target, verdict)
		}
	}
	if s.notes != "" {
		fmt.Fprintf(&b, "\n%s\n", s.notes)
	}
	return b.String(), bad
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
