package runtime

import (
	"sync"
)

// Block is one content block of a tool_result: text or an image.
type Block struct {
	// Type is "text" or "image".
	Type string `json:"type"`
	// Text is set for text blocks.
	Text string `json:"text,omitempty"`
	// MediaType is set for images, e.g. "image/png".
	MediaType string `json:"media_type,omitempty"`
	// Data is the base64-encoded image.
	Data string `json:"data,omitempty"`
}

// TextBlock returns a text block.
func TextBlock(s string) Block { return Block{Type: "text", Text: s} }

// ContextModifier changes the tool context after a call, e.g. refreshing the
// file-state cache. The orchestrator applies modifiers one at a time, in call
// order, never concurrently with a call that reads the context.
type ContextModifier func(tc *ToolContext)

// Result is what a call returns: the tool's typed output, the content the
// model receives, and an optional context modifier.
type Result struct {
	// Data is the tool's typed output value.
	Data any
	// Content is the tool_result content sent to the model.
	Content []Block
	// IsError marks the result as an error result.
	IsError bool
	// Modifier, when set, is applied to the context after the call.
	Modifier ContextModifier
}

// Text joins the text blocks of the result and summarises image blocks.
func (r Result) Text() string {
	var out []byte
	for i, b := range r.Content {
		if i > 0 {
			out = append(out, '\n')
		}
		switch b.Type {
		case "image":
			out = append(out, "[image "+b.MediaType+"]"...)
		default:
			out = append(out, b.Text...)
		}
	}
	return string(out)
}

// ErrorResult is an is_error result with one text block.
func ErrorResult(msg string) Result {
	return Result{Content: []Block{TextBlock(msg)}, IsError: true}
}

// Call is the handle a running tool uses to talk to the runtime.
type Call struct {
	// ID is the tool_use id of the call.
	ID string
	// Context is the tool context the call runs in. Tools read it; changes
	// go through ModifyContext.
	Context *ToolContext

	onProgress func(any)
	mu         sync.Mutex
	modifier   ContextModifier
}

// NewCall makes a call handle; onProgress may be nil.
func NewCall(id string, tc *ToolContext, onProgress func(progress any)) *Call {
	return &Call{ID: id, Context: tc, onProgress: onProgress}
}

// Progress reports a progress value; it is delivered at once, ahead of
// result order.
func (c *Call) Progress(p any) {
	if c != nil && c.onProgress != nil {
		c.onProgress(p)
	}
}

// ModifyContext registers a context modifier to apply after the call. Later
// registrations run after earlier ones.
func (c *Call) ModifyContext(m ContextModifier) {
	if c == nil || m == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev := c.modifier; prev != nil {
		c.modifier = func(tc *ToolContext) { prev(tc); m(tc) }
		return
	}
	c.modifier = m
}

// Modifier returns the combined context modifier registered so far.
func (c *Call) Modifier() ContextModifier {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.modifier
}
