package pool

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/agentcore/agentcore/runtime"
)

// field is one part of a tool's search document.
type field int

const (
	fieldName      field = iota // the name, or an MCP tool's tool part
	fieldServer                 // an MCP tool's server part
	fieldHint                   // the search hint
	fieldDesc                   // the description
	fieldParamName              // the input schema's property names
	fieldParamDesc              // the input schema's property descriptions
	numFields
)

// rankParams are the ranking's knobs, tuned on the evaluation's dev set
// (testdata/queries/dev.tsv; see eval_test.go).
type rankParams struct {
	// k1 is BM25's term-frequency saturation, b its length normalisation;
	// nameB is b for the name and server fields, lower, so that a tool's
	// every name word counts ("read_multiple_files" is not a weaker
	// match for "read" than "Read" by much).
	k1, b, nameB float64
	// weight is each field's weight in the combined term frequency.
	weight [numFields]float64
	// synonym weighs a match through the synonym table (or a partial name
	// match) against a match of the word itself.
	synonym float64
	// nameBonus is added, times the share of a tool's name words the
	// query holds (a synonym counting synonym), to its score: "make a
	// new folder" names both words of create_directory.
	nameBonus float64
	// deprecated scales the score of a tool whose description says it is
	// deprecated, so that its replacement ranks first.
	deprecated float64
	// coord is the exponent of the share of the query's words a tool
	// matches, which its score is multiplied by: a tool that matches
	// every word beats one that matches one word strongly.
	coord float64
	// pair is added, times the mean idf of the two words, for each pair
	// of adjacent query words a tool holds adjacent in some field ("dry
	// run", "file edit"/edit_file).
	pair float64
	// laterOp weighs an operation after the query's first ("add a task
	// to fix the login bug": add, not fix).
	laterOp float64
	// kind weighs the kind of an operand against a word (see variant):
	// "file" or "directory" is in most tools' words, so a file name says
	// little about which tool; 0.15–0.3 was the plateau on dev.tsv and
	// the probes.
	kind float64
	// quantifier weighs a word that says how much (all, every, whole)
	// against any other: most tools' texts hold "all" somewhere, so it
	// says little about which tool ("every markdown file": Glob, not
	// search_files for its "all matching items"); 0.3–0.7 was the
	// plateau on the looked-at sets.
	quantifier float64
}

// defaultRankParams are the tuned values (tune_test.go and a knob sweep,
// on the dev set only). Recall@1 there is flat over much of the grid;
// these sit inside the best plateau: a name word weighs three description
// words, a search-hint word two, a parameter name or description one;
// descriptions are length-normalised fully (b 1), so a long built-in
// description does not win by mentioning everything, names little (nameB
// 0.25); a synonym counts 0.8 of the word (0.5 until the synonym table
// grew: 0.7–0.9 was the plateau on dev.tsv and the first held-out set,
// 0.8 its middle); a deprecated tool half its score;
// a query that covers a tool's name adds up to 2.5.
var defaultRankParams = rankParams{
	k1:         2,
	b:          1,
	nameB:      0.25,
	weight:     [numFields]float64{fieldName: 3, fieldServer: 1, fieldHint: 2, fieldDesc: 1, fieldParamName: 1, fieldParamDesc: 1},
	synonym:    0.8,
	deprecated: 0.5,
	nameBonus:  2.5,
	pair:       0.25,
	laterOp:    0.6,
	kind:       0.3,
	quantifier: 0.5,
}

// posting is one tool's combined, length-normalised frequency of a term.
type posting struct {
	doc int
	tf  float64
}

// index is the BM25F index of a set of tools (a pool's deferred tools),
// built once: per term, the tools that hold it and how strongly.
type index struct {
	tools    []runtime.Tool
	parts    [][]string // lower-case name parts, for +term
	postings map[string][]posting
	idf      map[string]float64
	names    []string  // stems found in names, for partial matches
	factor   []float64 // per tool: 1, or params.deprecated
	// byName lists, per stem, the tools whose name (tool part) holds it;
	// nameLen is the number of distinct stems of each tool's name.
	byName  map[string][]int
	nameLen []int
	// pairs lists, per pair of stems adjacent in some field (unordered,
	// "a b" with a < b), the tools that hold it.
	pairs  map[string][]int
	params rankParams
}

