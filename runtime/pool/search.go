package pool

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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
//   - otherwise the deferred tools are ranked by BM25F over their name
//     parts (CamelCase, snake_case, kebab-case and mcp__server__tool are
//     split; the server is a field of its own), search hints,
//     descriptions (the first sentence also as a field of its own),
//     parameter names and descriptions, and the MCP server's
//     instructions, with light stemming (Stem). Synonyms come from a
//     general source, WordNet (wordnet.go): a query word no tool holds
//     is also searched as its synonyms and broader words, a phrase with a
//     particle ("get rid of") as its meaning, and a tool's name words are
//     indexed with theirs; a file name, path or link is searched as the
//     kind of thing it is, a number, a quoted string or a word in
//     capitals no tool writes as a literal; "+term" makes a term
//     required. Nothing in the ranking names a tool, a server or a query.
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
		var ix *index
		if p, ok := c.(*Pool); ok {
			ix = p.index()
		} else {
			ix = newIndex(deferred, defaultRankParams)
		}
		found = keywordSearch(q, deferred, all, maxResults, ix)
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

func keywordSearch(q string, deferred, all []runtime.Tool, max int, ix *index) []runtime.Tool {
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
	return ix.rank(q, max)
}

// NameParts splits a tool name into lower-case words: "mcp__github__create_issue"
// → github, create, issue; "NotebookEdit" → notebook, edit.
func NameParts(name string) []string {
	return splitCase(strings.TrimPrefix(name, "mcp__"))
}
