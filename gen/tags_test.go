package gen_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/gen"
)

var _ = Describe("jsonschema tags", func() {
	DescribeTable("accepted where the schema and the validator both honour them",
		func(kind, tag string) { Expect(gen.TagErr(kind, tag, false)).To(BeEmpty()) },
		Entry(nil, "string", "enum=a,enum=b\\,c"),
		Entry(nil, "string", "minLength=1,maxLength=10,default=x=y"),
		Entry(nil, "int", "minimum=-5,maximum=5,enum=1,default=3"),
		Entry(nil, "*int", "minimum=0"),
		Entry(nil, "uint8", "maximum=255"),
		Entry(nil, "float64", "minimum=0.5,maximum=1e3"),
		Entry(nil, "float64", "minimum=-0.5E-3,maximum=10.25e+2,enum=0"),
		Entry(nil, "bool", "default=true"),
		Entry(nil, "[]string", "minItems=1,maxItems=3,minLength=2,enum=x"),
		Entry(nil, "[]string", "default=a,default=b"),
		Entry(nil, "[]int", "minimum=0"),
		Entry(nil, "string", ""),
	)

	DescribeTable("rejected with a reason",
		func(kind, tag string, required bool, want string) {
			Expect(gen.TagErr(kind, tag, required)).To(Equal(want))
		},
		Entry(nil, "string", "required", false, `"required" is not supported; use key=value with one of enum, minimum, maximum, minLength, maxLength, minItems, maxItems, default`),
		Entry(nil, "string", "pattern=^a", false, `key "pattern" is not supported; use enum, minimum, maximum, minLength, maxLength, minItems, maxItems, default`),
		Entry(nil, "string", "description=x", false, `key "description" is not supported; use enum, minimum, maximum, minLength, maxLength, minItems, maxItems, default`),
		Entry(nil, "int", "minLength=1", false, "minLength does not apply to an integer value"),
		Entry(nil, "string", "minimum=1", false, "minimum=1: does not apply to a string value"),
		Entry(nil, "int", "minimum=0.5", false, "minimum=0.5: want an integer that fits int"),
		Entry(nil, "uint8", "maximum=256", false, "maximum=256: want a non-negative integer that fits uint8"),
		Entry(nil, "uint8", "minimum=-1", false, "minimum=-1: want a non-negative integer that fits uint8"),
		Entry(nil, "float64", "maximum=NaN", false, "maximum=NaN: want a number"),
		Entry(nil, "float64", "maximum=01", false, "maximum=01: want a number"),
		Entry(nil, "float64", "maximum=1.", false, "maximum=1.: want a number"),
		Entry(nil, "float64", "minimum=-.5", false, "minimum=-.5: want a number"),
		Entry(nil, "float64", "minimum=1e", false, "minimum=1e: want a number"),
		Entry(nil, "string", "minLength=-1", false, "minLength=-1: want a non-negative integer"),
		Entry(nil, "string", "minLength=5,maxLength=2", false, "the minimum is larger than the maximum"),
		Entry(nil, "bool", "enum=true", false, "enum does not apply to a boolean value"),
		Entry(nil, "bool", "default=yes", false, "default=yes: want true or false"),
		Entry(nil, "string", "default=x", true, "default never applies to a required parameter; add omitempty to its json tag"),
		Entry(nil, "string", "default=x,default=y", false, "default is given twice"),
		Entry(nil, "[]int", "default=1", false, "default on a slice is only supported for []string"),
		Entry(nil, "map", "minItems=1", false, "minItems does not apply to an object value"),
		Entry(nil, "[]string", "minimum=1", false, "minimum=1: does not apply to a string value"),
	)
})