// newIndex indexes tools with the given parameters.
func newIndex(tools []runtime.Tool, params rankParams) *index {
	ix := &index{tools: tools, parts: make([][]string, len(tools)), postings: map[string][]posting{}, idf: map[string]float64{},
		factor: make([]float64, len(tools)), byName: map[string][]int{}, nameLen: make([]int, len(tools)), pairs: map[string][]int{}, params: params}
	counts := make([][numFields]map[string]int, len(tools))
	textsOf := make([][numFields][]string, len(tools))
	var lengths [][numFields]int = make([][numFields]int, len(tools))
	var total [numFields]int
	var nonEmpty [numFields]int
	nameStems := map[string]bool{}
	others := map[string]bool{}
	for _, t := range tools {
		others[t.Name()] = true
	}
	for i, t := range tools {
		server, name := splitMCP(t.Name())
		ix.parts[i] = append(NameParts(server), NameParts(name)...)
		ix.factor[i] = 1
		if strings.Contains(strings.ToLower(t.Description()), "deprecated") {
			ix.factor[i] = params.deprecated
		}
		texts := [numFields][]string{
			fieldName:   nameTokens(name),
			fieldServer: tokens(server),
			fieldHint:   tokens(t.SearchHint()),
			fieldDesc:   tokens(dropMentions(t.Description(), t.Name(), others)),
		}
		texts[fieldParamName], texts[fieldParamDesc] = schemaTokens(t.InputSchema())
		textsOf[i] = texts
		for f, toks := range texts {
			counts[i][f] = map[string]int{}
			for _, tok := range toks {
				counts[i][f][tok]++
			}
			lengths[i][f] = len(toks)
			total[f] += len(toks)
			if len(toks) > 0 {
				nonEmpty[f]++
			}
		}
		for _, s := range append(texts[fieldName], texts[fieldServer]...) {
			nameStems[s] = true
		}
		for _, s := range texts[fieldName] {
			if !slices.Contains(ix.byName[s], i) {
				ix.byName[s] = append(ix.byName[s], i)
			}
		}
		// A command's meaning is not more of its name: Grep is one word
		// long, and "search" names all of it.
		ix.nameLen[i] = len(slices.Compact(slices.Sorted(slices.Values(tokens(name)))))
	}
	for i, tc := range counts {
		_ = tc
		for _, toks := range textsOf[i] {
			for j := 0; j+1 < len(toks); j++ {
				k := pairKey(toks[j], toks[j+1])
				if l := ix.pairs[k]; len(l) == 0 || l[len(l)-1] != i {
					ix.pairs[k] = append(l, i)
				}
			}
		}
	}
	for s := range nameStems {
		ix.names = append(ix.names, s)
	}
	slices.Sort(ix.names)
	var avg [numFields]float64
	for f := range avg {
		if nonEmpty[f] > 0 {
			avg[f] = float64(total[f]) / float64(nonEmpty[f])
		}
	}
	for i := range tools {
		tf := map[string]float64{}
		var terms []string
		for f := field(0); f < numFields; f++ {
			if lengths[i][f] == 0 || params.weight[f] == 0 {
				continue
			}
			b := params.b
			if f == fieldName || f == fieldServer {
				b = params.nameB
			}
			norm := 1 - b + b*float64(lengths[i][f])/avg[f]
			for term, n := range counts[i][f] {
				if _, ok := tf[term]; !ok {
					terms = append(terms, term)
				}
				tf[term] += params.weight[f] * float64(n) / norm
			}
		}
		// Sorted, so that float sums do not depend on map order.
		slices.Sort(terms)
		for _, term := range terms {
			ix.postings[term] = append(ix.postings[term], posting{doc: i, tf: tf[term]})
		}
	}
	n := float64(len(tools))
	for term, ps := range ix.postings {
		df := float64(len(ps))
		ix.idf[term] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return ix
}

// nameTokens are the tokens of a tool's name, a name part that is a
// command's name followed by what the command does ("Grep": grep, search,
// regex), so that a tool named after a command is found by its meaning
// as a tool named by its meaning is.
func nameTokens(name string) []string {
	var out []string
	for _, t := range tokens(name) {
		out = append(out, t)
		for _, e := range queryExpansions[t] {
			out = append(out, Stem(e))
		}
	}
	return out
}

// splitMCP splits "mcp__server__tool" into server and tool; any other
// name is all tool.
func splitMCP(name string) (server, tool string) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if s, t, ok := strings.Cut(rest, "__"); ok {
			return s, t
		}
		return "", rest
	}
	return "", name
}

