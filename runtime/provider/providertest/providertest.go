// Package providertest is a model API on loopback that misbehaves on
// cue, for specs of the providers and of the loop above them. It speaks
// the Anthropic Messages API's SSE ("event: …\ndata: …\n\n") and the
// OpenAI Chat Completions API's ("data: …\n\n" ending with "data:
// [DONE]") with real framing and flushes, and it can fail in every way a
// network and a server fail: an error status with retry-after, an error
// event inside the stream, a garbage line, a reset or a close of the
// connection after any event, a stall, a hold after the last event.
//
// Each request is answered by the next Script; the requests are kept.
//
//	srv := providertest.NewServer(
//		func(s *providertest.Stream) { s.Error(529, "overloaded_error", "Overloaded", "retry-after", "2") },
//		func(s *providertest.Stream) { s.Start(); s.ToolStart(0, "tu_1", "Bash"); s.ToolInput(0, `{"comm`, 3); s.Reset() },
//	)
//	defer srv.Close()
//	// ANTHROPIC_BASE_URL=srv.URL(), or OPENAI_BASE_URL=srv.URL()+"/v1"
package providertest

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Script answers one request.
type Script func(s *Stream)

// Request is one request the server received.
type Request struct {
	Path   string
	Header http.Header
	Body   map[string]any
}

// Server is the fake API.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	scripts  []Script
	requests []Request
}

