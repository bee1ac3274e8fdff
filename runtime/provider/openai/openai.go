// Package openai is the OpenAI Chat Completions API as a provider.Provider:
// POST /chat/completions over net/http, the stream's server-sent events
// read as they come.
//
// Any server that speaks the API works: OpenAI itself, and local servers
// such as vLLM, Ollama or llama.cpp's llama-server through
// Options.BaseURL (e.g. http://localhost:8000/v1). The key is
// Options.APIKey; a local server needs none, so with a base URL and no key
// a placeholder is sent. The package reads no environment variable
// (agentcore sets both from OPENAI_API_KEY and OPENAI_BASE_URL).
//
// The mapping: the system prompt is a system message, tool definitions are
// function tools, tool_use blocks are the assistant's tool_calls, and each
// tool_result is a "tool" message (images from results follow in a user
// message: tool messages carry only text). A streamed tool call is handed
// on as a finished tool_use the moment the next call starts or the
// response finishes, so the first call runs while later ones stream.
//
// The package speaks the API itself rather than through the official SDK
// (github.com/openai/openai-go): the SDK registers a decoder for every type
// of the API in its initialisers, which kept about 7 MB of code in the
// binary for the one endpoint used here (issue 36).
package openai

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/agentcore/agentcore/runtime/provider"
)

// PlaceholderKey is the key sent to a server at Options.BaseURL when
// Options.APIKey is empty: local servers ignore it, and some proxies
// refuse a request without one.
const PlaceholderKey = "agentcore-no-key"

// DefaultBaseURL is OpenAI's API, the server when Options.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// maxErrorBody bounds what is read of an error response.
const maxErrorBody = 1 << 20

// Options configure a Provider.
type Options struct {
	// Model is the model name as the server knows it, e.g. "gpt-4.1" or
	// "qwen3:8b". Required.
	Model string
	// APIKey is the key (agentcore: OPENAI_API_KEY), sent as a bearer
	// token.
	APIKey string
	// BaseURL is the server (agentcore: OPENAI_BASE_URL; empty:
	// DefaultBaseURL), e.g. "http://localhost:11434/v1" for Ollama. Requests
	// go to BaseURL + "/chat/completions".
	BaseURL string
	// UserAgent, if set, is sent as the User-Agent header, e.g.
	// "agentcore/1.2.0".
	UserAgent string
	// Header holds more headers to send with every request (e.g. a
	// gateway's), after the ones above.
	Header http.Header
	// Timeouts bound each request (connect, idle stream, one-piece
	// response); the zero value takes provider's defaults. Each request
	// is sent once: the loop retries.
	Timeouts provider.Timeouts
}

// Provider streams responses from the Chat Completions API.
type Provider struct {
	model    string
	base     string
	endpoint string
	header   http.Header
	http     provider.HTTPClients
}

// New returns a provider for o.Model. It fails when there is neither a
// key nor a base URL, or the base URL is not an http(s) URL, saying what
// to set.
func New(o Options) (*Provider, error) {
	if o.Model == "" {
		return nil, errors.New("openai: no model name: set Options.Model to a model the server serves")
	}
	key, base := o.APIKey, o.BaseURL
	if key == "" && base == "" {
		return nil, errors.New("openai: no API key: set OPENAI_API_KEY, or set OPENAI_BASE_URL to a local " +
			"OpenAI-compatible server (vLLM, Ollama, llama.cpp), which needs no key (Options.APIKey, Options.BaseURL)")
	}
	if key == "" {
		key = PlaceholderKey
	}
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai: the base URL %q is not an http or https URL: set OPENAI_BASE_URL "+
			"to the server's API root, e.g. http://localhost:11434/v1", base)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("Authorization", "Bearer "+key)
	if o.UserAgent != "" {
		h.Set("User-Agent", o.UserAgent)
	}
	for k, vs := range o.Header {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	p := &Provider{model: o.Model, base: base, header: h,
		endpoint: strings.TrimRight(base, "/") + "/chat/completions"}
	p.http = provider.NewHTTPClients("openai", o.Timeouts, p.hints())
	return p, nil
}

// Name returns "openai:<model>".
func (p *Provider) Name() string { return "openai:" + p.model }

// Streams is true: tool calls are handed on one by one.
func (p *Provider) Streams() bool { return true }

