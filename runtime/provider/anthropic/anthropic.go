// Package anthropic is the Anthropic Messages API as a provider.Provider,
// streaming through the official SDK (github.com/anthropics/anthropic-sdk-go).
//
// The package reads no environment variable: the model and the credential
// are Options. The SDK's own defaults still apply where Options leave a
// gap: without AuthToken or APIKey the SDK's credential chain runs
// (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, its profiles), and its base
// URL comes from ANTHROPIC_BASE_URL. agentcore sets Options from its
// environment (ANTHROPIC_MODEL, ANTHROPIC_AUTH_TOKEN over the key:
// docs/embedding.md). The system prompt, the tool list and the newest message carry cache_control
// breakpoints, so a conversation's prefix is served from the prompt cache;
// the tool list's order is the caller's and should be stable.
package anthropic

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"sync"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/awscreds"
)

// DefaultModel is used when Options give no model name.
const DefaultModel = "claude-sonnet-4-5"

// DefaultMaxTokens caps a response when the request does not.
const DefaultMaxTokens = 16000

// Options configure a Provider; the zero value is DefaultModel with the
// SDK's default credential chain.
type Options struct {
	// Model is the model name; empty means DefaultModel (agentcore:
	// ANTHROPIC_MODEL).
	Model string
	// AuthToken, if set, is sent as "Authorization: Bearer" (a gateway's
	// token; agentcore: ANTHROPIC_AUTH_TOKEN). It wins over any key.
	AuthToken string
	// APIKey, if set, is the key; with neither AuthToken nor APIKey the
	// SDK's credential chain finds one (ANTHROPIC_API_KEY first).
	APIKey string
	// UserAgent, if set, is sent as the User-Agent header, e.g.
	// "agentcore/1.2.0".
	UserAgent string
	// Timeouts bound each request (connect, idle stream, one-piece
	// response); the zero value takes provider's defaults.
	Timeouts provider.Timeouts
	// RequestOptions are passed to the SDK client after the ones above;
	// give a credential through AuthToken or APIKey, not here. The
	// provider sends each request once (the loop retries) through its
	// own HTTP client, which an option.WithHTTPClient here does not
	// replace.
	RequestOptions []option.RequestOption
	// AWS is where NewBedrock finds the region and credentials, and
	// AWS_BEARER_TOKEN_BEDROCK and ANTHROPIC_BEDROCK_BASE_URL (agentcore:
	// the process's environment and home); New ignores it.
	AWS awscreds.Env
}

// Provider streams responses from the Messages API.
type Provider struct {
	client anthropic.Client
	model  string
	// platform is "anthropic", or "bedrock" for Amazon Bedrock.
	platform string
	hints    provider.Hints
	http     provider.HTTPClients
}

// New returns a provider for model with the SDK's default credential
// chain; opts are passed to the SDK client after its defaults.
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
	}
	if o.UserAgent != "" {
		opts = append(opts, option.WithHeader("User-Agent", o.UserAgent))
	}
	opts = append(opts, option.WithMaxRetries(0))
	opts = append(opts, o.RequestOptions...)
	model := cmp.Or(o.Model, DefaultModel)
	return &Provider{client: anthropic.NewClient(opts...), model: model, platform: "anthropic", hints: hints,
		http: provider.NewHTTPClients("anthropic", o.Timeouts, hints)}
}

// Name returns "anthropic:<model>" ("bedrock:<model>" on Bedrock).
func (p *Provider) Name() string { return p.platform + ":" + p.model }

// warmRequest has a part of each kind a first request has.
var warmRequest = provider.Request{System: "s",
	Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("t")}}},
	Tools:    []provider.Tool{{Name: "t", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}}}

// errNotSent stops the request Preconnect makes to learn the URL.
var errNotSent = errors.New("anthropic: preconnect: not sent")

