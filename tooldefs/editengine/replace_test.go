package editengine_test

import (
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/editengine"
)

var _ = Describe("Apply", func() {
	const src = "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"

	It("replaces the one occurrence of old", func() {
		r, err := editengine.Apply(src, editengine.Edit{Old: `"hi"`, New: `"bye"`})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Content).To(Equal(strings.Replace(src, `"hi"`, `"bye"`, 1)))
		Expect(r.Count).To(Equal(1))
		Expect(r.ActualOld).To(Equal(`"hi"`))
	})

	It("takes the line break along when deleting whole lines", func() {
		r, err := editengine.Apply("a\nremove me\nb\n", editengine.Edit{Old: "remove me", New: ""})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Content).To(Equal("a\nb\n"))
		r, err = editengine.Apply("a\r\nremove me\r\nb\r\n", editengine.Edit{Old: "remove me", New: ""})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Content).To(Equal("a\r\nb\r\n"))
	})

	It("keeps the line break when some occurrence is not followed by one", func() {
		r, err := editengine.Apply("x y\nx\n", editengine.Edit{Old: "x", New: "", ReplaceAll: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Content).To(Equal(" y\n\n"))
	})

	It("refuses old equal to new", func() {
		_, err := editengine.Apply(src, editengine.Edit{Old: "main", New: "main"})
		Expect(err).To(MatchError(editengine.ErrNoChange))
		Expect(err.Error()).To(ContainSubstring("exactly the same"))
	})

	It("refuses an empty old", func() {
		_, err := editengine.Apply(src, editengine.Edit{Old: "", New: "x"})
		Expect(err).To(MatchError(editengine.ErrEmptyOld))
	})

	It("refuses several occurrences without replace_all, saying how many and where", func() {
		content := "a := 1\nb := a\nc := a\n"
		_, err := editengine.Apply(content, editengine.Edit{Old: "a", New: "x"})
		var amb *editengine.AmbiguousError
		Expect(errors.As(err, &amb)).To(BeTrue())
		Expect(amb.Count).To(Equal(3))
		Expect(amb.Lines).To(Equal([]int{1, 2, 3}))
		Expect(err.Error()).To(ContainSubstring("Found 3 matches"))
		Expect(err.Error()).To(ContainSubstring("replace_all"))
	})

	It("replaces every occurrence with replace_all", func() {
		content := "foo bar foo\nfoo\n"
		r, err := editengine.Apply(content, editengine.Edit{Old: "foo", New: "baz", ReplaceAll: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Content).To(Equal("baz bar baz\nbaz\n"))
		Expect(r.Count).To(Equal(3))
	})

	Context("when old is not in the file", func() {
		const file = "line one\nfunc compute(a int, b int) int {\n\treturn a + b\n}\nline five\n"

		It("quotes the closest region with line numbers and names the first difference", func() {
			_, err := editengine.Apply(file, editengine.Edit{Old: "func compute(a int, b int) int {\n\treturn a - b\n}", New: "x"})
			var nf *editengine.NotFoundError
			Expect(errors.As(err, &nf)).To(BeTrue())
			Expect(nf.Closest).NotTo(BeNil())
			Expect(nf.Closest.StartLine).To(Equal(2))
			Expect(nf.Closest.EndLine).To(Equal(4))
			msg := err.Error()
			Expect(msg).To(HavePrefix("String to replace not found in file."))
			Expect(msg).To(ContainSubstring("lines 2-4"))
			Expect(msg).To(ContainSubstring("2\tfunc compute(a int, b int) int {\n3\t\treturn a + b\n4\t}"))
			Expect(msg).To(ContainSubstring(`First difference at line 3: the file has "\treturn a + b", old_string has "\treturn a - b"`))
		})

		It("says when only the indentation differs", func() {
			_, err := editengine.Apply(file, editengine.Edit{Old: "func compute(a int, b int) int {\n    return a + b\n}", New: "x"})
			Expect(err).To(MatchError(ContainSubstring("Line 3 differs only in whitespace or indentation")))
		})

		It("finds the closest line for a fragment of one line", func() {
			_, err := editengine.Apply(file, editengine.Edit{Old: "return a * b", New: "x"})
			var nf *editengine.NotFoundError
			Expect(errors.As(err, &nf)).To(BeTrue())
			Expect(nf.Closest).NotTo(BeNil())
			Expect(nf.Closest.StartLine).To(Equal(3))
			Expect(err.Error()).To(ContainSubstring("closest match is line 3"))
		})

		It("quotes nothing when no region resembles old", func() {
			_, err := editengine.Apply(file, editengine.Edit{Old: "zzzzqqqq", New: "x"})
			var nf *editengine.NotFoundError
			Expect(errors.As(err, &nf)).To(BeTrue())
			Expect(nf.Closest).To(BeNil())
			Expect(err.Error()).To(ContainSubstring("No region of the file resembles it"))
		})
	})

	Context("with CRLF line endings", func() {
		const crlf = "one\r\ntwo\r\nthree\r\n"

		It("matches a LF old_string and keeps CRLF in what it writes", func() {
			r, err := editengine.Apply(crlf, editengine.Edit{Old: "one\ntwo", New: "uno\ndos\nmas"})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Content).To(Equal("uno\r\ndos\r\nmas\r\nthree\r\n"))
			Expect(r.CRLF).To(BeTrue())
		})

		It("gives added lines CRLF even when old is a single line", func() {
			r, err := editengine.Apply(crlf, editengine.Edit{Old: "two", New: "two\nand a half"})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Content).To(Equal("one\r\ntwo\r\nand a half\r\nthree\r\n"))
		})

		It("never matches the LF half of a CRLF", func() {
			r, err := editengine.Apply(crlf, editengine.Edit{Old: "\ntwo", New: " two"})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Content).To(Equal("one two\r\nthree\r\n"))
		})

		It("leaves a LF-only file's line endings alone", func() {
			r, err := editengine.Apply("a\nb\n", editengine.Edit{Old: "a", New: "x\ny"})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Content).To(Equal("x\ny\nb\n"))
		})
	})

	Context("with typographic quotes", func() {
		It("matches straight quotes in old against curly ones in the file and keeps the curly style", func() {
			file := "She said “hello” and didn’t stop.\n"
			r, err := editengine.Apply(file, editengine.Edit{Old: `said "hello" and didn't`, New: `said "goodbye" and didn't`})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.QuotesNormalized).To(BeTrue())
			Expect(r.ActualOld).To(Equal("said “hello” and didn’t"))
			Expect(r.ActualNew).To(Equal("said “goodbye” and didn’t"))
			Expect(r.Content).To(Equal("She said “goodbye” and didn’t stop.\n"))
		})

		It("matches curly quotes in old against straight ones in the file", func() {
			file := `x := "value"` + "\n"
			r, err := editengine.Apply(file, editengine.Edit{Old: "“value”", New: `"other"`})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Content).To(Equal(`x := "other"` + "\n"))
		})

		It("prefers an exact match to a normalised one", func() {
			file := "“a” \"a\"\n"
			r, err := editengine.Apply(file, editengine.Edit{Old: `"a"`, New: `"b"`})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.QuotesNormalized).To(BeFalse())
			Expect(r.Content).To(Equal("“a” \"b\"\n"))
		})
	})
})

