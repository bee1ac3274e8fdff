package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream/eventstreamapi"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// sseBody reads a Bedrock stream (AWS event stream framing, one "chunk"
// event per Messages API event, its JSON base64-encoded in the payload)
// as the Messages API's server-sent events, so the SDK's stream reader
// and agentcore's see the same answer from both. An exception or error
// message becomes an SSE "error" event shaped like the API's. This is the
// SDK's bedrock package's translation.
type sseBody struct {
	eventstream.Decoder

	rc  io.ReadCloser
	buf bytes.Buffer
	err error
}

// Read hands out translated events; the events decoded before a bad
// frame are read before its error.
func (b *sseBody) Read(p []byte) (int, error) {
	for b.buf.Len() == 0 {
		if b.err != nil {
			return 0, b.err
		}
		msg, err := b.Decoder.Decode(b.rc, nil)
		if err != nil {
			b.err = err
			continue
		}
		b.translate(msg)
	}
	return b.buf.Read(p)
}

// Close closes the HTTP body.
func (b *sseBody) Close() error { return b.rc.Close() }

func (b *sseBody) translate(msg eventstream.Message) {
	messageType := msg.Headers.Get(eventstreamapi.MessageTypeHeader)
	if messageType == nil {
		b.err = fmt.Errorf("bedrock: an event stream message without its %s header", eventstreamapi.MessageTypeHeader)
		return
	}
	switch messageType.String() {
	case eventstreamapi.EventMessageType:
		eventType := msg.Headers.Get(eventstreamapi.EventTypeHeader)
		if eventType == nil {
			b.err = fmt.Errorf("bedrock: an event without its %s header", eventstreamapi.EventTypeHeader)
			return
		}
		if eventType.String() != "chunk" {
			return
		}
		var chunk struct {
			Bytes string `json:"bytes"`
		}
		if err := json.Unmarshal(msg.Payload, &chunk); err != nil {
			b.err = fmt.Errorf("bedrock: a chunk's payload: %w", err)
			return
		}
		decoded, err := base64.StdEncoding.DecodeString(chunk.Bytes)
		if err != nil {
			b.err = fmt.Errorf("bedrock: a chunk's bytes: %w", err)
			return
		}
		b.emit(gjson.GetBytes(decoded, "type").String(), decoded)
	case eventstreamapi.ExceptionMessageType:
		code := "UnknownError"
		if h := msg.Headers.Get(eventstreamapi.ExceptionTypeHeader); h != nil && h.String() != "" {
			code = h.String()
		}
		var info struct {
			Code    string
			Type    string `json:"__type"`
			Message string
		}
		_ = json.Unmarshal(msg.Payload, &info)
		if code == "UnknownError" {
			code = firstOf(info.Code, info.Type, code)
		}
		b.emitError(code, firstOf(info.Message, code))
	case eventstreamapi.ErrorMessageType:
		code, message := "UnknownError", "UnknownError"
		if h := msg.Headers.Get(eventstreamapi.ErrorCodeHeader); h != nil {
			code = h.String()
		}
		if h := msg.Headers.Get(eventstreamapi.ErrorMessageHeader); h != nil {
			message = h.String()
		}
		b.emitError(code, message)
	}
}

// firstOf is the first non-empty string.
func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// emitError writes an error event as the Messages API sends it.
func (b *sseBody) emitError(errorType, message string) {
	data, _ := sjson.SetBytes([]byte(`{"type":"error","error":{}}`), "error.type", errorType)
	data, _ = sjson.SetBytes(data, "error.message", message)
	b.emit("error", data)
}

// emit writes one server-sent event, a data line per line of data.
func (b *sseBody) emit(eventType string, data []byte) {
	b.buf.WriteString("event: ")
	b.buf.WriteString(eventType)
	b.buf.WriteByte('\n')
	for _, line := range bytes.Split(data, []byte("\n")) {
		b.buf.WriteString("data: ")
		b.buf.Write(line)
		b.buf.WriteByte('\n')
	}
	b.buf.WriteByte('\n')
}
