// Command slowserver is an MCP server used by the runtime/mcp tests: it
// does not answer until it is released — when the file named by
// SLOW_GATE exists, or else after SLOW_SECONDS (default 3) seconds — and
// then serves one tool, "hello".
package main

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if gate := os.Getenv("SLOW_GATE"); gate != "" {
		for {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	} else {
		secs, err := strconv.Atoi(os.Getenv("SLOW_SECONDS"))
		if err != nil {
			secs = 3
		}
		time.Sleep(time.Duration(secs) * time.Second)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "slowserver", Version: "v1.0.0"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "hello",
		Description: "Says hello, eventually.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hello"}}}, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
