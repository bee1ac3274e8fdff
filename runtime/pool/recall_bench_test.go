package pool_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentcore/agentcore/runtime/pool"
)

// recallSets are the query sets BenchmarkSearchRecall reports, with the
// prefix of their metrics. dev.tsv is tuned on; heldout.tsv and
// heldout2.tsv were blind once and were then looked at while tuning. The
// second ranker round wrote own.tsv before it first ran, own2.tsv in its
// middle, own3.tsv (steering clear of the lexicon's words) and own4.tsv
// (written naturally) near its end, and the third round own5.tsv (terse and
// chatty queries) before it changed anything, each committed before its
// first run;
// probes.tsv is what that round probed its lexicon with. heldout3.tsv is
// the blind set, written on another branch and reported when it is there
// (blind3-*), its misses never printed.
var recallSets = []struct {
	file, metric string
	optional     bool
}{
	{"heldout3.tsv", "blind3", true},
	{"heldout4.tsv", "blind4", true},
	{"heldout2.tsv", "heldout2", false},
	{"heldout.tsv", "heldout", false},
	{"own.tsv", "own", false},
	{"own2.tsv", "own2", false},
	{"own3.tsv", "own3", false},
	{"own4.tsv", "own4", false},
	{"own5.tsv", "own5", false},
	{"probes.tsv", "probes", false},
	{"dev.tsv", "dev", false},
}

// BenchmarkSearchRecall reports ToolSearch's recall on the evaluation
// (eval_test.go) as metrics, for BENCHMARKS.md: bm25 is pool.Search,
// keyword the scorer it replaced (legacy_test.go). The figures are counts
// of queries; …-miss@1 is a set's queries whose tool was not first (issue
// 13's bar on a blind set: at most 4 of 24). No misses are printed.
func BenchmarkSearchRecall(b *testing.B) {
	p, err := evalPool()
	if err != nil {
		b.Fatal(err)
	}
	sets := map[string][]evalQuery{}
	for _, s := range recallSets {
		qs, err := readQueries(s.file)
		if s.optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			b.Fatal(err)
		}
		sets[s.file] = qs
	}
	for _, r := range []struct {
		name string
		rank func(*pool.Pool) func(string) []string
	}{{"bm25", newRank}, {"keyword", legacyRank}} {
		b.Run(r.name, func(b *testing.B) {
			scores := map[string]evalScore{}
			for b.Loop() {
				for file, qs := range sets {
					scores[file] = evaluate(qs, r.rank(p))
				}
			}
			for _, s := range recallSets {
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
// metric names (dev,heldout,heldout2,own,own2,own3,own4,own5,probes), what BM25 ranks for the misses
// of those sets; never for the blind heldout3.tsv.
func TestPrintSearchMisses(t *testing.T) {
	if os.Getenv("AGENTCORE_TOOLSEARCH_MISSES") == "" {
		t.Skip("set AGENTCORE_TOOLSEARCH_MISSES=dev,heldout,heldout2,own to print those sets' misses (never the blind heldout3.tsv)")
	}
	p, err := evalPool()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range recallSets {
		if s.optional || !slices.Contains(strings.Split(os.Getenv("AGENTCORE_TOOLSEARCH_MISSES"), ","), s.metric) {
			continue // the blind set is never looked at
		}
		qs, err := readQueries(s.file)
		if err != nil {
			t.Fatal(err)
		}
		sc := evaluate(qs, newRank(p))
		fmt.Printf("%s: %s\n", s.file, sc)
		for _, m := range sc.misses {
			fmt.Println("   ", m)
		}
	}
}
