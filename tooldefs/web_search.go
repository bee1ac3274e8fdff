package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/web"
)

// WebSearch searches the web and returns result titles, URLs and snippets.
// Use it for information beyond your knowledge, such as recent events or
// current documentation. Restrict results with allowed_domains or exclude
// sites with blocked_domains (not both). Cite the URLs you use.
//
// +tool:name=WebSearch
// +tool:readOnly
// +tool:concurrencySafe
// +tool:interrupt=cancel
// +tool:searchHint="search the internet"
type WebSearch struct{}

// WebSearchInput is the input of WebSearch.
type WebSearchInput struct {
	// The search query.
	Query string `json:"query" jsonschema:"minLength=2"`
	// Only include results from these domains.
	AllowedDomains []string `json:"allowed_domains,omitempty"`
	// Never include results from these domains.
	BlockedDomains []string `json:"blocked_domains,omitempty"`
}

// WebSearchOutput is the hits of one search.
type WebSearchOutput struct {
	Query   string
	Results []web.SearchResult
}

// ValidateInput refuses both domain filters at once.
func (WebSearch) ValidateInput(_ context.Context, in *WebSearchInput, _ *runtime.ToolContext) error {
	if len(in.AllowedDomains) > 0 && len(in.BlockedDomains) > 0 {
		return errors.New("give allowed_domains or blocked_domains, not both")
	}
	return nil
}

// Call queries the configured search backend.
func (WebSearch) Call(ctx context.Context, in *WebSearchInput, c *runtime.Call) (WebSearchOutput, error) {
	// The settings' env first, then the session's ToolOptions (agentcore:
	// its own environment).
	opts := runtime.ToolOptionsOf(c.Context)
	getenv := func(k string) string {
		if v := c.Context.Env[k]; v != "" {
			return v
		}
		switch k {
		case "AGENTCORE_WEB_SEARCH_URL":
			return opts.SearchEndpoint
		case "AGENTCORE_CONFIG_DIR":
			return opts.ConfigDir
		}
		return ""
	}
	project := c.Context.Cwd
	if len(c.Context.WorkingDirs) > 0 {
		project = c.Context.WorkingDirs[0]
	}
	s := web.Searcher{Endpoint: web.Endpoint(getenv, project)}
	results, err := s.Search(ctx, in.Query, in.AllowedDomains, in.BlockedDomains, 10)
	if err != nil {
		return WebSearchOutput{}, err
	}
	return WebSearchOutput{Query: in.Query, Results: results}, nil
}

// ResultBlocks lists the hits for the model.
func (WebSearch) ResultBlocks(out WebSearchOutput) []runtime.Block {
	if len(out.Results) == 0 {
		return []runtime.Block{runtime.TextBlock(fmt.Sprintf("No results for %q.", out.Query))}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Web search results for %q:\n", out.Query)
	for i, r := range out.Results {
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			fmt.Fprintf(&b, "   %s\n", r.Snippet)
		}
	}
	return []runtime.Block{runtime.TextBlock(b.String())}
}

// RenderUse shows the query.
func (WebSearch) RenderUse(in *WebSearchInput) string { return fmt.Sprintf("%q", in.Query) }

// RenderResult counts the hits.
func (WebSearch) RenderResult(_ *WebSearchInput, out WebSearchOutput) string {
	if len(out.Results) == 1 {
		return "Found 1 result"
	}
	return fmt.Sprintf("Found %d results", len(out.Results))
}
