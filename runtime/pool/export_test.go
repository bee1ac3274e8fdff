package pool

import "github.com/agentcore/agentcore/runtime"

// RankParams are the ranking's knobs, for the tuning spec.
type RankParams struct {
	K1, B, NameB, Synonym, Deprecated, NameBonus, Coord, Pair, LaterOp, Kind, Quantifier float64
	// Weights are the field weights: name, server, hint, description,
	// parameter names, parameter descriptions.
	Weights [6]float64
}

// DefaultRankParams returns the tuned knobs.
func DefaultRankParams() RankParams {
	d := defaultRankParams
	return RankParams{K1: d.k1, B: d.b, NameB: d.nameB, Synonym: d.synonym, Deprecated: d.deprecated, NameBonus: d.nameBonus, Coord: d.coord, Pair: d.pair, LaterOp: d.laterOp, Kind: d.kind, Quantifier: d.quantifier, Weights: d.weight}
}

// RankWith ranks the pool's deferred tools with other knobs.
func RankWith(p *Pool, rp RankParams) func(q string, max int) []string {
	ix := newIndex(p.Deferred(), rankParams{k1: rp.K1, b: rp.B, nameB: rp.NameB, synonym: rp.Synonym, deprecated: rp.Deprecated, nameBonus: rp.NameBonus, coord: rp.Coord, pair: rp.Pair, laterOp: rp.LaterOp, kind: rp.Kind, quantifier: rp.Quantifier, weight: rp.Weights})
	return func(q string, max int) []string {
		var out []string
		for _, t := range ix.rank(q, max) {
			out = append(out, t.Name())
		}
		return out
	}
}

// Explain lists, for each query word group, each tool's contribution.
func Explain(p *Pool, q string, names ...string) map[string][]float64 {
	ix := p.index()
	pq := ix.parseQuery(q)
	out := map[string][]float64{}
	for i, t := range ix.tools {
		want := false
		for _, n := range names {
			want = want || n == t.Name()
		}
		if !want {
			continue
		}
		for _, g := range pq.groups {
			best := 0.0
			for _, v := range g {
				for _, ps := range ix.postings[v.stem] {
					if ps.doc == i {
						s := v.weight * ix.idf[v.stem] * ps.tf * (ix.params.k1 + 1) / (ps.tf + ix.params.k1)
						best = max(best, s)
					}
				}
			}
			out[t.Name()] = append(out[t.Name()], best)
		}
	}
	return out
}

var _ runtime.Tool // keeps the import when the helpers change

// Groups shows a parsed query's groups.
func Groups(p *Pool, q string) [][]variant { return p.index().parseQuery(q).groups }

// Meanings returns the stems an everyday word is also searched as.
func Meanings(word string) []string {
	var out []string
	for _, g := range lexicon().phrasings[Stem(word)] {
		out = append(out, g...)
	}
	return out
}

// Operand returns the kinds a concrete query word is searched as, nil
// for any other word.
func Operand(w string) []string {
	kinds, _ := operand(w)
	return kinds
}
