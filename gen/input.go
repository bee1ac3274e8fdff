package gen

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// structBuilder builds the decodable model of one tool's input types.
type structBuilder struct {
	b      *builder
	t      *Tool
	pkg    *packages.Package
	docs   map[token.Pos]*ast.CommentGroup
	done   map[*types.Named]*Struct
	active map[*types.Named]bool
	funcs  map[string]bool
	// files caches sources parsed for docs of other packages' fields,
	// with the file set that parsed each.
	files map[string]*ast.File
	fsets map[*ast.File]*token.FileSet
}

// fieldDocs indexes the doc comments of every struct field in the package
// by the position of the field's name.
func fieldDocs(pkg *packages.Package) map[token.Pos]*ast.CommentGroup {
	docs := map[token.Pos]*ast.CommentGroup{}
	for _, f := range pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fl := range st.Fields.List {
				doc := fl.Doc
				if doc == nil {
					doc = fl.Comment
				}
				for _, name := range fl.Names {
					docs[name.Pos()] = doc
				}
			}
			return true
		})
	}
	return docs
}

// docFor returns a field's doc comment: from the loaded syntax for the
// tooldefs package, else by parsing the file the field's position names
// (input types may live in another package).
func (sb *structBuilder) docFor(v *types.Var) *ast.CommentGroup {
	if doc, ok := sb.docs[v.Pos()]; ok {
		return doc
	}
	pos := sb.pkg.Fset.Position(v.Pos())
	if pos.Filename == "" || pos.Line == 0 {
		return nil
	}
	if sb.files == nil {
		sb.files, sb.fsets = map[string]*ast.File{}, map[*ast.File]*token.FileSet{}
	}
	f, seen := sb.files[pos.Filename]
	if !seen {
		fset := token.NewFileSet()
		f, _ = parser.ParseFile(fset, pos.Filename, nil, parser.ParseComments)
		sb.files[pos.Filename] = f
		if f != nil {
			sb.fsets[f] = fset
		}
	}
	if f == nil {
		return nil
	}
	var doc *ast.CommentGroup
	ast.Inspect(f, func(n ast.Node) bool {
		fl, ok := n.(*ast.Field)
		if !ok {
			return doc == nil
		}
		for _, name := range fl.Names {
			if name.Name == v.Name() && sb.fsets[f].Position(name.Pos()).Line == pos.Line {
				doc = fl.Doc
				if doc == nil {
					doc = fl.Comment
				}
			}
		}
		return doc == nil
	})
	return doc
}

