// Package anthropic is the Anthropic Messages API as a provider.Provider,
// streaming through the official SDK (github.com/anthropics/anthropic-sdk-go).
//
// The SDK's own environment handling is kept: the key comes from
// ANTHROPIC_API_KEY (or the SDK's other credential sources) and the base
// URL from ANTHROPIC_BASE_URL. On top of it, ANTHROPIC_AUTH_TOKEN (a
// gateway's token) is sent as "Authorization: Bearer" in place of the key
// when set, and ANTHROPIC_MODEL names the model when none is given. The
// system prompt, the tool list and the newest message carry cache_control
// breakpoints, so a conversation's prefix is served from the prompt cache;
// the tool list's order is the caller's and should be stable.
package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentcore/agentcore/runtime/provider"
)

// DefaultModel is used when no model name is given and ANTHROPIC_MODEL is
// unset.
const DefaultModel = "claude-sonnet-4-5"

// DefaultMaxTokens caps a response when the request does not.
const DefaultMaxTokens = 16000

// Options configure a Provider; the zero value takes everything from the
// environment.
type Options struct {
	// Model is the model name; empty means ANTHROPIC_MODEL, else
	// DefaultModel.
	Model string
	// AuthToken, if set, is sent as "Authorization: Bearer" (a gateway's
	// token); empty means ANTHROPIC_AUTH_TOKEN. It wins over any key.
	AuthToken string
	// APIKey, if set, is used instead of ANTHROPIC_API_KEY.
	APIKey string
	// UserAgent, if set, is sent as the User-Agent header, e.g.
	// "agentcore/1.2.0".
	UserAgent string
	// RequestOptions are passed to the SDK client after the ones above;
	// give a credential through AuthToken or APIKey, not here.
	RequestOptions []option.RequestOption
}

// Provider streams responses from the Messages API.
type Provider struct {
	client anthropic.Client
	model  string
	// platform is "anthropic", or "bedrock" for Amazon Bedrock.
	platform string
	hints    provider.Hints
}

// New returns a provider for model with the credentials of the
// environment; opts are passed to the SDK client after its defaults.
func New(model string, opts ...option.RequestOption) *Provider {
	return NewWithOptions(Options{Model: model, RequestOptions: opts})
}

// NewWithOptions returns a provider configured by o.
func NewWithOptions(o Options) *Provider {
	var opts []option.RequestOption
	switch {
	case o.AuthToken != "":
		opts = append(opts, option.WithAuthToken(o.AuthToken))
	case o.APIKey != "":
		opts = append(opts, option.WithAPIKey(o.APIKey))
	case os.Getenv("ANTHROPIC_AUTH_TOKEN") != "":
		// Passing the credential keeps the SDK from using (and warning
		// about) ANTHROPIC_API_KEY as well.
		opts = append(opts, option.WithAuthToken(os.Getenv("ANTHROPIC_AUTH_TOKEN")))
	}
	if o.UserAgent != "" {
		opts = append(opts, option.WithHeader("User-Agent", o.UserAgent))
	}
	opts = append(opts, o.RequestOptions...)
	model := cmp.Or(o.Model, os.Getenv("ANTHROPIC_MODEL"), DefaultModel)
	return &Provider{client: anthropic.NewClient(opts...), model: model, platform: "anthropic", hints: hints}
}

// Name returns "anthropic:<model>" ("bedrock:<model>" on Bedrock).
func (p *Provider) Name() string { return p.platform + ":" + p.model }

// Streams is true: tool_use blocks arrive one by one.
func (p *Provider) Streams() bool { return true }

