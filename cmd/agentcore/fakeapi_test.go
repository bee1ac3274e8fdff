//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"

	. "github.com/onsi/ginkgo/v2"
)

// fakeReply is one response of the specs' fake Messages APIs: its
// blocks, streamed as server-sent events, and its usage.
type fakeReply struct {
	// ID is the message's id; "" is msg_1.
	ID string
	// InputTokens and OutputTokens are the usage of message_start and
	// message_delta.
	InputTokens, OutputTokens int
	Blocks                    []fakeBlock
}

// fakeBlock is a text block, or a tool_use when Tool is set (Input its
// JSON input, streamed as one input_json_delta).
type fakeBlock struct {
	Text            string
	ID, Tool, Input string
}

// write streams r; the stop reason is tool_use when r has a tool_use.
func (r fakeReply) write(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	id := r.ID
	if id == "" {
		id = "msg_1"
	}
	events := []string{fmt.Sprintf(`{"type":"message_start","message":{"id":%q,"type":"message","role":"assistant","model":"fake","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"output_tokens":1}}}`, id, r.InputTokens)}
	stop := "end_turn"
	for i, b := range r.Blocks {
		if b.Tool != "" {
			stop = "tool_use"
			in, _ := json.Marshal(b.Input)
			events = append(events,
				fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%q,"name":%q,"input":{}}}`, i, b.ID, b.Tool),
				fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, in))
		} else {
			text, _ := json.Marshal(b.Text)
			events = append(events,
				fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i),
				fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, text))
		}
		events = append(events, fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
	}
	events = append(events,
		fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":%d}}`, stop, r.OutputTokens),
		`{"type":"message_stop"}`)
	for _, ev := range events {
		var probe struct{ Type string }
		_ = json.Unmarshal([]byte(ev), &probe)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", probe.Type, ev)
	}
}

// recordingAPI is a Messages API on loopback that keeps every request's
// body and answers the n-th request (from 1) with reply; the function
// returned gives the bodies so far.
func recordingAPI(reply func(n int, w http.ResponseWriter)) (*httptest.Server, func() []map[string]any) {
	return bodyAPI(func(n int, _ []byte, w http.ResponseWriter) { reply(n, w) })
}

// bodyAPI is recordingAPI whose reply also reads the request's raw body.
func bodyAPI(reply func(n int, raw []byte, w http.ResponseWriter)) (*httptest.Server, func() []map[string]any) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		bodies = append(bodies, body)
		n := len(bodies)
		mu.Unlock()
		reply(n, raw, w)
	}))
	DeferCleanup(srv.Close)
	return srv, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(bodies)
	}
}
