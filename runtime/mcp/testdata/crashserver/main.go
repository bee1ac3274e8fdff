// Command crashserver is an MCP server used by the runtime/mcp tests: its
// "crash" tool kills the process in the middle of the call; "pid" reports
// the process id, so a test can see that a new process took over.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "crashserver", Version: "v1.0.0"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "crash",
		Description: "Exits the server process in the middle of the call.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "crashserver: crashing on purpose")
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(&mcp.Tool{
		Name:        "pid",
		Description: "Returns the server's process id.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(os.Getpid())}}}, nil
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