// Stream sends req with streaming on and yields its events.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		params, err := p.params(req)
		if err != nil {
			yield(provider.Event{}, err)
			return
		}
		stream := p.client.Messages.NewStreaming(ctx, params)
		defer stream.Close()

		var acc anthropic.Message
		for stream.Next() {
			ev := stream.Current()
			if err := acc.Accumulate(ev); err != nil {
				yield(provider.Event{}, fmt.Errorf("anthropic: malformed stream: %w", err))
				return
			}
			out, ok := translate(ev, &acc)
			if !ok {
				continue
			}
			if !yield(out, nil) {
				return
			}
		}
		if err := stream.Err(); err != nil {
			if ctx.Err() != nil {
				yield(provider.Event{}, ctx.Err())
				return
			}
			yield(provider.Event{}, p.failure(err))
			return
		}
		if acc.StopReason == "" {
			yield(provider.Event{}, &provider.APIError{Provider: p.platform, Kind: provider.ErrStream,
				Message: "the stream ended before message_stop", Hint: p.hints.Hint(provider.ErrStream)})
			return
		}
		yield(provider.Event{
			Type:       provider.EventMessage,
			Message:    fromMessage(acc),
			StopReason: provider.StopReason(acc.StopReason),
			Usage: provider.Usage{
				InputTokens:              acc.Usage.InputTokens,
				OutputTokens:             acc.Usage.OutputTokens,
				CacheCreationInputTokens: acc.Usage.CacheCreationInputTokens,
				CacheReadInputTokens:     acc.Usage.CacheReadInputTokens,
			},
		}, nil)
	}
}

// hints is the advice for the Anthropic API's failures.
var hints = provider.Hints{
	Auth:       "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway)",
	NotFound:   "check the model name (ANTHROPIC_MODEL or the one given) and ANTHROPIC_BASE_URL",
	Connection: "check ANTHROPIC_BASE_URL and the network",
}

// failure turns an SDK error into an APIError; a missing credential keeps
// the SDK's own message, which lists the sources it tried.
func (p *Provider) failure(err error) error {
	if ce := provider.ConnectionError(p.platform, err, p.hints); ce != nil {
		return ce
	}
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("%s: %w", p.platform, err)
	}
	out := &provider.APIError{Provider: p.platform, Message: apiErr.Message, Err: err}
	if out.Message == "" {
		var aws struct{ Message string } // Bedrock's errors: {"message": …}
		if json.Unmarshal([]byte(apiErr.RawJSON()), &aws) == nil && aws.Message != "" {
			out.Message = aws.Message
		} else {
			out.Message = apiErr.RawJSON()
		}
	}
	if apiErr.StatusCode >= 400 {
		out.Status, out.Kind = apiErr.StatusCode, provider.KindOf(apiErr.StatusCode)
	} else {
		// An error event in the middle of a stream: its type says what.
		switch apiErr.Type() {
		case "overloaded_error":
			out.Kind = provider.ErrOverloaded
		case "rate_limit_error":
			out.Kind = provider.ErrRateLimit
		case "api_error", "timeout_error":
			out.Kind = provider.ErrServer
		case "authentication_error", "permission_error":
			out.Kind = provider.ErrAuth
		default:
			out.Kind = provider.ErrStream
		}
	}
	out.Hint = p.hints.Hint(out.Kind)
	return out
}

// translate turns one SDK event into a provider event; ok is false for
// events the loop does not need.
func translate(ev anthropic.MessageStreamEventUnion, acc *anthropic.Message) (provider.Event, bool) {
	idx := int(ev.Index)
	switch ev.Type {
	case "content_block_start":
		if ev.ContentBlock.Type == "tool_use" {
			return provider.Event{Type: provider.EventToolUseStart, Index: idx,
				Block: provider.ToolUse(ev.ContentBlock.ID, ev.ContentBlock.Name, nil)}, true
		}
	case "content_block_delta":
		if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" {
			return provider.Event{Type: provider.EventText, Index: idx, Text: ev.Delta.Text}, true
		}
	case "content_block_stop":
		if idx < len(acc.Content) && acc.Content[idx].Type == "tool_use" {
			cb := acc.Content[idx]
			return provider.Event{Type: provider.EventToolUse, Index: idx,
				Block: provider.ToolUse(cb.ID, cb.Name, inputOf(cb.Input))}, true
		}
	}
	return provider.Event{}, false
}

// inputOf returns a tool_use input, "{}" when the model sent none.
func inputOf(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	return append(json.RawMessage(nil), raw...)
}