// Preconnect opens the connection of the first request ahead of it
// (provider.Preconnector). The address is the one the SDK's options give
// a request (its base URL: ANTHROPIC_BASE_URL, option.WithBaseURL), read
// from a request a middleware stops before it is sent, which also warms
// the SDK's request path; then a small body is encoded, for the same
// reason. All of it runs in the background. On Bedrock it does nothing:
// the request's URL is made as it is signed.
func (p *Provider) Preconnect() {
	if p.platform != "anthropic" {
		return
	}
	go func() {
		var target string
		stop := option.WithMiddleware(func(r *http.Request, _ option.MiddlewareNext) (*http.Response, error) {
			target = r.URL.String()
			return nil, errNotSent
		})
		if err := p.client.Post(context.Background(), "v1/messages", nil, nil, stop); errors.Is(err, errNotSent) && target != "" {
			p.http.Preconnect(target)
		}
		// The encoding of a request's parts (encoding/json's encoders
		// of its types, made on their first use) is made here too.
		_, _ = p.body(warmRequest, true)
	}()
}

var _ provider.Preconnector = (*Provider)(nil)

// Streams is true: tool_use blocks arrive one by one.
func (p *Provider) Streams() bool { return true }

// Stream sends req and yields its events: streamed, or with
// req.NoStream all at once when the whole response has come.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		if req.NoStream {
			p.oneShot(ctx, req, yield)
			return
		}
		body, err := p.body(req, true)
		if err != nil {
			yield(provider.Event{}, err)
			return
		}
		// The body replaces the SDK's encoding of the params; the SDK
		// still sets the headers, and the Bedrock adaptation rewrites
		// the body and the path as it would its own.
		var res *http.Response
		err = p.client.Post(ctx, "v1/messages", nil, &res,
			option.WithRequestBody("application/json", body), option.WithHTTPClient(p.http.Stream))
		if err != nil {
			yield(provider.Event{}, p.failure(ctx, err))
			return
		}
		dec := ssestream.NewDecoder(res)
		released := false
		defer func() {
			if !released {
				_ = dec.Close()
			}
		}()

		st := streamState{stopped: map[int]bool{}, cut: map[int]bool{}}
		for dec.Next() {
			ev := dec.Event()
			data := bytes.TrimSuffix(ev.Data, []byte("\n"))
			switch ev.Type {
			case "", "ping":
				continue
			case "error":
				yield(provider.Event{}, p.streamError(data, &st))
				return
			}
			if len(data) == 0 {
				continue
			}
			var se anthropic.MessageStreamEventUnion
			if err := json.Unmarshal(data, &se); err != nil {
				yield(provider.Event{}, p.malformed(fmt.Sprintf("the data of a %q event is not JSON", ev.Type), data, err, &st))
				return
			}
			if se.Type == "" {
				se.Type = ev.Type
			}
			if se.Type == "content_block_stop" {
				st.stop(int(se.Index))
			}
			if err := st.acc.Accumulate(se); err != nil {
				yield(provider.Event{}, p.malformed(fmt.Sprintf("a %q event does not fit the message so far", se.Type), data, err, &st))
				return
			}
			if out, ok := translate(se, &st); ok && !yield(out, nil) {
				return
			}
			if req.RawEvents && !yield(provider.Event{Type: provider.EventRaw, Raw: json.RawMessage(append([]byte(nil), data...))}, nil) {
				return
			}
			if se.Type == "message_stop" {
				if st.acc.StopReason == "" {
					yield(provider.Event{}, p.partial(&provider.APIError{Provider: p.platform, Kind: provider.ErrStream,
						Message: "the stream ended (message_stop) without a stop_reason", Hint: p.hints.Hint(provider.ErrStream)}, &st))
					return
				}
				// The message is whole: hand it on now, and let the rest
				// of the body (its end, normally) go in the background.
				released = true
				provider.Release(res.Body)
				yield(messageEvent(st.acc, st.incomplete()), nil)
				return
			}
		}
		if err := dec.Err(); err != nil {
			yield(provider.Event{}, p.partial(p.failure(ctx, err), &st))
			return
		}
		if ctx.Err() != nil {
			yield(provider.Event{}, ctx.Err())
			return
		}
		yield(provider.Event{}, p.partial(&provider.APIError{Provider: p.platform, Kind: provider.ErrStream,
			Message: "the stream ended before message_stop: the server closed the response early",
			Hint:    p.hints.Hint(provider.ErrStream)}, &st))
	}
}

