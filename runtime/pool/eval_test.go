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
// tool it should find, over the tools of npm MCP servers (testdata/mcp,
// dumped by testdata/mcp/dump.mjs or handed in with a blind set) and the
// built-ins (testdata/builtins.json, dumped by benchmarks/tooldump).
// Every tool but ToolSearch is deferred, so every tool is searched.
//
// Two kinds of set. The development sets (devSets) have been looked at
// while the ranker was written, their misses read: they show what the
// ranker does and carry no floor. The blind sets (blindSets) were written
// by someone who had not read the ranker, and were scored once, after the
// ranker was final and committed; their figures are kept as regression
// floors at exactly the values scored then, and their misses are never
// printed. A floor is never set from a development set.

// devSets are the query sets looked at while developing the ranker, over
// the old pool (evalServers): dev.tsv, heldout.tsv and heldout2.tsv (blind
// once, long since read), own*.tsv (written by earlier ranker rounds) and
// probes.tsv.
var devSets = []string{"dev.tsv", "heldout.tsv", "heldout2.tsv", "own.tsv", "own2.tsv", "own3.tsv", "own4.tsv", "own5.tsv", "probes.tsv"}

// evalServers are the MCP servers of the development sets' pool.
var evalServers = []string{"filesystem", "everything", "memory"}

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

// evalPool assembles the development sets' pool from the fixtures.
func evalPool() (*pool.Pool, error) { return evalPoolOf(evalServers, true) }

// evalPoolOf assembles a pool of the given servers' dumped tools, with
// the built-ins or without.
func evalPoolOf(servers []string, withBuiltins bool) (*pool.Pool, error) {
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
		if !withBuiltins && t.Name != "ToolSearch" {
			continue
		}
		base = append(base, &tool{name: t.Name, desc: t.Description, hint: t.SearchHint,
			schema: string(t.InputSchema), deferFlag: t.Name != "ToolSearch"})
	}
	for _, server := range servers {
		var list struct {
			Instructions string `json:"instructions"`
			Tools        []struct {
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
				hint: hint, schema: string(t.InputSchema), instructions: list.Instructions})
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

var _ = Describe("ToolSearch recall", Label("eval"), func() {
	score := func(p *pool.Pool, set string, rank func(*pool.Pool) func(string) []string) evalScore {
		qs, err := readQueries(set)
		Expect(err).NotTo(HaveOccurred())
		s := evaluate(qs, rank(p))
		GinkgoWriter.Printf("%s: %s\n", set, s)
		for _, m := range s.misses {
			GinkgoWriter.Println("   ", m)
		}
		return s
	}

	It("searches all 62 tools of the development pool", func() {
		p, err := evalPool()
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Deferred()).To(HaveLen(62), "23 built-ins and 39 MCP tools, all but ToolSearch deferred")
	})

	// The development sets carry no floor: they were looked at. This
	// prints their figures and misses (go test -v -run TestPool
	// ./runtime/pool/ -ginkgo.focus development -ginkgo.v).
	It("reports the development sets", func() {
		p, err := evalPool()
		Expect(err).NotTo(HaveOccurred())
		for _, set := range devSets {
			s := score(p, set, newRank)
			Expect(s.total).To(BeNumerically(">", 0), set)
		}
	})

	// The blind sets: each scored once, blind, after the ranker was final;
	// the floors are exactly what that run scored, the misses never
	// printed.
	for _, b := range blindSets {
		It(fmt.Sprintf("keeps the recall of %s, scored once, blind, on %s: %d/%d at 1, %d/%d at 5", b.file, b.scored, b.at1, b.total, b.at5, b.total), func() {
			p, err := evalPoolOf(b.servers, b.builtins)
			Expect(err).NotTo(HaveOccurred())
			qs, err := readQueries(b.file)
			Expect(err).NotTo(HaveOccurred())
			s := evaluate(qs, newRank(p))
			Expect(s.total).To(Equal(b.total))
			Expect(s.at1).To(BeNumerically(">=", b.at1), "recall@1")
			Expect(s.at5).To(BeNumerically(">=", b.at5), "recall@5")
		})
	}
})