// fromMessage keeps the text and tool_use blocks of a response.
func fromMessage(m anthropic.Message) provider.Message {
	out := provider.Message{Role: provider.Assistant}
	for _, cb := range m.Content {
		switch cb.Type {
		case "text":
			out.Content = append(out.Content, provider.Text(cb.Text))
		case "tool_use":
			out.Content = append(out.Content, provider.ToolUse(cb.ID, cb.Name, inputOf(cb.Input)))
		}
	}
	return out
}

// params builds the SDK request: cache breakpoints on the system prompt and
// on the last tool definition (which caches the whole tool list).
func (p *Provider) params(req provider.Request) (anthropic.MessageNewParams, error) {
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(p.model),
		MaxTokens: maxTokens,
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{
			Text:         req.System,
			CacheControl: anthropic.NewCacheControlEphemeralParam(),
		}}
	}
	for i, t := range req.Tools {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return params, fmt.Errorf("anthropic: tool %s: %w", t.Name, err)
		}
		tp := &anthropic.ToolParam{Name: t.Name, InputSchema: schema}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		if i == len(req.Tools)-1 {
			tp.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: tp})
	}
	for i, m := range req.Messages {
		mp, err := toParam(m, i == len(req.Messages)-1)
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, mp)
	}
	return params, nil
}

// cacheLast puts a cache breakpoint on the last block of the newest
// message, so the next turn reads the whole conversation so far from the
// prompt cache (three breakpoints in all, of the API's four).
func cacheLast(blocks []anthropic.ContentBlockParamUnion) {
	if len(blocks) == 0 {
		return
	}
	b := &blocks[len(blocks)-1]
	switch {
	case b.OfText != nil:
		b.OfText.CacheControl = anthropic.NewCacheControlEphemeralParam()
	case b.OfToolResult != nil:
		b.OfToolResult.CacheControl = anthropic.NewCacheControlEphemeralParam()
	}
}

// inputSchema splits a JSON Schema object into the SDK's typed fields.
func inputSchema(raw json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	var s anthropic.ToolInputSchemaParam
	if len(raw) == 0 {
		return s, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return s, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	if props, ok := m["properties"]; ok {
		s.Properties = props
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				s.Required = append(s.Required, name)
			}
		}
	}
	delete(m, "properties")
	delete(m, "required")
	delete(m, "type")
	if len(m) > 0 {
		s.ExtraFields = m
	}
	return s, nil
}

// toParam converts one conversation message to the SDK's form; the newest
// message gets the cache breakpoint.
func toParam(m provider.Message, newest bool) (anthropic.MessageParam, error) {
	blocks := make([]anthropic.ContentBlockParamUnion, 0, len(m.Content))
	for _, b := range m.Content {
		switch b.Type {
		case provider.TextBlock:
			if b.Text == "" {
				continue // the API rejects empty text blocks
			}
			blocks = append(blocks, anthropic.NewTextBlock(b.Text))
		case provider.ToolUseBlock:
			input := b.Input
			if len(input) == 0 || !json.Valid(input) {
				input = json.RawMessage(`{}`)
			}
			blocks = append(blocks, anthropic.NewToolUseBlock(b.ID, input, b.Name))
		case provider.ToolResultBlock:
			tr := anthropic.ToolResultBlockParam{ToolUseID: b.ToolUseID}
			if b.IsError {
				tr.IsError = anthropic.Bool(true)
			}
			for _, c := range b.Content {
				switch c.Type {
				case "image":
					tr.Content = append(tr.Content, anthropic.ToolResultBlockParamContentUnion{
						OfImage: anthropic.NewImageBlockBase64(c.MediaType, c.Data).OfImage})
				default:
					if c.Text == "" {
						continue // the API rejects empty text blocks
					}
					tr.Content = append(tr.Content, anthropic.ToolResultBlockParamContentUnion{
						OfText: &anthropic.TextBlockParam{Text: c.Text}})
				}
			}
			blocks = append(blocks, anthropic.ContentBlockParamUnion{OfToolResult: &tr})
		default:
			return anthropic.MessageParam{}, fmt.Errorf("anthropic: unknown content block type %q", b.Type)
		}
	}
	if newest {
		cacheLast(blocks)
	}
	if m.Role == provider.Assistant {
		return anthropic.NewAssistantMessage(blocks...), nil
	}
	return anthropic.NewUserMessage(blocks...), nil
}