// post sends body and returns the response when its status is a success;
// an error status is returned as a *provider.APIError with the API's
// message.
func (p *Provider) post(ctx context.Context, client *http.Client, body chatRequest) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openai: encoding the request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	req.Header = p.header.Clone()
	res, err := client.Do(req)
	if err != nil {
		return nil, p.failure(ctx, err)
	}
	if res.StatusCode < 300 {
		return res, nil
	}
	defer func() { _ = res.Body.Close() }()
	msg, err := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	if err != nil && len(msg) == 0 {
		return nil, p.failure(ctx, err)
	}
	return nil, provider.StatusError("openai", res.StatusCode, res.Header, errorMessage(msg), p.hints(), nil)
}

// Stream sends req and yields its events: streamed, or with
// req.NoStream all at once when the whole response has come.
func (p *Provider) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	return func(yield func(provider.Event, error) bool) {
		body, err := p.request(req)
		if err != nil {
			yield(provider.Event{}, err)
			return
		}
		if req.NoStream {
			p.oneShot(ctx, body, yield)
			return
		}
		res, err := p.post(ctx, p.http.Stream, body)
		if err != nil {
			yield(provider.Event{}, err)
			return
		}
		released := false
		defer func() {
			if !released {
				_ = res.Body.Close()
			}
		}()
		// done hands the message on as soon as it is whole, letting the
		// rest of the body go in the background.
		done := func(st *streamState) {
			released = true
			provider.Release(res.Body)
			yield(st.message(), nil)
		}

		st := streamState{text: -1}
		events := newSSEReader(res.Body)
		for {
			data, err := events.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				yield(provider.Event{}, p.partial(p.failure(ctx, err), &st))
				return
			}
			data = bytes.TrimSpace(data)
			if len(data) == 0 {
				continue
			}
			if bytes.HasPrefix(data, []byte("[DONE]")) {
				if st.finish == "" {
					break
				}
				done(&st)
				return
			}
			var c chunk
			if err := json.Unmarshal(data, &c); err != nil {
				yield(provider.Event{}, p.partial(provider.Malformed("openai", "a chunk's data is not JSON", data, err, p.hints()), &st))
				return
			}
			if hasError(data) {
				yield(provider.Event{}, p.partial(p.streamError(data), &st))
				return
			}
			evs, err := st.chunk(c)
			if err != nil {
				yield(provider.Event{}, p.partial(provider.Malformed("openai", err.Error(), data, nil, p.hints()), &st))
				return
			}
			for _, ev := range evs {
				if !yield(ev, nil) {
					return
				}
			}
			// The usage chunk after the finish_reason is the last one
			// (stream_options.include_usage).
			if st.finish != "" && len(c.Choices) == 0 && c.Usage != nil {
				done(&st)
				return
			}
		}
		if ctx.Err() != nil {
			yield(provider.Event{}, ctx.Err())
			return
		}
		if st.finish == "" {
			yield(provider.Event{}, p.partial(&provider.APIError{Provider: "openai", Kind: provider.ErrStream,
				Message: "the stream ended before a finish_reason: the server closed the response early, " +
					"or does not stream (it must support \"stream\": true)", Hint: p.hints().Hint(provider.ErrStream)}, &st))
			return
		}
		done(&st)
	}
}

// oneShot asks for the whole response in one piece and yields its events.
func (p *Provider) oneShot(ctx context.Context, body chatRequest, yield func(provider.Event, error) bool) {
	res, err := p.post(ctx, p.http.OneShot, body)
	if err != nil {
		yield(provider.Event{}, err)
		return
	}
	raw, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		yield(provider.Event{}, p.failure(ctx, err))
		return
	}
	var cc completion
	if err := json.Unmarshal(raw, &cc); err != nil {
		yield(provider.Event{}, provider.Malformed("openai", "the response is not a JSON chat completion", raw, err, p.hints()))
		return
	}
	if len(cc.Choices) == 0 || cc.Choices[0].FinishReason == "" {
		yield(provider.Event{}, provider.Malformed("openai", "the response has no choice with a finish_reason", raw, nil, p.hints()))
		return
	}
	// The message, replayed as the chunks of a stream would carry it.
	ch := cc.Choices[0]
	st := streamState{text: -1}
	var evs []provider.Event
	if ch.Message.Content != "" || ch.Message.Refusal != "" {
		e, _ := st.chunk(oneChunk(delta{Content: ch.Message.Content, Refusal: ch.Message.Refusal}, ""))
		evs = append(evs, e...)
	}
	for i, tc := range ch.Message.ToolCalls {
		e, err := st.chunk(oneChunk(delta{ToolCalls: []toolCallDelta{{Index: int64(i), ID: tc.ID, Function: tc.Function}}}, ""))
		if err != nil {
			yield(provider.Event{}, provider.Malformed("openai", err.Error(), raw, nil, p.hints()))
			return
		}
		evs = append(evs, e...)
	}
	e, _ := st.chunk(oneChunk(delta{}, ch.FinishReason))
	evs = append(evs, e...)
	st.usage = usageOf(cc.Usage)
	for _, ev := range evs {
		if !yield(ev, nil) {
			return
		}
	}
	yield(st.message(), nil)
}

