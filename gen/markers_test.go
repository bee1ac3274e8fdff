package gen_test

import (
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
	"github.com/agentcore/agentcore/runtime"
)

// lines makes comment lines starting at line 10, column 3 of x.go.
func lines(text ...string) []gen.CommentLine {
	out := make([]gen.CommentLine, len(text))
	for i, t := range text {
		out[i] = gen.CommentLine{Text: t, Pos: token.Position{Filename: "x.go", Line: 10 + i, Column: 3}}
	}
	return out
}

var _ = Describe("ParseMarkers", func() {
	DescribeTable("well-formed markers",
		func(line string, want gen.Marker) {
			ms, errs := gen.ParseMarkers(lines(line), gen.ScopeType)
			Expect(errs).To(BeEmpty())
			Expect(ms).To(HaveLen(1))
			Expect(ms[0].Key).To(Equal(want.Key))
			Expect(ms[0].Value).To(Equal(want.Value))
		},
		Entry("a flag", " +tool:readOnly", gen.Marker{Key: "readOnly"}),
		Entry("a bare string", " +tool:name=Glob", gen.Marker{Key: "name", Value: "Glob"}),
		Entry("a quoted string", ` +tool:searchHint="find files, fast"`, gen.Marker{Key: "searchHint", Value: "find files, fast"}),
		Entry("a quoted string with escapes", ` +tool:userFacingName="say \"hi\""`, gen.Marker{Key: "userFacingName", Value: `say "hi"`}),
		Entry("spaces around", "   +tool:alias = Old  ", gen.Marker{Key: "alias", Value: "Old"}),
		Entry("an enum word", " +tool:interrupt=cancel", gen.Marker{Key: "interrupt", Value: "cancel"}),
		Entry("a permission family", " +tool:permissionFamily=edit-path", gen.Marker{Key: "permissionFamily", Value: "edit-path"}),
		Entry("a trait flag", " +tool:cancelsSiblingsOnError", gen.Marker{Key: "cancelsSiblingsOnError"}),
	)

	DescribeTable("bad markers are positioned errors",
		func(line, want string) {
			ms, errs := gen.ParseMarkers(lines(line), gen.ScopeType)
			Expect(ms).To(BeEmpty())
			Expect(errs).To(HaveLen(1))
			Expect(errs[0].Error()).To(Equal(want))
		},
		Entry("unknown key with a suggestion", " +tool:readonly", "x.go:10:4: +tool:readonly: unknown marker; did you mean +tool:readOnly?"),
		Entry("unknown key", " +tool:fast", "x.go:10:4: +tool:fast: unknown marker; known markers: name, alias, readOnly, concurrencySafe, destructive, searchHint, interrupt, cancelsSiblingsOnError, permissionFamily, localOnly, agentOnly, shouldDefer, alwaysLoad, disabled, userFacingName"),
		Entry("a value on a flag", " +tool:readOnly=yes", `x.go:10:4: +tool:readOnly: takes no value (got "yes")`),
		Entry("no value on a string", " +tool:name", "x.go:10:4: +tool:name: needs a value, e.g. +tool:name=Glob"),
		Entry("an empty value", " +tool:name=", "x.go:10:4: +tool:name: needs a value, e.g. +tool:name=Glob"),
		Entry("a word outside the enum", " +tool:interrupt=stop", `x.go:10:4: +tool:interrupt: want one of cancel, block (got "stop")`),
		Entry("a word outside the permission families", " +tool:permissionFamily=write", `x.go:10:4: +tool:permissionFamily: want one of read-path, edit-path, command, url (got "write")`),
		Entry("a value on a trait flag", " +tool:cancelsSiblingsOnError=true", `x.go:10:4: +tool:cancelsSiblingsOnError: takes no value (got "true")`),
		Entry("a bad quoted string", ` +tool:searchHint="open`, `x.go:10:4: +tool:searchHint: bad quoted string "open; use Go syntax, e.g. +tool:searchHint="find files"`),
		Entry("no key", " +tool", "x.go:10:4: +tool: marker without a key; write +tool:key or +tool:key=value"),
	)

	DescribeTable("each marker type applies itself to the tool",
		func(line string, want func(*gen.Tool) any, value any) {
			t, errs := gen.ApplyTypeMarkers(lines(line))
			Expect(errs).To(BeEmpty())
			Expect(want(t)).To(Equal(value))
		},
		Entry(nil, " +tool:name=Glob", func(t *gen.Tool) any { return t.Name }, "Glob"),
		Entry(nil, " +tool:alias=Old", func(t *gen.Tool) any { return t.Aliases }, []string{"Old"}),
		Entry(nil, " +tool:readOnly", func(t *gen.Tool) any { return t.ReadOnly }, true),
		Entry(nil, " +tool:concurrencySafe", func(t *gen.Tool) any { return t.ConcurrencySafe }, true),
		Entry(nil, " +tool:destructive", func(t *gen.Tool) any { return t.Destructive }, true),
		Entry(nil, ` +tool:searchHint="find files"`, func(t *gen.Tool) any { return t.SearchHint }, "find files"),
		Entry(nil, " +tool:interrupt=cancel", func(t *gen.Tool) any { return t.InterruptCancel }, true),
		Entry(nil, " +tool:interrupt=block", func(t *gen.Tool) any { return t.InterruptCancel }, false),
		Entry(nil, " +tool:cancelsSiblingsOnError", func(t *gen.Tool) any { return t.CancelsSiblingsOnError }, true),
		Entry(nil, " +tool:permissionFamily=read-path", func(t *gen.Tool) any { return t.PermissionFamily }, "FamilyReadPath"),
		Entry(nil, " +tool:permissionFamily=edit-path", func(t *gen.Tool) any { return t.PermissionFamily }, "FamilyEditPath"),
		Entry(nil, " +tool:permissionFamily=command", func(t *gen.Tool) any { return t.PermissionFamily }, "FamilyCommand"),
		Entry(nil, " +tool:permissionFamily=url", func(t *gen.Tool) any { return t.PermissionFamily }, "FamilyURL"),
		Entry(nil, " +tool:shouldDefer", func(t *gen.Tool) any { return t.ShouldDefer }, true),
		Entry(nil, " +tool:alwaysLoad", func(t *gen.Tool) any { return t.AlwaysLoad }, true),
		Entry(nil, " +tool:disabled", func(t *gen.Tool) any { return t.Disabled }, true),
		Entry(nil, ` +tool:userFacingName="Update"`, func(t *gen.Tool) any { return t.UserFacingName }, "Update"),
	)

	It("applies markers in registry order, whatever the order of the lines", func() {
		t, errs := gen.ApplyTypeMarkers(lines(" +tool:alias=A", " +tool:alwaysLoad", " +tool:alias=B", " +tool:name=A", " +tool:shouldDefer"))
		Expect(t.Aliases).To(Equal([]string{"B"}))
		Expect(errs).To(Equal([]string{
			`x.go:10:4: +tool:alias: "A" is the tool's own name; remove the alias`,
			"x.go:11:4: +tool:alwaysLoad: contradicts +tool:shouldDefer; keep one",
		}))
	})

	It("ignores lines that are not markers", func() {
		ms, errs := gen.ParseMarkers(lines(" Glob finds files.", "", " see +tool:name in the docs", " +toolbox"), gen.ScopeType)
		Expect(errs).To(BeEmpty())
		Expect(ms).To(BeEmpty())
	})

	It("rejects a repeated marker but allows repeated aliases", func() {
		ms, errs := gen.ParseMarkers(lines(" +tool:name=A", " +tool:alias=X", " +tool:alias=Y", " +tool:name=B"), gen.ScopeType)
		Expect(ms).To(HaveLen(3))
		Expect(errs).To(HaveLen(1))
		Expect(errs[0].Error()).To(Equal("x.go:13:4: +tool:name: repeated (first at line 10); give it once"))
	})

	It("rejects type markers in a field doc comment", func() {
		_, errs := gen.ParseMarkers(lines(" +tool:readOnly"), gen.ScopeField)
		Expect(errs).To(HaveLen(1))
		Expect(errs[0].Msg).To(Equal("+tool:readOnly: belongs in a type doc comment, not a field doc comment"))
	})

	It("names, for each marker that stands for a method, an optional method documented with that marker", func() {
		doc, err := os.ReadFile("../tooldefs/doc.go")
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(string(doc), "\n")
		methods := gen.MarkerMethods()
		Expect(methods).To(HaveKeyWithValue("interrupt", "InterruptBehavior"))
		for key, method := range methods {
			Expect(gen.OptionalMethodNames()).To(ContainElement(method), "+tool:%s", key)
			found := false
			for i, l := range lines {
				if strings.HasPrefix(l, "//\t"+method+"(") {
					found = strings.Contains(l, "marker "+key) || i+1 < len(lines) && strings.Contains(lines[i+1], "marker "+key)
				}
			}
			Expect(found).To(BeTrue(), "tooldefs/doc.go does not say that %s has the marker %s", method, key)
		}
	})

	It("takes each marker's help text from its Go type's doc comment", func() {
		for _, m := range gen.Markers {
			Expect(m.TypeName).NotTo(BeEmpty(), "+tool:%s", m.Key)
			Expect(m.Help()).NotTo(BeEmpty(), "+tool:%s: the doc comment of type %s in gen/markerdefs.go must start with %q", m.Key, m.TypeName, m.TypeName+" ")
			for _, w := range m.Enum {
				Expect(m.Help()).To(ContainSubstring(w), "+tool:%s: the doc comment of type %s names every word", m.Key, m.TypeName)
			}
		}
		readOnly := gen.Markers[slices.IndexFunc(gen.Markers, func(m gen.MarkerDef) bool { return m.Key == "readOnly" })]
		Expect(readOnly.Help()).To(Equal("makes IsReadOnly true for every input"))
	})

	It("accepts as permission families exactly the runtime's", func() {
		i := slices.IndexFunc(gen.Markers, func(m gen.MarkerDef) bool { return m.Key == "permissionFamily" })
		Expect(gen.Markers[i].Enum).To(Equal(runtime.PermissionFamilies[1:]))
	})

	It("has the marker table in tooldefs/doc.go generated from the marker types", func() {
		doc, err := os.ReadFile("../tooldefs/doc.go")
		Expect(err).NotTo(HaveOccurred())
		want, err := gen.RewriteMarkerTable(doc)
		Expect(err).NotTo(HaveOccurred())
		Expect(cmp.Diff(string(want), string(doc))).To(BeEmpty(), "the marker table in tooldefs/doc.go is stale (-generated +file); run make generate")
		for _, m := range gen.Markers {
			Expect(gen.MarkerTable()).To(MatchRegexp(`(?m)^//\t%s +%s +%s +%s`, m.Key, m.Value, regexp.QuoteMeta(m.Example), regexp.QuoteMeta(m.Help())))
		}
	})

	It("rewrites only the table: the header line and the indented lines after it", func() {
		src := "// Package x.\n//\n//\tkey value example meaning\n//\told row\n//\n// After.\npackage x\n"
		out, err := gen.RewriteMarkerTable([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(out)).To(Equal("// Package x.\n//\n" + gen.MarkerTable() + "//\n// After.\npackage x\n"))
		_, err = gen.RewriteMarkerTable([]byte("// Package x.\npackage x\n"))
		Expect(err).To(MatchError(ContainSubstring("no marker table")))
	})

	It("is documented in tooldefs/doc.go, key by key", func() {
		doc, err := os.ReadFile("../tooldefs/doc.go")
		Expect(err).NotTo(HaveOccurred())
		for _, m := range gen.Markers {
			found := false
			for _, l := range strings.Split(string(doc), "\n") {
				f := strings.Fields(strings.TrimPrefix(l, "//"))
				if len(f) >= 3 && f[0] == m.Key && strings.Contains(l, m.Example) {
					found = true
				}
			}
			Expect(found).To(BeTrue(), "tooldefs/doc.go has no table row for +tool:%s with example %s", m.Key, m.Example)
		}
	})
})
