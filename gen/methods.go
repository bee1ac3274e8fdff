package gen

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
)

// methodSpec is the signature of one tooldef method, in the placeholder
// words of tooldefs/doc.go: ctx, in, ins, tc, c, out, p, err for
// parameters; error, bool, string, decision, target, blocks for results.
type methodSpec struct {
	name    string
	params  []string
	results []string
	// field is the tool's Methods field that records the method; nil for
	// Call, which every tool has.
	field func(*Methods) *bool
}

var callSpec = methodSpec{name: "Call", params: []string{"ctx", "in", "c"}, results: []string{"out", "error"}}

// optionalMethods lists the tooldef methods toolgen uses when present, in
// the order tooldefs/doc.go documents them.
var optionalMethods = []methodSpec{
	{name: "ValidateInput", params: []string{"ctx", "in", "tc"}, results: []string{"error"},
		field: func(m *Methods) *bool { return &m.ValidateInput }},
	{name: "CheckPermissions", params: []string{"ctx", "in", "tc"}, results: []string{"decision"},
		field: func(m *Methods) *bool { return &m.CheckPermissions }},
	{name: "PermissionTarget", params: []string{"in"}, results: []string{"target"},
		field: func(m *Methods) *bool { return &m.PermissionTarget }},
	{name: "IsConcurrencySafe", params: []string{"in"}, results: []string{"bool"},
		field: func(m *Methods) *bool { return &m.IsConcurrencySafe }},
	{name: "IsReadOnly", params: []string{"in"}, results: []string{"bool"},
		field: func(m *Methods) *bool { return &m.IsReadOnly }},
	{name: "IsDestructive", params: []string{"in"}, results: []string{"bool"},
		field: func(m *Methods) *bool { return &m.IsDestructive }},
	{name: "IsEnabled", results: []string{"bool"},
		field: func(m *Methods) *bool { return &m.IsEnabled }},
	{name: "InterruptBehavior", params: []string{"in"}, results: []string{"interrupt"},
		field: func(m *Methods) *bool { return &m.InterruptBehavior }},
	{name: "UserFacingName", params: []string{"in"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.UserFacingName }},
	{name: "ResultBlocks", params: []string{"out"}, results: []string{"blocks"},
		field: func(m *Methods) *bool { return &m.ResultBlocks }},
	{name: "RenderUse", params: []string{"in"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderUse }},
	{name: "RenderProgress", params: []string{"in", "p"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderProgress }},
	{name: "RenderResult", params: []string{"in", "out"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderResult }},
	{name: "RenderRejected", params: []string{"in"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderRejected }},
	{name: "RenderError", params: []string{"in", "err"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderError }},
	{name: "RenderGrouped", params: []string{"ins"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderGrouped }},
	{name: "RenderPreview", params: []string{"in", "tc"}, results: []string{"string"},
		field: func(m *Methods) *bool { return &m.RenderPreview }},
}

// has reports whether the tool defines the optional method called name.
func (m *Methods) has(name string) bool {
	for _, s := range optionalMethods {
		if s.name == name {
			return *s.field(m)
		}
	}
	return false
}

// sigCtx holds what placeholders stand for in one tool.
type sigCtx struct {
	in, out types.Type // in is the pointer *In
	qual    types.Qualifier
	// inText and outText are written for in and out when they are nil;
	// "*In" and "Out" when empty.
	inText, outText string
}

func (s sigCtx) text(word string, param bool) string {
	ts := func(t types.Type, fallback, dflt string) string {
		switch {
		case t != nil:
			return types.TypeString(t, s.qual)
		case fallback != "":
			return fallback
		}
		return dflt
	}
	switch word {
	case "ctx":
		return "ctx context.Context"
	case "in":
		return "in " + ts(s.in, s.inText, "*In")
	case "ins":
		return "ins []" + ts(s.in, s.inText, "*In")
	case "tc":
		return "tc *runtime.ToolContext"
	case "c":
		return "c *runtime.Call"
	case "out":
		if param {
			return "out " + ts(s.out, s.outText, "Out")
		}
		return ts(s.out, s.outText, "Out")
	case "p":
		return "p P"
	case "err":
		return "err error"
	case "decision":
		return "runtime.PermissionDecision"
	case "target":
		return "runtime.Target"
	case "interrupt":
		return "runtime.InterruptBehavior"
	case "blocks":
		return "[]runtime.Block"
	}
	return word
}

