package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime/provider"
)

// The Chat Completions API's JSON, as much of it as the provider sends and
// reads. Fields the provider does not use are left out: encoding/json
// ignores them in a response.

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model               string         `json:"model"`
	Messages            []message      `json:"messages"`
	Tools               []Tool         `json:"tools,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	Stream              bool           `json:"stream,omitempty"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

// streamOptions asks for the usage chunk at the end of a stream.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Tool is one entry of a request's "tools" array: a function tool.
type Tool struct {
	Type     string   `json:"type"` // "function"
	Function Function `json:"function"`
}

// Function is a function tool's definition. Parameters is the input schema
// as written, so its key order (the order of the properties) reaches the
// model unchanged.
type Function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// message is one message of a request: system, user, assistant or tool.
// Content is a string or a []part; nil leaves it out (an assistant message
// with only tool calls).
type message struct {
	Role       string     `json:"role"`
	Content    any        `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// part is one content part of a user message: text or an image.
type part struct {
	Type     string    `json:"type"` // "text" or "image_url"
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// toolCall is an assistant's function call, in a request or in a whole
// (not streamed) response.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type,omitempty"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// chunk is one data line of a stream. Usage is nil unless the chunk
// carries it (the last one, with stream_options.include_usage).
type chunk struct {
	Choices []chunkChoice `json:"choices"`
	Usage   *usage        `json:"usage"`
}

type chunkChoice struct {
	Index        int64  `json:"index"`
	Delta        delta  `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

// delta is what one chunk adds to the message.
type delta struct {
	Content   string          `json:"content"`
	Refusal   string          `json:"refusal"`
	ToolCalls []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a piece of a streamed tool call: the first piece of a
// call has its id and name, the rest add to its arguments.
type toolCallDelta struct {
	Index    int64        `json:"index"`
	ID       string       `json:"id"`
	Function functionCall `json:"function"`
}

// completion is a whole response (a request without "stream").
type completion struct {
	Choices []struct {
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Content   string     `json:"content"`
			Refusal   string     `json:"refusal"`
			ToolCalls []toolCall `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage usage `json:"usage"`
}

// usage is the API's token counts.
type usage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens     int64 `json:"cached_tokens"`
		CacheWriteTokens int64 `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
}

// errorBody is an error response or an error chunk: {"error": {...}}.
// Some servers send the error as a bare string.
type errorBody struct {
	Error json.RawMessage `json:"error"`
}

// apiError is the object in an errorBody.
type apiError struct {
	Message string `json:"message"`
	Type    string `json:"type"`
	Code    any    `json:"code"`
}

// errorMessage is what an error response's body says: the error's
// message, else the error as sent, else the body itself, bounded.
func errorMessage(body []byte) string {
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && len(eb.Error) > 0 && string(eb.Error) != "null" {
		var e apiError
		if json.Unmarshal(eb.Error, &e) == nil && e.Message != "" {
			return e.Message
		}
		var s string
		if json.Unmarshal(eb.Error, &s) == nil && s != "" {
			return s
		}
		return strings.TrimSpace(string(eb.Error))
	}
	return provider.Quote(body, 200)
}

// request builds the request body.
func (p *Provider) request(req provider.Request) (chatRequest, error) {
	body := chatRequest{Model: p.model, MaxCompletionTokens: max(0, req.MaxTokens)}
	if !req.NoStream {
		body.Stream = true
		body.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	tools, err := Tools(req.Tools)
	if err != nil {
		return body, err
	}
	body.Tools = tools
	if req.System != "" {
		body.Messages = append(body.Messages, message{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		msgs, err := toMessages(m)
		if err != nil {
			return body, err
		}
		body.Messages = append(body.Messages, msgs...)
	}
	return body, nil
}

// Tools converts tool definitions to Chat Completions function tools (the
// "tools" array of a request).
func Tools(defs []provider.Tool) ([]Tool, error) {
	out := make([]Tool, 0, len(defs))
	for _, t := range defs {
		fn := Function{Name: t.Name, Description: t.Description}
		if len(t.InputSchema) > 0 {
			var schema map[string]any
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
				return nil, fmt.Errorf("openai: tool %s: input schema is not a JSON object: %w", t.Name, err)
			}
			fn.Parameters = t.InputSchema
		}
		out = append(out, Tool{Type: "function", Function: fn})
	}
	return out, nil
}

// toMessages converts one conversation message. An assistant message is
// one message with its text and tool_calls; a user message is one "tool"
// message per tool_result, then one user message with the text (and any
// images from the results).
func toMessages(m provider.Message) ([]message, error) {
	if m.Role == provider.Assistant {
		var texts []string
		asst := message{Role: "assistant"}
		for _, b := range m.Content {
			switch b.Type {
			case provider.TextBlock:
				if b.Text != "" {
					texts = append(texts, b.Text)
				}
			case provider.ToolUseBlock:
				asst.ToolCalls = append(asst.ToolCalls, toolCall{ID: b.ID, Type: "function",
					Function: functionCall{Name: b.Name, Arguments: argumentsOf(b.Input)}})
			default:
				return nil, fmt.Errorf("openai: content block type %q cannot be in an assistant message", b.Type)
			}
		}
		if len(texts) == 0 && len(asst.ToolCalls) == 0 {
			return nil, nil // the API rejects an empty assistant message
		}
		if len(texts) > 0 {
			asst.Content = strings.Join(texts, "\n\n")
		}
		return []message{asst}, nil
	}

	var out []message
	var parts []part
	images := false
	for _, b := range m.Content {
		switch b.Type {
		case provider.TextBlock:
			if b.Text != "" {
				parts = append(parts, part{Type: "text", Text: b.Text})
			}
		case provider.ToolResultBlock:
			text, imgs := resultText(b)
			out = append(out, message{Role: "tool", Content: text, ToolCallID: b.ToolUseID})
			if len(imgs) > 0 {
				images = true
				parts = append(parts, part{Type: "text", Text: fmt.Sprintf("The image(s) from the result of tool call %s:", b.ToolUseID)})
				parts = append(parts, imgs...)
			}
		default:
			return nil, fmt.Errorf("openai: content block type %q cannot be in a user message", b.Type)
		}
	}
	switch {
	case len(parts) == 0:
	case !images:
		texts := make([]string, 0, len(parts))
		for _, p := range parts {
			texts = append(texts, p.Text)
		}
		out = append(out, message{Role: "user", Content: strings.Join(texts, "\n\n")})
	default:
		out = append(out, message{Role: "user", Content: parts})
	}
	return out, nil
}

// resultText is a tool_result's text for its "tool" message, and its
// images as content parts for the user message after it.
func resultText(b provider.Block) (string, []part) {
	var texts []string
	var imgs []part
	for _, c := range b.Content {
		switch c.Type {
		case "image":
			imgs = append(imgs, part{Type: "image_url", ImageURL: &imageURL{URL: "data:" + c.MediaType + ";base64," + c.Data}})
		default:
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
		}
	}
	text := strings.Join(texts, "\n")
	if len(imgs) > 0 {
		text = strings.TrimSpace(text + "\n(the image is in the next message)")
	}
	if b.IsError && !strings.HasPrefix(strings.ToLower(text), "error") && !strings.HasPrefix(text, "<tool_use_error>") {
		text = "Error: " + text
	}
	return text, imgs
}
