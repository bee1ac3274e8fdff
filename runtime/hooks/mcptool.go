package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// MCPToolFunc calls tool of the connected MCP server with input and
// returns its text content, and whether the server said it failed
// (isError). An error says the call could not be made (no such server
// connected, no such tool). It must return when ctx ends.
type MCPToolFunc func(ctx context.Context, server, tool string, input map[string]any) (text string, isError bool, err error)

// inputRef is a ${path} reference in a TypeMCPTool hook's input,
// compiled at the first such hook rather than before main.
var inputRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z0-9_.\-]+)\}`) })

// runMCPTool calls the hook's MCP tool under its timeout; its text is
// read as a command's stdout on exit 0, and an isError answer is a
// non-blocking error, as Claude Code documents.
func (r *Runner) runMCPTool(ctx context.Context, h Hook, input []byte) answer {
	timeout := hookTimeout(h, DefaultTimeout)
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	a := answer{timeout: timeout}
	if r.MCPTool == nil {
		a.err = errors.New("this session has no MCP servers to call")
		return a
	}
	var event any
	_ = json.Unmarshal(input, &event)
	args, _ := substitute(h.Input, event).(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	text, isError, err := r.MCPTool(hctx, h.Server, h.Tool, args)
	if a.settle(ctx, hctx, err) {
		return a
	}
	if isError {
		a.err = fmt.Errorf("the tool answered with an error; it did not block anything: %s", clip(text, 200))
		return a
	}
	a.stdout = text
	return a
}

// substitute replaces the ${path} references in v's strings by what the
// event's input holds at path ("tool_input.file_path"): a string as it
// is, another value as JSON, nothing when the path is absent.
func substitute(v, event any) any {
	switch t := v.(type) {
	case string:
		re := inputRef()
		return re.ReplaceAllStringFunc(t, func(ref string) string {
			val, ok := lookup(event, re.FindStringSubmatch(ref)[1])
			if !ok {
				return ""
			}
			if s, ok := val.(string); ok {
				return s
			}
			b, _ := json.Marshal(val)
			return string(b)
		})
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = substitute(e, event)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = substitute(e, event)
		}
		return out
	}
	return v
}

// lookup follows a dotted path through nested objects.
func lookup(v any, path string) (any, bool) {
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}