// oneShot asks for the whole response in one piece and yields its events.
func (p *Provider) oneShot(ctx context.Context, req provider.Request, yield func(provider.Event, error) bool) {
	body, err := p.body(req, false)
	if err != nil {
		yield(provider.Event{}, err)
		return
	}
	var raw []byte
	err = p.client.Post(ctx, "v1/messages", nil, &raw,
		option.WithRequestBody("application/json", body), option.WithHTTPClient(p.http.OneShot))
	if err != nil {
		yield(provider.Event{}, p.failure(ctx, err))
		return
	}
	var msg anthropic.Message
	if err := json.Unmarshal(raw, &msg); err != nil {
		yield(provider.Event{}, provider.Malformed(p.platform, "the response is not a JSON message", raw, err, p.hints))
		return
	}
	if msg.StopReason == "" {
		yield(provider.Event{}, provider.Malformed(p.platform, "the response has no stop_reason", raw, nil, p.hints))
		return
	}
	out := messageEvent(msg, nil)
	for i, b := range out.Message.Content {
		var evs []provider.Event
		switch b.Type {
		case provider.TextBlock:
			evs = []provider.Event{{Type: provider.EventText, Index: i, Text: b.Text}}
		case provider.ToolUseBlock:
			evs = []provider.Event{
				{Type: provider.EventToolUseStart, Index: i, Block: provider.ToolUse(b.ID, b.Name, nil)},
				{Type: provider.EventToolUse, Index: i, Block: b},
			}
		}
		for _, ev := range evs {
			if !yield(ev, nil) {
				return
			}
		}
	}
	yield(out, nil)
}

// streamState is a response as far as it has streamed.
type streamState struct {
	acc anthropic.Message
	// stopped holds the indexes of the blocks whose content_block_stop
	// came; cut those of the tool_use blocks among them whose input was
	// not whole JSON then (the token limit cut it off).
	stopped, cut map[int]bool
}

// stop notes the content_block_stop of block i, before the SDK's
// accumulator replaces a cut-off input with "{}".
func (st *streamState) stop(i int) {
	st.stopped[i] = true
	if i < len(st.acc.Content) {
		cb := st.acc.Content[i]
		st.cut[i] = cb.Type == "tool_use" && len(cb.Input) > 0 && !json.Valid(cb.Input)
	}
}

// incomplete is the set of tool_use blocks cut off: never stopped, or
// stopped with their input not JSON.
func (st *streamState) incomplete() map[int]bool {
	out := map[int]bool{}
	for i := range st.acc.Content {
		out[i] = !st.stopped[i] || st.cut[i]
	}
	return out
}

// messageEvent is the EventMessage of a complete message; incomplete is
// as fromMessage's.
func messageEvent(m anthropic.Message, incomplete map[int]bool) provider.Event {
	return provider.Event{
		Type:       provider.EventMessage,
		Message:    fromMessage(m, incomplete),
		StopReason: provider.StopReason(m.StopReason),
		Usage: provider.Usage{
			InputTokens:              m.Usage.InputTokens,
			OutputTokens:             m.Usage.OutputTokens,
			CacheCreationInputTokens: m.Usage.CacheCreationInputTokens,
			CacheReadInputTokens:     m.Usage.CacheReadInputTokens,
		},
	}
}

// partial attaches what had streamed to a failure, when anything had.
func (p *Provider) partial(err error, st *streamState) error {
	e, ok := errors.AsType[*provider.APIError](err)
	if !ok || len(st.acc.Content) == 0 {
		return err
	}
	m := fromMessage(st.acc, st.incomplete())
	e.Partial = &m
	return err
}

// malformed is the failure of an event that makes no sense.
func (p *Provider) malformed(what string, data []byte, err error, st *streamState) error {
	return p.partial(provider.Malformed(p.platform, what, data, err, p.hints), st)
}

