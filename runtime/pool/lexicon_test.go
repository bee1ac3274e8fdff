package pool_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/pool"
)

// The everyday lexicon and the query's operands, on a pool of tools that
// none of the evaluation's query sets is about.
var _ = Describe("Search by everyday phrasing", func() {
	var p *pool.Pool

	BeforeEach(func() {
		mcp := []runtime.Tool{
			&tool{name: "mcp__drive__move_document", desc: "Move a document to another folder of the drive."},
			&tool{name: "mcp__drive__delete_document", desc: "Delete a document from the drive."},
			&tool{name: "mcp__drive__list_folder", desc: "List the documents of a folder."},
			&tool{name: "mcp__drive__read_document", desc: "Read a document's text."},
			&tool{name: "mcp__drive__play_audio", desc: "Play an audio file, returning its media stream."},
			&tool{name: "mcp__crm__create_contact", desc: "Create a contact entity with a name and an email."},
			&tool{name: "mcp__crm__link_contacts", desc: "Create a relation between two contacts."},
			&tool{name: "mcp__calc__add", desc: "Add two numbers and return the sum."},
			&tool{name: "mcp__code__grep_repo", desc: "Search the repository's files for a regular expression."},
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

	DescribeTable("reads a task's words as the operation they mean",
		func(q, want string) { Expect(first(q)).To(Equal(want), q) },
		Entry("put → move", "put budget.xlsx in the finance folder", "mcp__drive__move_document"),
		Entry("get rid of → delete", "get rid of that old document", "mcp__drive__delete_document"),
		Entry("what's in → list, a folder", "what's in the reports folder", "mcp__drive__list_folder"),
		Entry("a file name with an audio extension → audio", "song.mp3", "mcp__drive__play_audio"),
		Entry("numbers and plus → sum", "what is 2 plus 40", "mcp__calc__add"),
		Entry("a relation between two names", "Alice works with Bob", "mcp__crm__link_contacts"),
		Entry("text in capitals is searched for, not a word of a tool", "which files mention FIXME", "mcp__code__grep_repo"),
	)

	It("is one-way: an operation's own word does not mean its phrasings", func() {
		// "move" is not read as "put"; the lexicon adds meanings to
		// everyday words, it does not spread a tool's words.
		Expect(pool.Meanings("move")).To(BeEmpty())
		Expect(pool.Meanings("put")).To(ContainElement(pool.Stem("move")))
	})

	It("reads a file name, a path and a number as the kind of thing they are", func() {
		Expect(pool.Operand("report.pdf")).To(Equal([]string{"file"}))
		Expect(pool.Operand("clip.mp3")).To(Equal([]string{"file", "media|audio"}))
		Expect(pool.Operand("build/out")).To(Equal([]string{"directory|folder", "path"}))
		Expect(pool.Operand("src/**/*.ts")).To(Equal([]string{"file", "pattern|glob|match"}))
		Expect(pool.Operand("_test.go")).To(Equal([]string{"file", "pattern|glob|match|extension"}), "a name's ending is a pattern")
		Expect(pool.Operand("42")).To(Equal([]string{"number"}))
		Expect(pool.Operand("TODO")).To(Equal([]string{"text|content"}))
		Expect(pool.Operand("URL")).To(BeNil(), "an acronym tools are about stays a word")
		Expect(pool.Operand("e.g.")).To(BeNil())
		Expect(pool.Operand("folder")).To(BeNil())
	})
})
