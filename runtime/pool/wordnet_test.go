package pool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

// The general synonym source and the query's literals, on a pool of tools
// that no query set is about.
var _ = Describe("Search with WordNet's synonyms", func() {
	var p *pool.Pool

	BeforeEach(func() {
		mcp := []runtime.Tool{
			&tool{name: "mcp__drive__delete_document", desc: "Delete a document from the drive."},
			&tool{name: "mcp__drive__list_documents", desc: "List the documents of a folder."},
			&tool{name: "mcp__drive__get_document_info", desc: "Get a document's size and owner."},
			&tool{name: "mcp__drive__fetch_url", desc: "Download the page at a URL."},
			&tool{name: "mcp__notes__append_note", desc: "Add a line to a note.", instructions: "Keeps the user's notebook."},
		}
		base := []runtime.Tool{&tool{name: "ToolSearch", desc: "Loads deferred tools."}}
		p = pool.Assemble(base, mcp, pool.Options{SearchTool: "ToolSearch"})
	})

	first := func(q string) string {
		res, err := pool.Search(p, q, 5)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Matches).NotTo(BeEmpty(), q)
		return res.Matches[0]
	}

	It("reads the table: synonyms and broader words of a word's frequent senses", func() {
		Expect(pool.Synonyms("delete")).To(ContainElement(pool.Stem("remove")), "delete's hypernym")
		Expect(pool.Synonyms("big")).To(ContainElement(pool.Stem("size")), "an attribute link")
		Expect(pool.Synonyms("display")).To(ContainElement(pool.Stem("show")), "a synonym")
		Expect(pool.Synonyms("xyzzy")).To(BeEmpty())
	})

	It("has its keys sorted and unique, as the binary search needs", func() {
		keys := pool.ThesaurusKeys()
		Expect(len(keys)).To(BeNumerically(">", 10000))
		for i := 1; i < len(keys); i++ {
			Expect(keys[i-1] < keys[i]).To(BeTrue(), "%q before %q", keys[i-1], keys[i])
		}
	})

	DescribeTable("finds a tool by words its text does not hold",
		func(q, want string) { Expect(first(q)).To(Equal(want), q) },
		Entry("a broader word of the name's verb (remove → delete)", "remove the old document", "mcp__drive__delete_document"),
		Entry("a phrase with a particle (get rid of)", "get rid of that document", "mcp__drive__delete_document"),
		Entry("an attribute (how big → size)", "how big is the document", "mcp__drive__get_document_info"),
		Entry("a link is a URL", "what does https://example.com/a say", "mcp__drive__fetch_url"),
		Entry("the server's instructions", "write in my notebook", "mcp__notes__append_note"),
	)

	It("reads a file name, a path and a link as what they name, and literals as nothing", func() {
		kindsOf := func(w string) []string {
			kinds, ok := pool.Operand(w)
			Expect(ok).To(BeTrue(), w)
			return kinds
		}
		Expect(kindsOf("report.pdf")).To(Equal([]string{"file", "pdf"}))
		Expect(kindsOf("build/out")).To(Equal([]string{"path", "directory"}))
		Expect(kindsOf("src/**/*.ts")).To(Equal([]string{"file", "pattern"}))
		Expect(kindsOf("https://example.com")).To(Equal([]string{"url"}))
		kinds, ok := pool.Operand("42")
		Expect(ok).To(BeTrue())
		Expect(kinds).To(BeEmpty(), "a number is a literal")
		_, ok = pool.Operand("folder")
		Expect(ok).To(BeFalse())
	})

	It("reads a quoted string, straight or curly, as text to look for", func() {
		Expect(pool.Groups(p, `notes with "remove the old" in them`)).To(Equal(pool.Groups(p, "notes with “remove the old” in them")))
		Expect(pool.Groups(p, `notes with "remove the old" in them`)).NotTo(ContainElement(ContainElement(pool.Stem("remove"))))
	})

	It("drops a word in capitals that is no word (FIXME), keeps one a tool or WordNet knows (URL) and a short one (PR)", func() {
		Expect(pool.Groups(p, "fetch the URL")).To(ContainElement(ContainElement(pool.Stem("url"))))
		Expect(pool.Groups(p, "notes about the PR")).To(ContainElement(ContainElement("pr")))
		Expect(pool.Groups(p, "notes with FIXME")).NotTo(ContainElement(ContainElement(pool.Stem("fixme"))))
	})
})