// streamError is the failure an error event in the stream reports: its
// type says what kind, e.g. overloaded_error (retried) or
// invalid_request_error (not).
func (p *Provider) streamError(data []byte, st *streamState) error {
	var ev struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &ev); err != nil || ev.Error.Type == "" {
		return p.malformed("an error event without an error", data, err, st)
	}
	out := &provider.APIError{Provider: p.platform,
		Message: "the API reported an error in the middle of the response: " + ev.Error.Type}
	if ev.Error.Message != "" {
		out.Message += ": " + ev.Error.Message
	}
	// The API's error types, and Bedrock's stream exceptions (sseBody
	// passes their names on as the type).
	switch ev.Error.Type {
	case "overloaded_error", "serviceUnavailableException":
		out.Kind = provider.ErrOverloaded
	case "rate_limit_error", "throttlingException":
		out.Kind = provider.ErrRateLimit
	case "api_error", "internalServerException", "modelStreamErrorException":
		out.Kind = provider.ErrServer
	case "timeout_error", "modelTimeoutException":
		out.Kind = provider.ErrTimeout
	case "authentication_error", "permission_error", "accessDeniedException":
		out.Kind = provider.ErrAuth
	case "not_found_error", "resourceNotFoundException":
		out.Kind = provider.ErrNotFound
	case "invalid_request_error", "request_too_large", "validationException":
		out.Kind = provider.ErrInvalidRequest
	default:
		out.Kind = provider.ErrStream
	}
	out.Hint = p.hints.Hint(out.Kind)
	return p.partial(out, st)
}

// hints is the advice for the Anthropic API's failures.
var hints = provider.Hints{
	Auth:       "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a gateway)",
	NotFound:   "check the model name (ANTHROPIC_MODEL or the one given) and ANTHROPIC_BASE_URL",
	Connection: "check ANTHROPIC_BASE_URL and the network",
}

// failure turns an error of a request into an APIError; the caller's
// cancellation stays ctx's error, and a missing credential keeps the
// SDK's own message, which lists the sources it tried.
func (p *Provider) failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e, ok := errors.AsType[*provider.APIError](err); ok {
		e.Provider = p.platform
		return e
	}
	if ce := provider.ConnectionError(p.platform, err, p.hints); ce != nil {
		return ce
	}
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("%s: %w", p.platform, err)
	}
	msg := apiErr.Message
	if msg == "" {
		var aws struct{ Message string } // Bedrock's errors: {"message": …}
		if json.Unmarshal([]byte(apiErr.RawJSON()), &aws) == nil && aws.Message != "" {
			msg = aws.Message
		} else {
			msg = apiErr.RawJSON()
		}
	}
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
	}
	return provider.StatusError(p.platform, apiErr.StatusCode, header, msg, p.hints, err)
}

