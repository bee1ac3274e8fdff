package jsonin_test

import (
	"encoding/json"
	"errors"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/jsonin"
)

var _ = Describe("Decoder", func() {
	DescribeTable("String decodes like encoding/json",
		func(in string) {
			var want string
			Expect(json.Unmarshal([]byte(in), &want)).To(Succeed())
			got, err := jsonin.NewDecoder([]byte(in)).String()
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("plain", `"hello"`),
		Entry("empty", `""`),
		Entry("escapes", `"a\"b\\c\/d\b\f\n\r\t"`),
		Entry("unicode escape", `"\u00e9\u4e2d"`),
		Entry("surrogate pair", `"\ud83d\ude00"`),
		Entry("lone high surrogate", `"\ud83dx"`),
		Entry("lone low surrogate", `"\ude00"`),
		Entry("high then non-low", `"\ud83d\u0041"`),
		Entry("raw UTF-8", `"héllo 世界"`),
		Entry("invalid UTF-8", "\"a\xffb\xc3\""),
		Entry("leading space", "  \"x\""),
	)

	DescribeTable("String rejects bad strings",
		func(in, want string) {
			_, err := jsonin.NewDecoder([]byte(in)).String()
			Expect(err).To(MatchError(want))
		},
		Entry("a number", `12`, "input: expected string, got number"),
		Entry("null", `null`, "input: expected string, got null"),
		Entry("unterminated", `"abc`, "input: invalid JSON: unexpected end of input"),
		Entry("control character", "\"a\nb\"", "input: invalid JSON at offset 2: control character in string: byte 0xa"),
		Entry("bad escape", `"\x"`, `input: invalid JSON at offset 2: invalid escape 'x'`),
		Entry("short unicode escape", `"\u12"`, `input: invalid JSON at offset 3: invalid \u escape at '1'`),
		Entry("nothing", ``, "input: invalid JSON: unexpected end of input"),
		Entry("bad literal", `nul`, "input: invalid JSON at offset 0: invalid literal starting with 'n'"),
	)

	DescribeTable("Int checks range and wholeness",
		func(in string, bits int, want int64, msg string) {
			got, err := jsonin.NewDecoder([]byte(in)).Int(bits)
			if msg != "" {
				Expect(err).To(MatchError(msg))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("zero", "0", 64, int64(0), ""),
		Entry("negative", "-42", 64, int64(-42), ""),
		Entry("max int64", "9223372036854775807", 64, int64(math.MaxInt64), ""),
		Entry("min int64", "-9223372036854775808", 64, int64(math.MinInt64), ""),
		Entry("over int64", "9223372036854775808", 64, int64(0), "input: must be an integer from -9223372036854775808 to 9223372036854775807 (got 9223372036854775808)"),
		Entry("many digits", "123456789012345678901234", 64, int64(0), "input: must be an integer from -9223372036854775808 to 9223372036854775807 (got 123456789012345678901234)"),
		Entry("int8 max", "127", 8, int64(127), ""),
		Entry("int8 over", "128", 8, int64(0), "input: must be an integer from -128 to 127 (got 128)"),
		Entry("int8 min", "-128", 8, int64(-128), ""),
		Entry("whole float", "2.0", 64, int64(2), ""),
		Entry("exponent", "1e3", 64, int64(1000), ""),
		Entry("fraction", "2.5", 64, int64(0), "input: expected integer, got 2.5"),
		Entry("huge exponent", "1e400", 64, int64(0), "input: must be an integer from -9223372036854775808 to 9223372036854775807 (got 1e400)"),
		Entry("string", `"1"`, 64, int64(0), "input: expected integer, got string"),
		Entry("leading zero", "01", 64, int64(0), ""),
		Entry("minus alone", "-", 64, int64(0), "input: invalid JSON: unexpected end of input"),
		Entry("dot alone", "1.", 64, int64(0), "input: invalid JSON: unexpected end of input"),
	)

	It("reads a leading-zero number as 0 and leaves the rest", func() {
		d := jsonin.NewDecoder([]byte("01"))
		n, err := d.Int(64)
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(BeZero())
		Expect(d.End()).To(MatchError("input: invalid JSON at offset 1: unexpected data after the input object: '1'"))
	})

	DescribeTable("Uint",
		func(in string, bits int, want uint64, msg string) {
			got, err := jsonin.NewDecoder([]byte(in)).Uint(bits)
			if msg != "" {
				Expect(err).To(MatchError(msg))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("max uint64", "18446744073709551615", 64, uint64(math.MaxUint64), ""),
		Entry("over uint64", "18446744073709551616", 64, uint64(0), "input: must be an integer from 0 to 18446744073709551615 (got 18446744073709551616)"),
		Entry("negative", "-1", 64, uint64(0), "input: must be an integer from 0 to 18446744073709551615 (got -1)"),
		Entry("negative zero", "-0", 64, uint64(0), ""),
		Entry("uint8 over", "256", 8, uint64(0), "input: must be an integer from 0 to 255 (got 256)"),
		Entry("whole float", "3.0", 16, uint64(3), ""),
	)

	DescribeTable("Float",
		func(in string, bits int, want float64, msg string) {
			got, err := jsonin.NewDecoder([]byte(in)).Float(bits)
			if msg != "" {
				Expect(err).To(MatchError(msg))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("fraction", "0.25", 64, 0.25, ""),
		Entry("exponent", "-1.5E+2", 64, -150.0, ""),
		Entry("float64 overflow", "1e400", 64, 0.0, "input: number 1e400 is out of range for a 64-bit float"),
		Entry("float32 overflow", "1e39", 32, 0.0, "input: number 1e39 is out of range for a 32-bit float"),
		Entry("boolean", "true", 64, 0.0, "input: expected number, got boolean"),
		Entry("bad literal", "tru", 64, 0.0, "input: invalid JSON at offset 0: invalid literal starting with 't'"),
		Entry("bad exponent", "1e", 64, 0.0, "input: invalid JSON: unexpected end of input"),
	)

	It("iterates objects and arrays, rejecting trailing commas", func() {
		d := jsonin.NewDecoder([]byte(` { "a" : [1, 2] , "b\u0021" : {} } `))
		Expect(d.OpenObject()).To(Succeed())
		key, more, err := d.NextKey()
		Expect(err).NotTo(HaveOccurred())
		Expect(more).To(BeTrue())
		Expect(string(key)).To(Equal("a"))
		Expect(d.OpenArray()).To(Succeed())
		var xs []int64
		for {
			more, err := d.NextElem()
			Expect(err).NotTo(HaveOccurred())
			if !more {
				break
			}
			n, err := d.Int(64)
			Expect(err).NotTo(HaveOccurred())
			xs = append(xs, n)
		}
		Expect(xs).To(Equal([]int64{1, 2}))
		key, more, err = d.NextKey()
		Expect(err).NotTo(HaveOccurred())
		Expect(more).To(BeTrue())
		Expect(string(key)).To(Equal("b!"))
		Expect(d.Skip()).To(Succeed())
		_, more, err = d.NextKey()
		Expect(err).NotTo(HaveOccurred())
		Expect(more).To(BeFalse())
		Expect(d.End()).To(Succeed())

		for _, bad := range []string{`{"a":1,}`, `[1,]`, `{,}`, `[,1]`, `{"a" 1}`, `{"a":1 "b":2}`, `[1 2]`, `{1:2}`} {
			Expect(jsonin.NewDecoder([]byte(bad)).Skip()).To(HaveOccurred(), bad)
		}
	})

	It("reads any value as encoding/json would", func() {
		in := `{"a":[1,"x",true,null,{"b":-0.5}],"c":{}}`
		var want any
		Expect(json.Unmarshal([]byte(in), &want)).To(Succeed())
		got, err := jsonin.NewDecoder([]byte(in)).Any()
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(want))
	})

	It("copies raw values and checks them", func() {
		data := []byte(`{"x": [1, {"y": "z"}]}`)
		d := jsonin.NewDecoder(data)
		Expect(d.OpenObject()).To(Succeed())
		_, _, err := d.NextKey()
		Expect(err).NotTo(HaveOccurred())
		raw, err := d.Raw()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(raw)).To(Equal(`[1, {"y": "z"}]`))
		data[7] = '9'
		Expect(string(raw)).To(Equal(`[1, {"y": "z"}]`), "Raw returns a copy")
		_, err = jsonin.NewDecoder([]byte(`[1, tru]`)).Raw()
		Expect(err).To(HaveOccurred())
	})

	It("limits nesting instead of overflowing the stack", func() {
		deep := make([]byte, 0, 40002)
		for range 20001 {
			deep = append(deep, '[')
		}
		_, err := jsonin.NewDecoder(deep).Any()
		Expect(err).To(MatchError(ContainSubstring("nesting too deep")))
		Expect(jsonin.NewDecoder(deep).Skip()).To(MatchError(ContainSubstring("nesting too deep")))
	})

	It("reads booleans and null", func() {
		d := jsonin.NewDecoder([]byte(`[true,false,null]`))
		Expect(d.OpenArray()).To(Succeed())
		_, _ = d.NextElem()
		Expect(d.Bool()).To(BeTrue())
		_, _ = d.NextElem()
		Expect(d.Bool()).To(BeFalse())
		_, _ = d.NextElem()
		Expect(d.Kind()).To(Equal(jsonin.Null))
		Expect(d.Null()).To(BeTrue())
		more, err := d.NextElem()
		Expect(err).NotTo(HaveOccurred())
		Expect(more).To(BeFalse())
	})
})

var _ = Describe("Error", func() {
	It("builds the parameter path from the inside out", func() {
		err := jsonin.AtField(jsonin.AtIndex(jsonin.AtKey(jsonin.Missing("x"), "k y"), 3), "edits")
		Expect(err).To(MatchError(`parameter "edits[3][\"k y\"].x": required parameter is missing`))
		var e *jsonin.Error
		Expect(errors.As(err, &e)).To(BeTrue())
		Expect(e.Path()).To(Equal(`edits[3]["k y"].x`))
	})

	It("names the input itself when there is no path", func() {
		Expect(jsonin.Errorf("expected object, got array")).To(MatchError("input: expected object, got array"))
	})

	It("lists the allowed parameters for an unknown one", func() {
		Expect(jsonin.Unknown([]byte("pth"), "path, limit")).To(MatchError(`parameter "pth": unknown parameter; allowed: path, limit`))
		Expect(jsonin.Unknown([]byte("x"), "")).To(MatchError(`parameter "x": unknown parameter; this object takes no parameters`))
	})

	It("leaves foreign errors alone", func() {
		plain := errors.New("boom")
		Expect(jsonin.AtField(plain, "x")).To(BeIdenticalTo(plain))
	})
})
