package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// Names of the resource tools, as in Claude Code; the shorter forms are
// aliases.
const (
	ListResourcesToolName = "ListMcpResourcesTool"
	ReadResourceToolName  = "ReadMcpResourceTool"
)

// ListResourcesInput is the decoded input of ListMcpResourcesTool.
type ListResourcesInput struct {
	// Server limits the listing to one server; empty lists all.
	Server string `json:"server,omitempty"`
}

// ReadResourceInput is the decoded input of ReadMcpResourceTool.
type ReadResourceInput struct {
	Server string `json:"server"`
	URI    string `json:"uri"`
}

// ResourceEntry is one resource in ListMcpResourcesTool's answer: the MCP
// resource fields plus the server offering it.
type ResourceEntry struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
	Server      string `json:"server"`
}

// resourceTool defines a resource tool with what both share, where they
// differ from the runtime's defaults: read-only, concurrency-safe,
// deferred, cancelled on interrupt, rendered like MCP tools.
func resourceTool[In any](d runtime.Definition[In]) runtime.Tool {
	d.SearchHint = "mcp resources files documents data"
	d.ShouldDefer = true
	d.Interrupt = runtime.InterruptCancel
	d.ReadOnly = true
	d.ConcurrencySafe = true
	d.RenderProgress = func(_ In, p any) string { return renderProgress(p) }
	d.RenderResult = func(_ In, r runtime.Result) string { return summarise(r) }
	d.RenderError = func(_ In, err error) string { return renderError(err) }
	return runtime.Define(d)
}

// decodeStrict parses raw into v, rejecting unknown keys and wrong types
// with a message naming the parameter.
func decodeStrict(raw json.RawMessage, allowed []string, v any) error {
	in, err := decodeObject(raw, nil)
	if err != nil {
		return err
	}
	for k, val := range in {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("unknown parameter %q: this tool takes %s", k, joinQuoted(allowed))
		}
		var s string
		if json.Unmarshal(val, &s) != nil {
			return fmt.Errorf("the parameter %q must be a string", k)
		}
	}
	b, _ := json.Marshal(in)
	return json.Unmarshal(b, v)
}

// newListResourcesTool is ListMcpResourcesTool over m's servers.
func newListResourcesTool(m *Manager) runtime.Tool {
	return resourceTool(runtime.Definition[ListResourcesInput]{
		Name:    ListResourcesToolName,
		Aliases: []string{"ListMcpResources"},
		Description: `Lists the resources that connected MCP servers offer. Each entry has the standard MCP resource fields (uri, name, mimeType, description) and a "server" field naming the server it belongs to; read one with ReadMcpResourceTool.

Parameters:
- server (optional): only list this server's resources. Without it, every server's resources are listed.`,
		Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"Only list the resources of this MCP server; omit to list every server's resources."}},"additionalProperties":false}`),
		Decode: func(raw json.RawMessage) (ListResourcesInput, error) {
			var in ListResourcesInput
			err := decodeStrict(raw, []string{"server"}, &in)
			return in, err
		},
		Call:        m.listResources,
		DisplayName: "List MCP resources",
		RenderUse: func(in ListResourcesInput) string {
			if in.Server != "" {
				return "server: " + in.Server
			}
			return ""
		},
		RenderRejected: func(ListResourcesInput) string { return "Rejected: listing MCP resources" },
		RenderGrouped:  func(ins []ListResourcesInput) string { return fmt.Sprintf("%d resource listings", len(ins)) },
	})
}

// listResources lists the resources of one server, or of every server
// that offers them.
func (m *Manager) listResources(ctx context.Context, in ListResourcesInput, _ *runtime.Call) (runtime.Result, error) {
	var targets []*server
	if in.Server != "" {
		s, err := m.server(in.Server)
		if err != nil {
			return runtime.ErrorResult(err.Error()), nil
		}
		targets = []*server{s}
	} else {
		for _, s := range m.servers {
			s.mu.Lock()
			if s.resources {
				targets = append(targets, s)
			}
			s.mu.Unlock()
		}
	}
	entries := []ResourceEntry{}
	var problems []string
	for _, s := range targets {
		err := s.do(ctx, "resources/list", func(ctx context.Context, cs *sdk.ClientSession) error {
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					return err
				}
				entries = append(entries, ResourceEntry{
					URI: r.URI, Name: r.Name, Title: r.Title, MIMEType: r.MIMEType,
					Description: r.Description, Server: s.name,
				})
			}
			return nil
		})
		if err != nil {
			if ctx.Err() != nil {
				return runtime.Result{}, ctx.Err()
			}
			problems = append(problems, err.Error())
		}
	}
	if len(problems) > 0 && len(entries) == 0 {
		return runtime.ErrorResult(strings.Join(problems, "\n")), nil
	}
	if len(entries) == 0 {
		return runtime.Result{Data: entries, Content: []runtime.Block{runtime.TextBlock(
			"No resources found. MCP servers may still provide tools even if they have no resources.")}}, nil
	}
	b, _ := json.MarshalIndent(entries, "", "  ")
	res := runtime.Result{Data: entries, Content: []runtime.Block{runtime.TextBlock(string(b))}}
	if len(problems) > 0 {
		res.Content = append(res.Content, runtime.TextBlock("Some servers could not be listed:\n"+strings.Join(problems, "\n")))
	}
	return res, nil
}

// newReadResourceTool is ReadMcpResourceTool over m's servers.
func newReadResourceTool(m *Manager) runtime.Tool {
	use := func(in ReadResourceInput) string {
		if in == (ReadResourceInput{}) {
			return ""
		}
		return in.Server + ": " + in.URI
	}
	return resourceTool(runtime.Definition[ReadResourceInput]{
		Name:    ReadResourceToolName,
		Aliases: []string{"ReadMcpResource"},
		Description: `Reads one resource of an MCP server, identified by the server's name and the resource's URI (as ListMcpResourcesTool lists them). Text comes back as text, images as images.

