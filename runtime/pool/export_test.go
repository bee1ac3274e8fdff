package pool

// RankParams are the ranking's knobs, for the tuning spec.
type RankParams struct {
	K1, B, NameB, Synonym, Broader, Known, Deprecated, NameBonus, Coord, Pair, Kind float64
	// Weights are the field weights: name, server, hint, description,
	// description's lead, parameter names, parameter descriptions,
	// server instructions, the name's WordNet relations.
	Weights [9]float64
}

// DefaultRankParams returns the knobs in use.
func DefaultRankParams() RankParams {
	d := defaultRankParams
	return RankParams{K1: d.k1, B: d.b, NameB: d.nameB, Synonym: d.synonym, Broader: d.broader, Known: d.known, Deprecated: d.deprecated,
		NameBonus: d.nameBonus, Coord: d.coord, Pair: d.pair, Kind: d.kind, Weights: d.weight}
}

// RankWith ranks the pool's deferred tools with other knobs.
func RankWith(p *Pool, rp RankParams) func(q string, max int) []string {
	ix := newIndex(p.Deferred(), rankParams{k1: rp.K1, b: rp.B, nameB: rp.NameB, synonym: rp.Synonym, broader: rp.Broader, known: rp.Known,
		deprecated: rp.Deprecated, nameBonus: rp.NameBonus, coord: rp.Coord, pair: rp.Pair, kind: rp.Kind, weight: rp.Weights})
	return func(q string, max int) []string {
		var out []string
		for _, t := range ix.rank(q, max) {
			out = append(out, t.Name())
		}
		return out
	}
}

// Groups shows a parsed query's groups, as "stem:weight" strings.
func Groups(p *Pool, q string) [][]string {
	var out [][]string
	for _, g := range p.index().parseQuery(q).groups {
		var s []string
		for _, v := range g {
			s = append(s, v.stem)
		}
		out = append(out, s)
	}
	return out
}

// Operand returns the kinds a concrete query word is searched as, and
// whether it is one.
func Operand(w string) ([]string, bool) { return operand(w) }

// ThesaurusKeys returns the WordNet table's keys in file order.
func ThesaurusKeys() []string {
	th := wordnet()
	out := make([]string, len(th.lines))
	for i := range th.lines {
		out[i], _ = th.line(i)
	}
	return out
}
