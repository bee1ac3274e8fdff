package gen

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
)

// MarkerPrefix starts every toolgen marker line.
const MarkerPrefix = "+tool:"

// Scope says which doc comment a marker belongs to.
type Scope int

const (
	// ScopeType markers go in the doc comment of a tool's struct type.
	ScopeType Scope = iota
	// ScopeField markers go in the doc comment of an input field.
	ScopeField
)

// String returns "type" or "field".
func (s Scope) String() string {
	if s == ScopeField {
		return "field"
	}
	return "type"
}

// ValueKind is the type of a marker's argument.
type ValueKind int

const (
	// Flag markers take no value: +tool:readOnly.
	Flag ValueKind = iota
	// StringValue markers take a bare or double-quoted string.
	StringValue
	// EnumValue markers take one of the definition's Enum words.
	EnumValue
)

// String returns the kind as the marker table names it: "none", "string"
// or "enum".
func (k ValueKind) String() string {
	switch k {
	case StringValue:
		return "string"
	case EnumValue:
		return "enum"
	}
	return "none"
}

// MarkerDef is one key of the marker grammar, registered in Markers.
type MarkerDef struct {
	// Key is the text after "+tool:", e.g. "readOnly".
	Key string
	// Scope is the doc comment the marker belongs in.
	Scope Scope
	// Value is the argument's type.
	Value ValueKind
	// Enum lists the words an EnumValue marker accepts.
	Enum []string
	// Repeatable markers may appear more than once (alias).
	Repeatable bool
	// Example is a marker line as a tool author writes it.
	Example string
	// TypeName is the marker's Go type in this package (markerdefs.go),
	// whose doc comment is the marker's help text.
	TypeName string
	// parse makes the marker's Go type from its checked value.
	parse func(value string) toolMarker
}

func lookupMarker(key string) *MarkerDef {
	for i := range Markers {
		if Markers[i].Key == key {
			return &Markers[i]
		}
	}
	return nil
}

// CommentLine is one line of a doc comment, without its "//", and the
// position of its first character.
type CommentLine struct {
	Text string
	Pos  token.Position
}

// Marker is one parsed marker line.
type Marker struct {
	// Key is the marker's key, e.g. "alias".
	Key string
	// Value is the unquoted argument; empty for flags.
	Value string
	// Pos is the position of the '+'.
	Pos token.Position
	// typed is the marker as its Go type, which applies it to the tool.
	typed toolMarker
}

// IsMarkerLine reports whether a comment line (without "//") is a toolgen
// marker line.
func IsMarkerLine(text string) bool {
	t := strings.TrimSpace(text)
	return t == "+tool" || strings.HasPrefix(t, MarkerPrefix)
}

// ParseMarkers parses the marker lines among lines, a doc comment of the
// given scope. Other lines are ignored. It returns every well-formed marker
// and an error for each bad one: unknown key, wrong scope, a value where
// none is taken or none where one is needed, a bad quoted string, an enum
// word outside its list, and a repeated non-repeatable key.
func ParseMarkers(lines []CommentLine, scope Scope) ([]Marker, []Error) {
	var out []Marker
	var bad []Error
	seen := map[string]token.Position{}
	for _, l := range lines {
		if !IsMarkerLine(l.Text) {
			continue
		}
		trimmed := strings.TrimLeft(l.Text, " \t")
		pos := l.Pos
		pos.Column += len(l.Text) - len(trimmed)
		pos.Offset += len(l.Text) - len(trimmed)
		trimmed = strings.TrimRight(trimmed, " \t")
		fail := func(format string, args ...any) {
			bad = append(bad, Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
		}
		if trimmed == "+tool" {
			fail("+tool: marker without a key; write +tool:key or +tool:key=value")
			continue
		}
		body := strings.TrimPrefix(trimmed, MarkerPrefix)
		key, value, hasValue := strings.Cut(body, "=")
		key = strings.TrimSpace(key)
		def := lookupMarker(key)
		if def == nil {
			msg := fmt.Sprintf("+tool:%s: unknown marker", key)
			if s := suggestMarker(key); s != "" {
				msg += "; did you mean +tool:" + s + "?"
			} else {
				msg += "; known markers: " + markerKeys()
			}
			fail("%s", msg)
			continue
		}
		if def.Scope != scope {
			fail("+tool:%s: belongs in a %s doc comment, not a %s doc comment", key, def.Scope, scope)
			continue
		}
		value = strings.TrimSpace(value)
		if strings.HasPrefix(value, `"`) {
			uq, err := strconv.Unquote(value)
			if err != nil {
				fail("+tool:%s: bad quoted string %s; use Go syntax, e.g. %s", key, value, def.Example)
				continue
			}
			value = uq
		}
		switch def.Value {
		case Flag:
			if hasValue {
				fail("+tool:%s: takes no value (got %q)", key, value)
				continue
			}
		case StringValue:
			if value == "" {
				fail("+tool:%s: needs a value, e.g. %s", key, def.Example)
				continue
			}
		case EnumValue:
			if !contains(def.Enum, value) {
				fail("+tool:%s: want one of %s (got %q)", key, strings.Join(def.Enum, ", "), value)
				continue
			}
		}
		if first, dup := seen[key]; dup && !def.Repeatable {
			fail("+tool:%s: repeated (first at line %d); give it once", key, first.Line)
			continue
		}
		seen[key] = pos
		out = append(out, Marker{Key: key, Value: value, Pos: pos, typed: def.parse(value)})
	}
	return out, bad
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func suggestMarker(key string) string {
	for _, m := range Markers {
		if strings.EqualFold(m.Key, key) {
			return m.Key
		}
	}
	return ""
}

func markerKeys() string {
	keys := make([]string, len(Markers))
	for i, m := range Markers {
		keys[i] = m.Key
	}
	return strings.Join(keys, ", ")
}

// markerSet answers questions about one doc comment's markers.
type markerSet []Marker

func (s markerSet) has(key string) bool {
	for _, m := range s {
		if m.Key == key {
			return true
		}
	}
	return false
}
