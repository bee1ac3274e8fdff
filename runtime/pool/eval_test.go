package pool_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/mcp"
	"github.com/agentcore/agentcore/runtime/pool"
)

// The ToolSearch evaluation: plain-language queries, each with the one
// tool it should find, over the tools of the npm reference MCP servers
// (testdata/mcp, dumped by testdata/mcp/dump.mjs) and the built-ins
// (testdata/builtins.json, dumped by benchmarks/tooldump). Every tool but
// ToolSearch is deferred, so every tool is searched. dev.tsv is tuned on;
// heldout.tsv and heldout2.tsv were blind once and were then looked at
// while tuning; own.tsv to own4.tsv are the second ranker round's own
// checks, own5.tsv the third round's; heldout3.tsv, when it is there, is blind and never printed
// (recall_bench_test.go).

// evalQuery is one line of a query set.
type evalQuery struct {
	query, want string
}

// evalScore is a ranking's recall on a query set.
type evalScore struct {
	total, at1, at5 int
	// misses are the queries whose tool was not first, with what was.
	misses []string
}

func (s evalScore) String() string {
	return fmt.Sprintf("recall@1 %d/%d, recall@5 %d/%d", s.at1, s.total, s.at5, s.total)
}

// evalPool assembles the evaluation's pool from the fixtures.
func evalPool() (*pool.Pool, error) {
	var builtins struct {
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			SearchHint  string          `json:"searchHint"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := readJSON(filepath.Join("testdata", "builtins.json"), &builtins); err != nil {
		return nil, err
	}
	var base, mcps []runtime.Tool
	for _, t := range builtins.Tools {
		base = append(base, &tool{name: t.Name, desc: t.Description, hint: t.SearchHint,
			schema: string(t.InputSchema), deferFlag: t.Name != "ToolSearch"})
	}
	for _, server := range []string{"filesystem", "everything", "memory"} {
		var list struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Meta        map[string]any  `json:"_meta"`
			} `json:"tools"`
		}
		if err := readJSON(filepath.Join("testdata", "mcp", server+".json"), &list); err != nil {
			return nil, err
		}
		for _, t := range list.Tools {
			hint, _ := t.Meta[mcp.MetaSearchHint].(string)
			mcps = append(mcps, &tool{name: mcp.ToolName(server, t.Name), desc: mcp.TruncateDescription(t.Description),
				hint: hint, schema: string(t.InputSchema)})
		}
	}
	return pool.Assemble(base, mcps, pool.Options{SearchTool: "ToolSearch"}), nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readQueries reads a query set: "query<TAB>tool" lines, # comments.
func readQueries(name string) ([]evalQuery, error) {
	b, err := os.ReadFile(filepath.Join("testdata", "queries", name))
	if err != nil {
		return nil, err
	}
	var out []evalQuery
	for i, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want query<TAB>tool", name, i+1)
		}
		out = append(out, evalQuery{strings.TrimSpace(q), strings.TrimSpace(want)})
	}
	return out, nil
}

// evaluate scores rank (top-5 names for a query) on qs.
func evaluate(qs []evalQuery, rank func(string) []string) evalScore {
	s := evalScore{total: len(qs)}
	for _, q := range qs {
		got := rank(q.query)
		i := slices.Index(got, q.want)
		switch {
		case i == 0:
			s.at1++
			s.at5++
		case i > 0 && i < 5:
			s.at5++
			fallthrough
		default:
			s.misses = append(s.misses, fmt.Sprintf("%q: want %s at %d, got %v", q.query, q.want, i+1, got))
		}
	}
	return s
}

// newRank ranks with pool.Search, as ToolSearch does.
func newRank(p *pool.Pool) func(string) []string {
	return func(q string) []string {
		res, err := pool.Search(p, q, 5)
		if err != nil {
			return nil
		}
		return res.Matches
	}
}

// legacyRank ranks with the keyword scorer ToolSearch used before BM25.
func legacyRank(p *pool.Pool) func(string) []string {
	return func(q string) []string { return pool.LegacyRank(p, q, 5) }
}

// The bar of issue 13 is recall@1 ≥ 20/24 on a held-out set not seen
// while tuning: the blind heldout3.tsv and heldout4.tsv score 16/24 and
// 18/24 (BENCHMARKS.md). The floors below keep what each set reaches.
var _ = Describe("ToolSearch recall", Label("eval"), func() {
	var p *pool.Pool
	BeforeEach(func() {
		var err error
		p, err = evalPool()
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Deferred()).To(HaveLen(62), "23 built-ins and 39 MCP tools, all but ToolSearch deferred")
	})

	score := func(set string, rank func(*pool.Pool) func(string) []string) evalScore {
		qs, err := readQueries(set)
		Expect(err).NotTo(HaveOccurred())
		s := evaluate(qs, rank(p))
		GinkgoWriter.Printf("%s: %s\n", set, s)
		for _, m := range s.misses {
			GinkgoWriter.Println("   ", m)
		}
		return s
	}

	It("ranks better than the keyword scorer on both query sets", func() {
		for _, set := range []string{"heldout.tsv", "heldout2.tsv", "dev.tsv"} {
			before, after := score(set, legacyRank), score(set, newRank)
			Expect(after.at1).To(BeNumerically(">", before.at1), set)
			Expect(after.at5).To(BeNumerically(">=", before.at5), set)
		}
	})

	It("keeps the recall reached on the held-out set", func() {
		s := score("heldout.tsv", newRank)
		Expect(s.total).To(Equal(24))
		Expect(s.at1).To(BeNumerically(">=", 24))
		Expect(s.at5).To(BeNumerically(">=", 24))
	})

	It("keeps the recall reached on the second held-out set", func() {
		s := score("heldout2.tsv", newRank)
		Expect(s.total).To(Equal(24))
		Expect(s.at1).To(BeNumerically(">=", 21))
		Expect(s.at5).To(BeNumerically(">=", 24))
	})

	// The blind set: its figures are kept, its misses never printed.
	It("keeps the recall measured on the blind set, heldout3.tsv (the bar, 20/24 at 1, is not reached)", func() {
		qs, err := readQueries("heldout3.tsv")
		Expect(err).NotTo(HaveOccurred())
		s := evaluate(qs, newRank(p))
		Expect(s.total).To(Equal(24))
		Expect(s.at1).To(BeNumerically(">=", 16), "recall@1")
		Expect(s.at5).To(BeNumerically(">=", 24), "recall@5")
	})

	It("keeps the recall measured on the second blind set, heldout4.tsv (the bar, 20/24 at 1, is not reached)", func() {
		qs, err := readQueries("heldout4.tsv")
		Expect(err).NotTo(HaveOccurred())
		s := evaluate(qs, newRank(p))
		Expect(s.total).To(Equal(24))
		Expect(s.at1).To(BeNumerically(">=", 18), "recall@1")
		Expect(s.at5).To(BeNumerically(">=", 22), "recall@5")
	})

	It("keeps the recall reached on the dev set", func() {
		s := score("dev.tsv", newRank)
		Expect(s.at1).To(BeNumerically(">=", 151))
		Expect(s.at5).To(BeNumerically(">=", 153))
	})
})
