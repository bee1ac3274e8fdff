package provider

import "strings"

// DefaultContextWindow is the context window of a model the table does
// not know: Claude's, 200k tokens.
const DefaultContextWindow = 200_000

// windows are context windows in tokens, by model-name prefix (the
// longest prefix wins).
var windows = map[string]int{
	"claude":      200_000,
	"gpt-4.1":     1_047_576,
	"gpt-4o":      128_000,
	"gpt-4-turbo": 128_000,
	"gpt-5":       400_000,
	"o1":          200_000,
	"o3":          200_000,
	"o4":          200_000,
	"gemini":      1_048_576,
	"qwen":        131_072,
	"llama":       131_072,
	"deepseek":    128_000,
	"mistral":     128_000,
}

// ContextWindow returns the context window of model, in tokens: the
// table's entry for the longest matching name prefix, 1,000,000 for a
// model named with Claude Code's "[1m]" suffix, else
// DefaultContextWindow. A provider prefix ("anthropic:", "openai:",
// "bedrock:…anthropic.") is ignored.
func ContextWindow(model string) int {
	if strings.HasSuffix(strings.ToLower(model), "[1m]") {
		return 1_000_000
	}
	if i := strings.LastIndex(model, "anthropic."); i >= 0 {
		model = model[i+len("anthropic."):]
	} else if _, rest, found := strings.Cut(model, ":"); found {
		model = rest
	}
	model = strings.ToLower(model)
	best, n := 0, DefaultContextWindow
	for prefix, w := range windows {
		if strings.HasPrefix(model, prefix) && len(prefix) > best {
			best, n = len(prefix), w
		}
	}
	return n
}
