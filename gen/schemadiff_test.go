package gen_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/generated"
	"github.com/agentcore/agentcore/runtime"
)

// validFor builds a small value the schema accepts.
func validFor(s map[string]any) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	num := func(k string) (float64, bool) {
		f, ok := s[k].(float64)
		return f, ok
	}
	switch s["type"] {
	case "string":
		n := 1
		if m, ok := num("minLength"); ok {
			n = int(m)
		}
		if m, ok := num("maxLength"); ok && int(m) < n {
			n = int(m)
		}
		return strings.Repeat("a", n)
	case "integer", "number":
		if m, ok := num("minimum"); ok {
			return m
		}
		if m, ok := num("maximum"); ok {
			return m
		}
		return 1.0
	case "boolean":
		return true
	case "array":
		n := 0
		if m, ok := num("minItems"); ok {
			n = int(m)
		}
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for range n {
			out = append(out, validFor(items))
		}
		return out
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, r := range req {
			out[r.(string)] = validFor(props[r.(string)].(map[string]any))
		}
		return out
	}
	return nil // any JSON value
}

// wrongFor is a value of another JSON type than the schema's, or nil when
// the schema takes any value.
func wrongFor(s map[string]any) any {
	switch s["type"] {
	case "string":
		return 12.0
	case "integer", "number":
		return "12"
	case "boolean":
		return "true"
	case "array":
		return map[string]any{}
	case "object":
		return []any{}
	}
	return nil
}

// schemaCases derives inputs from a tool's schema: the minimal valid input,
// each optional parameter added, each required one removed, each parameter
// of the wrong type, null for each, and an unknown parameter.
func schemaCases(raw []byte) (accept, reject []string) {
	var s map[string]any
	Expect(json.Unmarshal(raw, &s)).To(Succeed())
	props, _ := s["properties"].(map[string]any)
	base := validFor(s).(map[string]any)
	enc := func(m map[string]any) string { return string(must(json.Marshal(m))) }
	accept = append(accept, enc(base))
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name].(map[string]any)
		with := maps.Clone(base)
		if _, required := base[name]; required {
			delete(with, name)
			reject = append(reject, enc(with))
		} else {
			with[name] = validFor(p)
			accept = append(accept, enc(with))
		}
		if w := wrongFor(p); w != nil {
			bad := maps.Clone(base)
			bad[name] = w
			reject = append(reject, enc(bad))
			bad[name] = nil
			reject = append(reject, enc(bad))
		}
	}
	unknown := maps.Clone(base)
	unknown["no_such_parameter_xyz"] = 1
	reject = append(reject, enc(unknown))
	return accept, reject
}

var _ = Describe("schema-driven differential", func() {
	check := func(tools []runtime.Tool) {
		Expect(tools).NotTo(BeEmpty())
		for _, t := range tools {
			s, err := compileSchema(t)
			Expect(err).NotTo(HaveOccurred(), t.Name())
			accept, reject := schemaCases(t.InputSchema())
			for _, in := range accept {
				_, got := t.Decode(json.RawMessage(in))
				Expect(got).NotTo(HaveOccurred(), "%s: generated decoder rejects %s", t.Name(), in)
				Expect(referenceValid(s, []byte(in))).To(Succeed(), "%s: reference rejects %s", t.Name(), in)
			}
			for _, in := range reject {
				_, got := t.Decode(json.RawMessage(in))
				Expect(got).To(HaveOccurred(), "%s: generated decoder accepts %s", t.Name(), in)
				Expect(referenceValid(s, []byte(in))).NotTo(Succeed(), "%s: reference accepts %s", t.Name(), in)
			}
		}
	}

	It("agrees with the reference validator on every golden fixture tool", func() {
		check(fixtureTools)
	})

	It("agrees with the reference validator on every tool of this variant's registry", func() {
		tools := generated.AllBaseTools()
		check(tools)
		GinkgoWriter.Println(fmt.Sprintf("checked %d tools", len(tools)))
	})
})
