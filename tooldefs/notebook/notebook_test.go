package notebook_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/notebook"
)

// sample is an nbformat 4.5 notebook with ids, metadata, outputs of every
// kind and an HTML-ish string that must not be escaped.
const sample = `{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {"tags": ["title"]},
   "source": ["# Title\n", "Some <b>text</b> & more"]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "calc",
   "metadata": {"collapsed": false},
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["hello\n"]},
    {"data": {"image/png": "iVBORw0KGgo=\n", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"},
    {"ename": "ValueError", "evalue": "bad", "output_type": "error", "traceback": ["\u001b[31mTraceback\u001b[0m", "ValueError: bad"]}
   ],
   "source": "print('hello')"
  }
 ],
 "metadata": {"kernelspec": {"display_name": "Python 3", "name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

var _ = Describe("Parse", func() {
	DescribeTable("refuses what is not an nbformat 4 notebook",
		func(data, msg string) {
			_, err := notebook.Parse([]byte(data))
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("invalid JSON", `{"cells": [`, "not valid JSON"),
		Entry("not an object", `null`, "not a JSON object"),
		Entry("nbformat 3", `{"nbformat": 3, "worksheets": []}`, "only nbformat 4"),
		Entry("no cells", `{"nbformat": 4}`, `no "cells" array`),
		Entry("cells not objects", `{"nbformat": 4, "cells": [1]}`, "not an array of objects"),
		Entry("a null cell", `{"nbformat": 4, "cells": [null]}`, "cell 0 is not a JSON object"),
	)

	It("reads cells, sources in both shapes, and outputs", func() {
		nb, err := notebook.Parse([]byte(sample))
		Expect(err).NotTo(HaveOccurred())
		cells := nb.Cells()
		Expect(cells).To(HaveLen(2))
		Expect(cells[0].Source).To(Equal("# Title\nSome <b>text</b> & more"))
		Expect(cells[1].ID).To(Equal("calc"))
		Expect(*cells[1].ExecutionCount).To(Equal(3))
		Expect(cells[1].Outputs).To(HaveLen(3))
		Expect(cells[1].Outputs[0].Text).To(Equal("hello\n"))
		Expect(cells[1].Outputs[1].Images).To(Equal([]notebook.Image{{MediaType: "image/png", Data: "iVBORw0KGgo="}}))
		Expect(cells[1].Outputs[2].Text).To(Equal("ValueError: bad\nTraceback\nValueError: bad"))
	})
})

var _ = Describe("Render", func() {
	It("shows cells with ids and outputs, and images as image parts", func() {
		nb, err := notebook.Parse([]byte(sample))
		Expect(err).NotTo(HaveOccurred())
		parts := notebook.Render(nb)
		Expect(parts).To(HaveLen(3))
		Expect(parts[0].Text).To(ContainSubstring("<cell id=\"intro\" type=\"markdown\">\n# Title\nSome <b>text</b> & more\n</cell>"))
		Expect(parts[0].Text).To(ContainSubstring("<cell id=\"calc\" type=\"code\" execution_count=\"3\">\nprint('hello')\n</cell>"))
		Expect(parts[0].Text).To(ContainSubstring("<output cell=\"calc\" type=\"stream\" name=\"stdout\">\nhello\n</output>"))
		Expect(parts[1]).To(Equal(notebook.Part{MediaType: "image/png", Data: "iVBORw0KGgo="}))
		Expect(parts[2].Text).To(ContainSubstring("ValueError: bad"))
	})

	It("cuts an output longer than MaxOutputChars", func() {
		nb, err := notebook.Parse([]byte(`{"nbformat":4,"nbformat_minor":5,"cells":[{"cell_type":"code","id":"a","source":"x","outputs":[{"output_type":"stream","name":"stdout","text":"` + strings.Repeat("y", notebook.MaxOutputChars+50) + `"}]}]}`))
		Expect(err).NotTo(HaveOccurred())
		text := notebook.Render(nb)[0].Text
		Expect(text).To(ContainSubstring("[output truncated: 50 more characters]"))
		Expect(len(text)).To(BeNumerically("<", notebook.MaxOutputChars+300))
	})

	It("says so when there are no cells", func() {
		nb, err := notebook.Parse([]byte(`{"nbformat":4,"cells":[]}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(notebook.Render(nb)).To(Equal([]notebook.Part{{Text: "The notebook has no cells."}}))
	})
})