// hasError reports whether a chunk is an error: {"error": {...}}.
func hasError(data []byte) bool {
	if !bytes.Contains(data, []byte(`"error"`)) {
		return false
	}
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	return json.Unmarshal(data, &probe) == nil && len(probe.Error) > 0 && string(probe.Error) != "null"
}

// oneChunk is a chunk whose only choice has delta and finish.
func oneChunk(d delta, finish string) chunk {
	return chunk{Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
}

// hints is the advice for this provider's failures.
func (p *Provider) hints() provider.Hints {
	return provider.Hints{
		Auth:       "check OPENAI_API_KEY (a local server needs none: unset it and set OPENAI_BASE_URL)",
		NotFound:   fmt.Sprintf("check the model name %q and the base URL %s (most servers want it to end in /v1)", p.model, p.base),
		Connection: fmt.Sprintf("the base URL is %s (OPENAI_BASE_URL)", p.base),
	}
}

// failure turns an error of a request into an APIError; the caller's
// cancellation stays ctx's error.
func (p *Provider) failure(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if e, ok := errors.AsType[*provider.APIError](err); ok {
		return e
	}
	if ce := provider.ConnectionError("openai", err, p.hints()); ce != nil {
		return ce
	}
	return &provider.APIError{Provider: "openai", Kind: provider.ErrStream, Message: err.Error(),
		Hint: p.hints().Hint(provider.ErrStream), Err: err}
}

// streamError is the failure an error chunk reports ({"error": {...}}):
// its type or code says what kind, if it is one the API documents.
func (p *Provider) streamError(data []byte) error {
	var ev struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &ev)
	kind := provider.ErrStream
	what := ev.Error.Type
	if c, ok := ev.Error.Code.(string); ok && c != "" {
		what = c
	}
	switch what {
	case "server_error", "internal_error":
		kind = provider.ErrServer
	case "rate_limit_exceeded", "rate_limit_error":
		kind = provider.ErrRateLimit
	case "overloaded_error", "server_overloaded":
		kind = provider.ErrOverloaded
	case "invalid_request_error", "context_length_exceeded":
		kind = provider.ErrInvalidRequest
	}
	msg := "the server reported an error in the middle of the response"
	if what != "" {
		msg += ": " + what
	}
	if ev.Error.Message != "" {
		msg += ": " + ev.Error.Message
	} else {
		msg += ": " + provider.Quote(data, 200)
	}
	return &provider.APIError{Provider: "openai", Kind: kind, Message: msg, Hint: p.hints().Hint(kind)}
}

// partial attaches what had streamed to a failure, when anything had.
func (p *Provider) partial(err error, st *streamState) error {
	e, ok := errors.AsType[*provider.APIError](err)
	if !ok || len(st.blocks) == 0 {
		return err
	}
	blocks := append([]provider.Block(nil), st.blocks...)
	for _, c := range st.calls {
		if !c.closed {
			b := &blocks[c.block]
			b.Input, b.Incomplete = json.RawMessage(`{}`), true
		}
	}
	e.Partial = &provider.Message{Role: provider.Assistant, Content: blocks}
	return err
}

// streamState accumulates one response from its chunks.
type streamState struct {
	blocks []provider.Block
	text   int // index in blocks of the text block being streamed, -1 none
	calls  []*streamedCall
	finish string
	usage  provider.Usage
}

// streamedCall is one streamed tool call.
type streamedCall struct {
	index  int64 // the API's tool call index
	block  int   // its index in blocks
	args   strings.Builder
	closed bool
}