// translate turns one SDK event into a provider event; ok is false for
// events the loop does not need.
func translate(ev anthropic.MessageStreamEventUnion, st *streamState) (provider.Event, bool) {
	acc := &st.acc
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
			return provider.Event{Type: provider.EventToolUse, Index: idx, Block: toolUse(acc.Content[idx], st.cut[idx])}, true
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

// fromMessage keeps the text and tool_use blocks of a response; a
// tool_use block in incomplete (a streamed response's blocks that broke
// off) is marked Incomplete, and so is one whose input is not JSON.
func fromMessage(m anthropic.Message, incomplete map[int]bool) provider.Message {
	out := provider.Message{Role: provider.Assistant}
	for i, cb := range m.Content {
		switch cb.Type {
		case "text":
			out.Content = append(out.Content, provider.Text(cb.Text))
		case "tool_use":
			out.Content = append(out.Content, toolUse(cb, incomplete[i]))
		}
	}
	return out
}

// toolUse is a tool_use block; its input is "{}" and it is Incomplete
// when it was cut off or its input is not JSON.
func toolUse(cb anthropic.ContentBlockUnion, cut bool) provider.Block {
	b := provider.ToolUse(cb.ID, cb.Name, inputOf(cb.Input))
	if cut || !json.Valid(b.Input) {
		b.Input, b.Incomplete = json.RawMessage(`{}`), true
	}
	return b
}

// The request body is built here with encoding/json rather than from the
// SDK's MessageNewParams: the SDK's encoder takes about a millisecond to
// warm up on its first use, which is most of a one-shot run's start-up
// beyond the process itself. The field order follows the SDK's encoding:
// max_tokens, messages, model, system, tools (input_schema, name,
// description, cache_control), stream.

// message is one turn; its content is sent even when empty.
type message struct {
	Content []block `json:"content"`
	Role    string  `json:"role"`
}

// block is a content block of any type: text, tool_use, tool_result, or
// (inside a tool_result) image.
type block struct {
	ID           string          `json:"id,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	Name         string          `json:"name,omitempty"`
	Text         string          `json:"text,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
	Content      []block         `json:"content,omitempty"`
	Source       *imageSource    `json:"source,omitempty"`
	Type         string          `json:"type"`
}

// imageSource is a base64 image.
type imageSource struct {
	Data      string `json:"data"`
	MediaType string `json:"media_type"`
	Type      string `json:"type"`
}

// cacheControl marks a prompt-cache breakpoint.
type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the cache breakpoint every marked block carries.
var ephemeral = &cacheControl{Type: "ephemeral"}

// body builds the request for req, as JSON: cache breakpoints on the
// system prompt, on the last tool definition (which caches the whole tool
// list) and on the newest message. The object is written by hand in that
// order, each part marshalled on its own, so
// that the tool schemas, the largest part, are scanned once (by
// inputSchema, once per schema and process) and not again by a Marshal
// of the whole.
func (p *Provider) body(req provider.Request, stream bool) ([]byte, error) {
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	size := 256 + len(req.System)
	schemas := make([]json.RawMessage, len(req.Tools))
	for i, t := range req.Tools {
		schema, err := inputSchema(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("anthropic: tool %s: %w", t.Name, err)
		}
		schemas[i] = schema
		size += 96 + len(schema) + len(t.Name) + len(t.Description)
	}
	var messages []message
	for i, m := range req.Messages {
		mb, err := toMessage(m, i == len(req.Messages)-1)
		if err != nil {
			return nil, err
		}
		messages = append(messages, mb)
	}
	out := make([]byte, 0, size)
	out = append(out, `{"max_tokens":`...)
	out = strconv.AppendInt(out, maxTokens, 10)
	var err error
	if len(messages) > 0 {
		out = append(out, `,"messages":`...)
		if out, err = appendJSON(out, messages); err != nil {
			return nil, err
		}
	}
	out = append(out, `,"model":`...)
	if out, err = appendJSON(out, p.model); err != nil {
		return nil, err
	}
	if req.System != "" {
		out = append(out, `,"system":`...)
		if out, err = appendJSON(out, []block{{Type: "text", Text: req.System, CacheControl: ephemeral}}); err != nil {
			return nil, err
		}
	}
	for i, t := range req.Tools {
		if i == 0 {
			out = append(out, `,"tools":[`...)
		} else {
			out = append(out, ',')
		}
		out = append(out, `{"input_schema":`...)
		out = append(out, schemas[i]...)
		out = append(out, `,"name":`...)
		if out, err = appendJSON(out, t.Name); err != nil {
			return nil, err
		}
		if t.Description != "" {
			out = append(out, `,"description":`...)
			if out, err = appendJSON(out, t.Description); err != nil {
				return nil, err
			}
		}
		if i == len(req.Tools)-1 {
			out = append(out, `,"cache_control":{"type":"ephemeral"}}]`...)
		} else {
			out = append(out, '}')
		}
	}
	out = append(out, `,"stream":`...)
	out = strconv.AppendBool(out, stream)
	return append(out, '}'), nil
}

// appendJSON appends v marshalled.
func appendJSON(out []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return out, fmt.Errorf("anthropic: encode the request: %w", err)
	}
	return append(out, data...), nil
}

// schemas holds the input schemas inputSchema has checked, compacted, by
// their text as given: the same tools go with every request of a session.
var schemas = struct {
	sync.Mutex
	m map[string]json.RawMessage
}{m: map[string]json.RawMessage{}}

// maxSchemas bounds the schemas kept: past it the map starts over.
const maxSchemas = 4096

// emptySchema is the schema of a tool that gives none.
var emptySchema = json.RawMessage(`{"type":"object"}`)

