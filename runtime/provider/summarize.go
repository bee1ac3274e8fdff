package provider

import (
	"context"
	"errors"
	"strings"
)

// Summarizer applies a prompt to a piece of content with one request to a
// model, without tools: WebFetch's "prompt" step. It satisfies
// runtime.Summarizer.
type Summarizer struct {
	// Model answers the request.
	Model Provider
	// MaxTokens caps the answer; 0 means 2048.
	MaxTokens int
}

const summarizeSystem = `You answer a question about a web page's content. Use only the content
given; quote sparingly and never more than a few lines verbatim. If the
content does not answer the question, say so.`

// Summarize asks the model to answer prompt from content.
func (s Summarizer) Summarize(ctx context.Context, prompt, content string) (string, error) {
	maxTokens := s.MaxTokens
	if maxTokens == 0 {
		maxTokens = 2048
	}
	req := Request{
		System:    summarizeSystem,
		MaxTokens: maxTokens,
		Messages: []Message{{Role: User, Content: []Block{
			Text("Web page content:\n---\n" + content + "\n---\n\n" + prompt),
		}}},
	}
	var b strings.Builder
	for ev, err := range s.Model.Stream(ctx, req) {
		if err != nil {
			return "", err
		}
		if ev.Type == EventText {
			b.WriteString(ev.Text)
		}
	}
	if b.Len() == 0 {
		return "", errors.New("the model gave no answer")
	}
	return b.String(), nil
}