var _ = Describe("editing", func() {
	var nb *notebook.Notebook
	BeforeEach(func() {
		var err error
		nb, err = notebook.Parse([]byte(sample))
		Expect(err).NotTo(HaveOccurred())
	})

	// roundTrip marshals, checks the output is valid JSON keeping the
	// notebook's metadata, and parses it again.
	roundTrip := func() (*notebook.Notebook, map[string]any) {
		data, err := nb.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Valid(data)).To(BeTrue())
		Expect(string(data)).To(HaveSuffix("}\n"))
		Expect(string(data)).NotTo(ContainSubstring(`\u003c`), "no HTML escaping")
		Expect(string(data)).NotTo(ContainSubstring(`\u0026`), "no HTML escaping")
		var m map[string]any
		Expect(json.Unmarshal(data, &m)).To(Succeed())
		Expect(m["metadata"]).To(HaveKeyWithValue("kernelspec", HaveKeyWithValue("name", "python3")))
		Expect(m["nbformat_minor"]).To(BeEquivalentTo(5))
		again, err := notebook.Parse(data)
		Expect(err).NotTo(HaveOccurred())
		return again, m
	}

	It("keeps markup characters unescaped", func() {
		data, err := nb.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring("Some <b>text</b> & more"))
	})

	It("replaces a code cell's source, clearing its outputs and execution count, keeping its metadata", func() {
		Expect(nb.Replace("calc", "print(1)\nprint(2)\n", "")).To(Succeed())
		again, m := roundTrip()
		c := again.Cells()[1]
		Expect(c.Source).To(Equal("print(1)\nprint(2)\n"))
		Expect(c.Outputs).To(BeEmpty())
		Expect(c.ExecutionCount).To(BeNil())
		cell := m["cells"].([]any)[1].(map[string]any)
		Expect(cell["metadata"]).To(HaveKeyWithValue("collapsed", false))
		Expect(cell["source"]).To(Equal("print(1)\nprint(2)\n"), "a string source stays a string")
	})

	It("changes a cell's type, giving it the fields of the new type", func() {
		Expect(nb.Replace("intro", "x = 1", notebook.Code)).To(Succeed())
		_, m := roundTrip()
		cell := m["cells"].([]any)[0].(map[string]any)
		Expect(cell).To(HaveKeyWithValue("cell_type", "code"))
		Expect(cell).To(HaveKeyWithValue("outputs", BeEmpty()))
		Expect(cell).To(HaveKey("execution_count"))
		Expect(cell["source"]).To(Equal([]any{"x = 1"}), "a list source stays a list")

		Expect(nb.Replace("calc", "# now text", notebook.Markdown)).To(Succeed())
		_, m = roundTrip()
		cell = m["cells"].([]any)[1].(map[string]any)
		Expect(cell).NotTo(HaveKey("outputs"))
		Expect(cell).NotTo(HaveKey("execution_count"))
	})

	It("inserts a cell after another, with a fresh id and empty metadata", func() {
		id, err := nb.Insert("intro", "a\nb", notebook.Code)
		Expect(err).NotTo(HaveOccurred())
		Expect(id).To(MatchRegexp(`^[0-9a-f]{8}$`))
		again, m := roundTrip()
		Expect(again.Len()).To(Equal(3))
		Expect(again.Cells()[1].ID).To(Equal(id))
		cell := m["cells"].([]any)[1].(map[string]any)
		Expect(cell["source"]).To(Equal([]any{"a\n", "b"}))
		Expect(cell["metadata"]).To(BeEmpty())
	})

	It("inserts at the start when no cell is given", func() {
		id, err := nb.Insert("", "first", notebook.Markdown)
		Expect(err).NotTo(HaveOccurred())
		again, _ := roundTrip()
		Expect(again.Cells()[0].ID).To(Equal(id))
	})

	It("names inserted cells cell-N in notebooks older than 4.5, which have no ids", func() {
		old, err := notebook.Parse([]byte(`{"nbformat":4,"nbformat_minor":4,"metadata":{},"cells":[{"cell_type":"code","source":"a","outputs":[],"metadata":{}}]}`))
		Expect(err).NotTo(HaveOccurred())
		id, err := old.Insert("cell-0", "b", notebook.Code)
		Expect(err).NotTo(HaveOccurred())
		Expect(id).To(Equal("cell-1"))
		data, err := old.Marshal()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).NotTo(ContainSubstring(`"id"`))
	})

	It("requires a cell type to insert, and a known one", func() {
		_, err := nb.Insert("intro", "x", "")
		Expect(err).To(MatchError(ContainSubstring("cell_type is required")))
		_, err = nb.Insert("intro", "x", "python")
		Expect(err).To(MatchError(ContainSubstring("cell_type must be code or markdown")))
	})

	It("deletes a cell", func() {
		Expect(nb.Delete("intro")).To(Succeed())
		again, _ := roundTrip()
		Expect(again.Len()).To(Equal(1))
		Expect(again.Cells()[0].ID).To(Equal("calc"))
	})

	It("finds cells by cell-N too, and lists the ids when a cell is unknown", func() {
		Expect(nb.Find("cell-1")).To(Equal(1))
		_, err := nb.Find("nope")
		Expect(err).To(MatchError(`cell "nope" not found; the notebook's cells are: intro, calc`))
		Expect(nb.Delete("cell-9")).To(MatchError(ContainSubstring("not found")))
	})
})
