// Command toolserver is an MCP server used by the runtime/mcp tests. It
// serves, over stdio, tools that exercise every part of the adapter:
// annotations, a name needing sanitising, a long description, images,
// error results, progress, _meta always-load, cancellation and env; and
// prompts: with arguments, with every content type, one that fails and
// one whose use adds another (notifications/prompts/list_changed).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// png1x1 is a one-pixel PNG.
var png1x1 = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
	0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
	0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
	0x42, 0x60, 0x82,
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func args(req *mcp.CallToolRequest) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

func boolPtr(b bool) *bool { return &b }

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolserver", Version: "v1.0.0"}, nil)

	s.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Echo returns its text argument unchanged.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"what to echo"}},"required":["text"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Echo text"},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(fmt.Sprint(args(req)["text"])), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "delete_record",
		Description: "Delete a record by id, permanently.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: boolPtr(true)},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(fmt.Sprintf("deleted record %v", args(req)["id"])), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "weird.name/v2",
		Description: "A tool whose name needs sanitising.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("weird ok"), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "long_description",
		Description: "Start of a long description. " + strings.Repeat("0123456789", 300),
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("long ok"), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "image",
		Description: "Returns a one-pixel PNG and a caption.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "a pixel"},
			&mcp.ImageContent{Data: png1x1, MIMEType: "image/png"},
		}}, nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "fail",
		Description: "Always reports a tool error.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r := text("the record is locked")
		r.IsError = true
		return r, nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "always",
		Description: "A tool that asks to be loaded up front.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Meta:        mcp.Meta{"anthropic/alwaysLoad": true, "anthropic/searchHint": "pinned essential", "anthropic/maxResultSizeChars": 200000},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("always ok"), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "progress",
		Description: "Sends three progress notifications, then returns.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		// Above Claude Code's ceiling: the client caps it.
		Meta: mcp.Meta{"anthropic/maxResultSizeChars": 2000000},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			for i := 1; i <= 3; i++ {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: tok, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i),
				})
				// Give the client time to handle the notification: it
				// queues notifications but completes responses at once,
				// and drops progress that arrives after the result.
				time.Sleep(100 * time.Millisecond)
			}
		}
		return text("progress done"), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "block",
		Description: "Blocks until the call is cancelled.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return text("cancelled"), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "env",
		Description: "Returns the value of an environment variable.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text(os.Getenv(fmt.Sprint(args(req)["name"]))), nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "structured",
		Description: "Returns only structured content.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: map[string]any{"answer": 42}}, nil
	})

	s.AddTool(&mcp.Tool{
		Name:        "add_tool",
		Description: "Adds the tool \"added\" to the server, and removes the tool named by remove if given, which tells clients its tool list changed.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"remove":{"type":"string"}}}`),
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Remove string `json:"remove"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &in)
		if in.Remove != "" {
			s.RemoveTools(in.Remove)
		}
		s.AddTool(&mcp.Tool{
			Name:        "added",
			Description: "Added at run time.",
			InputSchema: json.RawMessage(`{"type":"object"}`),
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("added ok"), nil
		})
		return text("tool added"), nil
	})

	addPrompts(s)
	if os.Getenv("TOOLSERVER_BREAK_PROMPTS") != "" {
		// It declares prompts but cannot list them.
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "prompts/list" {
					return nil, fmt.Errorf("the prompt store is offline")
				}
				return next(ctx, method, req)
			}
		})
	}

	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func promptText(role mcp.Role, s string) *mcp.PromptMessage {
	return &mcp.PromptMessage{Role: role, Content: &mcp.TextContent{Text: s}}
}

func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "greet",
		Title:       "Greeting",
		Description: "Asks for a greeting of name, in style if given.",
		Arguments: []*mcp.PromptArgument{
			{Name: "name", Description: "who to greet", Required: true},
			{Name: "style", Description: "how to greet"},
		},
	}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		a := req.Params.Arguments
		t := "Write a greeting for " + a["name"]
		if a["style"] != "" {
			t += " in the style: " + a["style"]
		}
		return &mcp.GetPromptResult{Description: "a greeting", Messages: []*mcp.PromptMessage{promptText("user", t+".")}}, nil
	})

	s.AddPrompt(&mcp.Prompt{Name: "mixed", Description: "Returns one message of every content type."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				promptText("user", "first, as text"),
				promptText("assistant", "an assistant turn"),
				{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: png1x1}},
				{Role: "user", Content: &mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF0000")}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "the notes"}}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///blob.bin", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3}}}},
				{Role: "user", Content: &mcp.ResourceLink{Name: "spec", URI: "https://example.invalid/spec", Description: "the spec"}},
			}}, nil
		})

	s.AddPrompt(&mcp.Prompt{Name: "broken", Description: "Always fails."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return nil, fmt.Errorf("the broken prompt is broken")
		})

	s.AddPrompt(&mcp.Prompt{Name: "grow", Description: "Adds the prompt \"grown\", which tells clients the prompt list changed."},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			s.AddPrompt(&mcp.Prompt{Name: "grown", Description: "Added at run time."},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{promptText("user", "grown ok")}}, nil
				})
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{promptText("user", "grew")}}, nil
		})
}