// structOf builds the model of a named struct type, reporting problems at
// pos (or at the offending field).
func (sb *structBuilder) structOf(n *types.Named, pos token.Position) *Struct {
	if s := sb.done[n]; s != nil {
		return s
	}
	name := n.Obj().Name()
	if sb.active[n] {
		sb.b.e.add(pos, "input type %s refers to itself; recursive input types cannot be decoded or inlined in a schema", name)
		return nil
	}
	if n.TypeArgs().Len() > 0 {
		sb.b.e.add(pos, "input type %s is generic; use a non-generic struct", n)
		return nil
	}
	if n.Obj().Pkg() == nil {
		sb.b.e.add(pos, "input type %s is not a declared struct", n)
		return nil
	}
	if m := customJSON(n); m != "" {
		sb.b.e.add(pos, "input type %s has a %s method; the generated decoder and schema would ignore it", name, m)
		return nil
	}
	sb.active[n] = true
	defer delete(sb.active, n)
	if sb.docs == nil {
		sb.docs = fieldDocs(sb.pkg)
	}
	st := n.Underlying().(*types.Struct)
	s := &Struct{Ref: Ref{Pkg: n.Obj().Pkg().Path(), Name: name}}
	fn := lowerFirst(sb.t.TypeName) + "Decode" + name
	if s.Ref.Pkg != sb.pkg.PkgPath {
		fn = lowerFirst(sb.t.TypeName) + "Decode" + upperFirst(n.Obj().Pkg().Name()) + name
	}
	base := fn
	for i := 2; sb.funcs[fn]; i++ {
		fn = base + strconv.Itoa(i)
	}
	sb.funcs[fn] = true
	s.Func = fn
	ok := true
	names := map[string]string{}
	shape := true
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		if shape {
			ft, err := typeRef(v.Type())
			shape = err == nil && v.Exported() && !v.Embedded()
			s.Shape = append(s.Shape, ShapeField{Name: v.Name(), Type: ft})
		}
		fpos := sb.pkg.Fset.Position(v.Pos())
		tag := reflect.StructTag(st.Tag(i))
		if v.Embedded() {
			sb.b.e.add(fpos, "field %s.%s: embedded fields are not supported in input types; give it a field name and a json tag", name, v.Name())
			ok = false
			continue
		}
		if !v.Exported() {
			continue
		}
		jsonTag := tag.Get("json")
		jname, opts, _ := strings.Cut(jsonTag, ",")
		if jname == "-" && opts == "" {
			continue
		}
		schemaTag := tag.Get("jsonschema")
		if schemaTag == "-" || strings.HasPrefix(schemaTag, "-,") {
			continue
		}
		if jname == "" {
			jname = v.Name()
		}
		f := &Field{GoName: v.Name(), JSONName: jname, Required: true, Pos: sb.b.e.rel(fpos)}
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty", "omitzero":
				f.Required = false
			case "string", "inline":
				sb.b.e.add(fpos, "field %s.%s: json option %q is not supported in input types; remove it", name, v.Name(), o)
				ok = false
			}
		}
		if prev, dup := names[jname]; dup {
			sb.b.e.add(fpos, "field %s.%s: parameter name %q is also used by field %s; give each a distinct json name", name, v.Name(), jname, prev)
			ok = false
			continue
		}
		names[jname] = v.Name()
		if doc := sb.docFor(v); doc != nil {
			// Markers here are reported by checkStrayMarkers.
			f.Doc = docText(doc)
		}
		ft, err := sb.fieldType(v.Type(), fpos)
		if errors.Is(err, errReported) {
			ok = false
			continue
		}
		if err != nil {
			sb.b.e.add(fpos, "field %s.%s: %v", name, v.Name(), err)
			ok = false
			continue
		}
		if err := applyTags(ft, schemaTag, f.Required); err != nil {
			sb.b.e.add(fpos, "field %s.%s: jsonschema tag %q: %v", name, v.Name(), schemaTag, err)
			ok = false
			continue
		}
		f.Type = ft
		s.Fields = append(s.Fields, f)
	}
	if !ok {
		return nil
	}
	if !shape {
		s.Shape = nil
	}
	sb.done[n] = s
	sb.t.Structs = append(sb.t.Structs, s)
	return s
}

// customJSON names the method that gives a type a JSON form other than
// the one toolgen derives, or "".
func customJSON(t types.Type) string {
	ms := types.NewMethodSet(types.NewPointer(t))
	for _, m := range []string{"UnmarshalJSON", "UnmarshalText", "JSONSchema", "JSONSchemaExtend", "JSONSchemaAlias"} {
		if ms.Lookup(nil, m) != nil {
			return m
		}
	}
	return ""
}

const supportedTypes = "use string, bool, an integer or float kind, a pointer to one of those, a slice, a named struct, map[string]T, json.RawMessage or any"

// errReported is fieldType's error when the problem was already reported
// at the offending field of a nested struct.
var errReported = errors.New("reported")

