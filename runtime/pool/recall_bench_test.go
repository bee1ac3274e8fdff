package pool_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime/pool"
)

// recallSets are the query sets BenchmarkSearchRecall reports, with the
// prefix of their metrics: the development sets (devSets) and the blind
// ones (blindSets; heldout3.tsv and heldout4.tsv are blind3 and blind4).
// A blind set's misses are never printed.
func recallSets() []recallSet {
	var out []recallSet
	for _, b := range blindSets {
		metric := strings.TrimSuffix(b.file, ".tsv")
		switch metric {
		case "heldout3":
			metric = "blind3"
		case "heldout4":
			metric = "blind4"
		}
		out = append(out, recallSet{file: b.file, metric: metric, blind: true, servers: b.servers, builtins: b.builtins})
	}
	for _, f := range devSets {
		out = append(out, recallSet{file: f, metric: strings.TrimSuffix(f, ".tsv"), servers: evalServers, builtins: true})
	}
	return out
}

// recallSet is one set BenchmarkSearchRecall reports.
type recallSet struct {
	file, metric string
	blind        bool
	servers      []string
	builtins     bool
}

// BenchmarkSearchRecall reports ToolSearch's recall on the evaluation
// (eval_test.go) as metrics, for BENCHMARKS.md: bm25 is pool.Search,
// keyword the scorer it replaced (legacy_test.go). The figures are counts
// of queries; …-miss@1 is a set's queries whose tool was not first (issue
// 13's bar on a blind set: at most 4 of 24). No misses are printed.
func BenchmarkSearchRecall(b *testing.B) {
	sets := map[string][]evalQuery{}
	pools := map[string]*pool.Pool{}
	for _, s := range recallSets() {
		qs, err := readQueries(s.file)
		if err != nil {
			b.Fatal(err)
		}
		sets[s.file] = qs
		if pools[s.file], err = evalPoolOf(s.servers, s.builtins); err != nil {
			b.Fatal(err)
		}
	}
	for _, r := range []struct {
		name string
		rank func(*pool.Pool) func(string) []string
	}{{"bm25", newRank}, {"keyword", legacyRank}} {
		b.Run(r.name, func(b *testing.B) {
			scores := map[string]evalScore{}
			for b.Loop() {
				for file, qs := range sets {
					scores[file] = evaluate(qs, r.rank(pools[file]))
				}
			}
			for _, s := range recallSets() {
				sc, ok := scores[s.file]
				if !ok {
					continue
				}
				b.ReportMetric(float64(sc.at1), s.metric+"-r@1")
				b.ReportMetric(float64(sc.at5), s.metric+"-r@5")
				b.ReportMetric(float64(sc.total-sc.at1), s.metric+"-miss@1")
			}
		})
	}
}

// TestPrintSearchMisses prints, with AGENTCORE_TOOLSEARCH_MISSES set to
// metric names (dev,heldout,heldout2,own,own2,own3,own4,own5,probes) or
// "all", the development sets' figures and what BM25 ranks for their
// misses; never a blind set's.
func TestPrintSearchMisses(t *testing.T) {
	want := os.Getenv("AGENTCORE_TOOLSEARCH_MISSES")
	if want == "" {
		t.Skip("set AGENTCORE_TOOLSEARCH_MISSES=all (or dev,heldout,…) to print the development sets' misses (never a blind set's)")
	}
	p, err := evalPool()
	if err != nil {
		t.Fatal(err)
	}
	quiet := os.Getenv("AGENTCORE_TOOLSEARCH_QUIET") != ""
	var at1, at5, total int
	for _, s := range recallSets() {
		if s.blind || want != "all" && !slices.Contains(strings.Split(want, ","), s.metric) {
			continue // a blind set is never looked at
		}
		qs, err := readQueries(s.file)
		if err != nil {
			t.Fatal(err)
		}
		sc := evaluate(qs, newRank(p))
		at1, at5, total = at1+sc.at1, at5+sc.at5, total+sc.total
		fmt.Printf("%s: %s\n", s.file, sc)
		if quiet {
			continue
		}
		for _, m := range sc.misses {
			fmt.Println("   ", m)
		}
	}
	fmt.Printf("all: recall@1 %d/%d, recall@5 %d/%d\n", at1, total, at5, total)

	// The same sets' queries for MCP tools, over a pool of the MCP tools
	// alone, as the blind sets' pools are.
	mp, err := evalPoolOf(evalServers, false)
	if err != nil {
		t.Fatal(err)
	}
	var mcpOnly []evalQuery
	for _, f := range devSets {
		qs, err := readQueries(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			if strings.HasPrefix(q.want, "mcp__") {
				mcpOnly = append(mcpOnly, q)
			}
		}
	}
	sc := evaluate(mcpOnly, newRank(mp))
	fmt.Printf("MCP queries over the MCP tools alone: %s\n", sc)
	if os.Getenv("AGENTCORE_TOOLSEARCH_MCP_MISSES") != "" {
		for _, m := range sc.misses {
			fmt.Println("   ", m)
		}
	}
}