func (s sigCtx) want(recv string, m methodSpec) string {
	var ps, rs []string
	for _, p := range m.params {
		ps = append(ps, s.text(p, true))
	}
	for _, r := range m.results {
		rs = append(rs, s.text(r, false))
	}
	res := strings.Join(rs, ", ")
	if len(rs) > 1 {
		res = "(" + res + ")"
	}
	return "func (" + recv + ") " + m.name + "(" + strings.Join(ps, ", ") + ") " + res
}

func (s sigCtx) match(word string, t types.Type) bool {
	switch word {
	case "ctx":
		return isNamed(t, "context", "Context")
	case "in":
		return s.in != nil && types.Identical(t, s.in)
	case "ins":
		sl, ok := t.(*types.Slice)
		return ok && s.in != nil && types.Identical(sl.Elem(), s.in)
	case "tc":
		return isPtrTo(t, RuntimePath, "ToolContext")
	case "c":
		return isPtrTo(t, RuntimePath, "Call")
	case "out":
		return s.out != nil && types.Identical(t, s.out)
	case "p":
		return true
	case "err", "error":
		return types.Identical(t, types.Universe.Lookup("error").Type())
	case "bool", "string":
		return types.Identical(t, types.Universe.Lookup(word).Type())
	case "decision":
		return isNamed(t, RuntimePath, "PermissionDecision")
	case "target":
		return isNamed(t, RuntimePath, "Target")
	case "interrupt":
		return isNamed(t, RuntimePath, "InterruptBehavior")
	case "blocks":
		sl, ok := t.(*types.Slice)
		return ok && isNamed(sl.Elem(), RuntimePath, "Block")
	}
	return false
}

func (s sigCtx) matches(sig *types.Signature, m methodSpec) bool {
	if sig.Variadic() || sig.TypeParams().Len() > 0 || sig.Params().Len() != len(m.params) || sig.Results().Len() != len(m.results) {
		return false
	}
	for i, p := range m.params {
		if !s.match(p, sig.Params().At(i).Type()) {
			return false
		}
	}
	for i, r := range m.results {
		if !s.match(r, sig.Results().At(i).Type()) {
			return false
		}
	}
	return true
}

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func isPtrTo(t types.Type, pkg, name string) bool {
	p, ok := t.(*types.Pointer)
	return ok && isNamed(p.Elem(), pkg, name)
}

