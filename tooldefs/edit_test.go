package tooldefs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("Edit", func() {
	var (
		e *fileEnv
		p string
	)
	const src = "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	BeforeEach(func() {
		e = newFileEnv()
		p = e.put("main.go", src)
	})

	Context("after the file was read", func() {
		BeforeEach(func() { e.mustRead(p) })

		It("replaces the text, returns a unified diff and counts lines added and removed", func() {
			out, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: `println("hi")`, NewString: "println(\"hello\")\n\tprintln(\"world\")"})
			Expect(err).NotTo(HaveOccurred())
			Expect(e.content(p)).To(Equal("package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"world\")\n}\n"))
			Expect(out.Additions).To(Equal(2))
			Expect(out.Removals).To(Equal(1))
			Expect(out.Diff).To(ContainSubstring("@@ -1,5 +1,6 @@\n package main\n \n func main() {\n-\tprintln(\"hi\")\n+\tprintln(\"hello\")\n+\tprintln(\"world\")\n }\n"))
			text := tooldefs.Edit{}.ResultBlocks(out)[0].Text
			Expect(text).To(HavePrefix("The file " + p + " has been updated."))
			Expect(text).To(ContainSubstring("+\tprintln(\"world\")"))
			Expect(tooldefs.Edit{}.RenderResult(nil, out)).To(Equal("Updated "+p+" with 2 additions and 1 removal\n"+
				"@@ -1,5 +1,6 @@\n package main\n \n func main() {\n-\tprintln(\"hi\")\n+\tprintln(\"hello\")\n+\tprintln(\"world\")\n }"), "the summary, then the diff's hunks")
		})

		It("records the new content through the modifier, so a second edit needs no new read", func() {
			c := runtime.NewCall("id", e.tc, nil)
			_, err := tooldefs.Edit{}.Call(context.Background(), &tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "run()"}, c)
			Expect(err).NotTo(HaveOccurred())
			st, _ := e.tc.FileState.Get(p)
			Expect(st.Hash).To(Equal(filetool.Hash([]byte(src))), "not before the modifier is applied")
			c.Modifier()(e.tc)
			st, _ = e.tc.FileState.Get(p)
			Expect(st.Hash).To(Equal(filetool.Hash([]byte(e.content(p)))))
			Expect(st.Offset).To(Equal(0), "recorded as a write, not a read")
			_, err = e.edit(tooldefs.EditInput{FilePath: p, OldString: "run()", NewString: "start()"})
			Expect(err).NotTo(HaveOccurred())
			Expect(e.content(p)).To(ContainSubstring("func start()"))
		})

		It("refuses a file modified since it was read, by content hash even when the mtime is restored", func() {
			fi, _ := os.Stat(p)
			Expect(os.WriteFile(p, []byte(strings.Replace(src, "hi", "HI", 1)), 0o644)).To(Succeed())
			Expect(os.Chtimes(p, fi.ModTime(), fi.ModTime())).To(Succeed())
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "run()"})
			Expect(errors.Is(err, filetool.ErrModified)).To(BeTrue())
			Expect(err.Error()).To(ContainSubstring("read it again"))
			Expect(e.content(p)).To(ContainSubstring("HI"))
		})

		It("accepts a file whose mtime changed but whose content did not", func() {
			later := time.Now().Add(time.Hour)
			Expect(os.Chtimes(p, later, later)).To(Succeed())
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "run()"})
			Expect(err).NotTo(HaveOccurred())
		})

		It("says old_string was not found and quotes the closest region with line numbers", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "func main() {\n    println(\"hi\")\n}", NewString: "x"})
			Expect(err).To(MatchError(ContainSubstring("String to replace not found in file.")))
			Expect(err.Error()).To(ContainSubstring("The closest match is lines 3-5"))
			Expect(err.Error()).To(ContainSubstring("3\tfunc main() {\n4\t\tprintln(\"hi\")\n5\t}"))
			Expect(err.Error()).To(ContainSubstring("Line 4 differs only in whitespace or indentation"))
			Expect(e.content(p)).To(Equal(src))
		})

		It("refuses several matches without replace_all, and replaces them all with it", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main", NewString: "app"})
			Expect(err).To(MatchError(ContainSubstring("Found 2 matches of the string to replace")))
			Expect(e.content(p)).To(Equal(src))
			out, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main", NewString: "app", ReplaceAll: true})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Replacements).To(Equal(2))
			Expect(e.content(p)).To(Equal(strings.ReplaceAll(src, "main", "app")))
			Expect(tooldefs.Edit{}.ResultBlocks(out)[0].Text).To(ContainSubstring("(2 replacements)"))
		})

		It("deletes whole lines with their line break", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "\tprintln(\"hi\")", NewString: ""})
			Expect(err).NotTo(HaveOccurred())
			Expect(e.content(p)).To(Equal("package main\n\nfunc main() {\n}\n"))
		})

		It("refuses old_string equal to new_string", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main", NewString: "main"})
			Expect(err).To(MatchError(ContainSubstring("old_string and new_string are exactly the same")))
		})

		It("refuses an empty old_string on a file with content", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "", NewString: "x"})
			Expect(err).To(MatchError(ContainSubstring("already exists and is not empty")))
		})

		It("checks everything in ValidateInput without writing", func() {
			v := func(in tooldefs.EditInput) error {
				return tooldefs.Edit{}.ValidateInput(context.Background(), &in, e.tc)
			}
			Expect(v(tooldefs.EditInput{FilePath: p, OldString: "nothing like it", NewString: "x"})).To(MatchError(ContainSubstring("not found")))
			Expect(v(tooldefs.EditInput{FilePath: p, OldString: "main", NewString: "x"})).To(MatchError(ContainSubstring("Found 2 matches")))
			Expect(v(tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "x()"})).To(Succeed())
			Expect(e.content(p)).To(Equal(src))
		})
	})

	It("refuses a file that was not read", func() {
		_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "run()"})
		Expect(errors.Is(err, filetool.ErrNotRead)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("file has not been read yet"))
		Expect(e.content(p)).To(Equal(src))
	})

	It("matches straight quotes against the file's curly ones and keeps the curly style", func() {
		q := e.put("doc.txt", "He said “stop” and didn’t.\n")
		e.mustRead(q)
		out, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: `said "stop" and didn't`, NewString: `said "go" and didn't`})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.QuotesNormalized).To(BeTrue())
		Expect(e.content(q)).To(Equal("He said “go” and didn’t.\n"))
	})

	It("keeps CRLF line endings and the file mode", func() {
		q := e.path("run.bat")
		Expect(os.WriteFile(q, []byte("@echo off\r\necho one\r\necho two\r\n"), 0o755)).To(Succeed())
		e.mustRead(q)
		_, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: "echo one\necho two", NewString: "echo 1\necho 2\necho 3"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.content(q)).To(Equal("@echo off\r\necho 1\r\necho 2\r\necho 3\r\n"))
		fi, err := os.Stat(q)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode().Perm()).To(Equal(os.FileMode(0o755)))
	})

	It("writes atomically: a new file is renamed into place and no temporary file is left", func() {
		e.mustRead(p)
		before, err := os.Stat(p)
		Expect(err).NotTo(HaveOccurred())
		_, err = e.edit(tooldefs.EditInput{FilePath: p, OldString: "main()", NewString: "run()"})
		Expect(err).NotTo(HaveOccurred())
		after, err := os.Stat(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.SameFile(before, after)).To(BeFalse(), "the file was replaced, not rewritten in place")
		entries, _ := os.ReadDir(e.dir)
		Expect(entries).To(HaveLen(1))
	})

	It("edits the target of a symlink inside the working directory and keeps the link", func() {
		link := e.path("link.go")
		Expect(os.Symlink(p, link)).To(Succeed())
		e.mustRead(link)
		_, err := e.edit(tooldefs.EditInput{FilePath: link, OldString: "main()", NewString: "run()"})
		Expect(err).NotTo(HaveOccurred())
		fi, err := os.Lstat(link)
		Expect(err).NotTo(HaveOccurred())
		Expect(fi.Mode() & os.ModeSymlink).NotTo(BeZero())
		Expect(e.content(p)).To(ContainSubstring("func run()"))
	})

	It("refuses a file outside the working directories", func() {
		q := filepath.Join(e.outside, "x.go")
		Expect(os.WriteFile(q, []byte("x"), 0o644)).To(Succeed())
		e.tc.FileState.Set(q, runtime.FileState{Hash: filetool.Hash([]byte("x")), Offset: 1})
		_, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: "x", NewString: "y"})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		Expect(e.content(q)).To(Equal("x"))
	})

	It("creates a new file, with its directories, from an empty old_string", func() {
		q := e.path("pkg/new/file.go")
		out, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: "", NewString: "package new\n"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Created).To(BeTrue())
		Expect(e.content(q)).To(Equal("package new\n"))
		Expect(tooldefs.Edit{}.ResultBlocks(out)[0].Text).To(Equal("File created successfully at: " + q))
		Expect(tooldefs.Edit{}.UserFacingName(&tooldefs.EditInput{})).To(Equal("Create"))
		Expect(tooldefs.Edit{}.UserFacingName(&tooldefs.EditInput{OldString: "a"})).To(Equal("Update"))
	})

	It("refuses an edit that changes nothing, even one that would create an empty file", func() {
		_, err := e.edit(tooldefs.EditInput{FilePath: e.path("empty.go"), OldString: "", NewString: ""})
		Expect(err).To(MatchError(ContainSubstring("exactly the same")))
		Expect(e.path("empty.go")).NotTo(BeAnExistingFile())
	})

	It("refuses a missing file with a non-empty old_string, pointing to Write", func() {
		_, err := e.edit(tooldefs.EditInput{FilePath: e.path("nope.go"), OldString: "a", NewString: "b"})
		Expect(err).To(MatchError(ContainSubstring("File does not exist")))
		Expect(err.Error()).To(ContainSubstring("use Write"))
	})

	It("sends notebooks to NotebookEdit", func() {
		q := e.put("n.ipynb", sampleNotebook)
		e.mustRead(q)
		_, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: "print(1)", NewString: "print(2)"})
		Expect(err).To(MatchError(ContainSubstring("NotebookEdit")))
	})

	It("refuses a binary file", func() {
		q := e.path("blob.dat")
		Expect(os.WriteFile(q, []byte("a\x00b"), 0o644)).To(Succeed())
		e.tc.FileState.Set(q, runtime.FileState{Hash: filetool.Hash([]byte("a\x00b")), Offset: 1})
		_, err := e.edit(tooldefs.EditInput{FilePath: q, OldString: "a", NewString: "c"})
		Expect(err).To(MatchError(ContainSubstring("binary file")))
	})

	DescribeTable("IsDestructive is true when the edit removes much more than it adds",
		func(old, new string, want bool) {
			Expect(tooldefs.Edit{}.IsDestructive(&tooldefs.EditInput{OldString: old, NewString: new})).To(Equal(want))
		},
		Entry("a small change", "a := 1", "a := 2", false),
		Entry("an addition", "x", strings.Repeat("y", 1000), false),
		Entry("deleting a large block", strings.Repeat("line of code\n", 40), "", true),
		Entry("replacing a large block with a stub", strings.Repeat("line of code\n", 40), "// TODO\n", true),
		Entry("halving a large block", strings.Repeat("x", 1000), strings.Repeat("y", 500), false),
		Entry("rewriting a large block at similar size", strings.Repeat("line of code\n", 40), strings.Repeat("new code\n", 40), false),
	)

	It("targets the path for permission rules, as a write, and renders", func() {
		Expect(tooldefs.Edit{}.PermissionTarget(&tooldefs.EditInput{FilePath: p})).
			To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: p, Writes: true}))
		wd, _ := os.Getwd()
		in := &tooldefs.EditInput{FilePath: filepath.Join(wd, "src", "x.go")}
		ed := tooldefs.Edit{}
		Expect(ed.RenderUse(in)).To(Equal("src/x.go"))
		Expect(ed.RenderResult(in, tooldefs.EditOutput{FilePath: in.FilePath, Additions: 2, Removals: 1})).To(Equal("Updated src/x.go with 2 additions and 1 removal"))
		Expect(ed.RenderResult(in, tooldefs.EditOutput{FilePath: in.FilePath, Created: true, Additions: 3})).To(Equal("Created src/x.go with 3 lines"))
		Expect(ed.RenderRejected(in)).To(Equal("Edit of src/x.go was rejected"))
		Expect(ed.RenderError(in, errors.New("String to replace not found in file.\nString: x"))).To(Equal("String to replace not found in file."))
		Expect(ed.RenderGrouped([]*tooldefs.EditInput{in, in, {FilePath: filepath.Join(wd, "y.go")}})).To(Equal("Edited 2 files: src/x.go, y.go"))
	})
})
