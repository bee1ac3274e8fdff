package gen

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// wrapFn wraps an error expression with the path segments between the
// value being decoded and the struct member it belongs to.
type wrapFn func(err jen.Code) jen.Code

// structDecoder emits the decode function of one struct:
//
//	// readDecodeReadInput reads a tooldefs.ReadInput object.
//	func readDecodeReadInput(d *jsonin.Decoder, v *tooldefs.ReadInput) error {
//		if err := d.OpenObject(); err != nil {
//			return err
//		}
//		var hasFilePath bool
//		for {
//			key, more, err := d.NextKey()
//			if err != nil {
//				return err
//			}
//			if !more {
//				break
//			}
//			switch string(key) {
//			case "file_path":
//				... decode the value into v.FilePath ...
//				hasFilePath = true
//			default:
//				return jsonin.Unknown(key, "file_path, offset, limit")
//			}
//		}
//		if !hasFilePath {
//			return jsonin.Missing("file_path")
//		}
//		return nil
//	}
func (e *toolEmitter) structDecoder(f *jen.File, s *Struct) {
	f.Commentf("%s reads a %s.%s object.", s.Func, path.Base(s.Ref.Pkg), s.Ref.Name)
	var names []string
	for _, fl := range s.Fields {
		names = append(names, fl.JSONName)
	}
	track := func(fl *Field) bool { return fl.Required || fl.Type.hasDefault() }
	f.Func().Id(s.Func).Params(
		jen.Id("d").Op("*").Qual(jsoninPath, "Decoder"),
		jen.Id("v").Op("*").Qual(s.Ref.Pkg, s.Ref.Name),
	).Error().BlockFunc(func(g *jen.Group) {
		g.If(jen.Err().Op(":=").Id("d").Dot("OpenObject").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		var tracked []jen.Code
		for _, fl := range s.Fields {
			if track(fl) {
				tracked = append(tracked, jen.Id("has"+fl.GoName))
			}
		}
		if len(tracked) > 0 {
			g.Var().List(tracked...).Bool()
		}
		g.For().BlockFunc(func(g *jen.Group) {
			g.List(jen.Id("key"), jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("NextKey").Call()
			g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
			g.If(jen.Op("!").Id("more")).Block(jen.Break())
			g.Switch(jen.String().Call(jen.Id("key"))).BlockFunc(func(g *jen.Group) {
				for _, fl := range s.Fields {
					name := fl.JSONName
					wrap := func(err jen.Code) jen.Code {
						return jen.Qual(jsoninPath, "AtField").Call(err, jen.Lit(name))
					}
					g.Case(jen.Lit(name)).BlockFunc(func(g *jen.Group) {
						decodeValue(g, fl.Type, jen.Id("v").Dot(fl.GoName), wrap, 0)
						if track(fl) {
							g.Id("has" + fl.GoName).Op("=").True()
						}
					})
				}
				g.Default().Block(jen.Return(jen.Qual(jsoninPath, "Unknown").Call(jen.Id("key"), jen.Lit(strings.Join(names, ", ")))))
			})
		})
		for _, fl := range s.Fields {
			switch {
			case fl.Required:
				g.If(jen.Op("!").Id("has" + fl.GoName)).Block(jen.Return(jen.Qual(jsoninPath, "Missing").Call(jen.Lit(fl.JSONName))))
			case fl.Type.hasDefault():
				g.If(jen.Op("!").Id("has" + fl.GoName)).BlockFunc(func(g *jen.Group) {
					defaultValue(g, fl.Type, jen.Id("v").Dot(fl.GoName))
				})
			}
		}
		g.Return(jen.Nil())
	})
}

func (t *Type) hasDefault() bool {
	return deref(t).C.HasDefault
}

// defaultValue emits the assignment of a field's default:
//
//	v.Limit = 2000
//
// or, for a pointer, `p := new(int); *p = 2000; v.Limit = p`.
func defaultValue(g *jen.Group, t *Type, target jen.Code) {
	if t.Kind == KPointer {
		g.Id("p").Op(":=").New(typeCode(t.Elem))
		defaultValue(g, t.Elem, jen.Op("*").Id("p"))
		g.Add(target).Op("=").Id("p")
		return
	}
	c := t.C
	switch t.Kind {
	case KSlice:
		g.Add(target).Op("=").Add(typeCode(t)).ValuesFunc(func(g *jen.Group) {
			for _, v := range c.DefaultList {
				g.Lit(v)
			}
		})
	case KString:
		g.Add(target).Op("=").Lit(c.Default)
	default:
		g.Add(target).Op("=").Id(c.Default)
	}
}

// decodeValue emits statements that read the next JSON value of type t
// into target, returning wrap(err) on failure. depth keeps names of nested
// locals apart.
func decodeValue(g *jen.Group, t *Type, target jen.Code, wrap wrapFn, depth int) {
	n := func(s string) string { return s + strconv.Itoa(depth) }
	ret := func(err jen.Code) jen.Code { return jen.Return(wrap(err)) }
	checkErr := func() jen.Code { return jen.If(jen.Err().Op("!=").Nil()).Block(ret(jen.Err())) }
	switch t.Kind {
	case KString:
		// s0, err := d.String(); constraints; target = s0
		s := n("s")
		g.List(jen.Id(s), jen.Err()).Op(":=").Id("d").Dot("String").Call()
		g.Add(checkErr())
		stringChecks(g, t.C, s, ret, depth)
		g.Add(target).Op("=").Add(convert(t, jen.Id(s)))
	case KBool:
		b := n("b")
		g.List(jen.Id(b), jen.Err()).Op(":=").Id("d").Dot("Bool").Call()
		g.Add(checkErr())
		g.Add(target).Op("=").Add(convert(t, jen.Id(b)))
	case KInt, KUint, KFloat:
		x := n("n")
		g.List(jen.Id(x), jen.Err()).Op(":=").Id("d").Dot(numberMethod(t.Kind)).Call(jen.Lit(t.Bits))
		g.Add(checkErr())
		numberChecks(g, t.C, x, ret)
		g.Add(target).Op("=").Add(convert(t, jen.Id(x)))
	case KAny:
		x := n("x")
		g.List(jen.Id(x), jen.Err()).Op(":=").Id("d").Dot("Any").Call()
		g.Add(checkErr())
		g.Add(target).Op("=").Id(x)
	case KRaw:
		x := n("r")
		g.List(jen.Id(x), jen.Err()).Op(":=").Id("d").Dot("Raw").Call()
		g.Add(checkErr())
		g.Add(target).Op("=").Id(x)
	case KStruct:
		// if err := readDecodeEdit(d, &target); err != nil { return wrap(err) }
		g.If(jen.Err().Op(":=").Id(t.Struct.Func).Call(jen.Id("d"), jen.Op("&").Add(target)), jen.Err().Op("!=").Nil()).Block(ret(jen.Err()))
	case KPointer:
		// p0 := new(T); decode into *p0; target = p0
		p := n("p")
		g.Id(p).Op(":=").New(typeCode(t.Elem))
		if t.Elem.Kind == KStruct {
			g.If(jen.Err().Op(":=").Id(t.Elem.Struct.Func).Call(jen.Id("d"), jen.Id(p)), jen.Err().Op("!=").Nil()).Block(ret(jen.Err()))
		} else {
			decodeValue(g, t.Elem, jen.Op("*").Id(p), wrap, depth+1)
		}
		g.Add(target).Op("=").Id(p)
	case KSlice:
		sliceValue(g, t, target, wrap, depth)
	case KMap:
		mapValue(g, t, target, wrap, depth)
	default:
		panic(fmt.Sprintf("toolgen: no decoder for kind %d", t.Kind))
	}
}

// numberMethod is the jsonin.Decoder method that reads a number of kind k.
func numberMethod(k Kind) string {
	switch k {
	case KInt:
		return "Int"
	case KUint:
		return "Uint"
	}
	return "Float"
}

// sliceValue emits
//
//	if err := d.OpenArray(); err != nil { return wrap(err) }
//	xs0 := []T{}
//	for i0 := 0; ; i0++ {
//		more, err := d.NextElem()
//		if err != nil { return wrap(err) }
//		if !more { break }
//		var e0 T
//		... decode e0, wrapping errors with jsonin.AtIndex(err, i0) ...
//		xs0 = append(xs0, e0)
//	}
//	... minItems/maxItems ...
//	target = xs0
func sliceValue(g *jen.Group, t *Type, target jen.Code, wrap wrapFn, depth int) {
	d := strconv.Itoa(depth)
	xs, i, el := "xs"+d, "i"+d, "e"+d
	g.If(jen.Err().Op(":=").Id("d").Dot("OpenArray").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err())))
	g.Id(xs).Op(":=").Index().Add(typeCode(t.Elem)).Values()
	g.For(jen.Id(i).Op(":=").Lit(0), jen.Empty(), jen.Id(i).Op("++")).BlockFunc(func(g *jen.Group) {
		g.List(jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("NextElem").Call()
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err())))
		g.If(jen.Op("!").Id("more")).Block(jen.Break())
		g.Var().Id(el).Add(typeCode(t.Elem))
		decodeValue(g, t.Elem, jen.Id(el), func(err jen.Code) jen.Code {
			return wrap(jen.Qual(jsoninPath, "AtIndex").Call(err, jen.Id(i)))
		}, depth+1)
		g.Id(xs).Op("=").Append(jen.Id(xs), jen.Id(el))
	})
	if t.C.HasMinItems {
		g.If(jen.Len(jen.Id(xs)).Op("<").Lit(t.C.MinItems)).Block(jen.Return(wrap(
			jen.Qual(jsoninPath, "TooFew").Call(jen.Len(jen.Id(xs)), jen.Lit(t.C.MinItems)))))
	}
	if t.C.HasMaxItems {
		g.If(jen.Len(jen.Id(xs)).Op(">").Lit(t.C.MaxItems)).Block(jen.Return(wrap(
			jen.Qual(jsoninPath, "TooMany").Call(jen.Len(jen.Id(xs)), jen.Lit(t.C.MaxItems)))))
	}
	g.Add(target).Op("=").Add(convert(t, jen.Id(xs)))
}

