package pool

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/agentcore/agentcore/runtime"
)

// DefaultMaxResults is ToolSearch's max_results when none is given.
const DefaultMaxResults = 5

// SearchResult is what ToolSearch found.
type SearchResult struct {
	// Query is the query as given.
	Query string `json:"query"`
	// Matches are the found tools' names, best first.
	Matches []string `json:"matches"`
	// Missing are select: names that matched no tool.
	Missing []string `json:"missing,omitempty"`
	// TotalDeferred is the number of deferred tools searched.
	TotalDeferred int `json:"total_deferred_tools"`
	// Pending names MCP servers still connecting, reported when nothing
	// (or not everything selected) was found.
	Pending []string `json:"pending_mcp_servers,omitempty"`
	// Definitions are the full definitions of Matches, in order.
	Definitions []Definition `json:"definitions,omitempty"`
}

// Text is the tool_result text: the found definitions, or why nothing
// was found.
func (r SearchResult) Text() string {
	var b strings.Builder
	if len(r.Matches) == 0 {
		b.WriteString("No matching deferred tools found")
		if len(r.Missing) > 0 {
			fmt.Fprintf(&b, " (no tool named %s)", strings.Join(r.Missing, ", "))
		}
		b.WriteString(".")
		if len(r.Pending) > 0 {
			fmt.Fprintf(&b, " Some MCP servers are still connecting: %s. Their tools will be available shortly; search again.", strings.Join(r.Pending, ", "))
		}
		return b.String()
	}
	fmt.Fprintf(&b, "Loaded %d tool(s); you can call them now.\n<functions>\n", len(r.Matches))
	for _, d := range r.Definitions {
		b.WriteString("<function>")
		b.Write(d.JSON())
		b.WriteString("</function>\n")
	}
	b.WriteString("</functions>")
	if len(r.Missing) > 0 {
		fmt.Fprintf(&b, "\nNot found: %s.", strings.Join(r.Missing, ", "))
		if len(r.Pending) > 0 {
			fmt.Fprintf(&b, " MCP servers still connecting: %s.", strings.Join(r.Pending, ", "))
		}
	}
	return b.String()
}

// Search answers a ToolSearch query against the catalog:
//
//   - "select:A,B" returns exactly those tools (deferred or already
//     loaded), in the order asked;
//   - a query equal to a tool's name returns that tool;
//   - a query starting with "mcp__" returns the deferred tools with that
//     prefix;
//   - otherwise keywords are scored over the deferred tools' name parts
//     (CamelCase and mcp__server__tool are split), search hints and
//     descriptions; "+term" makes a term required.
//
// maxResults ≤ 0 means DefaultMaxResults; select: is not capped.
func Search(c Catalog, query string, maxResults int) (SearchResult, error) {
	if c == nil {
		return SearchResult{}, errors.New("the tool search has no tool pool to search; the runtime must register one with pool.Provide")
	}
	q := strings.TrimSpace(query)
	if q == "" {
		return SearchResult{}, errors.New(`query is empty: give keywords (e.g. "github issue") or "select:ToolName"`)
	}
	if maxResults <= 0 {
		maxResults = DefaultMaxResults
	}
	all := c.Tools()
	var deferred []runtime.Tool
	for _, t := range all {
		if c.IsDeferred(t.Name()) {
			deferred = append(deferred, t)
		}
	}
	res := SearchResult{Query: query, TotalDeferred: len(deferred), Matches: []string{}}
	var found []runtime.Tool

	if rest, ok := cutPrefixFold(q, "select:"); ok {
		for _, name := range strings.Split(rest, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			t := findFold(deferred, name)
			if t == nil {
				t = findFold(all, name)
			}
			if t == nil {
				res.Missing = append(res.Missing, name)
				continue
			}
			if !slices.Contains(found, t) {
				found = append(found, t)
			}
		}
	} else {
		docOf := newToolDoc
		if p, ok := c.(*Pool); ok {
			docOf = p.docOf
		}
		found = keywordSearch(q, deferred, all, maxResults, docOf)
	}
	for _, t := range found {
		res.Matches = append(res.Matches, t.Name())
		res.Definitions = append(res.Definitions, DefinitionOf(t))
	}
	if len(found) == 0 || len(res.Missing) > 0 {
		res.Pending = c.PendingServers()
	}
	return res, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func findFold(tools []runtime.Tool, name string) runtime.Tool {
	if t := runtime.Lookup(tools, name); t != nil {
		return t
	}
	for _, t := range tools {
		if strings.EqualFold(t.Name(), name) {
			return t
		}
	}
	return nil
}

// stopWords carry no meaning in a plain-language query.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "for": true, "in": true, "on": true,
	"and": true, "or": true, "with": true, "by": true, "from": true, "me": true, "my": true, "i": true,
	"is": true, "it": true, "that": true, "this": true, "some": true, "any": true, "tool": true, "tools": true,
	"please": true, "want": true, "need": true, "can": true, "how": true, "do": true,
}

func keywordSearch(q string, deferred, all []runtime.Tool, max int, docOf func(runtime.Tool) toolDoc) []runtime.Tool {
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
		if !stopWords[t] {
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

// wordMatches reports whether a description word matches a term: the
// same word, or the term's stem followed by at most three letters, so
// "issue" finds "issues" and "creates" finds "create".
func wordMatches(word, term, stem string) bool {
	if word == term {
		return true
	}
	return strings.HasPrefix(word, stem) && len(word)-len(stem) <= 3
}

func anyWord(words []string, term string) bool {
	stem := stemOf(term)
	for _, w := range words {
		if wordMatches(w, term, stem) {
			return true
		}
	}
	return false
}

// words splits lower-case text into words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// stemOf strips a plural or verb ending.
func stemOf(s string) string {
	for _, suf := range []string{"ing", "ies", "es", "ed", "s"} {
		if len(s) > len(suf)+2 && strings.HasSuffix(s, suf) {
			return strings.TrimSuffix(s, suf)
		}
	}
	return s
}

// toolDoc is what a tool is scored on.
type toolDoc struct {
	parts []string
	full  string
	mcp   bool
	hint  []string
	desc  []string
}

func newToolDoc(t runtime.Tool) toolDoc {
	parts := NameParts(t.Name())
	return toolDoc{
		parts: parts,
		full:  strings.Join(parts, " "),
		mcp:   IsMCP(t),
		hint:  words(t.SearchHint()),
		desc:  words(t.Description()),
	}
}

func (d toolDoc) has(term string) bool {
	for _, p := range d.parts {
		if strings.Contains(p, term) || stemOf(p) == stemOf(term) {
			return true
		}
	}
	return anyWord(d.desc, term) || anyWord(d.hint, term)
}

// score weighs one term: a whole name part 10 (12 for MCP tools, whose
// server and action names are what models search for), part of a name
// part 5 (6), the name as a fallback 3, the search hint 4, the
// description 2.
func (d toolDoc) score(term string) int {
	s := 0
	exact, partial := false, false
	for _, p := range d.parts {
		if p == term || stemOf(p) == stemOf(term) {
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
	if anyWord(d.hint, term) {
		s += 4
	}
	if anyWord(d.desc, term) {
		s += 2
	}
	return s
}

// NameParts splits a tool name into lower-case words: "mcp__github__create_issue"
// → github, create, issue; "NotebookEdit" → notebook, edit.
func NameParts(name string) []string {
	name = strings.TrimPrefix(name, "mcp__")
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
			(i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return parts
}