var _ = Describe("Closest", func() {
	It("scores only the most promising windows in a large file and still finds the region", func() {
		var b strings.Builder
		for i := range 20000 {
			fmt.Fprintf(&b, "\tvalue%d := compute(%d)\n", i, i)
		}
		file := b.String()
		var old strings.Builder
		for i := 12000; i < 12200; i++ {
			fmt.Fprintf(&old, "\tvalue%d := compute(%d)\n", i, i)
		}
		// One changed line in the middle.
		o := strings.Replace(old.String(), "compute(12100)", "compute(12100, x)", 1)
		r := editengine.Closest(file, o)
		Expect(r).NotTo(BeNil())
		Expect(r.StartLine).To(Equal(12001))
		Expect(r.EndLine).To(Equal(12200))
		Expect(r.Hint).To(ContainSubstring("line 12101"))
	})

	It("says when only quote characters differ", func() {
		r := editengine.Closest("a\nsay “hi” now\nb\n", "say \"hi\" now\nb")
		Expect(r).NotTo(BeNil())
		Expect(r.Hint).To(ContainSubstring("differs only in quote characters"))
	})

	It("names no difference for a fragment found inside a line", func() {
		r := editengine.Closest("a\nfoo bar baz\n", "bar")
		Expect(r).NotTo(BeNil())
		Expect(r.StartLine).To(Equal(2))
		Expect(r.Hint).To(BeEmpty())
	})

	It("returns nil for an empty file or a blank old", func() {
		Expect(editengine.Closest("", "abc")).To(BeNil())
		Expect(editengine.Closest("abc\n", "\n\n")).To(BeNil())
	})
})
