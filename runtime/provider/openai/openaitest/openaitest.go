// Package openaitest is an OpenAI-compatible Chat Completions API on
// loopback for tests: real SSE framing ("data: {...}\n\n", ending with
// "data: [DONE]"), text and tool-call argument deltas split across
// chunks, several tool calls in one response. Each request is answered by
// the next script; the requests are kept.
//
//	srv := openaitest.NewServer(func(s *openaitest.Stream) {
//		s.ToolCall(0, "call_a", "Read", `{"file_path":"a.go"}`, 5)
//		s.Finish("tool_calls")
//	})
//	defer srv.Close()
//	// OPENAI_BASE_URL=srv.URL()
package openaitest

import (
	"encoding/json"
	"fmt"
	"io"
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

// Server is the fake API. Its URL ends in /v1, as OPENAI_BASE_URL does.
type Server struct {
	srv *httptest.Server

	mu       sync.Mutex
	scripts  []Script
	requests []Request
}

// NewServer starts a server that answers request n with scripts[n]; a
// request without a script gets a 400 that says so.
func NewServer(scripts ...Script) *Server {
	s := &Server{scripts: scripts}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// URL is the base URL to give the client, e.g. http://127.0.0.1:1234/v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

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

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		writeError(w, http.StatusNotFound, "no route "+r.Method+" "+r.URL.Path)
		return
	}
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		writeError(w, http.StatusBadRequest, "bad JSON: "+err.Error())
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
		writeError(w, http.StatusBadRequest, fmt.Sprintf("fake API: no script for request %d", n+1))
		return
	}
	st := &Stream{w: w, f: w.(http.Flusher), done: r.Context().Done(), Body: body}
	script(st)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	data, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
	_, _ = w.Write(data)
}

// Stream writes one response. The first chunk sets the status to 200 and
// the content type to text/event-stream; Error answers with an error
// status instead.
type Stream struct {
	// Body is the request's JSON body.
	Body map[string]any

	w       io.Writer
	f       http.Flusher
	done    <-chan struct{}
	started bool
}

// Error answers with status and an API error of message (before any chunk).
func (s *Stream) Error(status int, message string) {
	writeError(s.w.(http.ResponseWriter), status, message)
}

// Raw answers with status, content type and body as given (before any
// chunk), e.g. a proxy's plain-text 502.
func (s *Stream) Raw(status int, contentType, body string) {
	w := s.w.(http.ResponseWriter)
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// Data writes one SSE event "data: <payload>\n\n" and flushes it.
func (s *Stream) Data(payload string) {
	if !s.started {
		s.started = true
		w := s.w.(http.ResponseWriter)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", payload)
	s.f.Flush()
}

// Chunk writes a chat.completion.chunk whose only choice has delta (and
// finish_reason, if not empty).
func (s *Stream) Chunk(delta map[string]any, finish string) {
	choice := map[string]any{"index": 0, "delta": delta, "finish_reason": nil}
	if finish != "" {
		choice["finish_reason"] = finish
	}
	s.write(map[string]any{"choices": []any{choice}})
}

func (s *Stream) write(fields map[string]any) {
	c := map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk",
		"created": time.Now().Unix(), "model": "fake-model", "usage": nil}
	for k, v := range fields {
		c[k] = v
	}
	data, _ := json.Marshal(c)
	s.Data(string(data))
}

// Text streams t as content deltas, one word each (the first chunk also
// carries the role).
func (s *Stream) Text(t string) {
	for i, w := range strings.SplitAfter(t, " ") {
		d := map[string]any{"content": w}
		if i == 0 {
			d["role"] = "assistant"
		}
		s.Chunk(d, "")
	}
}

// ToolStart opens tool call index with its id and name, arguments empty.
func (s *Stream) ToolStart(index int, id, name string) {
	s.Chunk(map[string]any{"tool_calls": []any{map[string]any{
		"index": index, "id": id, "type": "function", "function": map[string]any{"name": name, "arguments": ""}}}}, "")
}

// ToolArgs streams args of tool call index in pieces of about chunk bytes.
func (s *Stream) ToolArgs(index int, args string, chunk int) {
	for len(args) > 0 {
		n := min(chunk, len(args))
		s.Chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": index, "function": map[string]any{"arguments": args[:n]}}}}, "")
		args = args[n:]
	}
}

// ToolCall is ToolStart then ToolArgs.
func (s *Stream) ToolCall(index int, id, name, args string, chunk int) {
	s.ToolStart(index, id, name)
	s.ToolArgs(index, args, chunk)
}

// Finish ends the response: a chunk with finish_reason, a usage chunk
// (no choices, as with stream_options.include_usage), then [DONE].
func (s *Stream) Finish(reason string) {
	s.Chunk(map[string]any{}, reason)
	s.Usage(120, 17, 40)
	s.Done()
}

// Usage writes the usage chunk: prompt tokens (cached of them), and
// completion tokens.
func (s *Stream) Usage(prompt, completion, cached int) {
	s.write(map[string]any{"choices": []any{}, "usage": map[string]any{
		"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
		"prompt_tokens_details": map[string]any{"cached_tokens": cached}}})
}

// Done writes the terminating "data: [DONE]".
func (s *Stream) Done() { s.Data("[DONE]") }

// Hang keeps the response open until the client goes away.
func (s *Stream) Hang() { <-s.done }

// Wait blocks until ch is closed, the client goes away, or ten seconds
// pass; it reports whether ch was closed.
func (s *Stream) Wait(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
	return false
}

// Messages returns the request's messages.
func Messages(body map[string]any) []map[string]any {
	var out []map[string]any
	msgs, _ := body["messages"].([]any)
	for _, m := range msgs {
		out = append(out, m.(map[string]any))
	}
	return out
}

// PairingProblems checks the API's rule: the tool_calls of an assistant
// message are answered, right after it, by one "tool" message each, in
// order.
func PairingProblems(body map[string]any) []string {
	var problems []string
	msgs := Messages(body)
	for i, m := range msgs {
		if m["role"] != "assistant" {
			continue
		}
		calls, _ := m["tool_calls"].([]any)
		var ids []string
		for _, c := range calls {
			ids = append(ids, c.(map[string]any)["id"].(string))
		}
		var got []string
		for j := i + 1; j < len(msgs) && msgs[j]["role"] == "tool"; j++ {
			id, _ := msgs[j]["tool_call_id"].(string)
			got = append(got, id)
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			problems = append(problems, fmt.Sprintf("message %d: tool_calls %v answered by tool messages %v", i, ids, got))
		}
	}
	return problems
}
