// Command askserver is an MCP server used by the runtime/mcp tests: its
// tools ask the client for input the way protocol 2026-07-28 does (multi
// round-trip requests, SEP-2322): the first call returns input requests,
// the repeated call carries the answers.
//
//	roots   lists the client's roots
//	form    asks for a name and an age through a form
//	sample  has the client's model answer a prompt
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// ask returns the answer to q, or the result asking for it.
func ask(req *mcp.CallToolRequest, q mcp.InputRequest) (mcp.InputResponse, *mcp.CallToolResult) {
	if a, ok := req.Params.InputResponses["q"]; ok {
		return a, nil
	}
	return nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": q}}
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "askserver", Version: "v1.0.0"}, nil)
	empty := json.RawMessage(`{"type":"object"}`)

	s.AddTool(&mcp.Tool{Name: "roots", Description: "Lists the client's roots.", InputSchema: empty},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, res := ask(req, &mcp.ListRootsParams{})
			if res != nil {
				return res, nil
			}
			var uris []string
			for _, r := range a.(*mcp.ListRootsResult).Roots {
				uris = append(uris, r.URI)
			}
			return text("roots: " + strings.Join(uris, " ")), nil
		})

	s.AddTool(&mcp.Tool{Name: "form", Description: "Asks for a name and an age.", InputSchema: empty},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, res := ask(req, &mcp.ElicitParams{Mode: "form", Message: "Who are you?", RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name": map[string]any{"type": "string", "title": "Name"},
					"age":  map[string]any{"type": "integer", "minimum": 0, "maximum": 150},
				},
				"required": []string{"name"},
			}})
			if res != nil {
				return res, nil
			}
			e := a.(*mcp.ElicitResult)
			b, _ := json.Marshal(e.Content)
			return text(fmt.Sprintf("action=%s content=%s meta=%v", e.Action, b, e.Meta)), nil
		})

	s.AddTool(&mcp.Tool{Name: "sample", Description: "Has the client's model answer a prompt.", InputSchema: empty},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, res := ask(req, &mcp.CreateMessageParams{MaxTokens: 20, SystemPrompt: "Answer in one word.",
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Capital of France?"}}}})
			if res != nil {
				return res, nil
			}
			m := a.(*mcp.CreateMessageWithToolsResult)
			var parts []string
			for _, c := range m.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					parts = append(parts, t.Text)
				}
			}
			return text(fmt.Sprintf("model=%s text=%s stop=%s", m.Model, strings.Join(parts, ""), m.StopReason)), nil
		})

	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