Parameters:
- server (required): the name of the MCP server to read from
- uri (required): the URI of the resource to read`,
		Schema: json.RawMessage(`{"type":"object","properties":{"server":{"type":"string","description":"The MCP server to read from."},"uri":{"type":"string","description":"The URI of the resource to read."}},"required":["server","uri"],"additionalProperties":false}`),
		Decode: func(raw json.RawMessage) (ReadResourceInput, error) {
			var in ReadResourceInput
			if _, err := decodeObject(raw, []string{"server", "uri"}); err != nil {
				return in, err
			}
			if err := decodeStrict(raw, []string{"server", "uri"}, &in); err != nil {
				return in, err
			}
			if in.Server == "" || in.URI == "" {
				return in, fmt.Errorf(`the parameters "server" and "uri" must not be empty`)
			}
			return in, nil
		},
		Call:           m.readResource,
		DisplayName:    "Read MCP resource",
		RenderUse:      use,
		RenderRejected: func(in ReadResourceInput) string { return "Rejected: reading " + use(in) },
		RenderGrouped:  func(ins []ReadResourceInput) string { return fmt.Sprintf("%d resources read", len(ins)) },
	})
}

// readResource reads a resource: text contents as text blocks, images as
// image blocks, other binary contents described.
func (m *Manager) readResource(ctx context.Context, in ReadResourceInput, _ *runtime.Call) (runtime.Result, error) {
	s, err := m.server(in.Server)
	if err != nil {
		return runtime.ErrorResult(err.Error()), nil
	}
	var res *sdk.ReadResourceResult
	err = s.do(ctx, "resources/read of "+in.URI, func(ctx context.Context, cs *sdk.ClientSession) error {
		var err error
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: in.URI})
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return runtime.Result{}, ctx.Err()
		}
		return runtime.ErrorResult(err.Error()), nil
	}
	out := runtime.Result{Data: res}
	for _, c := range res.Contents {
		if c != nil {
			out.Content = append(out.Content, resourceBlock(c))
		}
	}
	if len(out.Content) == 0 {
		out.Content = []runtime.Block{runtime.TextBlock("(the resource is empty)")}
	}
	out.Content = capText(out.Content, m.opts.MaxOutputChars)
	return out, nil
}