// mapValue emits
//
//	if err := d.OpenObject(); err != nil { return wrap(err) }
//	m0 := map[string]T{}
//	for {
//		k0, more, err := d.NextKey()
//		if err != nil { return wrap(err) }
//		if !more { break }
//		key0 := string(k0)
//		var e0 T
//		... decode e0, wrapping errors with jsonin.AtKey(err, key0) ...
//		m0[key0] = e0
//	}
//	target = m0
func mapValue(g *jen.Group, t *Type, target jen.Code, wrap wrapFn, depth int) {
	d := strconv.Itoa(depth)
	m, k, key, el := "m"+d, "k"+d, "key"+d, "e"+d
	g.If(jen.Err().Op(":=").Id("d").Dot("OpenObject").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err())))
	g.Id(m).Op(":=").Map(jen.String()).Add(typeCode(t.Elem)).Values()
	g.For().BlockFunc(func(g *jen.Group) {
		g.List(jen.Id(k), jen.Id("more"), jen.Err()).Op(":=").Id("d").Dot("NextKey").Call()
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(wrap(jen.Err())))
		g.If(jen.Op("!").Id("more")).Block(jen.Break())
		g.Id(key).Op(":=").String().Call(jen.Id(k))
		g.Var().Id(el).Add(typeCode(t.Elem))
		decodeValue(g, t.Elem, jen.Id(el), func(err jen.Code) jen.Code {
			return wrap(jen.Qual(jsoninPath, "AtKey").Call(err, jen.Id(key)))
		}, depth+1)
		g.Id(m).Index(jen.Id(key)).Op("=").Id(el)
	})
	g.Add(target).Op("=").Add(convert(t, jen.Id(m)))
}

