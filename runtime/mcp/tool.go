package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// Keys read from a server tool's _meta object.
const (
	// MetaAlwaysLoad, set to true, makes the tool load up front instead of
	// being deferred to ToolSearch (Tool.AlwaysLoad).
	MetaAlwaysLoad = "anthropic/alwaysLoad"
	// MetaSearchHint, a string, is scored by ToolSearch beside the name.
	MetaSearchHint = "anthropic/searchHint"
	// MetaMaxResultSizeChars, a positive number, is the tool's result
	// size cap (runtime.Traits.MaxResultSizeChars), at most
	// MaxResultSizeCharsCeiling; a result above it is written to a file
	// and the model gets a preview and the path.
	MetaMaxResultSizeChars = "anthropic/maxResultSizeChars"
)

// MaxResultSizeCharsCeiling bounds a server's MetaMaxResultSizeChars, as
// Claude Code's does.
const MaxResultSizeCharsCeiling = 500_000

// maxResultSizeChars is the cap a tool's _meta asks for; 0 (the loop's
// default) when it asks for none or for something that is not a positive
// number.
func maxResultSizeChars(meta map[string]any) int {
	v, ok := meta[MetaMaxResultSizeChars].(float64)
	if !ok || v < 1 {
		return 0
	}
	return int(min(v, MaxResultSizeCharsCeiling))
}

// Input is a decoded MCP tool input: the argument object, each value kept
// as the raw JSON the model sent, passed to the server unchanged.
type Input map[string]json.RawMessage

// Progress is the progress value an MCP tool call reports, taken from the
// server's notifications/progress.
type Progress struct {
	// Message is the server's description of the current step, if any.
	Message string
	// Progress is the amount done so far; Total the amount to do, or 0 when
	// unknown.
	Progress, Total float64
}

// Tool is one tool of an MCP server, adapted to the runtime contract: a
// runtime.Tool built by runtime.Define, plus the server it belongs to. It
// stays valid across reconnects of its server.
type Tool struct {
	runtimeTool
	srv        *server
	serverName string
	remoteName string
	name       string
	// instructions are the server's instructions from its initialize
	// result, which ToolSearch also scores.
	instructions string
}

// runtimeTool lets Tool embed the runtime.Tool that runtime.Define built
// without exporting it as a field.
type runtimeTool = runtime.Tool

var _ runtime.Tool = (*Tool)(nil)

// newTool adapts def. What differs from the runtime's fail-closed defaults
// is spelled out: MCP tools wait for ToolSearch, an interrupt cancels the
// request, and the annotations give the scheduling answers.
func newTool(srv *server, def *sdk.Tool) *Tool {
	t := &Tool{srv: srv, serverName: srv.name, remoteName: def.Name, name: ToolName(srv.name, def.Name)}
	schema := json.RawMessage(`{"type":"object"}`)
	if def.InputSchema != nil {
		schema = objectSchema(def.InputSchema)
	}
	var sch struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &sch)
	title := def.Title
	var readOnly, destructive bool
	if a := def.Annotations; a != nil {
		readOnly = a.ReadOnlyHint
		destructive = a.DestructiveHint != nil && *a.DestructiveHint
		if title == "" {
			title = a.Title
		}
	}
	if title == "" {
		title = def.Name
	}
	alwaysLoad, _ := def.Meta[MetaAlwaysLoad].(bool)
	searchHint, _ := def.Meta[MetaSearchHint].(string)
	userFacing := srv.name + " - " + title + " (MCP)"
	t.runtimeTool = runtime.Define(runtime.Definition[Input]{
		// mcp__<server>__<tool>, with the server's description cut to
		// MaxDescriptionLength and its input schema as sent to the API.
		Name:        t.name,
		Description: TruncateDescription(def.Description),
		SearchHint:  searchHint,
		Schema:      schema,
		// Decode checks that the input is a JSON object holding every
		// required key of the schema; the server validates the rest.
		Decode: func(raw json.RawMessage) (Input, error) { return decodeObject(raw, sch.Required) },
		Call:   t.call,

		// Deferred until ToolSearch loads it, unless its _meta holds
		// "anthropic/alwaysLoad": true.
		ShouldDefer: true,
		AlwaysLoad:  alwaysLoad,
		// An interrupt cancels the request.
		Interrupt: runtime.InterruptCancel,
		// readOnlyHint gives read-only and concurrency-safe,
		// destructiveHint gives destructive.
		ReadOnly:        readOnly,
		ConcurrencySafe: readOnly,
		Destructive:     destructive,
		// "<server> - <title or tool> (MCP)", as Claude Code shows it.
		DisplayName: userFacing,
		// _meta "anthropic/maxResultSizeChars" sets the result size cap.
		MaxResultSizeChars: maxResultSizeChars(def.Meta),
		// CheckPermissions and PermissionTarget keep the defaults: rules
		// match MCP tools by name (mcp__server, mcp__server__tool).

		RenderUse:      renderArgs,
		RenderProgress: func(_ Input, p any) string { return renderProgress(p) },
		RenderResult:   func(_ Input, r runtime.Result) string { return summarise(r) },
		RenderRejected: func(Input) string { return "Rejected: " + t.serverName + " may not run " + t.remoteName },
		RenderError:    func(_ Input, err error) string { return renderError(err) },
		RenderGrouped: func(ins []Input) string {
			return fmt.Sprintf("%d call%s to %s", len(ins), plural(len(ins)), userFacing)
		},
	})
	return t
}

