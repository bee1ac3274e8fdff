package pool

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// DeferKind says when deferrable tools are deferred.
type DeferKind int

const (
	// DeferAlways defers every deferrable tool (the default, as in Claude
	// Code).
	DeferAlways DeferKind = iota
	// DeferNever sends every definition.
	DeferNever
	// DeferAuto defers only when the deferrable definitions would take
	// more than Percent % of the context window.
	DeferAuto
)

// DefaultAutoPercent is auto mode's threshold when none is given.
const DefaultAutoPercent = 10

// EnvToolSearch is the environment variable that sets the mode; it wins
// over the toolSearch setting.
const EnvToolSearch = "AGENTCORE_TOOL_SEARCH"

// DeferMode is a deferral mode: always, never or auto[:N].
type DeferMode struct {
	Kind DeferKind
	// Percent is auto mode's threshold, 1–100; 0 means DefaultAutoPercent.
	Percent int
}

func (m DeferMode) percent() int {
	if m.Percent <= 0 {
		return DefaultAutoPercent
	}
	return m.Percent
}

// String returns "always", "never" or "auto:N".
func (m DeferMode) String() string {
	switch m.Kind {
	case DeferNever:
		return "never"
	case DeferAuto:
		return fmt.Sprintf("auto:%d", m.percent())
	}
	return "always"
}

// ParseDeferMode parses "always", "never", "auto" or "auto:N" (N a whole
// percentage from 1 to 100). "" is always; true/false are accepted for
// always/never, as Claude Code's ENABLE_TOOL_SEARCH does.
func ParseDeferMode(s string) (DeferMode, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "", "always", "true", "1", "on":
		return DeferMode{Kind: DeferAlways}, nil
	case "never", "false", "0", "off":
		return DeferMode{Kind: DeferNever}, nil
	case "auto":
		return DeferMode{Kind: DeferAuto, Percent: DefaultAutoPercent}, nil
	}
	if n, ok := strings.CutPrefix(v, "auto:"); ok {
		pct, err := strconv.Atoi(n)
		if err == nil && pct >= 1 && pct <= 100 {
			return DeferMode{Kind: DeferAuto, Percent: pct}, nil
		}
	}
	return DeferMode{}, fmt.Errorf("tool search mode %q: use always, never, auto or auto:N with N from 1 to 100", s)
}

// ResolveDeferMode picks the mode from the environment variable
// AGENTCORE_TOOL_SEARCH (getenv, e.g. os.Getenv) when set, else from the
// toolSearch setting, else always.
func ResolveDeferMode(getenv func(string) string, setting string) (DeferMode, error) {
	if getenv != nil {
		if v := getenv(EnvToolSearch); strings.TrimSpace(v) != "" {
			m, err := ParseDeferMode(v)
			if err != nil {
				return m, fmt.Errorf("%s: %w", EnvToolSearch, err)
			}
			return m, nil
		}
	}
	m, err := ParseDeferMode(setting)
	if err != nil {
		return m, fmt.Errorf("setting toolSearch: %w", err)
	}
	return m, nil
}

// Definition is a tool's definition as sent to the API.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// DefinitionOf returns t's API definition. A schema that is not valid
// JSON is replaced by an empty object schema, so the definition always
// marshals.
func DefinitionOf(t runtime.Tool) Definition {
	schema := t.InputSchema()
	if len(schema) == 0 || !json.Valid(schema) {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return Definition{Name: t.Name(), Description: t.Description(), InputSchema: schema}
}

// JSON returns the definition as compact JSON.
func (d Definition) JSON() []byte {
	b, err := json.Marshal(d)
	if err != nil {
		return []byte(`{"name":` + strconv.Quote(d.Name) + `}`)
	}
	return b
}

// CharsPerToken is the estimator's ratio: Anthropic's guidance for
// English text and JSON is about 3.5–4 characters a token.
const CharsPerToken = 4

// EstimateTokens estimates the tokens of the tools' definitions: the
// characters of their compact JSON divided by CharsPerToken, rounded up.
// It is a planning estimate, not a tokenizer.
func EstimateTokens(tools ...runtime.Tool) int {
	n := 0
	for _, t := range tools {
		n += EstimateText(string(DefinitionOf(t).JSON()))
	}
	return n
}

// EstimateText estimates the tokens of a text.
func EstimateText(s string) int {
	return (len(s) + CharsPerToken - 1) / CharsPerToken
}
