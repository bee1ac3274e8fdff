package gen

// Snake and IsToolName are exported for the tests.
var (
	Snake      = snake
	IsToolName = isToolName
)

// OptionalMethodNames lists the optional tooldef methods toolgen knows.
func OptionalMethodNames() []string {
	var out []string
	for _, m := range optionalMethods {
		out = append(out, m.name)
	}
	return out
}

// MarkerMethods maps the key of each marker that stands for an optional
// tooldef method to the method's name.
func MarkerMethods() map[string]string {
	out := map[string]string{}
	for _, d := range Markers {
		if m, ok := d.parse("").(methodDefault); ok {
			out[d.Key] = m.method()
		}
	}
	return out
}

// ApplyTypeMarkers parses the marker lines of a type doc comment and
// applies them to a new tool, returning it and every error's text.
func ApplyTypeMarkers(lines []CommentLine) (*Tool, []string) {
	ms, bad := ParseMarkers(lines, ScopeType)
	b := &builder{e: &errs{}}
	for _, e := range bad {
		b.e.add(e.Pos, "%s", e.Msg)
	}
	t := &Tool{}
	b.applyMarkers(t, ms)
	var out []string
	for _, e := range b.e.list {
		out = append(out, e.Error())
	}
	return t, out
}

// TagErr applies a jsonschema tag to a value of the given kind ("string",
// "int", "uint8", "float64", "bool", "[]string", "[]int", "map", "*int")
// and returns the error text, "" when the tag is accepted.
func TagErr(kind, tag string, required bool) string {
	mk := map[string]func() *Type{
		"string":   func() *Type { return &Type{Kind: KString, Basic: "string"} },
		"int":      func() *Type { return &Type{Kind: KInt, Basic: "int", Bits: 64} },
		"uint8":    func() *Type { return &Type{Kind: KUint, Basic: "uint8", Bits: 8} },
		"float64":  func() *Type { return &Type{Kind: KFloat, Basic: "float64", Bits: 64} },
		"bool":     func() *Type { return &Type{Kind: KBool, Basic: "bool"} },
		"[]string": func() *Type { return &Type{Kind: KSlice, Elem: &Type{Kind: KString, Basic: "string"}} },
		"[]int":    func() *Type { return &Type{Kind: KSlice, Elem: &Type{Kind: KInt, Basic: "int", Bits: 64}} },
		"map":      func() *Type { return &Type{Kind: KMap, Elem: &Type{Kind: KString, Basic: "string"}} },
		"*int":     func() *Type { return &Type{Kind: KPointer, Elem: &Type{Kind: KInt, Basic: "int", Bits: 64}} },
	}
	if err := applyTags(mk[kind](), tag, required); err != nil {
		return err.Error()
	}
	return ""
}
