package pool

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/agentcore/agentcore/runtime"
)

// LegacyRank ranks the pool's deferred tools for a keyword query with the
// keyword scorer ToolSearch used before BM25 (kept here, in a test file,
// so the evaluation can report old against new in the same run).
func LegacyRank(p *Pool, q string, max int) []string {
	var out []string
	for _, t := range legacyKeywordSearch(strings.TrimSpace(q), p.Deferred(), p.Tools(), max, newLegacyToolDoc) {
		out = append(out, t.Name())
	}
	return out
}

// legacyStopWords carry no meaning in a plain-language query.
var legacyStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true, "in": true, "on": true,
	"and": true, "or": true, "with": true, "by": true, "from": true, "me": true, "my": true, "i": true,
	"is": true, "it": true, "that": true, "this": true, "some": true, "any": true, "tool": true, "tools": true,
	"please": true, "want": true, "need": true, "can": true, "how": true, "do": true,
}

func legacyKeywordSearch(q string, deferred, all []runtime.Tool, max int, docOf func(runtime.Tool) legacyToolDoc) []runtime.Tool {
	lower := strings.ToLower(q)
	// Exact name: the model used a bare name instead of select:.
	if t := findFold(deferred, lower); t != nil {
		return []runtime.Tool{t}
	}
	if t := findFold(all, lower); t != nil {
		return []runtime.Tool{t}
	}
	// A server prefix: mcp__github or mcp__github__.
	if strings.HasPrefix(lower, "mcp__") && len(lower) > len("mcp__") {
		var out []runtime.Tool
		for _, t := range deferred {
			if strings.HasPrefix(strings.ToLower(t.Name()), lower) && len(out) < max {
				out = append(out, t)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	var required, optional []string
	for _, term := range strings.Fields(lower) {
		if r, ok := strings.CutPrefix(term, "+"); ok && r != "" {
			required = append(required, r)
		} else if term != "+" {
			optional = append(optional, term)
		}
	}
	var meaningful []string
	for _, t := range optional {
		if !legacyStopWords[t] {
			meaningful = append(meaningful, t)
		}
	}
	if len(meaningful) > 0 || len(required) > 0 {
		optional = meaningful
	}
	terms := append(slices.Clone(required), optional...)
	type scored struct {
		t     runtime.Tool
		score int
		index int
	}
	var hits []scored
	for i, t := range deferred {
		doc := docOf(t)
		ok := true
		for _, r := range required {
			if !doc.has(r) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		score := 0
		for _, term := range terms {
			score += doc.score(term)
		}
		if score > 0 {
			hits = append(hits, scored{t, score, i})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.t.Name(), b.t.Name())
	})
	var out []runtime.Tool
	for _, h := range hits {
		if len(out) == max {
			break
		}
		out = append(out, h.t)
	}
	return out
}

// legacyWordMatches reports whether a description word matches a term: the
// same word, or the term's stem followed by at most three letters, so
// "issue" finds "issues" and "creates" finds "create".
func legacyWordMatches(word, term, stem string) bool {
	if word == term {
		return true
	}
	return strings.HasPrefix(word, stem) && len(word)-len(stem) <= 3
}

func legacyAnyWord(words []string, term string) bool {
	stem := legacyStemOf(term)
	for _, w := range words {
		if legacyWordMatches(w, term, stem) {
			return true
		}
	}
	return false
}

// words splits lower-case text into words of letters and digits.
func legacyWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// legacyStemOf strips a plural or verb ending.
func legacyStemOf(s string) string {
	for _, suf := range []string{"ing", "ies", "es", "ed", "s"} {
		if len(s) > len(suf)+2 && strings.HasSuffix(s, suf) {
			return strings.TrimSuffix(s, suf)
		}
	}
	return s
}

// legacyToolDoc is what a tool is scored on.
type legacyToolDoc struct {
	parts []string
	full  string
	mcp   bool
	hint  []string
	desc  []string
}

func newLegacyToolDoc(t runtime.Tool) legacyToolDoc {
	parts := NameParts(t.Name())
	return legacyToolDoc{
		parts: parts,
		full:  strings.Join(parts, " "),
		mcp:   IsMCP(t),
		hint:  legacyWords(t.SearchHint()),
		desc:  legacyWords(t.Description()),
	}
}

func (d legacyToolDoc) has(term string) bool {
	for _, p := range d.parts {
		if strings.Contains(p, term) || legacyStemOf(p) == legacyStemOf(term) {
			return true
		}
	}
	return legacyAnyWord(d.desc, term) || legacyAnyWord(d.hint, term)
}

// score weighs one term: a whole name part 10 (12 for MCP tools, whose
// server and action names are what models search for), part of a name
// part 5 (6), the name as a fallback 3, the search hint 4, the
// description 2.
func (d legacyToolDoc) score(term string) int {
	s := 0
	exact, partial := false, false
	for _, p := range d.parts {
		if p == term || legacyStemOf(p) == legacyStemOf(term) {
			exact = true
		} else if strings.Contains(p, term) {
			partial = true
		}
	}
	switch {
	case exact && d.mcp:
		s += 12
	case exact:
		s += 10
	case partial && d.mcp:
		s += 6
	case partial:
		s += 5
	case strings.Contains(d.full, term):
		s += 3
	}
	if legacyAnyWord(d.hint, term) {
		s += 4
	}
	if legacyAnyWord(d.desc, term) {
		s += 2
	}
	return s
}
