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
)

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

// Tool is one tool of an MCP server, adapted to the runtime contract. It
// stays valid across reconnects of its server.
type Tool struct {
	srv         *server
	serverName  string
	remoteName  string
	name        string
	title       string
	description string
	schema      json.RawMessage
	required    []string
	readOnly    bool
	destructive bool
	alwaysLoad  bool
	searchHint  string
}

var _ runtime.Tool = (*Tool)(nil)

func newTool(srv *server, def *sdk.Tool) *Tool {
	t := &Tool{
		srv:         srv,
		serverName:  srv.name,
		remoteName:  def.Name,
		name:        ToolName(srv.name, def.Name),
		title:       def.Title,
		description: TruncateDescription(def.Description),
		schema:      json.RawMessage(`{"type":"object"}`),
	}
	if def.InputSchema != nil {
		t.schema = objectSchema(def.InputSchema)
	}
	var sch struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(t.schema, &sch)
	t.required = sch.Required
	if a := def.Annotations; a != nil {
		t.readOnly = a.ReadOnlyHint
		t.destructive = a.DestructiveHint != nil && *a.DestructiveHint
		if t.title == "" {
			t.title = a.Title
		}
	}
	if v, ok := def.Meta[MetaAlwaysLoad].(bool); ok {
		t.alwaysLoad = v
	}
	if v, ok := def.Meta[MetaSearchHint].(string); ok {
		t.searchHint = v
	}
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

// Name is mcp__<server>__<tool>.
func (t *Tool) Name() string { return t.name }

// Aliases is empty: MCP tools have one name.
func (t *Tool) Aliases() []string { return nil }

// Description is the server's description, cut to MaxDescriptionLength.
func (t *Tool) Description() string { return t.description }

// SearchHint is the "anthropic/searchHint" of the tool's _meta, if any.
func (t *Tool) SearchHint() string { return t.searchHint }

// InputSchema is the server's input schema, unchanged.
func (t *Tool) InputSchema() json.RawMessage { return t.schema }

// IsEnabled is true: a listed server tool is usable.
func (t *Tool) IsEnabled() bool { return true }

// ShouldDefer is true: MCP tools wait for ToolSearch unless AlwaysLoad.
func (t *Tool) ShouldDefer() bool { return true }

// AlwaysLoad is true when the tool's _meta holds "anthropic/alwaysLoad": true.
func (t *Tool) AlwaysLoad() bool { return t.alwaysLoad }

// InterruptBehavior is cancel: an interrupt cancels the request.
func (t *Tool) InterruptBehavior(any) runtime.InterruptBehavior { return runtime.InterruptCancel }

// Traits reports the annotations: readOnlyHint gives read-only and
// concurrency-safe, destructiveHint gives destructive.
func (t *Tool) Traits() runtime.Traits {
	return runtime.Traits{
		ReadOnly:        runtime.Flag{Value: t.readOnly},
		ConcurrencySafe: runtime.Flag{Value: t.readOnly},
		Destructive:     runtime.Flag{Value: t.destructive},
	}
}

// Decode checks that raw is a JSON object holding every required key of
// the schema; the server validates the rest.
func (t *Tool) Decode(raw json.RawMessage) (any, error) {
	return decodeObject(raw, t.required)
}

// decodeObject parses raw as a JSON object and checks required keys.
func decodeObject(raw json.RawMessage, required []string) (Input, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		raw = json.RawMessage(`{}`)
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("the input must be a JSON object of parameters, got %s", jsonKind(raw))
	}
	var in Input
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the input is not valid JSON: %v", err)
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

// ValidateInput accepts everything: the server is the judge.
func (t *Tool) ValidateInput(context.Context, any, *runtime.ToolContext) error { return nil }

// CheckPermissions defers to the rules (mcp__server, mcp__server__tool).
func (t *Tool) CheckPermissions(context.Context, any, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Passthrough}
}

// PermissionTarget is none: rules match MCP tools by name only.
func (t *Tool) PermissionTarget(any) runtime.Target { return runtime.Target{} }

// IsConcurrencySafe follows readOnlyHint.
func (t *Tool) IsConcurrencySafe(any) bool { return t.readOnly }

// IsReadOnly follows readOnlyHint.
func (t *Tool) IsReadOnly(any) bool { return t.readOnly }

// IsDestructive follows destructiveHint.
func (t *Tool) IsDestructive(any) bool { return t.destructive }

// UserFacingName is "<server> - <title or tool> (MCP)", as Claude Code
// shows it.
func (t *Tool) UserFacingName(any) string {
	display := t.title
	if display == "" {
		display = t.remoteName
	}
	return t.serverName + " - " + display + " (MCP)"
}

// Call sends tools/call to the server. A server error result, a protocol
// error, or the server dying during the call become an is_error result;
// cancellation of ctx is returned as ctx's error.
func (t *Tool) Call(ctx context.Context, input any, call *runtime.Call) (runtime.Result, error) {
	in, ok := input.(Input)
	if !ok {
		return runtime.Result{}, fmt.Errorf("%s: input is a %T, want the mcp.Input that Decode returns", t.name, input)
	}
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

// RenderUse lists the arguments: key: value, ...
func (t *Tool) RenderUse(input any) string {
	in, _ := input.(Input)
	return renderArgs(in)
}

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

// RenderProgress shows the server's progress message and count.
func (t *Tool) RenderProgress(_ any, progress any) string {
	return renderProgress(progress)
}

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

// RenderResult summarises the content returned.
func (t *Tool) RenderResult(_ any, result runtime.Result) string {
	return summarise(result)
}

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

// RenderRejected says the call was not allowed.
func (t *Tool) RenderRejected(any) string {
	return "Rejected: " + t.serverName + " may not run " + t.remoteName
}

// RenderError shows the failure.
func (t *Tool) RenderError(_ any, err error) string {
	if err == nil {
		return "Error"
	}
	return "Error: " + clip(err.Error(), 200)
}

// RenderGrouped counts parallel calls of the tool.
func (t *Tool) RenderGrouped(inputs []any) string {
	return fmt.Sprintf("%d call%s to %s", len(inputs), plural(len(inputs)), t.UserFacingName(nil))
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
