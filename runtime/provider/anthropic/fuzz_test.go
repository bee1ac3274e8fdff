package anthropic

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/agentcore/agentcore/runtime/provider"
)

// FuzzStream serves arbitrary bytes as the Messages API's event stream, over
// loopback, to Provider.Stream: it must never panic or hang, and must end
// with an error or with one final EventMessage; every tool_use it yields,
// as an event or in the final message, carries an input that is a JSON
// object, so no tool ever runs on a cut or garbled input.
func FuzzStream(f *testing.F) {
	ok := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"
	tool := "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"Read\",\"input\":{}}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"file_path\\\":\\\"a\"}}\n\n"
	end := "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"}\"}}\n\n" +
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":5}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	text := "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n"
	for _, s := range []string{
		ok + tool + end,       // a whole tool_use turn
		ok + tool,             // cut in the middle of the tool_use's input
		ok + text + end,       // text, then a tool_use's end without its start
		ok + tool + "data: {", // a garbled last event
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
		"", ":\n\n", "data: [DONE]\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		p := NewWithOptions(Options{Model: "m", APIKey: "sk-test", RequestOptions: []option.RequestOption{
			option.WithBaseURL(srv.URL), option.WithMaxRetries(0),
		}})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req := provider.Request{Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text("hi")}}}}
		finals := 0
		for ev, err := range p.Stream(ctx, req) {
			if err != nil {
				if finals != 0 {
					t.Fatalf("an error after the final message: %v", err)
				}
				break
			}
			if finals != 0 {
				t.Fatalf("event %v after the final message", ev.Type)
			}
			switch ev.Type {
			case provider.EventToolUse:
				assertObjectInput(t, ev.Block)
			case provider.EventMessage:
				finals++
				for _, b := range ev.Message.Content {
					if b.Type == provider.ToolUseBlock {
						assertObjectInput(t, b)
					}
				}
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the stream did not end within 10 s")
		}
	})
}

// assertObjectInput fails unless b's input is a JSON object.
func assertObjectInput(t *testing.T, b provider.Block) {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b.Input, &obj); err != nil || obj == nil {
		t.Fatalf("tool_use %q yielded with input %q, not a JSON object", b.Name, b.Input)
	}
}