// NewServer starts a plain-HTTP server that answers request n with
// scripts[n]; a request without a script gets a 400 that says so.
func NewServer(scripts ...Script) *Server {
	s := &Server{scripts: scripts}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// NewTLSServer is NewServer over HTTPS, with a certificate no client
// trusts unless told to (see Client).
func NewTLSServer(scripts ...Script) *Server {
	s := &Server{scripts: scripts}
	s.srv = httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	s.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes that fail are the point
	s.srv.StartTLS()
	return s
}

// URL is the server's base URL, e.g. http://127.0.0.1:1234 (the
// Messages API's base; the Chat Completions API's is URL()+"/v1").
func (s *Server) URL() string { return s.srv.URL }

// Client is an HTTP client that trusts the server's certificate.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Close stops the server, cutting open responses.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Add appends scripts for the requests to come.
func (s *Server) Add(scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts = append(s.scripts, scripts...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		writeJSON(w, http.StatusBadRequest, apiError("invalid_request_error", "fake API: the body is not JSON: "+err.Error()))
		return
	}
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	var script Script
	if n < len(s.scripts) {
		script = s.scripts[n]
	}
	s.mu.Unlock()
	if script == nil {
		writeJSON(w, http.StatusBadRequest, apiError("invalid_request_error", fmt.Sprintf("fake API: no script for request %d", n+1)))
		return
	}
	script(&Stream{Body: body, w: w, done: r.Context().Done()})
}

func apiError(typ, message string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": message}}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	data, _ := json.Marshal(v)
	_, _ = w.Write(data)
}

// Stream writes one response. The first event sets the status to 200 and
// the content type to text/event-stream; Error, Status and JSON answer
// in one piece instead.
type Stream struct {
	// Body is the request's JSON body.
	Body map[string]any

	w       http.ResponseWriter
	done    <-chan struct{}
	started bool
	gone    bool
}

// Stream reports whether the request asked for a stream ("stream": true).
func (s *Stream) Stream() bool { v, _ := s.Body["stream"].(bool); return v }

// Error answers with status and an API error of type typ and message,
// with header name/value pairs (e.g. "retry-after", "2"). Both APIs'
// clients read {"error": {"type", "message"}}.
func (s *Stream) Error(status int, typ, message string, header ...string) {
	for i := 0; i+1 < len(header); i += 2 {
		s.w.Header().Set(header[i], header[i+1])
	}
	writeJSON(s.w, status, apiError(typ, message))
}

// Status answers with status, content type and body as given, e.g. a
// proxy's plain-text 502.
func (s *Stream) Status(status int, contentType, body string) {
	s.w.Header().Set("Content-Type", contentType)
	s.w.WriteHeader(status)
	_, _ = io.WriteString(s.w, body)
}

// JSON answers 200 with v as JSON: a response in one piece.
func (s *Stream) JSON(v any) { writeJSON(s.w, http.StatusOK, v) }

func (s *Stream) begin() {
	if !s.started {
		s.started = true
		s.w.Header().Set("Content-Type", "text/event-stream")
		s.w.Header().Set("Cache-Control", "no-cache")
		s.w.WriteHeader(http.StatusOK)
	}
}

// Raw writes text as it is (lines and all) and flushes it.
func (s *Stream) Raw(text string) {
	if s.gone {
		return
	}
	s.begin()
	_, _ = io.WriteString(s.w, text)
	s.w.(http.Flusher).Flush()
}

// Event writes one Messages API event: "event: name\ndata: data\n\n".
func (s *Stream) Event(name, data string) { s.Raw("event: " + name + "\ndata: " + data + "\n\n") }

// Data writes one event with no name: "data: data\n\n" (Chat
// Completions' framing).
func (s *Stream) Data(data string) { s.Raw("data: " + data + "\n\n") }

func (s *Stream) event(name string, v map[string]any) {
	v["type"] = name
	data, _ := json.Marshal(v)
	s.Event(name, string(data))
}

// Start writes message_start.
func (s *Stream) Start() {
	s.event("message_start", map[string]any{"message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
}

// Text writes text block index whole: start, one delta per word, stop.
func (s *Stream) Text(index int, t string) {
	s.event("content_block_start", map[string]any{"index": index, "content_block": map[string]any{"type": "text", "text": ""}})
	for _, w := range strings.SplitAfter(t, " ") {
		s.event("content_block_delta", map[string]any{"index": index, "delta": map[string]any{"type": "text_delta", "text": w}})
	}
	s.BlockStop(index)
}

// ToolStart opens tool_use block index.
func (s *Stream) ToolStart(index int, id, name string) {
	s.event("content_block_start", map[string]any{"index": index,
		"content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}})
}

// ToolInput streams input (whole or cut off) into tool_use block index,
// in pieces of about chunk bytes.
func (s *Stream) ToolInput(index int, input string, chunk int) {
	for len(input) > 0 {
		n := min(max(chunk, 1), len(input))
		s.event("content_block_delta", map[string]any{"index": index,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": input[:n]}})
		input = input[n:]
	}
}

// BlockStop writes content_block_stop for block index.
func (s *Stream) BlockStop(index int) {
	s.event("content_block_stop", map[string]any{"index": index})
}

// Tool writes tool_use block index whole.
func (s *Stream) Tool(index int, id, name, input string) {
	s.ToolStart(index, id, name)
	s.ToolInput(index, input, 7)
	s.BlockStop(index)
}

// Stop ends the message: message_delta with reason, then message_stop.
func (s *Stream) Stop(reason string) {
	s.event("message_delta", map[string]any{"delta": map[string]any{"stop_reason": reason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 7}})
	s.event("message_stop", map[string]any{})
}

// ErrorEvent writes an error event inside the stream, e.g.
// ("overloaded_error", "Overloaded").
func (s *Stream) ErrorEvent(typ, message string) {
	data, _ := json.Marshal(apiError(typ, message))
	s.Event("error", string(data))
}

// Chunk writes a chat.completion.chunk whose only choice has delta (and
// finish_reason, if not empty).
func (s *Stream) Chunk(delta map[string]any, finish string) {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	s.chunk(map[string]any{"choices": []any{choice}})
}

func (s *Stream) chunk(fields map[string]any) {
	c := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": "fake-model"}
	for k, v := range fields {
		c[k] = v
	}
	data, _ := json.Marshal(c)
	s.Data(string(data))
}

// ChatText streams t as content deltas, one word each.
func (s *Stream) ChatText(t string) {
	for i, w := range strings.SplitAfter(t, " ") {
		d := map[string]any{"content": w}
		if i == 0 {
			d["role"] = "assistant"
		}
		s.Chunk(d, "")
	}
}

// ChatTool opens tool call index with id and name and streams args (whole
// or cut off) in pieces of about chunk bytes.
func (s *Stream) ChatTool(index int, id, name, args string, chunk int) {
	s.Chunk(map[string]any{"tool_calls": []any{map[string]any{
		"index": index, "id": id, "type": "function", "function": map[string]any{"name": name, "arguments": ""}}}}, "")
	for len(args) > 0 {
		n := min(max(chunk, 1), len(args))
		s.Chunk(map[string]any{"tool_calls": []any{map[string]any{"index": index, "function": map[string]any{"arguments": args[:n]}}}}, "")
		args = args[n:]
	}
}

// ChatFinish writes the chunk with finish_reason and the usage chunk that
// follows it (stream_options.include_usage); Done ends the stream.
func (s *Stream) ChatFinish(reason string) {
	s.Chunk(map[string]any{}, reason)
	s.chunk(map[string]any{"choices": []any{}, "usage": map[string]any{
		"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17}})
}

// Done writes "data: [DONE]".
func (s *Stream) Done() { s.Data("[DONE]") }

// Reset aborts the connection with a TCP reset (SO_LINGER 0): the client
// reads "connection reset by peer" after what was sent so far.
func (s *Stream) Reset() {
	conn := s.hijack()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// Cut closes the connection in the middle of the response, without the
// chunked body's last chunk: the client reads an unexpected EOF.
func (s *Stream) Cut() { _ = s.hijack().Close() }

// Drop resets the connection before any byte of a response: the request
// was sent, and no answer comes.
func (s *Stream) Drop() {
	s.started = true // no headers
	s.Reset()
}

func (s *Stream) hijack() net.Conn {
	s.begin()
	if s.w.Header().Get("Content-Type") != "" {
		s.w.(http.Flusher).Flush()
	}
	conn, _, err := http.NewResponseController(s.w).Hijack()
	if err != nil {
		panic("providertest: hijack: " + err.Error())
	}
	s.gone = true
	return conn
}

// Hang keeps the response open, sending nothing, until the client goes
// away (a stall: the client's idle timeout must end it).
func (s *Stream) Hang() { <-s.done }

// Hold keeps the response open until release is closed or the client
// goes away, at most ten seconds; it reports whether release was closed.
func (s *Stream) Hold(release <-chan struct{}) bool {
	select {
	case <-release:
		return true
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
	return false
}

// RefusedURL returns the URL of a loopback port nothing listens on.
func RefusedURL() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("providertest: listen: " + err.Error())
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// UnresolvableURL is the URL of a host name that never resolves (the
// .invalid top-level domain is reserved for that, RFC 2606).
const UnresolvableURL = "http://api.agentcore.invalid"
