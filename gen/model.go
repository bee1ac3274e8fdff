package gen

import "go/token"

// Model is what toolgen generates from: every tool of the tooldefs package,
// validated, with the per-variant gating and the JSON schemas resolved.
type Model struct {
	// PkgPath is the import path of the tooldefs package; PkgName its name.
	PkgPath string
	PkgName string
	// Tools are sorted by Name.
	Tools []*Tool
	// Gating is what each variant leaves out, for gating.json (gating.go);
	// nil when the model was not loaded.
	Gating *Gating
}

// OutKind says how a tool's output becomes tool_result content when the
// tooldef has no ResultBlocks method.
type OutKind int

const (
	// OutJSON marshals the output with encoding/json.
	OutJSON OutKind = iota
	// OutText uses the output, a string type, as the text.
	OutText
	// OutStringer uses the output's String method.
	OutStringer
)

// Tool is one tool: its markers, methods and types.
type Tool struct {
	// Name is the +tool:name; Aliases the +tool:alias values in order.
	Name    string
	Aliases []string
	// TypeName is the tooldef's Go type, e.g. "Read".
	TypeName string
	// Description is the doc comment without its marker lines, with any
	// doc link to a string constant ([Name]) replaced by the constant's
	// value in the first variant that has the tool.
	Description string
	// DescriptionParts is the description cut at its doc links to string
	// constants, when it has any (else nil): the definition joins the
	// literal parts with the constants, so that each variant gets
	// the value it compiles (a constant declared in build-tagged files).
	DescriptionParts []DescriptionPart
	// SearchHint and UserFacingName are the markers' values, if given.
	SearchHint     string
	UserFacingName string
	// Flags from markers.
	ReadOnly, ConcurrencySafe, Destructive bool
	Disabled, ShouldDefer, AlwaysLoad      bool
	InterruptCancel                        bool
	// CancelsSiblingsOnError is the +tool:cancelsSiblingsOnError flag.
	CancelsSiblingsOnError bool
	// LocalOnly is the +tool:localOnly flag.
	LocalOnly bool
	// AgentOnly is the +tool:agentOnly flag.
	AgentOnly bool
	// PermissionFamily is the runtime constant of the
	// +tool:permissionFamily value ("FamilyReadPath"), or "".
	PermissionFamily string
	// Methods says which optional methods the tooldef defines.
	Methods Methods
	// Input is the input struct; Structs every struct type to decode,
	// Input first.
	Input   *Struct
	Structs []*Struct
	// Output is Call's result type; OutKind how it becomes content.
	Output  *Type
	OutKind OutKind
	// Progress is RenderProgress's progress parameter type, if defined.
	Progress *Type
	// RenderUseField is the first required string parameter (the default
	// RenderUse), or nil.
	RenderUseField *Field
	// BuildLine is the tooldef file's //go:build expression, or "".
	BuildLine string
	// Variants are the variants the tool is compiled into.
	Variants []string
	// FileBase names the generated files: <FileBase>_tool.go and
	// schemas/<FileBase>.json.
	FileBase string
	// Pos is the position of the tool's type name.
	Pos token.Position
	// Schema is the tool's input JSON Schema, indented.
	Schema []byte
}

// DescriptionPart is literal text, or (Const set) a reference to a string
// constant of the tooldefs package.
type DescriptionPart struct {
	Text  string
	Const string
}

// Methods says which optional tooldef methods a tool defines (with the
// signature tooldefs/doc.go documents); the definition uses each one it has
// and leaves the others to the marker or runtime.ToolDefaults.
type Methods struct {
	ValidateInput, CheckPermissions, PermissionTarget       bool
	IsConcurrencySafe, IsReadOnly, IsDestructive, IsEnabled bool
	InterruptBehavior, UserFacingName, ResultBlocks         bool
	RenderUse, RenderProgress, RenderResult, RenderRejected bool
	RenderError, RenderGrouped, RenderPreview               bool
}

// Kind is the JSON shape of a decoded type.
type Kind int

// The decodable kinds. Other is any other Go type, used only for outputs.
const (
	KString Kind = iota
	KBool
	KInt
	KUint
	KFloat
	KStruct
	KSlice
	KMap
	KPointer
	KAny
	KRaw
	KOther
)

// Ref names a Go type declared in a package.
type Ref struct {
	Pkg, Name string
}

// Type is a Go type in a form the emitters can write and decode.
type Type struct {
	Kind Kind
	// Bits is the size of int, uint and float kinds (int and uint: 64).
	Bits int
	// Basic is the predeclared name of a basic kind ("int32").
	Basic string
	// Named is set for a declared type; values are converted to it.
	Named *Ref
	// Elem is the element of slices, maps and pointers; Key the key of a
	// map (output types only: input maps have string keys).
	Elem *Type
	Key  *Type
	// Struct is set for KStruct.
	Struct *Struct
	// C are the jsonschema constraints on this value.
	C Constraints
}

// Constraints are the validation keywords from a field's jsonschema tag,
// already checked against the value's kind. Numbers are kept as written.
type Constraints struct {
	Enum                 []string
	Minimum, Maximum     string
	MinLength, MaxLength int
	MinItems, MaxItems   int
	HasMinLength         bool
	HasMaxLength         bool
	HasMinItems          bool
	HasMaxItems          bool
	// Default is the value applied when the member is absent; for a
	// []string, DefaultList.
	Default     string
	HasDefault  bool
	DefaultList []string
}

// Struct is a struct type decoded from a JSON object.
type Struct struct {
	Ref    Ref
	Fields []*Field
	// Func is the name of its generated decode function.
	Func string
	// Shape lists every field of the Go struct, in order, when all are
	// exported and writable in generated code; the generated file converts the
	// struct to it so a changed struct breaks the build until regenerated.
	Shape []ShapeField
}

// ShapeField is one field of a struct's shape.
type ShapeField struct {
	Name string
	Type *Type
}

// Field is one parameter: a struct field with a JSON name.
type Field struct {
	GoName   string
	JSONName string
	Type     *Type
	Required bool
	Doc      string
	Pos      token.Position
}