// schemaNode is the part of a JSON Schema the index reads.
type schemaNode struct {
	Description string                `json:"description"`
	Properties  map[string]schemaNode `json:"properties"`
	Items       json.RawMessage       `json:"items"`
}

// schemaTokens returns the tokens of the property names and of the
// property descriptions of an input schema, nested objects and array
// items included.
func schemaTokens(raw json.RawMessage) (names, descs []string) {
	var root schemaNode
	if json.Unmarshal(raw, &root) != nil {
		return nil, nil
	}
	var walk func(n schemaNode, depth int)
	walk = func(n schemaNode, depth int) {
		if depth > 4 {
			return
		}
		// In name order: the pairs of adjacent words must not depend on
		// map order.
		keys := slices.Sorted(maps.Keys(n.Properties))
		for _, name := range keys {
			p := n.Properties[name]
			names = append(names, tokens(name)...)
			descs = append(descs, tokens(p.Description)...)
			walk(p, depth+1)
		}
		var item schemaNode
		if len(n.Items) > 0 && json.Unmarshal(n.Items, &item) == nil {
			walk(item, depth+1)
		}
	}
	walk(root, 0)
	return names, descs
}

// variant is one stem a query word is searched as, with its weight.
type variant struct {
	stem   string
	weight float64
	// kind marks the kind of an operand (file for report.pdf): evidence
	// of what a tool takes, not of its name, so it adds nothing to the
	// name bonus.
	kind bool
}

// query is a parsed keyword query.
type query struct {
	// groups are the query's words, each as its variants (the word, its
	// synonyms at a lower weight).
	groups [][]variant
	// required are the +terms, lower-case.
	required []string
}

