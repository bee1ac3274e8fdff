package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// fieldsOf are the keys a hook of each type may have besides the common
// ones (type, if, timeout, statusMessage, once), as Claude Code's
// settings schema has them.
var fieldsOf = map[string][]string{
	TypeCommand: {"command", "async", "asyncRewake", "shell"},
	TypeHTTP:    {"url", "headers", "allowedEnvVars"},
	TypeMCPTool: {"server", "tool", "input"},
	TypePrompt:  {"prompt", "model", "continueOnBlock"},
	TypeAgent:   {"prompt", "model"},
}

var commonFields = []string{"type", "if", "timeout", "statusMessage", "once"}

// UnmarshalJSON reads a settings file's "hooks" object and checks every
// hook in it: a hook of an unknown type, without the field its type
// needs, or with a field its type does not take is an error that names
// it (hooks.PreToolUse[0].hooks[1]) and says what to write instead.
func (c *Config) UnmarshalJSON(data []byte) error {
	var raw map[Event][]struct {
		Matcher string            `json:"matcher,omitempty"`
		Hooks   []json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("hooks: %w", err)
	}
	out := Config{}
	var errs []error
	events := make([]Event, 0, len(raw))
	for ev := range raw {
		events = append(events, ev)
	}
	slices.Sort(events)
	for _, ev := range events {
		for i, m := range raw[ev] {
			mm := Matcher{Matcher: m.Matcher}
			for j, hr := range m.Hooks {
				h, err := ParseHook(hr)
				if err != nil {
					errs = append(errs, fmt.Errorf("hooks.%s[%d].hooks[%d]: %w", ev, i, j, err))
					continue
				}
				mm.Hooks = append(mm.Hooks, h)
			}
			out[ev] = append(out[ev], mm)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	*c = out
	return nil
}

// ParseHook reads one hook of a settings file and checks it (see
// Config.UnmarshalJSON).
func ParseHook(data []byte) (Hook, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return Hook{}, fmt.Errorf("a hook is a JSON object: %w", err)
	}
	var h Hook
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&h); err != nil {
		return Hook{}, fmt.Errorf("%w", err)
	}
	typ := h.Type
	if typ == "" {
		if h.Command == "" {
			return Hook{}, errors.New(`the hook has no "type"; give one of "command", "http", "prompt", "agent", "mcp_tool"`)
		}
		typ = TypeCommand // agentcore has always read a bare command as one
	}
	allowed, ok := fieldsOf[typ]
	if !ok {
		return Hook{}, fmt.Errorf(`unknown hook type %q; use "command", "http", "prompt", "agent" or "mcp_tool"`, h.Type)
	}
	var bad []string
	for k := range keys {
		if slices.Contains(commonFields, k) || slices.Contains(allowed, k) {
			continue
		}
		bad = append(bad, k)
	}
	slices.Sort(bad)
	for _, k := range bad {
		if k == "args" {
			return Hook{}, errors.New(`"args" (exec form) is not supported by agentcore; write the command and its arguments in "command", quoted for bash`)
		}
		var owners []string
		for _, t := range []string{TypeCommand, TypeHTTP, TypeMCPTool, TypePrompt, TypeAgent} {
			if slices.Contains(fieldsOf[t], k) {
				owners = append(owners, t)
			}
		}
		if len(owners) > 0 {
			return Hook{}, fmt.Errorf("%q is a field of %s hooks, not of %s hooks", k, strings.Join(owners, " and "), typ)
		}
		return Hook{}, fmt.Errorf("unknown field %q in a %s hook; its fields are %s", k, typ, strings.Join(append(slices.Clone(commonFields), allowed...), ", "))
	}
	if h.Timeout < 0 {
		return Hook{}, fmt.Errorf("timeout %v: give a number of seconds above 0, or leave it out", h.Timeout)
	}
	switch typ {
	case TypeCommand:
		if strings.TrimSpace(h.Command) == "" {
			return Hook{}, errors.New(`a command hook needs "command"`)
		}
		if sh, ok := keys["shell"]; ok && string(sh) != `"bash"` {
			return Hook{}, fmt.Errorf(`shell %s: agentcore runs command hooks with bash only; leave "shell" out`, sh)
		}
	case TypeHTTP:
		u, err := url.Parse(h.URL)
		if h.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Hook{}, fmt.Errorf(`an http hook needs "url", an http:// or https:// URL (got %q)`, h.URL)
		}
	case TypePrompt, TypeAgent:
		if strings.TrimSpace(h.Prompt) == "" {
			return Hook{}, fmt.Errorf(`a %s hook needs "prompt"`, typ)
		}
	case TypeMCPTool:
		if h.Server == "" || h.Tool == "" {
			return Hook{}, errors.New(`an mcp_tool hook needs "server" (a configured MCP server's name) and "tool"`)
		}
	}
	return h, nil
}
