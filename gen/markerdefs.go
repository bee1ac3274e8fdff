package gen

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// The marker types. Each +tool marker is a Go type: its doc comment is the
// marker's help text (the first paragraph, after the type name, is the
// meaning column of the marker table in tooldefs/doc.go, which toolgen
// -markerdoc writes), and its apply method sets it on the tool being
// built. A marker that answers an optional tooldef method for every input
// names that method, and a tool may have only one of the two. Markers
// registers each type under its key.

// toolMarker is a marker of a tool type's doc comment, as its Go type.
type toolMarker interface {
	// apply sets the marker on t. Markers are applied in registry order,
	// so a marker can rely on the ones listed before it. The error says
	// what is wrong with the value; the caller adds the position and the
	// "+tool:key: " prefix.
	apply(t *Tool) error
}

// methodDefault is a toolMarker that stands for an optional tooldef
// method: it gives the method's answer for every input.
type methodDefault interface {
	toolMarker
	// method is the optional method's name, e.g. "IsReadOnly".
	method() string
}

// Markers is the registry of every marker key toolgen accepts, in the
// order markers are applied and tooldefs/doc.go lists them. All are of
// type scope: a field doc comment takes no marker yet.
var Markers = []MarkerDef{
	stringMarker[Name]("name", "+tool:name=Glob"),
	repeatable(stringMarker[Alias]("alias", "+tool:alias=BashOutput")),
	flagMarker[ReadOnly]("readOnly", "+tool:readOnly"),
	flagMarker[ConcurrencySafe]("concurrencySafe", "+tool:concurrencySafe"),
	flagMarker[Destructive]("destructive", "+tool:destructive"),
	stringMarker[SearchHint]("searchHint", `+tool:searchHint="find files"`),
	enumMarker[Interrupt]("interrupt", "+tool:interrupt=cancel", "cancel", "block"),
	flagMarker[CancelsSiblingsOnError]("cancelsSiblingsOnError", "+tool:cancelsSiblingsOnError"),
	enumMarker[PermissionFamily]("permissionFamily", "+tool:permissionFamily=read-path", familyWords()...),
	flagMarker[LocalOnly]("localOnly", "+tool:localOnly"),
	flagMarker[AgentOnly]("agentOnly", "+tool:agentOnly"),
	flagMarker[ShouldDefer]("shouldDefer", "+tool:shouldDefer"),
	flagMarker[AlwaysLoad]("alwaysLoad", "+tool:alwaysLoad"),
	flagMarker[Disabled]("disabled", "+tool:disabled"),
	stringMarker[UserFacingName]("userFacingName", `+tool:userFacingName="Update"`),
}

// flagMarker registers a marker that takes no value.
func flagMarker[T interface {
	~struct{}
	toolMarker
}](key, example string) MarkerDef {
	return MarkerDef{Key: key, Scope: ScopeType, Value: Flag, Example: example, TypeName: reflect.TypeFor[T]().Name(),
		parse: func(string) toolMarker { var m T; return m }}
}

// stringMarker registers a marker whose value is a string.
func stringMarker[T interface {
	~string
	toolMarker
}](key, example string) MarkerDef {
	return MarkerDef{Key: key, Scope: ScopeType, Value: StringValue, Example: example, TypeName: reflect.TypeFor[T]().Name(),
		parse: func(v string) toolMarker { return T(v) }}
}

// enumMarker registers a marker whose value is one of words.
func enumMarker[T interface {
	~string
	toolMarker
}](key, example string, words ...string) MarkerDef {
	d := stringMarker[T](key, example)
	d.Value, d.Enum = EnumValue, words
	return d
}

// repeatable lets a marker appear more than once.
func repeatable(d MarkerDef) MarkerDef {
	d.Repeatable = true
	return d
}

// Name is the tool's name (required).
type Name string

func (n Name) apply(t *Tool) error {
	t.Name = string(n)
	if !isToolName(t.Name) {
		return fmt.Errorf("%q is not a valid tool name; use letters, digits, '_' and '-' (at most 64)", t.Name)
	}
	return nil
}

// Alias is an older name the tool also answers to.
type Alias string