// parseQuery splits a keyword query into required terms and word groups:
// words that name a concrete thing (a file name, a path, a number, text
// in capitals) become the kind of thing they name (operand), a capitalised
// name no tool holds an entity, everyday phrasings their meaning (the
// everyday lexicon), and every other word its stem (stop words dropped
// unless nothing else is left), expanded with synonyms and, for words no
// tool holds, partial name matches.
func (ix *index) parseQuery(q string) query {
	var out query
	syn := ix.params.synonym
	seen := map[string]bool{}
	// scale weighs the words being added: after "between" they name the
	// ends of a relation ("a link between two people"), not what the
	// tool acts on, and weigh half; nor do they name the tool, so they
	// add nothing to the name bonus (delete_relations, not
	// delete_entities, for "remove a connection between two entities").
	scale := 1.0
	// named is set once an operation is: later ones weigh params.laterOp.
	named := false
	// phrase, while a phrasing's meaning is being added, says whether it
	// holds an operation after the query's first.
	var phrase *struct{ later bool }
	add := func(g []variant) {
		if len(g) == 0 {
			return
		}
		op := slices.ContainsFunc(g, func(v variant) bool { return operations()[v.stem] })
		s := scale
		switch {
		case phrase != nil:
			// A phrasing's meaning is one thing: all its groups weigh
			// as its operation does ("designs" after "ask me": plan and
			// approach both describe what to ask about).
			if phrase.later {
				s *= ix.params.laterOp
			}
		case op && named:
			s *= ix.params.laterOp
		}
		named = named || op
		for i := range g {
			if quantifiers[g[i].stem] {
				g[i].weight *= ix.params.quantifier
			}
		}
		if s != 1 {
			for i := range g {
				g[i].weight *= s
				g[i].kind = g[i].kind || scale != 1
			}
		}
		var key []string
		for _, v := range g {
			key = append(key, fmt.Sprintf("%s:%g", v.stem, v.weight))
		}
		k := strings.Join(key, "|")
		if seen[k] {
			return
		}
		seen[k] = true
		out.groups = append(out.groups, g)
	}
	alts := func(words []string, w float64) []variant {
		var g []variant
		for _, a := range words {
			if !slices.ContainsFunc(g, func(v variant) bool { return v.stem == a }) {
				g = append(g, variant{stem: a, weight: w})
			}
		}
		return g
	}
	// word adds a plain word: its stem, synonyms and partial name matches.
	word := func(s string) {
		g := []variant{{stem: s, weight: 1}}
		for _, o := range synonyms()[s] {
			g = append(g, variant{stem: o, weight: syn})
		}
		if _, ok := ix.postings[s]; !ok && len(s) >= 3 {
			for _, n := range ix.names {
				if n != s && strings.Contains(n, s) {
					g = append(g, variant{stem: n, weight: syn})
				}
			}
		}
		add(g)
	}
	var seq []string // the lower-case words left, stop words included
	var all []string // every word, for a query of stop words only
	files, lastName, lastNumber := 0, -1, -2
	fields := strings.Fields(q)
	for i, raw := range fields {
		if r, ok := strings.CutPrefix(raw, "+"); ok {
			if r != "" {
				out.required = append(out.required, strings.ToLower(r))
				seq = append(seq, strings.ToLower(r))
			}
			continue
		}
		if kinds, ok := operand(raw); ok {
			switch kinds[0] {
			case "file":
				files++
			case "number":
				// Two numbers with one word between them are a sum ("add
				// 3 and 4", "17 plus 25").
				if lastNumber == i-2 && arithmetic[strings.ToLower(fields[i-1])] {
					add(alts([]string{Stem("sum"), Stem("calculate")}, syn))
				}
				lastNumber = i
			}
			for _, k := range kinds {
				g := alts(stems(strings.Split(k, "|")), syn*ix.params.kind)
				for j := range g {
					g[j].kind = true
				}
				add(g)
			}
			continue
		}
		parts := lexWords(raw)
		all = append(all, parts...)
		if ix.properName(raw) && (i > 0 || !stopWords[strings.ToLower(raw)]) {
			// Two names with more than "and" between them are related
			// ("Alice works with Bob", "Bob is Carol's manager").
			if lastName >= 0 && (i-lastName > 2 || i-lastName == 2 && !conjunctions[strings.ToLower(fields[i-1])]) {
				add(alts([]string{Stem("relation")}, syn/2))
			}
			lastName = i
			add(alts(stems([]string{"entity", "name", "person"}), syn/3))
			continue
		}
		for _, f := range strings.FieldsFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			for _, p := range splitCase(f) {
				seq = append(seq, strings.ToLower(p))
			}
		}
	}
	if files > 1 {
		add(alts([]string{Stem("multiple")}, syn))
	}
	for i := 0; i < len(seq); {
		w := seq[i]
		if exp, ok := queryExpansions[w]; ok {
			word(Stem(w))
			for _, e := range exp {
				word(Stem(e))
			}
			i++
			continue
		}
		n := min(lexicon().longest, len(seq)-i)
		for ; n > 0; n-- {
			stems := make([]string, n)
			for j := range stems {
				stems[j] = Stem(seq[i+j])
			}
			m, ok := lexicon().phrasings[strings.Join(stems, " ")]
			if n == 1 {
				if exact, ok1 := lexicon().phrasings["="+w]; ok1 {
					m, ok = exact, true
				}
			}
			if !ok {
				continue
			}
			later := named && slices.ContainsFunc(m, func(g []string) bool { return slices.ContainsFunc(g, func(a string) bool { return operations()[a] }) })
			phrase = &struct{ later bool }{later}
			for gi, g := range m {
				vs := alts(g, syn)
				if gi == 0 && n == 1 && !stopWords[w] && len(w) >= 2 {
					vs = append([]variant{{stem: stems[0], weight: 1}}, slices.DeleteFunc(vs, func(v variant) bool { return v.stem == stems[0] })...)
				}
				if gi > 0 && n == 1 {
					// The word is searched once: "design" means plan and
					// approach, not a second design.
					vs = slices.DeleteFunc(vs, func(v variant) bool { return v.stem == stems[0] })
				}
				add(vs)
			}
			phrase = nil
			if slices.Contains(stems, "between") {
				scale = 0.5
			}
			break
		}
		if n > 0 {
			i += n
			continue
		}
		for _, pw := range plainWords(w) {
			for _, s := range ix.decompound(pw) {
				word(s)
			}
		}
		i++
	}
	if files > 0 && slices.ContainsFunc(out.groups, func(g []variant) bool {
		return slices.ContainsFunc(g, func(v variant) bool { return v.stem == createStem && !v.kind })
	}) {
		// Creating a named file is writing it ("create a Dockerfile",
		// "start a new CHANGELOG.md"), not making a directory or an
		// entity.
		add(alts([]string{Stem("write")}, syn))
	}
	if len(out.groups) == 0 {
		// Only stop words: search them after all.
		for _, s := range all {
			word(s)
		}
	}
	return out
}

