package tooldefs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

var _ = Describe("Write", func() {
	var e *fileEnv
	BeforeEach(func() { e = newFileEnv() })

	It("creates a file and its parent directories", func() {
		p := e.path("a/b/c.txt")
		out, err := e.write(tooldefs.WriteInput{FilePath: p, Content: "one\ntwo\n"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.content(p)).To(Equal("one\ntwo\n"))
		Expect(out.Type).To(Equal("create"))
		Expect(out.Lines).To(Equal(2))
		Expect(tooldefs.Write{}.ResultBlocks(out)[0].Text).To(Equal("File created successfully at: " + p + " (2 lines)"))
		Expect(tooldefs.Write{}.RenderResult(nil, out)).To(Equal("Wrote 2 lines to " + p))
		in := &tooldefs.WriteInput{FilePath: p, Content: "one\ntwo\n"}
		Expect(tooldefs.Write{}.RenderResult(in, out)).To(Equal("Wrote 2 lines to "+p+"\none\ntwo"), "the new content under the summary")
		fi, _ := os.Stat(p)
		Expect(fi.Mode().Perm()).To(Equal(os.FileMode(0o644)))
	})

	It("refuses to overwrite a file that was not read", func() {
		p := e.put("x.txt", "keep me")
		_, err := e.write(tooldefs.WriteInput{FilePath: p, Content: "new"})
		Expect(errors.Is(err, filetool.ErrNotRead)).To(BeTrue())
		Expect(e.content(p)).To(Equal("keep me"))
		Expect(tooldefs.Write{}.ValidateInput(context.Background(), &tooldefs.WriteInput{FilePath: p, Content: "new"}, e.tc)).
			To(MatchError(ContainSubstring("has not been read yet")))
	})

	It("refuses to overwrite a file changed since it was read", func() {
		p := e.put("x.txt", "v1\n")
		e.mustRead(p)
		Expect(os.WriteFile(p, []byte("v2\n"), 0o644)).To(Succeed())
		_, err := e.write(tooldefs.WriteInput{FilePath: p, Content: "v3\n"})
		Expect(errors.Is(err, filetool.ErrModified)).To(BeTrue())
		Expect(e.content(p)).To(Equal("v2\n"))
	})

	It("updates a file that was read, atomically, keeping its mode, and returns a diff", func() {
		p := e.path("tool.sh")
		Expect(os.WriteFile(p, []byte("#!/bin/sh\necho a\n"), 0o700)).To(Succeed())
		e.mustRead(p)
		before, _ := os.Stat(p)
		out, err := e.write(tooldefs.WriteInput{FilePath: p, Content: "#!/bin/sh\necho b\necho c\n"})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Type).To(Equal("update"))
		Expect(out.Additions).To(Equal(2))
		Expect(out.Removals).To(Equal(1))
		Expect(out.Diff).To(ContainSubstring("-echo a\n+echo b\n+echo c\n"))
		Expect(tooldefs.Write{}.ResultBlocks(out)[0].Text).To(ContainSubstring("has been updated (2 additions, 1 removal)"))
		Expect(tooldefs.Write{}.RenderResult(nil, out)).To(Equal("Updated "+p+" with 2 additions and 1 removal\n@@ -1,2 +1,3 @@\n #!/bin/sh\n-echo a\n+echo b\n+echo c"),
			"an overwrite shows its diff")
		after, _ := os.Stat(p)
		Expect(after.Mode().Perm()).To(Equal(os.FileMode(0o700)))
		Expect(os.SameFile(before, after)).To(BeFalse(), "replaced by rename")
		entries, _ := os.ReadDir(e.dir)
		Expect(entries).To(HaveLen(1))
	})

	It("sends the model at most 10 000 characters of diff, saying how much was cut", func() {
		p := e.put("big.txt", linesFile(3000))
		e.mustRead(p)
		out, err := e.write(tooldefs.WriteInput{FilePath: p, Content: strings.ReplaceAll(linesFile(3000), "line", "LINE")})
		Expect(err).NotTo(HaveOccurred())
		Expect(len(out.Diff)).To(BeNumerically(">", 50_000), "the output keeps the whole diff")
		text := tooldefs.Write{}.ResultBlocks(out)[0].Text
		Expect(len(text)).To(BeNumerically("<", 10_300))
		Expect(text).To(MatchRegexp(`\[diff cut: \d+ more lines; Read the file to see the rest\]$`))
	})

	It("records what it wrote, so Edit can follow without a read", func() {
		p := e.path("w.txt")
		_, err := e.write(tooldefs.WriteInput{FilePath: p, Content: "alpha\n"})
		Expect(err).NotTo(HaveOccurred())
		_, err = e.edit(tooldefs.EditInput{FilePath: p, OldString: "alpha", NewString: "beta"})
		Expect(err).NotTo(HaveOccurred())
		Expect(e.content(p)).To(Equal("beta\n"))
	})

	It("refuses a directory and paths outside the working directories", func() {
		Expect(os.Mkdir(e.path("d"), 0o755)).To(Succeed())
		_, err := e.write(tooldefs.WriteInput{FilePath: e.path("d"), Content: "x"})
		Expect(err).To(MatchError(ContainSubstring("is a directory")))
		_, err = e.write(tooldefs.WriteInput{FilePath: filepath.Join(e.outside, "x"), Content: "x"})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		Expect(filepath.Join(e.outside, "x")).NotTo(BeAnExistingFile())
	})

	It("refuses to create a file through a symlinked directory that leads outside", func() {
		Expect(os.Symlink(e.outside, e.path("escape"))).To(Succeed())
		_, err := e.write(tooldefs.WriteInput{FilePath: e.path("escape/new.txt"), Content: "x"})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		Expect(filepath.Join(e.outside, "new.txt")).NotTo(BeAnExistingFile())
	})

	It("targets the path as a write and renders", func() {
		wd, _ := os.Getwd()
		in := &tooldefs.WriteInput{FilePath: filepath.Join(wd, "out.txt")}
		w := tooldefs.Write{}
		Expect(w.PermissionTarget(in)).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: in.FilePath, Writes: true}))
		Expect(w.RenderUse(in)).To(Equal("out.txt"))
		Expect(w.RenderResult(in, tooldefs.WriteOutput{Type: "update", FilePath: in.FilePath, Additions: 1, Removals: 3})).To(Equal("Updated out.txt with 1 addition and 3 removals"))
		Expect(w.RenderRejected(in)).To(Equal("Write to out.txt was rejected"))
		Expect(w.RenderError(in, errors.New("boom"))).To(Equal("boom"))
		Expect(w.RenderGrouped([]*tooldefs.WriteInput{in})).To(Equal("Wrote 1 file: out.txt"))
	})
})
