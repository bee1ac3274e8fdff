package pool

import (
	"cmp"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
)

// The ranking uses general means only: a tool's text, split into fields
// and weighed (BM25F), and a general synonym source (WordNet, wordnet.go).
// Nothing in it names a tool, a server or a query.

// field is one part of a tool's search document.
type field int

const (
	fieldName      field = iota // the name, or an MCP tool's tool part
	fieldServer                 // an MCP tool's server part
	fieldHint                   // the search hint
	fieldDesc                   // the description
	fieldLead                   // the description's first sentence, which says what the tool is for
	fieldParamName              // the input schema's property names
	fieldParamDesc              // the input schema's property descriptions
	fieldServerDoc              // the MCP server's instructions
	fieldNameRel                // the WordNet synonyms and broader words of the name's words
	numFields
)

// serverInstructions is implemented by a tool that knows the
// instructions its MCP server sent (mcp.Tool).
type serverInstructions interface {
	ServerInstructions() string
}

// rankParams are the ranking's knobs.
type rankParams struct {
	// k1 is BM25's term-frequency saturation, b its length normalisation;
	// nameB is b for the name and server fields, lower, so that each of
	// a long name's words still counts.
	k1, b, nameB float64
	// weight is each field's weight in the combined term frequency.
	weight [numFields]float64
	// synonym weighs a match through a WordNet synonym (or a partial
	// name match) against a match of the word itself; broader weighs a
	// match through a hypernym, or through the word a query word is the
	// hypernym of.
	synonym, broader float64
	// known scales the synonyms of a query word that the tools hold
	// themselves: such a word is evidence enough, and its senses are
	// many ("file" is also a record and a nail file).
	known float64
	// nameBonus is added, times the share of a tool's name words the
	// query holds (a synonym counting its weight), to its score.
	nameBonus float64
	// deprecated scales the score of a tool whose description says it is
	// deprecated, so that its replacement ranks first.
	deprecated float64
	// coord is the exponent of the share of the query's words a tool
	// matches, which its score is multiplied by.
	coord float64
	// pair is added, times the mean idf of the two words, for each pair
	// of adjacent query words a tool holds adjacent in some field.
	pair float64
	// kind weighs the kind of a concrete operand (file for report.pdf,
	// url for a link) against a word.
	kind float64
}

// defaultRankParams are the knobs in use, chosen on the development sets
// only (tune_test.go), never on a blind set: recall there is flat over
// most of the grid (within ±2 % at 1 for k1 0.9–2, b 0.5–1, synonym
// 0.4–0.8, broader 0.2–0.5, field weights ±50 %). What moved it: no
// coordination factor (a share-of-words factor cost 3–6 %), no synonyms
// for a query word the tools hold (known 0; 0.25 cost 2 %), and name
// relations at 0.5.
var defaultRankParams = rankParams{
	k1:         1.2,
	b:          0.75,
	nameB:      0.25,
	weight:     [numFields]float64{fieldName: 3, fieldServer: 1, fieldHint: 2, fieldDesc: 1, fieldLead: 1, fieldParamName: 1, fieldParamDesc: 0.5, fieldServerDoc: 0.3, fieldNameRel: 0.5},
	synonym:    0.6,
	broader:    0.35,
	known:      0,
	deprecated: 0.5,
	nameBonus:  2,
	coord:      0,
	pair:       0.25,
	kind:       0.3,
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
	byName map[string][]int
	// byNameRel is byName for the name's WordNet relations, which count
	// toward the name bonus as a broader word does.
	byNameRel map[string][]int
	nameLen   []int
	// pairs lists, per pair of stems adjacent in some field (unordered,
	// "a b" with a < b), the tools that hold it.
	pairs map[string][]int
	// capitals holds the words the tools' texts write in capitals (URL,
	// JSON): such a word in a query is a word of a tool; any other word
	// in capitals (TODO, FIXME) is text the user is looking for.
	capitals map[string]bool
	params   rankParams
}