var createStem = Stem("create")

// quantifiers say how much of something, not what: most tools' texts
// hold "all" somewhere.
var quantifiers = stemSet("all every each entire whole complete")

// arithmetic are the words between two numbers that make a sum of them.
var arithmetic = map[string]bool{"and": true, "plus": true, "+": true, "minus": true, "-": true, "times": true}

// stems stems each of words.
func stems(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = Stem(w)
	}
	return out
}

// conjunctions join two names without relating them ("Alice and Bob").
var conjunctions = map[string]bool{"and": true, "or": true, "&": true, "nor": true}

// properName reports whether a query word is a name (Alice, Acme): a
// capitalised word that no tool holds and that is not a stop word or
// an everyday phrasing.
func (ix *index) properName(raw string) bool {
	w := strings.Trim(raw, `"'()[]{},;:!?.`)
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	rs := []rune(w)
	if len(rs) < 2 || !unicode.IsUpper(rs[0]) || strings.ToUpper(w) == w {
		return false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLower(r) {
			return false
		}
	}
	lw := strings.ToLower(w)
	s := Stem(lw)
	if stopWords[lw] || notNames[lw] {
		return false
	}
	if _, ok := lexicon().phrasings[s]; ok {
		return false
	}
	_, ok := ix.postings[s]
	return !ok
}

// notNames are capitalised words that name no person or thing a memory
// holds as an entity: languages, days, months ("Bob speaks French" is a
// fact about Bob, not a relation between two names).
var notNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`english french german spanish italian portuguese dutch russian chinese
		japanese korean arabic hindi greek polish swedish turkish latin mandarin
		monday tuesday wednesday thursday friday saturday sunday
		january february march april june july august september october november december`) {
		notNames[w] = true
	}
}

// decompound stems a query word; a word no tool holds that splits into
// two words tools do hold ("webpage", "filesystem") becomes those two.
func (ix *index) decompound(w string) []string {
	s := Stem(w)
	if _, ok := ix.postings[s]; ok || len(w) < 6 {
		return []string{s}
	}
	for i := 3; i <= len(w)-3; i++ {
		a, b := Stem(w[:i]), Stem(w[i:])
		if _, ok := ix.postings[a]; ok {
			if _, ok := ix.postings[b]; ok {
				return []string{a, b}
			}
		}
	}
	return []string{s}
}

// has reports whether tool i holds a required term: its stem anywhere in
// the document, or the term inside a name part.
func (ix *index) has(i int, term string) bool {
	for _, p := range ix.parts[i] {
		if strings.Contains(p, term) {
			return true
		}
	}
	for _, ps := range ix.postings[Stem(term)] {
		if ps.doc == i {
			return true
		}
	}
	return false
}