// objectSchema is the server's schema as JSON, with "type": "object"
// added when missing (the API insists on it); anything that is not a JSON
// object becomes {"type":"object"}.
func objectSchema(schema any) json.RawMessage {
	b, err := json.Marshal(schema)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || m == nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	if _, ok := m["type"]; ok {
		return b
	}
	m["type"] = "object"
	if b, err = json.Marshal(m); err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// Server is the configured name of the tool's server.
func (t *Tool) Server() string { return t.serverName }

// RemoteName is the tool's name on its server, before sanitising.
func (t *Tool) RemoteName() string { return t.remoteName }

// ServerInstructions returns the instructions the server sent at
// initialization (empty when it sent none); ToolSearch scores them as a
// field of each of the server's tools.
func (t *Tool) ServerInstructions() string { return t.instructions }

// decodeObject parses raw as a JSON object and checks required keys.
func decodeObject(raw json.RawMessage, required []string) (Input, error) {
	// JSON's whitespace only: bytes.TrimSpace would also drop a \v or
	// U+0085, which json.Unmarshal rejects, so such input would pass here.
	raw = bytes.Trim(raw, " \t\r\n")
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("the input must be a JSON object of parameters, got %s", jsonKind(raw))
	}
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the input is not valid JSON: %w", err)
	}
	if in == nil {
		in = Input{}
	}
	var missing []string
	for _, k := range required {
		if _, ok := in[k]; !ok {
			missing = append(missing, fmt.Sprintf("%q", k))
		}
	}
	switch len(missing) {
	case 0:
		return in, nil
	case 1:
		return nil, fmt.Errorf("the required parameter %s is missing", missing[0])
	default:
		return nil, fmt.Errorf("the required parameters %s are missing", strings.Join(missing, ", "))
	}
}

func jsonKind(raw json.RawMessage) string {
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// call sends tools/call to the server. A server error result, a protocol
// error, or the server dying during the call become an is_error result;
// cancellation of ctx is returned as ctx's error.
func (t *Tool) call(ctx context.Context, in Input, call *runtime.Call) (runtime.Result, error) {
	var onProgress func(any)
	if call != nil {
		onProgress = call.Progress
	}
	res, err := t.srv.callTool(ctx, t.remoteName, in, onProgress)
	if err != nil {
		if ctx.Err() != nil {
			return runtime.Result{}, ctx.Err()
		}
		return runtime.ErrorResult(err.Error()), nil
	}
	return callResult(res, t.srv.m.opts.MaxOutputChars), nil
}

// renderArgs lists the arguments: key: value, ...
func renderArgs(in Input) string {
	if len(in) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(in)) {
		parts = append(parts, k+": "+clip(string(in[k]), 80))
	}
	return clip(strings.Join(parts, ", "), 240)
}

// renderProgress shows the server's progress message and count.
func renderProgress(progress any) string {
	p, ok := progress.(Progress)
	if !ok {
		return fmt.Sprint(progress)
	}
	var count string
	if p.Total > 0 {
		count = fmt.Sprintf("%g/%g", p.Progress, p.Total)
	} else {
		count = fmt.Sprintf("%g", p.Progress)
	}
	if p.Message == "" {
		return count
	}
	return p.Message + " (" + count + ")"
}

// summarise describes the content returned.
func summarise(result runtime.Result) string {
	var texts, images int
	var first string
	var lines int
	for _, b := range result.Content {
		switch b.Type {
		case "image":
			images++
		default:
			if texts == 0 {
				first, _, _ = strings.Cut(strings.TrimSpace(b.Text), "\n")
			}
			texts++
			lines += strings.Count(strings.TrimRight(b.Text, "\n"), "\n") + 1
		}
	}
	var s string
	switch {
	case result.IsError:
		s = "Error: " + clip(first, 120)
	case lines == 1:
		s = clip(first, 120)
	case lines > 1:
		s = fmt.Sprintf("Returned %d lines", lines)
	default:
		s = "Returned no text"
	}
	if images > 0 {
		s += fmt.Sprintf(" (+%d image%s)", images, plural(images))
	}
	return s
}

// renderError shows the failure.
func renderError(err error) string {
	if err == nil {
		return "Error"
	}
	return "Error: " + clip(err.Error(), 200)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// clip cuts s to n runes, marking the cut with "…".
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