// chunk applies one chunk and returns the events it completes.
func (s *streamState) chunk(c chunk) ([]provider.Event, error) {
	if c.Usage != nil {
		s.usage = usageOf(*c.Usage)
	}
	var out []provider.Event
	for _, ch := range c.Choices {
		if ch.Index != 0 {
			continue // only one choice is asked for
		}
		d := ch.Delta
		for _, t := range []string{d.Content, d.Refusal} {
			if t == "" {
				continue
			}
			if s.text < 0 {
				s.text = len(s.blocks)
				s.blocks = append(s.blocks, provider.Text(""))
			}
			s.blocks[s.text].Text += t
			out = append(out, provider.Event{Type: provider.EventText, Index: s.text, Text: t})
		}
		for _, tc := range d.ToolCalls {
			cur := s.call(tc.Index)
			if cur == nil {
				// A new call: the one before it is complete.
				if ev, ok := s.closeOpen(); ok {
					out = append(out, ev)
				}
				id := tc.ID
				if id == "" {
					id = newCallID()
				}
				cur = &streamedCall{index: tc.Index, block: len(s.blocks)}
				s.calls = append(s.calls, cur)
				s.blocks = append(s.blocks, provider.ToolUse(id, tc.Function.Name, nil))
				s.text = -1
				out = append(out, provider.Event{Type: provider.EventToolUseStart, Index: cur.block, Block: s.blocks[cur.block]})
			} else if cur.closed {
				return nil, fmt.Errorf("malformed stream: tool call %d continued after tool call %d began", tc.Index, s.calls[len(s.calls)-1].index)
			}
			b := &s.blocks[cur.block]
			if b.Name == "" {
				b.Name = tc.Function.Name
			}
			cur.args.WriteString(tc.Function.Arguments)
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
			if ev, ok := s.closeOpen(); ok {
				out = append(out, ev)
			}
		}
	}
	return out, nil
}

func (s *streamState) call(index int64) *streamedCall {
	for _, c := range s.calls {
		if c.index == index {
			return c
		}
	}
	return nil
}

// closeOpen finishes the call whose arguments were streaming, if any.
func (s *streamState) closeOpen() (provider.Event, bool) {
	if len(s.calls) == 0 {
		return provider.Event{}, false
	}
	c := s.calls[len(s.calls)-1]
	if c.closed {
		return provider.Event{}, false
	}
	c.closed = true
	b := &s.blocks[c.block]
	b.Input = inputOf(c.args.String())
	if s.finish == "length" && !json.Valid([]byte(c.args.String())) {
		// The token limit cut the arguments off.
		b.Input, b.Incomplete = json.RawMessage(`{}`), true
	}
	return provider.Event{Type: provider.EventToolUse, Index: c.block, Block: *b}, true
}

// message is the final event: the whole message, why it stopped, usage.
func (s *streamState) message() provider.Event {
	msg := provider.Message{Role: provider.Assistant, Content: s.blocks}
	stop := provider.StopReason(s.finish)
	switch s.finish {
	case "stop":
		stop = provider.StopEndTurn
	case "tool_calls", "function_call":
		stop = provider.StopToolUse
	case "length":
		stop = provider.StopMaxTokens
	}
	if len(msg.ToolUses()) > 0 && stop != provider.StopMaxTokens {
		stop = provider.StopToolUse // some servers say "stop" with tool calls
	}
	return provider.Event{Type: provider.EventMessage, Message: msg, StopReason: stop, Usage: s.usage}
}

// usageOf maps the API's counts: prompt tokens include the cached ones,
// which provider.Usage counts apart.
func usageOf(u usage) provider.Usage {
	cached := u.PromptTokensDetails.CachedTokens
	written := u.PromptTokensDetails.CacheWriteTokens
	return provider.Usage{
		InputTokens:              max(0, u.PromptTokens-cached-written),
		OutputTokens:             u.CompletionTokens,
		CacheReadInputTokens:     cached,
		CacheCreationInputTokens: written,
	}
}

// inputOf returns a tool call's arguments as a tool_use input: "{}" when
// the model sent none, and arguments that are not JSON as a JSON string, so
// the call fails with an input error the model can read and the history
// still encodes (arguments go back to the API as they came).
func inputOf(args string) json.RawMessage {
	if strings.TrimSpace(args) == "" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	quoted, _ := json.Marshal(args)
	return quoted
}

// argumentsOf is inputOf's inverse: the arguments string to send back.
func argumentsOf(input json.RawMessage) string {
	if len(input) == 0 || !json.Valid(input) {
		return "{}"
	}
	var s string
	if input[0] == '"' && json.Unmarshal(input, &s) == nil {
		return s
	}
	return string(input)
}

// newCallID names a tool call the server sent without an id.
func newCallID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}

var _ provider.Provider = (*Provider)(nil)
