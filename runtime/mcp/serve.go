package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcore/agentcore/runtime"
)

// Runner runs one call of tool with the raw input the MCP client sent and
// returns its result; it never fails — a refused or failed call is an
// is_error result. progress, never nil, forwards a progress value to the
// client. agentcore mcp serve passes the orchestrator's per-call pipeline
// (validation, permissions, execution); DirectRunner is the bare version.
type Runner func(ctx context.Context, tool runtime.Tool, input json.RawMessage, progress func(any)) runtime.Result

// ServeOptions describe the server to MCP clients.
type ServeOptions struct {
	// Name and Version identify the server (default "agentcore", "dev").
	Name, Version string
	// Instructions are sent to clients at initialization.
	Instructions string
}

// NewServer builds an MCP server exposing every enabled tool with its JSON
// schema and its read-only/destructive annotations, each call run by run.
// A tool whose schema is not a JSON object schema is an error.
func NewServer(tools []runtime.Tool, run Runner, opts ServeOptions) (*sdk.Server, error) {
	if run == nil {
		return nil, errors.New("mcp.NewServer: run is nil; pass the call pipeline (or DirectRunner)")
	}
	if opts.Name == "" {
		opts.Name = "agentcore"
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: opts.Name, Version: opts.Version}, &sdk.ServerOptions{
		Instructions: opts.Instructions,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	var errs []error
	for _, t := range tools {
		if !t.IsEnabled() {
			continue
		}
		def, err := serverTool(t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		srv.AddTool(def, toolHandler(t, run))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return srv, nil
}

// Serve runs an MCP server for tools over transport (for agentcore mcp
// serve, &sdk.StdioTransport{}) until the client disconnects or ctx ends.
func Serve(ctx context.Context, tools []runtime.Tool, run Runner, transport sdk.Transport, opts ServeOptions) error {
	srv, err := NewServer(tools, run, opts)
	if err != nil {
		return err
	}
	return srv.Run(ctx, transport)
}

// serverTool is the MCP definition of t.
func serverTool(t runtime.Tool) (*sdk.Tool, error) {
	schema := t.InputSchema()
	var obj map[string]any
	if err := json.Unmarshal(schema, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("tool %s: its input schema is not a JSON object; fix the tool's schema", t.Name())
	}
	if obj["type"] != "object" {
		return nil, fmt.Errorf(`tool %s: its input schema must have "type": "object" (got %v)`, t.Name(), obj["type"])
	}
	tr := t.Traits()
	ann := &sdk.ToolAnnotations{ReadOnlyHint: tr.ReadOnly.Value && !tr.ReadOnly.InputDependent}
	if !ann.ReadOnlyHint {
		// MCP's default for destructiveHint is true; say false only when the
		// tool is known never to destroy anything.
		d := tr.Destructive.Value || tr.Destructive.InputDependent
		ann.DestructiveHint = &d
	}
	// openWorldHint is true unless the tool says it stays on this machine.
	open := !tr.LocalOnly
	ann.OpenWorldHint = &open
	if n := safeString(func() string { return t.UserFacingName(nil) }); n != "" && n != t.Name() {
		ann.Title = n
	}
	return &sdk.Tool{
		Name:        t.Name(),
		Description: t.Description(),
		InputSchema: schema,
		Annotations: ann,
	}, nil
}

func toolHandler(t runtime.Tool, run Runner) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		raw := req.Params.Arguments
		if len(raw) == 0 {
			raw = json.RawMessage(`{}`)
		}
		progress := func(any) {}
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			var n atomic.Int64
			var decoded any
			safeString(func() string { decoded, _ = t.Decode(raw); return "" })
			progress = func(p any) {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: tok,
					Progress:      float64(n.Add(1)),
					Message:       safeString(func() string { return t.RenderProgress(decoded, p) }),
				})
			}
		}
		call := &callState{session: req.Session, answers: req.Params.InputResponses}
		res := run(context.WithValue(ctx, callStateKey{}, call), t, raw, progress)
		if questions := call.questions(); len(questions) > 0 {
			// The call asked its client something and stopped before
			// doing anything: the client answers and repeats the call.
			return &sdk.CallToolResult{InputRequests: questions, RequestState: req.Params.RequestState}, nil
		}
		return toCallToolResult(res), nil
	}
}

// safeString calls f, turning a panic (a tool method that cannot handle
// a nil or foreign input) into "".
func safeString(f func() string) string {
	s, _ := runtime.Guard("tool method", f)
	return s
}

// toCallToolResult maps runtime blocks to MCP content.
func toCallToolResult(res runtime.Result) *sdk.CallToolResult {
	out := &sdk.CallToolResult{IsError: res.IsError, Content: []sdk.Content{}}
	for _, b := range res.Content {
		if b.Type == "image" {
			if data, err := base64.StdEncoding.DecodeString(b.Data); err == nil {
				out.Content = append(out.Content, &sdk.ImageContent{Data: data, MIMEType: b.MediaType})
				continue
			}
			out.Content = append(out.Content, &sdk.TextContent{Text: "[image " + b.MediaType + " could not be decoded]"})
			continue
		}
		out.Content = append(out.Content, &sdk.TextContent{Text: b.Text})
	}
	return out
}

// DirectRunner runs calls with no permission pipeline: Decode, then
// ValidateInput, then Call, against a private copy of tc per call; each
// call's context modifier is applied to tc afterwards, one at a time. For
// tests and embedders that check permissions elsewhere.
func DirectRunner(tc *runtime.ToolContext) Runner {
	var mu sync.Mutex
	var ids atomic.Int64
	return func(ctx context.Context, t runtime.Tool, raw json.RawMessage, progress func(any)) runtime.Result {
		// apply runs the call's modifiers on tc under the lock, which a
		// panicking modifier releases too.
		apply := func(mods ...runtime.ContextModifier) {
			mu.Lock()
			defer mu.Unlock()
			for _, m := range mods {
				if m != nil {
					m(tc)
				}
			}
		}
		run := func() runtime.Result {
			input, err := t.Decode(raw)
			if err != nil {
				return runtime.ErrorResult(fmt.Sprintf("<tool_use_error>InputValidationError: %s: %v</tool_use_error>", t.Name(), err))
			}
			mu.Lock()
			callTC := tc.Clone()
			mu.Unlock()
			ctx := runtime.WithToolContext(ctx, callTC)
			if err := t.ValidateInput(ctx, input, callTC); err != nil {
				return runtime.ErrorResult(fmt.Sprintf("<tool_use_error>%v</tool_use_error>", err))
			}
			call := runtime.NewCall(fmt.Sprintf("mcp-%d", ids.Add(1)), callTC, progress)
			res, err := t.Call(ctx, input, call)
			if err != nil {
				return runtime.ErrorResult(err.Error())
			}
			apply(call.Modifier(), res.Modifier)
			res.Modifier = nil
			return res
		}
		res, err := runtime.Guard("Call", run)
		var crash *runtime.Panic
		if errors.As(err, &crash) {
			return runtime.ErrorResult(fmt.Sprintf("%s failed: internal error: %v", t.Name(), crash.Value))
		}
		return res
	}
}
