package gen

import (
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
)

// The model step: turn each marked type into a Tool, running the checks
// and reading its markers, methods and input types.

// builder turns the loaded packages into the model, collecting errors.
type builder struct {
	e    *errs
	pkgs []variantPkg
}

// build runs the parse, check and model steps over the loaded packages.
func (b *builder) build() *Model {
	m := &Model{PkgPath: b.pkgs[0].pkg.PkgPath, PkgName: b.pkgs[0].pkg.Name}
	b.checkTags()
	b.checkStrayMarkers()
	for _, c := range b.candidates() {
		if t := b.tool(c); t != nil {
			m.Tools = append(m.Tools, t)
		}
	}
	slices.SortFunc(m.Tools, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	b.checkNames(m.Tools)
	return m
}

// tool checks one marked type and builds its model; nil when it cannot be
// generated.
func (b *builder) tool(c *candidate) *Tool {
	pos := c.vp.pkg.Fset.Position(c.spec.Name.Pos())
	set := b.typeMarkers(c)
	t := &Tool{TypeName: c.name, Pos: b.e.rel(pos)}
	if !set.has("name") {
		b.e.add(pos, "type %s has +tool markers but no +tool:name; add: // +tool:name=%s", c.name, c.name)
		return nil
	}
	b.applyMarkers(t, set)
	t.Description = docText(c.doc)
	if t.Description == "" {
		b.e.add(pos, "type %s has no description; write its doc comment (the tool's description for the model) above the markers", c.name)
	}
	t.FileBase = snake(t.Name)
	if !b.checkVariants(t, c, pos) {
		return nil
	}
	b.descriptionConsts(t, c, pos)
	named := b.toolType(c, pos)
	if named == nil || !b.methods(t, named, set, c.vp.pkg, pos) {
		return nil
	}
	return t
}

// applyMarkers applies a type's markers to t in registry order, so that
// +tool:alias is checked against +tool:name whatever the lines' order.
func (b *builder) applyMarkers(t *Tool, set markerSet) {
	for _, def := range Markers {
		for _, m := range set {
			if m.Key != def.Key {
				continue
			}
			if err := m.typed.apply(t); err != nil {
				b.e.add(m.Pos, "+tool:%s: %v", m.Key, err)
			}
		}
	}
}

// snake turns a tool name into a file name stem: "NotebookEdit" →
// "notebook_edit", "MCPSearch" → "mcp_search".
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		lower := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				prev := rs[i-1]
				nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
				if prev >= 'a' && prev <= 'z' || prev >= '0' && prev <= '9' || (prev >= 'A' && prev <= 'Z' && nextLower) {
					b.WriteByte('_')
				}
			}
			b.WriteRune(r + 'a' - 'A')
			continue
		}
		if !lower {
			b.WriteByte('_')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// docLink matches a Go doc link to a name of the package: [Name].
var docLink = regexp.MustCompile(`\[([A-Za-z_][A-Za-z0-9_]*)\]`)

// descriptionConsts resolves the doc links of t's description that name
// string constants of the package, in every variant that has t, into
// DescriptionParts. A link to anything else stays text. A constant some
// of those variants lack, or an unexported one (the generated package
// refers to it), is an error.
func (b *builder) descriptionConsts(t *Tool, c *candidate, pos token.Position) {
	locs := docLink.FindAllStringSubmatchIndex(t.Description, -1)
	if len(locs) == 0 {
		return
	}
	var parts []DescriptionPart
	expanded := ""
	last := 0
	for _, loc := range locs {
		name := t.Description[loc[2]:loc[3]]
		var value string
		var missing []string
		found := 0
		for _, vp := range b.pkgs {
			if !slices.Contains(t.Variants, vp.v.Name) {
				continue
			}
			k, ok := vp.pkg.Types.Scope().Lookup(name).(*types.Const)
			if !ok || k.Val().Kind() != constant.String {
				missing = append(missing, vp.v.Name)
				continue
			}
			if found == 0 {
				value = constant.StringVal(k.Val())
			}
			found++
		}
		if found == 0 {
			continue // a link to something else: plain text
		}
		if len(missing) > 0 {
			b.e.add(pos, "the description of %s links to [%s], a string constant the %s variant lacks; declare %s in every variant that has %s",
				t.Name, name, variantNames(missing), name, t.Name)
			continue
		}
		if !token.IsExported(name) {
			b.e.add(pos, "the description of %s links to [%s], an unexported constant; export it (the generated definition refers to it)", t.Name, name)
			continue
		}
		if text := t.Description[last:loc[0]]; text != "" {
			parts = append(parts, DescriptionPart{Text: text})
		}
		parts = append(parts, DescriptionPart{Const: name})
		expanded += t.Description[last:loc[0]] + value
		last = loc[1]
	}
	if len(parts) == 0 {
		return
	}
	if text := t.Description[last:]; text != "" {
		parts = append(parts, DescriptionPart{Text: text})
	}
	t.DescriptionParts = parts
	t.Description = expanded + t.Description[last:]
}