// rank returns up to max tools for a keyword query, best first: BM25F
// over the fields, a query word's variants (itself, its synonyms)
// adding up, ties broken by name.
func (ix *index) rank(q string, max int) []runtime.Tool {
	pq := ix.parseQuery(q)
	k1 := ix.params.k1
	scores := make([]float64, len(ix.tools))
	best := make([]float64, len(ix.tools))
	named := make([]float64, len(ix.tools))
	matched := make([]int, len(ix.tools))
	var touched []int
	n := float64(len(ix.tools))
	for _, g := range pq.groups {
		// A word and its synonyms are one term (as Lucene's SynonymQuery):
		// their weighted frequencies add up, and its idf is that of the
		// tools holding any of them, so a rare synonym ("folder", in one
		// description) does not outweigh a common canonical word
		// ("directory", in many names).
		for _, v := range g {
			for _, p := range ix.postings[v.stem] {
				if best[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				best[p.doc] += v.weight * p.tf
			}
			if v.kind {
				continue
			}
			for _, d := range ix.byName[v.stem] {
				named[d] += v.weight / float64(ix.nameLen[d])
			}
		}
		df := float64(len(touched))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, d := range touched {
			scores[d] += idf * best[d] * (k1 + 1) / (best[d] + k1)
			matched[d]++
			best[d] = 0
		}
		touched = touched[:0]
	}
	for gi := 0; gi+1 < len(pq.groups); gi++ {
		a, b := pq.groups[gi][0].stem, pq.groups[gi+1][0].stem
		bonus := ix.params.pair * (ix.idf[a] + ix.idf[b]) / 2
		for _, d := range ix.pairs[pairKey(a, b)] {
			if scores[d] > 0 {
				scores[d] += bonus
			}
		}
	}
	for d := range scores {
		if scores[d] > 0 {
			share := float64(matched[d]) / float64(len(pq.groups))
			scores[d] = (scores[d] + ix.params.nameBonus*min(named[d], 1)) * ix.factor[d] * math.Pow(share, ix.params.coord)
		}
	}
	type hit struct {
		doc   int
		score float64
	}
	var hits []hit
	for i, s := range scores {
		if s <= 0 {
			continue
		}
		ok := true
		for _, r := range pq.required {
			if !ix.has(i, r) {
				ok = false
				break
			}
		}
		if ok {
			hits = append(hits, hit{i, s})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(ix.tools[a.doc].Name(), ix.tools[b.doc].Name())
	})
	var out []runtime.Tool
	for _, h := range hits {
		if len(out) == max {
			break
		}
		out = append(out, ix.tools[h.doc])
	}
	return out
}

// pluralAcronym reports whether rs[i] ends an acronym followed only by
// a plural s ("URLs", "IDs"), which is not a word boundary.
func pluralAcronym(rs []rune, i int) bool {
	return rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLetter(rs[i+2]))
}

// splitCase splits a word at CamelCase boundaries, underscores, dashes
// and dots into lower-case parts: "ReadMCPResource" → read, mcp, resource.
func splitCase(name string) []string {
	var parts []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) ||
			(i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1]) && !pluralAcronym(rs, i))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return parts
}

// dropMentions blanks the words of text that are the names of other
// tools ("Read the file with the Read tool first", "a shell started by
// Bash"): a description's cross-references are about those tools, and
// would otherwise rank it for their words.
func dropMentions(text, self string, names map[string]bool) string {
	var b strings.Builder
	b.Grow(len(text))
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := text[start:end]
		if w != self && names[w] {
			b.WriteByte(' ')
		} else {
			b.WriteString(w)
		}
		start = -1
	}
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteRune(r)
	}
	flush(len(text))
	return b.String()
}

// pairKey is the key of an unordered pair of stems.
func pairKey(a, b string) string {
	if b < a {
		a, b = b, a
	}
	return a + " " + b
}
