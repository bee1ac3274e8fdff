package pool_test

import (
	"fmt"
	"os"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/pool"
)

// The tuning run behind defaultRankParams: a coarse grid over BM25's k1
// and b, the synonym and broader-word weights, the name bonus, coord and
// the field weights, scored on the development sets only (devSets;
// recall@1, then recall@5, then the mean reciprocal rank), never a blind
// set. It prints the best settings; run it with
//
//	AGENTCORE_TUNE_TOOLSEARCH=1 go test -run TestPool -v ./runtime/pool/ -ginkgo.focus tuning
var _ = Describe("ToolSearch tuning", Label("tuning"), func() {
	It("prints the best knobs on the dev set", func() {
		if os.Getenv("AGENTCORE_TUNE_TOOLSEARCH") == "" {
			Skip("set AGENTCORE_TUNE_TOOLSEARCH=1 to run the tuning grid")
		}
		p, err := evalPool()
		Expect(err).NotTo(HaveOccurred())
		var dev []evalQuery
		for _, set := range devSets {
			qs, err := readQueries(set)
			Expect(err).NotTo(HaveOccurred())
			dev = append(dev, qs...)
		}
		type result struct {
			rp       pool.RankParams
			at1, at5 int
			mrr      float64
		}
		var results []result
		// One knob at a time around the defaults, then pairs of the
		// knobs that moved: a coarse grid on the development sets.
		def := pool.DefaultRankParams()
		type knob struct {
			name   string
			values []float64
			set    func(*pool.RankParams, float64)
		}
		knobs := []knob{
			{"k1", []float64{0.9, 1.2, 1.5, 2}, func(r *pool.RankParams, v float64) { r.K1 = v }},
			{"b", []float64{0.5, 0.75, 1}, func(r *pool.RankParams, v float64) { r.B = v }},
			{"synonym", []float64{0.4, 0.5, 0.6, 0.7, 0.8}, func(r *pool.RankParams, v float64) { r.Synonym = v }},
			{"broader", []float64{0.2, 0.35, 0.5}, func(r *pool.RankParams, v float64) { r.Broader = v }},
			{"nameBonus", []float64{1, 2, 3}, func(r *pool.RankParams, v float64) { r.NameBonus = v }},
			{"coord", []float64{0, 0.5, 1}, func(r *pool.RankParams, v float64) { r.Coord = v }},
			{"name", []float64{2, 3, 4}, func(r *pool.RankParams, v float64) { r.Weights[0] = v }},
			{"desc", []float64{0.75, 1, 1.5}, func(r *pool.RankParams, v float64) { r.Weights[3] = v }},
			{"lead", []float64{0, 1, 2}, func(r *pool.RankParams, v float64) { r.Weights[4] = v }},
			{"pdesc", []float64{0.25, 0.5, 1}, func(r *pool.RankParams, v float64) { r.Weights[6] = v }},
			{"nameRel", []float64{0.5, 1, 1.5}, func(r *pool.RankParams, v float64) { r.Weights[8] = v }},
			{"known", []float64{0, 0.25}, func(r *pool.RankParams, v float64) { r.Known = v }},
		}
		for i, a := range knobs {
			for _, va := range a.values {
				for _, b := range knobs[i:] {
					for _, vb := range b.values {
						rp := def
						a.set(&rp, va)
						b.set(&rp, vb)
						rank := pool.RankWith(p, rp)
						r := result{rp: rp}
						for _, q := range dev {
							i := slices.Index(rank(q.query, 5), q.want)
							if i == 0 {
								r.at1++
							}
							if i >= 0 {
								r.at5++
								r.mrr += 1 / float64(i+1)
							}
						}
						results = append(results, r)
					}
				}
			}
		}
		slices.SortStableFunc(results, func(x, y result) int {
			if x.at1 != y.at1 {
				return y.at1 - x.at1
			}
			if x.at5 != y.at5 {
				return y.at5 - x.at5
			}
			switch {
			case x.mrr > y.mrr:
				return -1
			case x.mrr < y.mrr:
				return 1
			}
			return 0
		})
		for _, r := range results[:min(25, len(results))] {
			fmt.Fprintf(GinkgoWriter, "dev r@1 %d/%d r@5 %d mrr %.3f  %+v\n", r.at1, len(dev), r.at5, r.mrr/float64(len(dev)), r.rp)
		}
		// Marginals: the mean recall@1 of the grid at each value of a knob.
		marginal := func(label string, key func(pool.RankParams) float64) {
			sum, n := map[float64]float64{}, map[float64]float64{}
			for _, r := range results {
				sum[key(r.rp)] += float64(r.at1)
				n[key(r.rp)]++
			}
			var keys []float64
			for k := range sum {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			line := label
			for _, k := range keys {
				line += fmt.Sprintf("  %g: %.2f", k, sum[k]/n[k])
			}
			fmt.Fprintln(GinkgoWriter, line)
		}
		marginal("b", func(rp pool.RankParams) float64 { return rp.B })
		marginal("k1", func(rp pool.RankParams) float64 { return rp.K1 })
		marginal("synonym", func(rp pool.RankParams) float64 { return rp.Synonym })
		marginal("broader", func(rp pool.RankParams) float64 { return rp.Broader })
		marginal("coord", func(rp pool.RankParams) float64 { return rp.Coord })
		marginal("known", func(rp pool.RankParams) float64 { return rp.Known })
		marginal("name bonus", func(rp pool.RankParams) float64 { return rp.NameBonus })
		for i, f := range []string{"name", "server", "hint", "desc", "lead", "param names", "param descs", "server instructions", "name relations"} {
			marginal(f, func(rp pool.RankParams) float64 { return rp.Weights[i] })
		}
		fmt.Fprintf(GinkgoWriter, "default %+v\n", def)
	})
})