// fieldType converts an input field's type; the error says why it cannot,
// or is errReported.
func (sb *structBuilder) fieldType(t types.Type, pos token.Position) (*Type, error) {
	t = types.Unalias(t)
	if isNamed(t, "encoding/json", "RawMessage") {
		return &Type{Kind: KRaw}, nil
	}
	var named *Ref
	if n, ok := t.(*types.Named); ok {
		if n.Obj().Pkg() == nil {
			return nil, fmt.Errorf("type %s is not supported; %s", n, supportedTypes)
		}
		if _, isStruct := n.Underlying().(*types.Struct); isStruct {
			s := sb.structOf(n, pos)
			if s == nil {
				return nil, errReported
			}
			return &Type{Kind: KStruct, Named: &s.Ref, Struct: s}, nil
		}
		if m := customJSON(n); m != "" {
			return nil, fmt.Errorf("type %s has a %s method; the generated decoder and schema would ignore it", n.Obj().Name(), m)
		}
		if n.TypeArgs().Len() > 0 {
			return nil, fmt.Errorf("generic type %s is not supported", n)
		}
		named = &Ref{Pkg: n.Obj().Pkg().Path(), Name: n.Obj().Name()}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		ty := &Type{Named: named, Basic: u.Name()}
		switch k := u.Kind(); {
		case k == types.String:
			ty.Kind = KString
		case k == types.Bool:
			ty.Kind = KBool
		case k >= types.Int && k <= types.Int64:
			ty.Kind, ty.Bits = KInt, intBits(k)
		case k >= types.Uint && k <= types.Uint64:
			ty.Kind, ty.Bits = KUint, intBits(k)
		case k == types.Float32:
			ty.Kind, ty.Bits = KFloat, 32
		case k == types.Float64:
			ty.Kind, ty.Bits = KFloat, 64
		default:
			return nil, fmt.Errorf("type %s is not supported; %s", t, supportedTypes)
		}
		return ty, nil
	case *types.Pointer:
		if named != nil {
			return nil, fmt.Errorf("named pointer type %s is not supported; use *T", t)
		}
		if _, ok := u.Elem().Underlying().(*types.Pointer); ok {
			return nil, fmt.Errorf("pointer to pointer %s is not supported", t)
		}
		e, err := sb.fieldType(u.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return &Type{Kind: KPointer, Elem: e}, nil
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return nil, errors.New("[]byte is sent as base64 text; use string, or json.RawMessage for any JSON value")
		}
		e, err := sb.fieldType(u.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return &Type{Kind: KSlice, Named: named, Elem: e}, nil
	case *types.Map:
		if k, ok := u.Key().(*types.Basic); !ok || k.Kind() != types.String {
			return nil, fmt.Errorf("map key type %s is not supported; use map[string]T", u.Key())
		}
		e, err := sb.fieldType(u.Elem(), pos)
		if err != nil {
			return nil, err
		}
		return &Type{Kind: KMap, Named: named, Elem: e}, nil
	case *types.Interface:
		if u.Empty() && named == nil {
			return &Type{Kind: KAny}, nil
		}
		return nil, fmt.Errorf("interface type %s is not supported; use any for any JSON value", t)
	case *types.Struct:
		return nil, errors.New("anonymous struct types are not supported; declare a named struct type")
	}
	return nil, fmt.Errorf("type %s is not supported; %s", t, supportedTypes)
}

func intBits(k types.BasicKind) int {
	switch k {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}

// schemaKeys are the jsonschema tag keys toolgen accepts: the ones both
// the schema (invopop) and the generated validator honour.
var schemaKeys = []string{"enum", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "default"}

// splitTag splits a jsonschema tag on commas not escaped with '\', as
// invopop does.
func splitTag(tag string) []string {
	parts := strings.Split(tag, ",")
	out := []string{parts[0]}
	for _, p := range parts[1:] {
		last := out[len(out)-1]
		if last != "" && last[len(last)-1] == '\\' {
			out[len(out)-1] = last[:len(last)-1] + "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// deref skips pointers.
func deref(t *Type) *Type {
	for t.Kind == KPointer {
		t = t.Elem
	}
	return t
}

// applyTags checks a jsonschema tag against the field's type and stores
// its constraints where invopop puts them: on the value, or for a slice the
// item keywords on its elements.
func applyTags(t *Type, tag string, required bool) error {
	if tag == "" {
		return nil
	}
	v := deref(t)
	var itemKeys []string
	for _, kv := range splitTag(tag) {
		if kv == "" {
			continue
		}
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("%q is not supported; use key=value with one of %s", kv, strings.Join(schemaKeys, ", "))
		}
		if !contains(schemaKeys, key) {
			return fmt.Errorf("key %q is not supported; use %s", key, strings.Join(schemaKeys, ", "))
		}
		if key == "default" && required {
			return errors.New("default never applies to a required parameter; add omitempty to its json tag")
		}
		if v.Kind == KSlice {
			switch key {
			case "minItems", "maxItems", "default":
				if err := setKey(v, key, val); err != nil {
					return err
				}
			default:
				itemKeys = append(itemKeys, kv)
			}
			continue
		}
		if err := setKey(v, key, val); err != nil {
			return err
		}
	}
	if len(itemKeys) > 0 {
		e := deref(v.Elem)
		switch e.Kind {
		case KString, KInt, KUint, KFloat, KBool:
		default:
			return fmt.Errorf("keys %s would apply to the slice's elements, which are not strings, numbers or booleans", strings.Join(itemKeys, ","))
		}
		for _, kv := range itemKeys {
			key, val, _ := strings.Cut(kv, "=")
			if key == "default" {
				return errors.New("default on slice elements is not supported")
			}
			if err := setKey(e, key, val); err != nil {
				return err
			}
		}
	}
	return nil
}

// setKey stores one keyword on a value, checking that it applies to the
// value's kind and that its argument parses.
func setKey(t *Type, key, val string) error {
	c := &t.C
	wrongKind := func() error {
		return fmt.Errorf("%s does not apply to %s value", key, article(kindName(t)))
	}
	uintArg := func() (int, error) {
		n, err := strconv.ParseUint(val, 10, 31)
		if err != nil {
			return 0, fmt.Errorf("%s=%s: want a non-negative integer", key, val)
		}
		return int(n), nil
	}
	switch key {
	case "minLength", "maxLength":
		if t.Kind != KString {
			return wrongKind()
		}
		n, err := uintArg()
		if err != nil {
			return err
		}
		if key == "minLength" {
			c.MinLength, c.HasMinLength = n, true
		} else {
			c.MaxLength, c.HasMaxLength = n, true
		}
	case "minItems", "maxItems":
		if t.Kind != KSlice {
			return wrongKind()
		}
		n, err := uintArg()
		if err != nil {
			return err
		}
		if key == "minItems" {
			c.MinItems, c.HasMinItems = n, true
		} else {
			c.MaxItems, c.HasMaxItems = n, true
		}
	case "minimum", "maximum":
		if err := checkNumber(t, val); err != nil {
			return fmt.Errorf("%s=%s: %w", key, val, err)
		}
		if key == "minimum" {
			c.Minimum = val
		} else {
			c.Maximum = val
		}
	case "enum":
		switch t.Kind {
		case KString:
		case KInt, KUint, KFloat:
			if err := checkNumber(t, val); err != nil {
				return fmt.Errorf("enum=%s: %w", val, err)
			}
		default:
			return wrongKind()
		}
		c.Enum = append(c.Enum, val)
	case "default":
		switch t.Kind {
		case KString:
		case KBool:
			if val != "true" && val != "false" {
				return fmt.Errorf("default=%s: want true or false", val)
			}
		case KInt, KUint, KFloat:
			if err := checkNumber(t, val); err != nil {
				return fmt.Errorf("default=%s: %w", val, err)
			}
		case KSlice:
			if e := deref(t.Elem); e.Kind != KString || t.Elem.Kind == KPointer {
				return errors.New("default on a slice is only supported for []string")
			}
			c.DefaultList = append(c.DefaultList, val)
			c.HasDefault = true
			return nil
		default:
			return wrongKind()
		}
		if c.HasDefault {
			return errors.New("default is given twice")
		}
		c.Default, c.HasDefault = val, true
	}
	if c.HasMinLength && c.HasMaxLength && c.MinLength > c.MaxLength ||
		c.HasMinItems && c.HasMaxItems && c.MinItems > c.MaxItems {
		return errors.New("the minimum is larger than the maximum")
	}
	return nil
}

// checkNumber reports whether val is a number the value's kind can hold.
func checkNumber(t *Type, val string) error {
	switch t.Kind {
	case KInt:
		if _, err := strconv.ParseInt(val, 10, t.Bits); err != nil {
			return fmt.Errorf("want an integer that fits %s", t.Basic)
		}
	case KUint:
		if _, err := strconv.ParseUint(val, 10, t.Bits); err != nil {
			return fmt.Errorf("want a non-negative integer that fits %s", t.Basic)
		}
	case KFloat:
		if _, err := strconv.ParseFloat(val, t.Bits); err != nil || !isJSONNumber(val) {
			return errors.New("want a number")
		}
	default:
		return fmt.Errorf("does not apply to %s value", article(kindName(t)))
	}
	return nil
}

// isJSONNumber reports whether s is written in JSON's number syntax: an
// optional minus, an integer without leading zeros, an optional fraction
// and an optional exponent. invopop writes the value into the schema as a
// json.Number, which must have this syntax.
func isJSONNumber(s string) bool {
	i := 0
	// digits skips a run of digits and reports whether there was one.
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if !digits() {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == len(s)
}

func kindName(t *Type) string {
	switch t.Kind {
	case KString:
		return "string"
	case KBool:
		return "boolean"
	case KInt, KUint:
		return "integer"
	case KFloat:
		return "number"
	case KStruct, KMap:
		return "object"
	case KSlice:
		return "array"
	}
	return "JSON"
}

// article prefixes "a" or "an".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
