package agent_test

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

// fakeAPI is a Messages API on loopback that speaks real SSE. Each request
// is answered by the next script; the request bodies are kept.
type fakeAPI struct {
	srv *httptest.Server

	mu       sync.Mutex
	scripts  []func(s *sse, body map[string]any)
	cycle    bool // answer request n with scripts[n % len] (benchmarks)
	onArrive func(n int, at time.Time)
	requests []map[string]any
	arrived  []time.Time
	streamed []time.Time // when each response's message_stop was flushed
}

func newFakeAPI(scripts ...func(s *sse, body map[string]any)) *fakeAPI {
	f := &fakeAPI{scripts: scripts}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	return f
}

func (f *fakeAPI) URL() string { return f.srv.URL }

func (f *fakeAPI) Close() {
	f.srv.CloseClientConnections()
	f.srv.Close()
}

func (f *fakeAPI) Requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.requests...)
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"no such route"}}`, http.StatusNotFound)
		return
	}
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, body)
	f.arrived = append(f.arrived, now)
	var script func(*sse, map[string]any)
	if n < len(f.scripts) {
		script = f.scripts[n]
	} else if f.cycle && len(f.scripts) > 0 {
		script = f.scripts[n%len(f.scripts)]
	}
	onArrive := f.onArrive
	f.mu.Unlock()
	if onArrive != nil {
		onArrive(n, now)
	}
	if script == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"fake API: no script for request %d"}}`, n+1)
		return
	}
	s := &sse{w: w, f: w.(http.Flusher), done: r.Context().Done()}
	script(s, body)
	f.mu.Lock()
	f.streamed = append(f.streamed, s.stopAt)
	f.mu.Unlock()
}

// sse writes one response's events.
type sse struct {
	w       io.Writer
	f       http.Flusher
	done    <-chan struct{}
	index   int
	stopAt  time.Time
	started bool
}

// begin sends the 200 and the event-stream headers, once, before the
// first event.
func (s *sse) begin() {
	if s.started {
		return
	}
	s.started = true
	w := s.w.(http.ResponseWriter)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s.f.Flush()
}

// fail answers with an HTTP error in the API's shape; header are extra
// response headers (retry-after).
func (s *sse) fail(status int, typ, message string, header ...string) {
	w := s.w.(http.ResponseWriter)
	for i := 0; i+1 < len(header); i += 2 {
		w.Header().Set(header[i], header[i+1])
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q}}`, typ, message)
	s.started = true
}

func (s *sse) event(name string, v any) {
	s.begin()
	data, _ := json.Marshal(v)
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data)
	s.f.Flush()
}

func (s *sse) start() {
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake-model",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 42, "output_tokens": 1},
	}})
}

func (s *sse) text(t string) {
	i := s.index
	s.index++
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
	for _, w := range strings.SplitAfter(t, " ") {
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": w}})
	}
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

// toolStart opens a tool_use block and streams its input in pieces of
// about chunk bytes; it returns the block index for toolStop.
func (s *sse) toolStart(id, name, input string, chunk int) int {
	i := s.index
	s.index++
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": id, "name": name, "input": map[string]any{}}})
	for len(input) > 0 {
		n := min(chunk, len(input))
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": input[:n]}})
		input = input[n:]
	}
	return i
}

func (s *sse) toolStop(i int) {
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
}

func (s *sse) tool(id, name, input string) { s.toolStop(s.toolStart(id, name, input, 7)) }

func (s *sse) stop(reason string) {
	s.event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": reason, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 17}})
	s.stopAt = time.Now()
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// hang keeps the response open until the client goes away.
func (s *sse) hang() {
	s.begin()
	<-s.done
}

// messages returns the request's messages.
func messages(body map[string]any) []map[string]any {
	var out []map[string]any
	for _, m := range body["messages"].([]any) {
		out = append(out, m.(map[string]any))
	}
	return out
}

func blocks(m map[string]any) []map[string]any {
	var out []map[string]any
	switch c := m["content"].(type) {
	case []any:
		for _, b := range c {
			out = append(out, b.(map[string]any))
		}
	case string:
		out = append(out, map[string]any{"type": "text", "text": c})
	}
	return out
}

// pairingProblems checks the API's rule: every tool_use of an assistant
// message is answered, in the next message, by a tool_result with its id.
func pairingProblems(body map[string]any) []string {
	var problems []string
	msgs := messages(body)
	for i, m := range msgs {
		if m["role"] != "assistant" {
			continue
		}
		var ids []string
		for _, b := range blocks(m) {
			if b["type"] == "tool_use" {
				ids = append(ids, b["id"].(string))
			}
		}
		if len(ids) == 0 {
			continue
		}
		if i+1 >= len(msgs) {
			problems = append(problems, fmt.Sprintf("message %d: tool_use %v with no next message", i, ids))
			continue
		}
		var got []string
		for _, b := range blocks(msgs[i+1]) {
			if b["type"] == "tool_result" {
				got = append(got, b["tool_use_id"].(string))
			}
		}
		if strings.Join(got, ",") != strings.Join(ids, ",") {
			problems = append(problems, fmt.Sprintf("message %d: tool_use %v answered by %v", i, ids, got))
		}
	}
	return problems
}
