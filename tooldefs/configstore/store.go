// Package configstore reads and writes agentcore's settings file, one known
// setting at a time. It backs the internal-only Config tool, and is imported
// by nothing else, so variants without that tool do not contain it.
package configstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentcore/agentcore/runtime/atomicfile"
)

// Kind is the JSON type a setting holds.
type Kind int

const (
	// String settings hold a JSON string.
	String Kind = iota
	// Bool settings hold true or false.
	Bool
	// Enum settings hold one string of a fixed set.
	Enum
)

// Setting describes one setting the Config tool may read and write.
type Setting struct {
	// Key is the dotted path inside the settings file, e.g. "permissions.defaultMode".
	Key string
	// Kind is the JSON type of the value.
	Kind Kind
	// Values lists the allowed values of an Enum setting.
	Values []string
	// Doc says what the setting does.
	Doc string
}

// Known lists the settings the Config tool manages, sorted by key.
var Known = []Setting{
	{Key: "model", Kind: String, Doc: "default model, e.g. anthropic:claude-sonnet-4-5 or replay:FILE"},
	{Key: "outputStyle", Kind: Enum, Values: []string{"default", "concise", "verbose"}, Doc: "how much the agent writes"},
	{Key: "permissions.defaultMode", Kind: Enum, Values: []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"}, Doc: "permission mode at start"},
	{Key: "theme", Kind: Enum, Values: []string{"dark", "light", "none"}, Doc: "terminal colour theme"},
	{Key: "toolSearch", Kind: String, Doc: "deferred tool discovery: always, never or auto[:N]"},
	{Key: "verbose", Kind: Bool, Doc: "show full tool output"},
	{Key: "webSearch.endpoint", Kind: String, Doc: "URL of the HTTP JSON search API used by WebSearch"},
}

// Lookup returns the known setting with key.
func Lookup(key string) (Setting, error) {
	for _, s := range Known {
		if s.Key == key {
			return s, nil
		}
	}
	keys := make([]string, len(Known))
	for i, s := range Known {
		keys[i] = s.Key
	}
	return Setting{}, fmt.Errorf("unknown setting %q; known settings: %s", key, strings.Join(keys, ", "))
}

// Check validates a raw JSON value for the setting.
func (s Setting) Check(raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("setting %q: value is not valid JSON: %w", s.Key, err)
	}
	switch s.Kind {
	case Bool:
		if _, ok := v.(bool); !ok {
			return nil, fmt.Errorf("setting %q takes true or false, got %s", s.Key, raw)
		}
	case String, Enum:
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("setting %q takes a string, got %s", s.Key, raw)
		}
		if s.Kind == Enum && !slices.Contains(s.Values, str) {
			return nil, fmt.Errorf("setting %q takes one of %s, got %q", s.Key, strings.Join(s.Values, ", "), str)
		}
		if s.Key == "toolSearch" && !validToolSearch(str) {
			return nil, fmt.Errorf("setting %q takes always, never, auto or auto:N (N a percentage 1-100), got %q", s.Key, str)
		}
	}
	return v, nil
}

func validToolSearch(s string) bool {
	switch s {
	case "always", "never", "auto":
		return true
	}
	n, ok := strings.CutPrefix(s, "auto:")
	if !ok {
		return false
	}
	var pct int
	if _, err := fmt.Sscanf(n, "%d", &pct); err != nil || fmt.Sprint(pct) != n {
		return false
	}
	return pct >= 1 && pct <= 100
}

// Store is one settings file.
type Store struct {
	// Path is the settings file, e.g. ~/.agentcore/settings.json.
	Path string
}

// UserPath returns the user settings file under home.
func UserPath(home string) string {
	return filepath.Join(home, ".agentcore", "settings.json")
}

// Get returns the value of key, and whether it is set.
func (s Store) Get(key string) (any, bool, error) {
	doc, err := s.load()
	if err != nil {
		return nil, false, err
	}
	var cur any = doc
	for _, part := range strings.Split(key, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, nil
		}
		if cur, ok = m[part]; !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}

// Set writes value at key, keeping every other setting, atomically.
func (s Store) Set(key string, value any) error {
	doc, err := s.load()
	if err != nil {
		return err
	}
	parts := strings.Split(key, ".")
	m := doc
	for _, part := range parts[:len(parts)-1] {
		next, ok := m[part].(map[string]any)
		if !ok {
			if _, exists := m[part]; exists {
				return fmt.Errorf("settings file %s: %q is not an object; fix it by hand before setting %q", s.Path, part, key)
			}
			next = map[string]any{}
			m[part] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = value
	return s.write(doc)
}

func (s Store) load() (map[string]any, error) {
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]any{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("settings file %s is not a JSON object (%w); fix or remove it", s.Path, err)
	}
	if doc == nil {
		doc = map[string]any{}
	}
	return doc, nil
}

// write replaces the file atomically (atomicfile.Write: a temp file in
// the same directory, fsynced, renamed over the old one).
func (s Store) write(doc map[string]any) error {
	data, err := marshalSorted(doc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o755); err != nil {
		return fmt.Errorf("create settings directory: %w", err)
	}
	if err := atomicfile.Write(s.Path, data, 0o644); err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	return nil
}

// marshalSorted indents the document; encoding/json sorts map keys.
func marshalSorted(doc map[string]any) ([]byte, error) {
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode settings: %w", err)
	}
	return append(data, '\n'), nil
}

// Keys returns the known keys, sorted.
func Keys() []string {
	keys := make([]string, len(Known))
	for i, s := range Known {
		keys[i] = s.Key
	}
	sort.Strings(keys)
	return keys
}