// stringChecks emits enum and length checks:
//
//	switch s0 {
//	case "a", "b":
//	default:
//		return wrap(jsonin.NotOneOf(s0, `"a", "b"`))
//	}
//	if n := utf8.RuneCountInString(s0); n < 1 {
//		return wrap(jsonin.TooShort(n, 1))
//	}
func stringChecks(g *jen.Group, c Constraints, s string, ret func(jen.Code) jen.Code, depth int) {
	if len(c.Enum) > 0 {
		g.Switch(jen.Id(s)).Block(
			jen.Case(jen.ListFunc(func(g *jen.Group) {
				for _, v := range c.Enum {
					g.Lit(v)
				}
			})),
			jen.Default().Block(ret(jen.Qual(jsoninPath, "NotOneOf").Call(jen.Id(s), jen.Lit(quoteList(c.Enum, true))))),
		)
	}
	if !c.HasMinLength && !c.HasMaxLength {
		return
	}
	count := jen.Qual("unicode/utf8", "RuneCountInString").Call(jen.Id(s))
	if c.HasMinLength {
		g.If(jen.Id("n").Op(":=").Add(count), jen.Id("n").Op("<").Lit(c.MinLength)).Block(
			ret(jen.Qual(jsoninPath, "TooShort").Call(jen.Id("n"), jen.Lit(c.MinLength))))
	}
	if c.HasMaxLength {
		g.If(jen.Id("n").Op(":=").Add(count), jen.Id("n").Op(">").Lit(c.MaxLength)).Block(
			ret(jen.Qual(jsoninPath, "TooLong").Call(jen.Id("n"), jen.Lit(c.MaxLength))))
	}
}

// numberChecks emits enum and bound checks on a decoded number:
//
//	if n0 < 0 {
//		return wrap(jsonin.TooSmall(n0, 0))
//	}
func numberChecks(g *jen.Group, c Constraints, x string, ret func(jen.Code) jen.Code) {
	if len(c.Enum) > 0 {
		g.Switch(jen.Id(x)).Block(
			jen.Case(jen.ListFunc(func(g *jen.Group) {
				for _, v := range c.Enum {
					g.Id(v)
				}
			})),
			jen.Default().Block(ret(jen.Qual(jsoninPath, "NotOneOf").Call(jen.Id(x), jen.Lit(quoteList(c.Enum, false))))),
		)
	}
	if c.Minimum != "" {
		g.If(jen.Id(x).Op("<").Id(c.Minimum)).Block(ret(jen.Qual(jsoninPath, "TooSmall").Call(jen.Id(x), jen.Id(c.Minimum))))
	}
	if c.Maximum != "" {
		g.If(jen.Id(x).Op(">").Id(c.Maximum)).Block(ret(jen.Qual(jsoninPath, "TooLarge").Call(jen.Id(x), jen.Id(c.Maximum))))
	}
}

// convert writes the conversion of a decoded value to the field's type,
// or the value itself when no conversion is needed.
func convert(t *Type, v jen.Code) jen.Code {
	if t.Named == nil {
		switch {
		case t.Kind == KString, t.Kind == KBool, t.Kind == KSlice, t.Kind == KMap,
			t.Kind == KInt && t.Basic == "int64", t.Kind == KUint && t.Basic == "uint64", t.Kind == KFloat && t.Basic == "float64":
			return v
		}
	}
	return typeCode(t).Call(v)
}