// newIndex indexes tools with the given parameters.
func newIndex(tools []runtime.Tool, params rankParams) *index {
	ix := &index{tools: tools, parts: make([][]string, len(tools)), postings: map[string][]posting{}, idf: map[string]float64{},
		factor: make([]float64, len(tools)), byName: map[string][]int{}, byNameRel: map[string][]int{}, nameLen: make([]int, len(tools)), pairs: map[string][]int{},
		capitals: map[string]bool{}, params: params}
	counts := make([][numFields]map[string]int, len(tools))
	lengths := make([][numFields]int, len(tools))
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
		instructions := ""
		if si, ok := t.(serverInstructions); ok {
			instructions = si.ServerInstructions()
		}
		texts := [numFields][]string{
			fieldName:      tokens(name),
			fieldServer:    tokens(server),
			fieldHint:      tokens(t.SearchHint()),
			fieldDesc:      tokens(dropMentions(t.Description(), t.Name(), others)),
			fieldLead:      tokens(dropMentions(lead(t.Description()), t.Name(), others)),
			fieldServerDoc: tokens(instructions),
		}
		texts[fieldParamName], texts[fieldParamDesc] = schemaTokens(t.InputSchema())
		texts[fieldNameRel] = nameRelated(texts[fieldName])
		for _, w := range strings.FieldsFunc(t.Description()+" "+t.SearchHint()+" "+instructions, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len(w) >= 2 && strings.ToUpper(w) == w && strings.ToLower(w) != w {
				ix.capitals[strings.ToLower(w)] = true
			}
		}
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
			for j := 0; j+1 < len(toks); j++ {
				k := pairKey(toks[j], toks[j+1])
				if l := ix.pairs[k]; len(l) == 0 || l[len(l)-1] != i {
					ix.pairs[k] = append(l, i)
				}
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
		for _, s := range texts[fieldNameRel] {
			ix.byNameRel[s] = append(ix.byNameRel[s], i)
		}
		ix.nameLen[i] = len(slices.Compact(slices.Sorted(slices.Values(texts[fieldName]))))
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

// nameRelated returns the WordNet synonyms and broader words of a name's
// stems, each once and none of the name's own: a query that says
// "remove" finds delete_file, whose broader word it is.
func nameRelated(name []string) []string {
	var out []string
	for _, s := range name {
		for _, r := range wordnet().lookup(s) {
			if !slices.Contains(name, r.stem) && !slices.Contains(out, r.stem) {
				out = append(out, r.stem)
			}
		}
	}
	return out
}

// lead returns the first sentence of a description: up to the first
// full stop followed by a space or a line's end, or the first blank line.
func lead(desc string) string {
	desc = strings.TrimSpace(desc)
	end := len(desc)
	if i := strings.Index(desc, "\n\n"); i >= 0 {
		end = i
	}
	for i := 0; i+1 < end; i++ {
		if desc[i] == '.' && (desc[i+1] == ' ' || desc[i+1] == '\n') {
			end = i
			break
		}
	}
	return desc[:end]
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

// parseQuery splits a keyword query into required terms and word groups.
// A word that names a concrete thing (a file name, a path, a link) is
// searched as the kind of thing it is; a literal (a quoted string, a
// number, a word in capitals no tool writes) as text or not at all;
// every other word as its stem (stop words dropped unless nothing else is
// left) with its WordNet synonyms and broader words, and, when no tool
// holds it, the name words it is part of. A WordNet phrase with a
// particle ("get rid of", "look up") is searched as its meaning.
func (ix *index) parseQuery(q string) query {
	var out query
	th := wordnet()
	seen := map[string]bool{}
	add := func(g []variant) {
		if len(g) == 0 {
			return
		}
		k := g[0].stem
		for _, v := range g[1:] {
			k += "|" + v.stem
		}
		if seen[k] {
			return
		}
		seen[k] = true
		out.groups = append(out.groups, g)
	}
	withRelated := func(g []variant, rel []related, scale float64) []variant {
		for _, r := range rel {
			w := ix.params.synonym * scale
			if r.tier == tierBroader {
				w = ix.params.broader * scale
			}
			if i := slices.IndexFunc(g, func(v variant) bool { return v.stem == r.stem }); i >= 0 {
				g[i].weight = max(g[i].weight, w)
				continue
			}
			g = append(g, variant{stem: r.stem, weight: w})
		}
		return g
	}
	// word adds a plain word: its stem, synonyms and partial name matches.
	word := func(s string) {
		scale := 1.0
		if _, ok := ix.postings[s]; ok {
			scale = ix.params.known
		}
		g := withRelated([]variant{{stem: s, weight: 1}}, th.lookup(s), scale)
		g = slices.DeleteFunc(g, func(v variant) bool { return v.weight == 0 })
		if _, ok := ix.postings[s]; !ok && len(s) >= 3 {
			for _, n := range ix.names {
				if n != s && strings.Contains(n, s) {
					g = append(g, variant{stem: n, weight: ix.params.synonym})
				}
			}
		}
		add(g)
	}
	kinds := func(ks ...string) {
		var g []variant
		for _, k := range ks {
			g = append(g, variant{stem: Stem(k), weight: ix.params.kind, kind: true})
		}
		add(g)
	}
	var seq []string // the lower-case words left, stop words included
	var all []string // every word, for a query of stop words only
	quoted := false
	for _, raw := range strings.Fields(q) {
		if quoted {
			quoted = !closesQuote(raw)
			continue
		}
		if r, _ := utf8.DecodeRuneInString(raw); strings.ContainsRune("\"`“‘", r) {
			// A quoted string is what to look for, not words of a tool.
			kinds("text")
			quoted = !closesQuote(raw[1:])
			continue
		}
		if r, ok := strings.CutPrefix(raw, "+"); ok {
			if r != "" {
				out.required = append(out.required, strings.ToLower(r))
				seq = append(seq, strings.ToLower(r))
			}
			continue
		}
		if ks, ok := operand(raw); ok {
			if len(ks) > 0 {
				kinds(ks...)
			}
			continue
		}
		for _, f := range strings.FieldsFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if ix.literal(f, th) {
				continue
			}
			for _, p := range splitCase(f) {
				seq = append(seq, p)
				all = append(all, Stem(p))
			}
		}
	}
	for i := 0; i < len(seq); {
		// The longest WordNet phrase here holding a particle or other
		// stop word ("get rid of", "look up"): searched as its meaning.
		n := min(th.longest, len(seq)-i)
		for ; n > 1; n-- {
			ws := seq[i : i+n]
			if !slices.ContainsFunc(ws, func(w string) bool { return stopWords()[w] }) || stopWords()[ws[0]] {
				continue
			}
			key := strings.Join(stems(ws), " ")
			rel := th.lookup(key)
			if len(rel) == 0 {
				continue
			}
			// The phrase's own words are not searched: "get rid of"
			// is not a get.
			add(withRelated(nil, rel, 1))
			break
		}
		if n > 1 {
			i += n
			continue
		}
		w := seq[i]
		i++
		if stopWords()[w] || len(w) < 2 {
			continue
		}
		for _, s := range ix.decompound(w) {
			word(s)
		}
	}
	if len(out.groups) == 0 {
		// Only stop words: search them after all.
		for _, s := range all {
			word(s)
		}
	}
	return out
}

// literal reports whether a query word in capitals is text the user is
// looking for (FIXME, ERR_TIMEOUT), not a word: three letters or more,
// all capitals, and neither a word of the tools (in any case) nor one
// WordNet knows. PR, URL, JSON and PR stay words.
func (ix *index) literal(f string, th *thesaurus) bool {
	if len(f) < 3 || strings.ToUpper(f) != f || strings.ToLower(f) == f {
		return false
	}
	l := strings.ToLower(f)
	if ix.capitals[l] {
		return false
	}
	if _, ok := ix.postings[Stem(l)]; ok {
		return false
	}
	return len(th.lookup(Stem(l))) == 0
}

// closesQuote reports whether a query word ends a quoted string.
func closesQuote(w string) bool {
	w = strings.TrimRight(w, ".,;:!?)")
	r, _ := utf8.DecodeLastRuneInString(w)
	return w != "" && strings.ContainsRune("\"`”’'", r)
}

// stems stems each of words.
func stems(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = Stem(w)
	}
	return out
}

// operand is how a query word that names a concrete thing reads: a file
// name (report.pdf) as a file and its extension, a path as a path, a
// wildcard pattern as a pattern, a link as a URL; a number or a code
// identifier (parseConfig, os.Exit) is a literal, searched as nothing.
// ok is false for any other word.
func operand(raw string) (kinds []string, ok bool) {
	w := strings.Trim(raw, `"'()[]{},;:!?`)
	w = strings.TrimSuffix(w, ".")
	if w == "" {
		return nil, false
	}
	lw := strings.ToLower(w)
	switch {
	case strings.HasPrefix(lw, "http://") || strings.HasPrefix(lw, "https://") || strings.HasPrefix(lw, "www."):
		return []string{"url"}, true
	case strings.ContainsAny(w, "*?") && strings.ContainsAny(w, "./"):
		return []string{"file", "pattern"}, true
	case strings.Contains(w, "/"):
		if ext := extension(w[strings.LastIndex(w, "/")+1:]); ext != "" {
			return []string{"file", "path", ext}, true
		}
		return []string{"path", "directory"}, true
	}
	if ext, ok := strings.CutPrefix(w, "."); ok && extension("x."+ext) != "" {
		return []string{"file", strings.ToLower(ext)}, true
	}
	if ext := extension(w); ext != "" {
		return []string{"file", ext}, true
	}
	allDigits := true
	for _, r := range w {
		allDigits = allDigits && (unicode.IsDigit(r) || r == '.' || r == ',')
	}
	if allDigits {
		return nil, true
	}
	if pkg, name, ok := strings.Cut(w, "."); ok && pkg != "" && name != "" && unicode.IsUpper(rune(name[0])) {
		return nil, true
	}
	rs := []rune(w)
	if unicode.IsLower(rs[0]) {
		for _, r := range rs[1:] {
			if unicode.IsUpper(r) {
				return nil, true // lowerCamel: an identifier
			}
		}
	}
	return nil, false
}

// extension returns the extension of a file name ("report.pdf" → pdf),
// or "" when w does not look like one (a version, "e.g", os.Exit).
func extension(w string) string {
	i := strings.LastIndex(w, ".")
	if i <= 0 || i == len(w)-1 {
		return ""
	}
	ext := w[i+1:]
	if len(ext) > 5 {
		return ""
	}
	for _, r := range ext {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return ""
		}
	}
	if strings.ToLower(ext) != ext && strings.ToUpper(ext) != ext {
		return ""
	}
	if !unicode.IsLetter(rune(ext[0])) {
		return ""
	}
	base := w[:i]
	if base == "e" || base == "i" || strings.EqualFold(ext, "g") || strings.EqualFold(ext, "e") {
		return "" // e.g, i.e
	}
	return strings.ToLower(ext)
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
	matched := make([]float64, len(ix.tools))
	var touched []int
	n := float64(len(ix.tools))
	groups := 0.0
	for _, g := range pq.groups {
		// A word and its synonyms are one term (as Lucene's SynonymQuery):
		// their weighted frequencies add up, and its idf is that of the
		// tools holding any of them.
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
			for _, d := range ix.byNameRel[v.stem] {
				named[d] += v.weight * ix.params.broader / float64(ix.nameLen[d])
			}
		}
		// An operand's kind counts less toward the share of the query a
		// tool matches, as it weighs less.
		share := 1.0
		if g[0].kind {
			share = ix.params.kind
		}
		groups += share
		df := float64(len(touched))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, d := range touched {
			scores[d] += idf * best[d] * (k1 + 1) / (best[d] + k1)
			matched[d] += share
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
			share := matched[d] / groups
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
