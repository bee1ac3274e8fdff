package tooldefs

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

// ToolSearch loads deferred tools: tools listed by name in
// <available-deferred-tools> whose definitions were not sent. Call it
// before using one of them. Query "select:Name1,Name2" for exact names,
// or keywords (e.g. "github issue"); "+term" makes a term required.
// Found tools can be called from then on.
//
// +tool:name=ToolSearch
// +tool:agentOnly
// +tool:localOnly
// +tool:readOnly
// +tool:concurrencySafe
// +tool:alwaysLoad
// +tool:searchHint="find and load deferred tools"
type ToolSearch struct{}

// ToolSearchInput is the input of ToolSearch.
type ToolSearchInput struct {
	// "select:<name>[,<name>…]" for exact tools, or keywords.
	Query string `json:"query" jsonschema:"minLength=1"`
	// Maximum number of keyword results (default 5).
	MaxResults *int `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=50"`
}

// Call searches the pool registered in the ToolContext and marks the
// found tools loaded for the rest of the conversation.
func (ToolSearch) Call(_ context.Context, in *ToolSearchInput, c *runtime.Call) (pool.SearchResult, error) {
	cat, ok := pool.CatalogFrom(c.Context)
	if !ok {
		return pool.SearchResult{}, errors.New("no tool pool is registered in this session, so there is nothing to search")
	}
	max := pool.DefaultMaxResults
	if in.MaxResults != nil {
		max = *in.MaxResults
	}
	res, err := pool.Search(cat, in.Query, max)
	if err != nil {
		return pool.SearchResult{}, err
	}
	if len(res.Matches) > 0 {
		c.ModifyContext(pool.MarkLoaded(res.Matches...))
	}
	return res, nil
}

// ResultBlocks gives the model the found definitions.
func (ToolSearch) ResultBlocks(out pool.SearchResult) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(out.Text())}
}

// RenderUse shows the query.
func (ToolSearch) RenderUse(in *ToolSearchInput) string { return fmt.Sprintf("%q", in.Query) }

// RenderResult names what was loaded.
func (ToolSearch) RenderResult(_ *ToolSearchInput, out pool.SearchResult) string {
	switch len(out.Matches) {
	case 0:
		return "No tools found"
	case 1:
		return "Loaded " + out.Matches[0]
	}
	return fmt.Sprintf("Loaded %d tools", len(out.Matches))
}