func (a Alias) apply(t *Tool) error {
	v := string(a)
	switch {
	case v == t.Name:
		return fmt.Errorf("%q is the tool's own name; remove the alias", v)
	case slices.Contains(t.Aliases, v):
		return fmt.Errorf("%q is given twice; remove one", v)
	case !isToolName(v):
		return fmt.Errorf("%q is not a valid tool name; use letters, digits, '_' and '-' (at most 64)", v)
	}
	t.Aliases = append(t.Aliases, v)
	return nil
}

// ReadOnly makes IsReadOnly true for every input.
type ReadOnly struct{}

func (ReadOnly) apply(t *Tool) error { t.ReadOnly = true; return nil }

func (ReadOnly) method() string { return "IsReadOnly" }

// ConcurrencySafe makes IsConcurrencySafe true for every input.
type ConcurrencySafe struct{}

func (ConcurrencySafe) apply(t *Tool) error { t.ConcurrencySafe = true; return nil }

func (ConcurrencySafe) method() string { return "IsConcurrencySafe" }

// Destructive makes IsDestructive true for every input.
type Destructive struct{}

func (Destructive) apply(t *Tool) error { t.Destructive = true; return nil }

func (Destructive) method() string { return "IsDestructive" }

// SearchHint gives extra words ToolSearch scores besides the name.
type SearchHint string

func (h SearchHint) apply(t *Tool) error { t.SearchHint = string(h); return nil }

// Interrupt is what a user interrupt does to every call: cancel it, or
// block (the default) until it ends.
type Interrupt string

func (i Interrupt) apply(t *Tool) error { t.InterruptCancel = i == "cancel"; return nil }

func (Interrupt) method() string { return "InterruptBehavior" }

// CancelsSiblingsOnError makes an error result cancel the running and
// queued sibling calls.
type CancelsSiblingsOnError struct{}

func (CancelsSiblingsOnError) apply(t *Tool) error { t.CancelsSiblingsOnError = true; return nil }

// LocalOnly says every call stays on this machine: no network, no
// outside system (MCP's openWorldHint false).
type LocalOnly struct{}

func (LocalOnly) apply(t *Tool) error { t.LocalOnly = true; return nil }

// AgentOnly says the tool works only inside an agent loop: on the
// model's conversation, its user or its permission mode (agentcore mcp
// serve does not offer it).
type AgentOnly struct{}

func (AgentOnly) apply(t *Tool) error { t.AgentOnly = true; return nil }

// PermissionFamily makes this tool's rules govern every call of its
// family: read-path, edit-path, command or url.
//
// Whichever tool makes the call, read-path rules govern every call that
// reads a path, edit-path rules every call that writes one, command rules
// every shell command and url rules every URL fetch
// (runtime.PermissionFamily).
type PermissionFamily string

// permissionFamilies pairs each +tool:permissionFamily word with its
// runtime constant.
var permissionFamilies = []struct{ word, constant string }{
	{"read-path", "FamilyReadPath"},
	{"edit-path", "FamilyEditPath"},
	{"command", "FamilyCommand"},
	{"url", "FamilyURL"},
}

func familyWords() []string {
	var out []string
	for _, f := range permissionFamilies {
		out = append(out, f.word)
	}
	return out
}

func (p PermissionFamily) apply(t *Tool) error {
	for _, f := range permissionFamilies {
		if f.word == string(p) {
			t.PermissionFamily = f.constant
			return nil
		}
	}
	return fmt.Errorf("no permission family %q", string(p)) // ParseMarkers checked the word
}

// ShouldDefer withholds the tool's definition until ToolSearch loads it.
type ShouldDefer struct{}

func (ShouldDefer) apply(t *Tool) error { t.ShouldDefer = true; return nil }

// AlwaysLoad keeps the tool from ever being deferred.
type AlwaysLoad struct{}

func (AlwaysLoad) apply(t *Tool) error {
	t.AlwaysLoad = true
	if t.ShouldDefer {
		return errors.New("contradicts +tool:shouldDefer; keep one")
	}
	return nil
}

// Disabled makes IsEnabled false.
type Disabled struct{}

func (Disabled) apply(t *Tool) error { t.Disabled = true; return nil }

func (Disabled) method() string { return "IsEnabled" }

// UserFacingName is the name shown to the user.
type UserFacingName string

func (n UserFacingName) apply(t *Tool) error { t.UserFacingName = string(n); return nil }

func (UserFacingName) method() string { return "UserFacingName" }