// inputSchema checks that a tool's JSON Schema is an object and passes it
// on compacted as encoding/json would (keeping its property order; <, >
// and & escaped in strings), with "type": "object" set
// when it says otherwise or nothing. An empty schema is the empty object
// schema: the API requires one.
func inputSchema(raw json.RawMessage) (json.RawMessage, error) {
	if len(raw) == 0 {
		return emptySchema, nil
	}
	schemas.Lock()
	done, ok := schemas.m[string(raw)]
	schemas.Unlock()
	if ok {
		return done, nil
	}
	var buf bytes.Buffer
	buf.Grow(len(raw))
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	done = buf.Bytes()
	if needsHTMLEscape(done) {
		// Escaped as encoding/json escapes strings, so the bytes
		// are those a Marshal of the schema would send.
		var esc bytes.Buffer
		json.HTMLEscape(&esc, done)
		done = esc.Bytes()
	}
	if done[0] != '{' || !typeIsObject(done) {
		// Not an object, or one whose type is not "object" at first
		// sight (an escaped key): decoded, and the type set.
		var top map[string]json.RawMessage
		if err := json.Unmarshal(raw, &top); err != nil {
			return nil, fmt.Errorf("input schema is not a JSON object: %w", err)
		}
		if top == nil {
			top = map[string]json.RawMessage{}
		}
		top["type"] = json.RawMessage(`"object"`)
		var err error
		if done, err = json.Marshal(top); err != nil {
			return nil, fmt.Errorf("input schema: %w", err)
		}
	}
	schemas.Lock()
	if len(schemas.m) >= maxSchemas {
		clear(schemas.m)
	}
	schemas.m[string(raw)] = done
	schemas.Unlock()
	return done, nil
}

// needsHTMLEscape reports whether b holds a byte encoding/json escapes in
// strings that json.Compact leaves: <, >, &, or the lead byte of U+2028
// and U+2029 (a false alarm only costs the escaping pass).
func needsHTMLEscape(b []byte) bool {
	for _, c := range b {
		if c == '<' || c == '>' || c == '&' || c == 0xE2 {
			return true
		}
	}
	return false
}

// typeIsObject reports whether the compact JSON object obj has the
// member "type": "object" at its top level.
func typeIsObject(obj []byte) bool {
	i := 1 // past '{'
	for i < len(obj) && obj[i] == '"' {
		keyEnd := skipString(obj, i)
		key := obj[i:keyEnd]
		i = keyEnd + 1 // past ':'
		valEnd := skipValue(obj, i)
		if string(key) == `"type"` {
			return string(obj[i:valEnd]) == `"object"`
		}
		i = valEnd
		if i < len(obj) && obj[i] == ',' {
			i++
		}
	}
	return false
}

// skipString returns the index past the string that starts at obj[i].
func skipString(obj []byte, i int) int {
	for i++; i < len(obj); i++ {
		switch obj[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(obj)
}

// skipValue returns the index past the compact JSON value at obj[i].
func skipValue(obj []byte, i int) int {
	depth := 0
	for i < len(obj) {
		switch obj[i] {
		case '"':
			i = skipString(obj, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// toMessage converts one conversation message; the newest message gets the
// cache breakpoint on its last block if that is text or a tool_result, so
// the next turn reads the whole conversation so far from the prompt cache
// (three breakpoints in all, of the API's four).
func toMessage(m provider.Message, newest bool) (message, error) {
	blocks := make([]block, 0, len(m.Content))
	for _, b := range m.Content {
		switch b.Type {
		case provider.TextBlock:
			if b.Text == "" {
				continue // the API rejects empty text blocks
			}
			blocks = append(blocks, block{Type: "text", Text: b.Text})
		case provider.ToolUseBlock:
			input := b.Input
			if len(input) == 0 || !json.Valid(input) {
				input = json.RawMessage(`{}`)
			}
			blocks = append(blocks, block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: input})
		case provider.ToolResultBlock:
			tr := block{Type: "tool_result", ToolUseID: b.ToolUseID, IsError: b.IsError}
			for _, c := range b.Content {
				switch c.Type {
				case "image":
					tr.Content = append(tr.Content, block{Type: "image",
						Source: &imageSource{Type: "base64", MediaType: c.MediaType, Data: c.Data}})
				default:
					if c.Text == "" {
						continue // the API rejects empty text blocks
					}
					tr.Content = append(tr.Content, block{Type: "text", Text: c.Text})
				}
			}
			blocks = append(blocks, tr)
		default:
			return message{}, fmt.Errorf("anthropic: unknown content block type %q", b.Type)
		}
	}
	if last := len(blocks) - 1; newest && last >= 0 {
		switch blocks[last].Type {
		case "text", "tool_result":
			blocks[last].CacheControl = ephemeral
		}
	}
	role := "user"
	if m.Role == provider.Assistant {
		role = "assistant"
	}
	return message{Content: blocks, Role: role}, nil
}
