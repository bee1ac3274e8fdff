// Command skipped lists every skipped spec of Ginkgo JSON reports with its
// reason, and fails when a spec skipped for a tool the run requires.
//
//	go run ./.ci/skipped [report.json ...]
//
// Without arguments it reads .ci/reports/*.json, the reports `make test`
// writes (one per variant). A spec that needs a tool ends through
// tooltest.Missing, whose reason starts "needs <tool>: "; the tools
// AGENTCORE_REQUIRE names (comma-separated, or "all") are required. A
// skip whose reason names a required tool as a word ("node is not
// installed") counts too, so a spec that skips without the helper is
// caught. Specs that Ginkgo skips after a Skip in a BeforeAll carry the
// reason of the first spec of their container.
//
// It exits 1 when a required tool's spec skipped, 2 when it cannot read
// the reports.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// skip is one skipped spec.
type skip struct {
	variant, suite, spec, reason string
}

func main() {
	files := os.Args[1:]
	if len(files) == 0 {
		files, _ = filepath.Glob(filepath.Join(".ci", "reports", "*.json"))
	}
	if len(files) == 0 {
		fmt.Fprintln(os.Stderr, "skipped: no Ginkgo JSON report in .ci/reports: run `make test` first, or name the reports")
		os.Exit(2)
	}
	var skips []skip
	total := 0
	for _, f := range files {
		s, n, err := read(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "skipped:", err)
			os.Exit(2)
		}
		skips = append(skips, s...)
		total += n
	}
	required := requiredTools(os.Getenv("AGENTCORE_REQUIRE"))
	byReason := map[string][]skip{}
	for _, s := range skips {
		byReason[s.reason] = append(byReason[s.reason], s)
	}
	reasons := slices.Sorted(func(yield func(string) bool) {
		for r := range byReason {
			if !yield(r) {
				return
			}
		}
	})
	fmt.Printf("%d of %d specs skipped (%s):\n", len(skips), total, strings.Join(files, ", "))
	var bad []string
	for _, r := range reasons {
		tool := requiredTool(r, required)
		mark := ""
		if tool != "" {
			mark = "REQUIRED (" + tool + ") "
			bad = append(bad, fmt.Sprintf("%d specs: %s", len(byReason[r]), r))
		}
		fmt.Printf("\n%s%d skipped: %s\n", mark, len(byReason[r]), r)
		for _, s := range byReason[r] {
			fmt.Printf("  [%s] %s: %s\n", s.variant, s.suite, s.spec)
		}
	}
	if len(bad) > 0 {
		fmt.Printf("\nFAIL: specs skipped for a tool AGENTCORE_REQUIRE (%s) names:\n  %s\n", os.Getenv("AGENTCORE_REQUIRE"), strings.Join(bad, "\n  "))
		os.Exit(1)
	}
}

// read returns the skipped specs of the report file f and the number of
// specs it holds.
func read(f string) ([]skip, int, error) {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil, 0, fmt.Errorf("read report: %w", err)
	}
	var reports []types.Report
	if err := json.Unmarshal(b, &reports); err != nil {
		return nil, 0, fmt.Errorf("decode %s (a Ginkgo --json-report): %w", f, err)
	}
	variant := strings.TrimSuffix(filepath.Base(f), ".json")
	var out []skip
	total := 0
	for _, r := range reports {
		suite := r.SuitePath
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, suite); err == nil && !strings.HasPrefix(rel, "..") {
				suite = "./" + rel
			}
		}
		// The first reason given in each container, for the specs Ginkgo
		// skips after a Skip in its BeforeAll.
		first := map[string]string{}
		for _, s := range r.SpecReports {
			if s.LeafNodeType != types.NodeTypeIt {
				continue
			}
			total++
			if s.State != types.SpecStateSkipped {
				if s.State.Is(types.SpecStateFailureStates) && strings.HasPrefix(s.Failure.Message, "needs ") {
					first[strings.Join(s.ContainerHierarchyTexts, "\x00")] = s.Failure.Message
				}
				continue
			}
			container := strings.Join(s.ContainerHierarchyTexts, "\x00")
			reason := s.Failure.Message
			if strings.HasPrefix(reason, "Spec skipped because ") && first[container] != "" {
				reason = first[container]
			} else if reason != "" {
				if _, ok := first[container]; !ok {
					first[container] = reason
				}
			}
			if reason == "" {
				reason = "(no reason given: skipped by a filter, an interrupt or a timeout)"
			}
			out = append(out, skip{variant: variant, suite: suite, spec: s.FullText(), reason: reason})
		}
	}
	return out, total, nil
}

// requiredTools parses AGENTCORE_REQUIRE.
func requiredTools(env string) []string {
	var out []string
	for _, t := range strings.Split(env, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// requiredTool returns the required tool a skip reason names, or "".
func requiredTool(reason string, required []string) string {
	if tool, _, ok := strings.Cut(strings.TrimPrefix(reason, "needs "), ":"); ok && strings.HasPrefix(reason, "needs ") {
		if slices.Contains(required, "all") || slices.Contains(required, tool) {
			return tool
		}
	}
	for _, t := range required {
		if t != "all" && regexp.MustCompile(`(^|[^\w-])`+regexp.QuoteMeta(t)+`($|[^\w-])`).MatchString(reason) {
			return t
		}
	}
	return ""
}
