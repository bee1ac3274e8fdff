// Package provider is the model side of the agent loop: a small interface
// over a Messages-style API that streams a response as events, so the loop
// can start tools while the model is still talking.
//
// Three implementations ship with agentcore: provider/anthropic (the
// Messages API through the official SDK, also on Amazon Bedrock),
// provider/openai (the Chat Completions API through the official SDK, for
// OpenAI and compatible servers such as vLLM, Ollama or llama.cpp) and
// provider/replay (a scripted conversation with realistic timing, for
// offline runs and tests). Record wraps any provider and writes what it
// sees as a replay scenario. A failed request is an *APIError that says
// what to do.
package provider

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/agentcore/agentcore/runtime"
)

// Role is the author of a message.
type Role string

const (
	// User messages carry prompts and tool results.
	User Role = "user"
	// Assistant messages carry the model's text and tool_use blocks.
	Assistant Role = "assistant"
)

// BlockType names the kind of a content block.
type BlockType string

const (
	// TextBlock is plain text.
	TextBlock BlockType = "text"
	// ToolUseBlock is a tool call from the model.
	ToolUseBlock BlockType = "tool_use"
	// ToolResultBlock answers one tool_use block.
	ToolResultBlock BlockType = "tool_result"
)

// Block is one content block of a message.
type Block struct {
	Type BlockType `json:"type"`
	// Text is set for text blocks.
	Text string `json:"text,omitempty"`
	// ID, Name and Input are set for tool_use blocks.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID, Content and IsError are set for tool_result blocks.
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   []runtime.Block `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	// Incomplete marks a tool_use block whose input JSON was cut off:
	// the stream broke inside the block (in APIError.Partial), or the
	// response hit its token limit there (stop_reason max_tokens). Its
	// Input is then "{}", not what the model meant; such a call must
	// not run. The loop answers it with a result saying the input was
	// cut off before it was complete and nothing was run, not with a
	// validation error. EventToolUse carries such a block too, so every
	// EventToolUseStart has its end.
	Incomplete bool `json:"incomplete,omitempty"`
}

// Text returns a text block.
func Text(s string) Block { return Block{Type: TextBlock, Text: s} }

// ToolUse returns a tool_use block.
func ToolUse(id, name string, input json.RawMessage) Block {
	return Block{Type: ToolUseBlock, ID: id, Name: name, Input: input}
}

// ToolResult returns a tool_result block answering the tool_use id.
func ToolResult(id string, r runtime.Result) Block {
	return Block{Type: ToolResultBlock, ToolUseID: id, Content: r.Content, IsError: r.IsError}
}

// Message is one turn of the conversation.
type Message struct {
	Role    Role    `json:"role"`
	Content []Block `json:"content"`
}

// ToolUses returns the tool_use blocks of m, in order.
func (m Message) ToolUses() []Block {
	var out []Block
	for _, b := range m.Content {
		if b.Type == ToolUseBlock {
			out = append(out, b)
		}
	}
	return out
}

// Tool is a tool definition as sent to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// ToolsOf converts runtime tools to definitions, in the given order.
func ToolsOf(tools []runtime.Tool) []Tool {
	out := make([]Tool, 0, len(tools))
	for _, t := range tools {
		out = append(out, Tool{Name: t.Name(), Description: t.Description(), InputSchema: t.InputSchema()})
	}
	return out
}

// Request is one call to the model.
type Request struct {
	// System is the system prompt.
	System string
	// Messages is the conversation so far; the last one is a user message.
	Messages []Message
	// Tools are the definitions the model may call.
	Tools []Tool
	// MaxTokens caps the response; 0 lets the provider choose.
	MaxTokens int
	// RawEvents asks for an EventRaw after each of the API's own stream
	// events (stream-json's --include-partial-messages). A provider
	// whose wire events are not the Messages API's yields none.
	RawEvents bool
	// NoStream asks for the response in one piece instead of a stream
	// (the loop's second try after an ErrStalled). The provider still
	// yields its events (EventText, EventToolUseStart, EventToolUse), all
	// at once when the response has come, ending with EventMessage; the
	// wait is bounded by Timeouts.Request instead of Timeouts.Idle.
	NoStream bool
}

// StopReason says why the model stopped.
type StopReason string

const (
	// StopEndTurn: the model finished its turn.
	StopEndTurn StopReason = "end_turn"
	// StopToolUse: the model wants tool results.
	StopToolUse StopReason = "tool_use"
	// StopMaxTokens: the response hit MaxTokens.
	StopMaxTokens StopReason = "max_tokens"
)

// Usage counts the tokens of one response.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:              u.InputTokens + v.InputTokens,
		OutputTokens:             u.OutputTokens + v.OutputTokens,
		CacheCreationInputTokens: u.CacheCreationInputTokens + v.CacheCreationInputTokens,
		CacheReadInputTokens:     u.CacheReadInputTokens + v.CacheReadInputTokens,
	}
}

// EventType names a stream event.
type EventType int

const (
	// EventText carries a text delta of block Index.
	EventText EventType = iota
	// EventToolUseStart announces a tool_use block (ID and Name known,
	// input still streaming).
	EventToolUseStart
	// EventToolUse carries a finished tool_use block with its whole input:
	// the moment the loop hands it to the executor.
	EventToolUse
	// EventMessage ends the stream with the whole assistant message.
	EventMessage
	// EventRaw carries one Messages API stream event as it came (Raw:
	// message_start, content_block_start/delta/stop, message_delta,
	// message_stop), after the events it gave rise to; only when
	// Request.RawEvents is set.
	EventRaw
)

// Event is one step of a streamed response.
type Event struct {
	Type  EventType
	Index int
	// Text is the delta of an EventText.
	Text string
	// Block is the tool_use of EventToolUseStart (without input) and
	// EventToolUse (complete).
	Block Block
	// Raw is the API's event of EventRaw, as JSON.
	Raw json.RawMessage
	// Message, StopReason and Usage are set on EventMessage.
	Message    Message
	StopReason StopReason
	Usage      Usage
}

// Provider is a model the agent loop can talk to.
type Provider interface {
	// Name identifies the provider and model, e.g. "anthropic:claude-…".
	Name() string
	// Streams reports whether tool_use blocks arrive one by one while the
	// response streams. When false, Stream yields only the final
	// EventMessage and the loop runs the calls as one batch.
	Streams() bool
	// Stream sends req and yields the response's events, ending with
	// EventMessage, or an error. EventMessage comes as soon as the
	// message is complete (message_stop, the last chunk), without
	// waiting for the connection to end. Stopping the iteration early,
	// or cancelling ctx, abandons the response; a cancelled ctx ends a
	// wait at once and is yielded as ctx's own error. Any other failure
	// is an *APIError whose Kind says whether to retry
	// (provider.Retryable); the providers never retry on their own.
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
}
