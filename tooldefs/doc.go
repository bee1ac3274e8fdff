// Package tooldefs holds agentcore's tools, one file per tool. toolgen reads
// this package (go/packages + go/types) and generates one runtime.Definition
// per tool, JSON schemas and per-variant registries into ../generated.
//
// # Defining a tool
//
// A tool is a struct type whose doc comment carries +tool markers. The rest
// of the doc comment (markers removed) is the tool's description, sent to
// the model. The tool's input type is the pointer parameter of its Call
// method:
//
//	// Glob finds files whose path matches a glob pattern, newest first.
//	//
//	// +tool:name=Glob
//	// +tool:readOnly
//	// +tool:concurrencySafe
//	// +tool:searchHint="find files by name pattern"
//	type Glob struct{}
//
//	// GlobInput is the input of Glob.
//	type GlobInput struct {
//		// Pattern is the glob to match, e.g. "**/*.go".
//		Pattern string `json:"pattern"`
//		// Path is the directory to search; the working directory if empty.
//		Path string `json:"path,omitempty"`
//	}
//
//	func (Glob) Call(ctx context.Context, in *GlobInput, c *runtime.Call) (GlobOutput, error)
//
// # Markers
//
// One marker a line, in the type's doc comment, of the form +tool:key or
// +tool:key=value. String values may be bare or double-quoted (Go syntax).
// Unknown keys, values of the wrong type, a value on a flag marker and
// repeated non-repeatable markers are errors reported with file:line.
// So are markers where toolgen would not read them: on a function,
// variable or constant, on a parenthesised group of types, or in a struct
// field's doc comment. A type with markers must have +tool:name and a
// description. The table is generated (make generate) from the marker
// types of package gen, whose doc comments give the meaning column.
//
//	key                     value   example                           meaning
//	name                    string  +tool:name=Glob                   is the tool's name (required)
//	alias                   string  +tool:alias=BashOutput            is an older name the tool also answers to; repeatable
//	readOnly                none    +tool:readOnly                    makes IsReadOnly true for every input
//	concurrencySafe         none    +tool:concurrencySafe             makes IsConcurrencySafe true for every input
//	destructive             none    +tool:destructive                 makes IsDestructive true for every input
//	searchHint              string  +tool:searchHint="find files"     gives extra words ToolSearch scores besides the name
//	interrupt               enum    +tool:interrupt=cancel            is what a user interrupt does to every call: cancel it, or block (the default) until it ends
//	cancelsSiblingsOnError  none    +tool:cancelsSiblingsOnError      makes an error result cancel the running and queued sibling calls
//	permissionFamily        enum    +tool:permissionFamily=read-path  makes this tool's rules govern every call of its family: read-path, edit-path, command or url
//	localOnly               none    +tool:localOnly                   says every call stays on this machine: no network, no outside system (MCP's openWorldHint false)
//	agentOnly               none    +tool:agentOnly                   says the tool works only inside an agent loop: on the model's conversation, its user or its permission mode (agentcore mcp serve does not offer it)
//	shouldDefer             none    +tool:shouldDefer                 withholds the tool's definition until ToolSearch loads it
//	alwaysLoad              none    +tool:alwaysLoad                  keeps the tool from ever being deferred
//	disabled                none    +tool:disabled                    makes IsEnabled false
//	userFacingName          string  +tool:userFacingName="Update"     is the name shown to the user
//
// # Optional behaviour
//
// toolgen writes one runtime.Definition per tool (generated/<tool>_tool.go).
// Each optional behaviour comes from a method on the tool type when it has
// one, from its marker otherwise, and else from runtime.ToolDefaults, the
// one table of defaults every tool shares (fail-closed: not
// concurrency-safe, not read-only, interrupt block, passthrough). A marker
// and a method for the same behaviour is an error. toolgen itself writes
// two behaviours a tooldef need not: the result's content (text of a
// string or Stringer Out, else Out as JSON) and RenderUse (the first
// required string parameter, as Claude Code shows Read(src/main.go)). In
// the signatures below In is the input struct and Out the output type:
//
//	Call(ctx context.Context, in *In, c *runtime.Call) (Out, error)                       required
//	ValidateInput(ctx context.Context, in *In, tc *runtime.ToolContext) error
//	CheckPermissions(ctx context.Context, in *In, tc *runtime.ToolContext) runtime.PermissionDecision
//	PermissionTarget(in *In) runtime.Target
//	IsConcurrencySafe(in *In) bool           marker concurrencySafe
//	IsReadOnly(in *In) bool                  marker readOnly
//	IsDestructive(in *In) bool               marker destructive
//	IsEnabled() bool                         marker disabled
//	InterruptBehavior(in *In) runtime.InterruptBehavior
//	                                         marker interrupt
//	UserFacingName(in *In) string            marker userFacingName
//	ResultBlocks(out Out) []runtime.Block    toolgen: text of Out (string, Stringer or JSON)
//	RenderUse(in *In) string                 toolgen: the first required string parameter
//	RenderProgress(in *In, p P) string       P is the progress type; other values get the default
//	RenderResult(in *In, out Out) string
//	RenderRejected(in *In) string
//	RenderError(in *In, err error) string
//	RenderGrouped(ins []*In) string
//	RenderPreview(in *In, tc *runtime.ToolContext) string
//
// # Input fields
//
// Input fields carry json tags (the parameter name, the Go field name when
// the tag gives none; omitempty or omitzero makes a parameter optional,
// otherwise it is required) and doc comments, which become the schema's
// descriptions verbatim. Fields tagged json:"-" or jsonschema:"-" and
// unexported fields are not parameters. Supported field types: string,
// bool, the integer and float kinds (and named types of those), pointers to
// them (optional values that distinguish absent from zero), slices, named
// structs (inlined in the schema), map[string]T, and json.RawMessage/any
// (any JSON value). Not supported, each reported with its position:
// embedded fields, anonymous structs, []byte, arrays, maps with non-string
// keys, other interfaces, recursive types, the json options ",string" and
// ",inline", types with their own UnmarshalJSON or JSONSchema methods, and
// +tool markers in a field's doc comment.
//
// Constraints go in jsonschema tags, which both the schema and the
// generated validator read: enum=a,enum=b (strings and numbers; a comma
// inside a value is written \,), minimum= and maximum= (numbers),
// minLength= and maxLength= (strings, in characters), minItems= and
// maxItems= (slices), default= (applied by the decoder when the parameter
// is absent; only on optional parameters; a []string takes one default=
// per element). On a slice, keys other than minItems, maxItems and default
// apply to its elements. A key that does not fit the field's type and any
// other jsonschema key are errors, so the schema and the validator never
// disagree.
//
// The generated decoder rejects unknown parameters, a missing required
// parameter, a value of the wrong JSON type (null included, except for
// json.RawMessage/any), and values outside the constraints or outside the
// Go type's range (300 for an int8, -1 for a uint). A whole number written
// 2.0 or 1e3 is an integer, as in JSON Schema. Errors name the parameter:
//
//	parameter "edits[1].old_string": required parameter is missing
//	parameter "limit": expected integer, got string
//
// # Output
//
// Without a ResultBlocks method the tool_result text is the output itself
// when Out is a string type, its String() when Out is a fmt.Stringer, and
// its JSON otherwise.
//
// # Generated files
//
// For a tool named NotebookEdit toolgen writes generated/notebook_edit_tool.go
// (with the tooldef file's //go:build line; it embeds the schema) and
// generated/schemas/notebook_edit.json, plus generated/registry_<variant>.go
// with each variant's AllBaseTools. A tool's input types must be the same in
// every variant that has it.
//
// # Build variants
//
// A tool's file's //go:build line gates it: a file without one is in every
// variant; //go:build internal || ant puts it in the internal and ant
// variants only; //go:build !ant removes it from ant. Only the tags
// external, internal and ant may appear. Engines used only by a gated tool
// live in a sub-package imported only by that tool's file.
package tooldefs

//go:generate go run ../cmd/toolgen -dir . -out ../generated -markerdoc doc.go