// methods checks the tool's methods against their specs and the markers,
// then builds its input, output and progress types. It reports false when
// the tool cannot be generated.
func (b *builder) methods(t *Tool, named *types.Named, set markerSet, pkg *packages.Package, pos token.Position) bool {
	fset := pkg.Fset
	// Types of the tooldefs package go unqualified, others by package name
	// (runtime.Call), as tooldefs/doc.go writes them.
	qual := func(p *types.Package) string {
		if p == pkg.Types {
			return ""
		}
		return p.Name()
	}
	mset := types.NewMethodSet(types.NewPointer(named))
	find := func(name string) (*types.Func, *types.Signature) {
		sel := mset.Lookup(nil, name)
		if sel == nil {
			return nil, nil
		}
		fn := sel.Obj().(*types.Func)
		return fn, fn.Type().(*types.Signature)
	}
	recv := named.Obj().Name()
	call, sig := find("Call")
	if call == nil {
		// Suggest <Tool>Input and <Tool>Output, whether or not they exist.
		s := sigCtx{qual: qual, inText: "*" + recv + "Input", outText: "string"}
		if in := pkg.Types.Scope().Lookup(recv + "Input"); in != nil {
			s.in = types.NewPointer(in.Type())
		}
		if out := pkg.Types.Scope().Lookup(recv + "Output"); out != nil {
			s.out = out.Type()
		}
		b.e.add(pos, "type %s has +tool:name but no Call method; add: %s", recv, s.want(recv, callSpec))
		return false
	}
	callPos := fset.Position(call.Pos())
	s := sigCtx{qual: qual}
	ok := sig.Params().Len() == 3 && sig.Results().Len() == 2 && !sig.Variadic()
	if ok {
		s.in = sig.Params().At(1).Type()
		s.out = sig.Results().At(0).Type()
		ok = s.matches(sig, callSpec)
	}
	if !ok {
		s.in, s.out = nil, nil
		if sig.Params().Len() >= 2 && isStructPtr(sig.Params().At(1).Type()) {
			s.in = sig.Params().At(1).Type()
		}
		if sig.Results().Len() >= 1 && !types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type()) {
			s.out = sig.Results().At(0).Type()
		}
		b.e.add(callPos, "%s.Call has the wrong signature %s; want %s", recv,
			types.TypeString(sig, qual), s.want(recv, callSpec))
		return false
	}
	inNamed, _ := types.Unalias(s.in.(*types.Pointer).Elem()).(*types.Named)
	if inNamed == nil || !isStruct(inNamed) {
		b.e.add(callPos, "%s.Call: the input %s cannot be a JSON object; make it a pointer to a named struct type, e.g. *%sInput",
			recv, types.TypeString(s.in, qual), recv)
		return false
	}
	good := true
	for _, m := range optionalMethods {
		fn, msig := find(m.name)
		if fn == nil {
			continue
		}
		mpos := fset.Position(fn.Pos())
		if !s.matches(msig, m) {
			b.e.add(mpos, "%s.%s has the wrong signature %s; want %s", recv, m.name, types.TypeString(msig, qual), s.want(recv, m))
			good = false
			continue
		}
		*m.field(&t.Methods) = true
		if m.name == "RenderProgress" {
			pt, err := typeRef(msig.Params().At(1).Type())
			if err != nil {
				b.e.add(mpos, "%s.RenderProgress: progress type %v", recv, err)
				good = false
			}
			t.Progress = pt
		}
	}
	for _, mk := range set {
		if d, ok := mk.typed.(methodDefault); ok && t.Methods.has(d.method()) {
			b.e.add(mk.Pos, "+tool:%s: %s also has the method %s; keep one (the method decides per input, the marker for every input)",
				mk.Key, recv, d.method())
			good = false
		}
	}
	sb := &structBuilder{b: b, t: t, pkg: pkg, done: map[*types.Named]*Struct{}, active: map[*types.Named]bool{}, funcs: map[string]bool{}}
	t.Input = sb.structOf(inNamed, callPos)
	if t.Input == nil {
		return false
	}
	out, err := typeRef(s.out)
	if err != nil {
		b.e.add(callPos, "%s.Call: output type %v", recv, err)
		return false
	}
	t.Output = out
	switch {
	case isStringKind(s.out):
		t.OutKind = OutText
	case hasStringer(s.out):
		t.OutKind = OutStringer
	default:
		t.OutKind = OutJSON
	}
	for _, f := range t.Input.Fields {
		if f.Required && f.Type.Kind == KString {
			t.RenderUseField = f
			break
		}
	}
	return good
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

func isStructPtr(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	return ok && isStruct(p.Elem())
}

func isStringKind(t types.Type) bool {
	bt, ok := t.Underlying().(*types.Basic)
	return ok && bt.Kind() == types.String
}

func hasStringer(t types.Type) bool {
	sel := types.NewMethodSet(t).Lookup(nil, "String")
	if sel == nil {
		return false
	}
	sig := sel.Obj().Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String])
}

// typeRef converts an output or progress type for the emitters; the
// error says why it cannot.
func typeRef(t types.Type) (*Type, error) {
	t = types.Unalias(t)
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer || t.Info()&types.IsUntyped != 0 {
			return nil, fmt.Errorf("is not supported: %s", t)
		}
		return &Type{Kind: KOther, Basic: t.Name()}, nil
	case *types.Named:
		if t.TypeArgs().Len() > 0 {
			return nil, fmt.Errorf("%s is generic; use a non-generic named type", t)
		}
		if t.Obj().Pkg() == nil {
			return &Type{Kind: KOther, Basic: t.Obj().Name()}, nil
		}
		return &Type{Kind: KOther, Named: &Ref{Pkg: t.Obj().Pkg().Path(), Name: t.Obj().Name()}}, nil
	case *types.Pointer:
		e, err := typeRef(t.Elem())
		return &Type{Kind: KPointer, Elem: e}, err
	case *types.Slice:
		e, err := typeRef(t.Elem())
		return &Type{Kind: KSlice, Elem: e}, err
	case *types.Map:
		k, err := typeRef(t.Key())
		if err != nil {
			return nil, err
		}
		e, err := typeRef(t.Elem())
		return &Type{Kind: KMap, Key: k, Elem: e}, err
	case *types.Interface:
		if t.Empty() {
			return &Type{Kind: KAny}, nil
		}
	}
	return nil, fmt.Errorf("%s is not supported; use a named type, a basic type, or a pointer, slice or map of those", t)
}
