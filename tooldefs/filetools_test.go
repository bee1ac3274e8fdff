package tooldefs_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

// fileEnv is a working directory in a temp dir with a tool context rooted
// at it, and helpers that run the file tools the way the orchestrator
// does: call, then apply the context modifier.
type fileEnv struct {
	dir     string
	outside string
	tc      *runtime.ToolContext
}

func newFileEnv() *fileEnv {
	base, err := filepath.EvalSymlinks(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	e := &fileEnv{dir: filepath.Join(base, "work"), outside: filepath.Join(base, "outside")}
	Expect(os.MkdirAll(e.dir, 0o755)).To(Succeed())
	Expect(os.MkdirAll(e.outside, 0o755)).To(Succeed())
	e.tc = runtime.NewToolContext(e.dir)
	return e
}

func (e *fileEnv) path(name string) string { return filepath.Join(e.dir, name) }

func (e *fileEnv) put(name, content string) string {
	p := e.path(name)
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(content), 0o644)).To(Succeed())
	return p
}

func (e *fileEnv) content(p string) string {
	b, err := os.ReadFile(p)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// runCall runs fn with a fresh call handle and applies its modifier.
func runCall[O any](e *fileEnv, fn func(context.Context, *runtime.Call) (O, error)) (O, error) {
	c := runtime.NewCall("toolu_1", e.tc, nil)
	out, err := fn(context.Background(), c)
	if m := c.Modifier(); m != nil {
		m(e.tc)
	}
	return out, err
}

func (e *fileEnv) read(in tooldefs.ReadInput) (tooldefs.ReadOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.ReadOutput, error) {
		return tooldefs.Read{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) mustRead(p string) tooldefs.ReadOutput {
	out, err := e.read(tooldefs.ReadInput{FilePath: p})
	Expect(err).NotTo(HaveOccurred())
	return out
}

func (e *fileEnv) edit(in tooldefs.EditInput) (tooldefs.EditOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.EditOutput, error) {
		return tooldefs.Edit{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) write(in tooldefs.WriteInput) (tooldefs.WriteOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.WriteOutput, error) {
		return tooldefs.Write{}.Call(ctx, &in, c)
	})
}

func (e *fileEnv) nbEdit(in tooldefs.NotebookEditInput) (tooldefs.NotebookEditOutput, error) {
	return runCall(e, func(ctx context.Context, c *runtime.Call) (tooldefs.NotebookEditOutput, error) {
		return tooldefs.NotebookEdit{}.Call(ctx, &in, c)
	})
}

// numbered builds the lines "1\ta\n2\tb…" for n lines named line1….
func numberedLines(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, fmt.Sprintf("%d\tline%d", i, i))
	}
	return strings.Join(parts, "\n")
}

func linesFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line%d\n", i)
	}
	return b.String()
}

func pngBytes() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	Expect(png.Encode(&buf, img)).To(Succeed())
	return buf.Bytes()
}

const sampleNotebook = `{
 "cells": [
  {"cell_type": "markdown", "id": "intro", "metadata": {"tags": ["t"]}, "source": ["# Title\n", "text"]},
  {"cell_type": "code", "execution_count": 1, "id": "calc", "metadata": {}, "source": ["print(1)"],
   "outputs": [
    {"name": "stdout", "output_type": "stream", "text": ["1\n"]},
    {"data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure>"]}, "metadata": {}, "output_type": "display_data"}
   ]}
 ],
 "metadata": {"kernelspec": {"name": "python3"}},
 "nbformat": 4,
 "nbformat_minor": 5
}
`

var _ = Describe("Read", func() {
	var e *fileEnv
	BeforeEach(func() { e = newFileEnv() })

	It("returns the lines numbered N<tab>line and records hash, mtime and range through the context modifier", func() {
		p := e.put("a.go", "package a\n\nfunc A() {}\n")
		c := runtime.NewCall("id", e.tc, nil)
		out, err := tooldefs.Read{}.Call(context.Background(), &tooldefs.ReadInput{FilePath: p}, c)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(Equal("1\tpackage a\n2\t\n3\tfunc A() {}"))
		Expect(out.NumLines).To(Equal(3))
		_, recorded := e.tc.FileState.Get(p)
		Expect(recorded).To(BeFalse(), "the cache changes only when the modifier is applied")
		c.Modifier()(e.tc)
		st, ok := e.tc.FileState.Get(p)
		Expect(ok).To(BeTrue())
		fi, _ := os.Stat(p)
		Expect(st).To(Equal(runtime.FileState{Hash: filetool.Hash([]byte("package a\n\nfunc A() {}\n")), ModTime: fi.ModTime(), Offset: 1}))
	})

	It("reads the range given by offset and limit, says where to continue and records a partial read", func() {
		p := e.put("long.txt", linesFile(50))
		out, err := e.read(tooldefs.ReadInput{FilePath: p, Offset: 10, Limit: 5})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(HavePrefix(numberedLines(10, 14)))
		Expect(out.Content).To(ContainSubstring("Showing lines 10-14 of 50"))
		Expect(out.Content).To(ContainSubstring("offset=15"))
		st, _ := e.tc.FileState.Get(p)
		Expect(st.Offset).To(Equal(10))
		Expect(st.Limit).To(Equal(5))
		Expect(st.Partial).To(BeTrue())
	})

	It("reads at most 2000 lines when no limit is given", func() {
		p := e.put("big.txt", linesFile(2500))
		out, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.NumLines).To(Equal(tooldefs.ReadDefaultLines))
		Expect(out.TotalLines).To(Equal(2500))
		Expect(out.Content).To(ContainSubstring("2000\tline2000\n\n[Showing lines 1-2000 of 2500. To read more, call Read with offset=2001.]"))
		Expect(out.Content).NotTo(ContainSubstring("2001\t"))
	})

	It("refuses a file over the size cap without a limit, saying to page with offset and limit, and reads it with one", func() {
		p := e.put("huge.log", strings.Repeat(strings.Repeat("x", 99)+"\n", 3000))
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("exceeds the maximum size")))
		Expect(err.Error()).To(ContainSubstring("offset and limit"))
		out, err := e.read(tooldefs.ReadInput{FilePath: p, Offset: 2990, Limit: 100})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.NumLines).To(Equal(11))
		st, _ := e.tc.FileState.Get(p)
		Expect(st.Hash).To(Equal(filetool.Hash([]byte(e.content(p)))), "the hash covers the whole file, not the range")
	})

	It("refuses a range whose text is too large for one result", func() {
		p := e.put("wide.txt", strings.Repeat(strings.Repeat("y", 1500)+"\n", 100))
		_, err := e.read(tooldefs.ReadInput{FilePath: p, Limit: 100})
		Expect(err).To(MatchError(ContainSubstring("read fewer lines with offset and limit")))
	})

	It("cuts lines longer than 2000 characters", func() {
		p := e.put("line.txt", strings.Repeat("z", 2500)+"\n")
		out := e.mustRead(p)
		Expect(out.Content).To(Equal("1\t" + strings.Repeat("z", 2000) + "… [line cut: 500 more characters]"))
	})

	It("keeps memory bounded on a huge file without line breaks, cutting the line", func() {
		p := e.put("minified.js", strings.Repeat("abcdefghij", 300_000))
		out, err := e.read(tooldefs.ReadInput{FilePath: p, Limit: 1})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(HavePrefix("1\t" + strings.Repeat("abcdefghij", 200) + "… [line cut: 2998000 more characters]"))
		st, _ := e.tc.FileState.Get(p)
		Expect(st.Hash).To(Equal(filetool.Hash([]byte(e.content(p)))))
	})

	It("refuses a named pipe instead of blocking on it", func() {
		p := e.path("fifo")
		Expect(syscall.Mkfifo(p, 0o644)).To(Succeed())
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("not a regular file")))
		e.tc.FileState.Set(p, runtime.FileState{Offset: 1})
		_, err = e.edit(tooldefs.EditInput{FilePath: p, OldString: "a", NewString: "b"})
		Expect(err).To(MatchError(ContainSubstring("not a regular file")))
		_, err = e.write(tooldefs.WriteInput{FilePath: p, Content: "b"})
		Expect(err).To(MatchError(ContainSubstring("not a regular file")))
	})

	It("shows CRLF lines without their CR", func() {
		p := e.put("dos.txt", "a\r\nb\r\n")
		Expect(e.mustRead(p).Content).To(Equal("1\ta\n2\tb"))
	})

	It("returns an image as an image block", func() {
		data := pngBytes()
		p := e.path("pic.png")
		Expect(os.WriteFile(p, data, 0o644)).To(Succeed())
		out := e.mustRead(p)
		Expect(out.Kind).To(Equal(tooldefs.ReadImage))
		blocks := tooldefs.Read{}.ResultBlocks(out)
		Expect(blocks).To(Equal([]runtime.Block{{Type: "image", MediaType: "image/png", Data: base64.StdEncoding.EncodeToString(data)}}))
		Expect(tooldefs.Read{}.RenderResult(nil, out)).To(HavePrefix("Read image ("))
		_, ok := e.tc.FileState.Get(p)
		Expect(ok).To(BeTrue())
	})

	It("refuses a file with an image extension that is not an image", func() {
		p := e.put("fake.jpg", "just text")
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("does not contain a image/jpeg image")))
	})

	It("returns a notebook as its cells with outputs, images as image blocks", func() {
		p := e.put("nb.ipynb", sampleNotebook)
		out := e.mustRead(p)
		Expect(out.Kind).To(Equal(tooldefs.ReadNotebook))
		Expect(out.Cells).To(Equal(2))
		Expect(out.Content).To(ContainSubstring("<cell id=\"calc\" type=\"code\" execution_count=\"1\">\nprint(1)\n</cell>"))
		Expect(out.Content).To(ContainSubstring("<output cell=\"calc\" type=\"stream\" name=\"stdout\">\n1\n</output>"))
		blocks := tooldefs.Read{}.ResultBlocks(out)
		Expect(blocks).To(ContainElement(runtime.Block{Type: "image", MediaType: "image/png", Data: "iVBORw0KGgo="}))
		Expect(tooldefs.Read{}.RenderResult(nil, out)).To(Equal("Read 2 cells"))
	})

	It("refuses an invalid notebook with the reason", func() {
		p := e.put("bad.ipynb", `{"nbformat": 3}`)
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("only nbformat 4")))
	})

	It("refuses a binary file by its content", func() {
		p := e.path("prog")
		Expect(os.WriteFile(p, []byte("\x7fELF\x02\x01\x01\x00\x00\x00"), 0o755)).To(Succeed())
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("cannot read binary files")))
		_, ok := e.tc.FileState.Get(p)
		Expect(ok).To(BeFalse())
	})

	It("refuses a binary file by its extension", func() {
		p := e.put("archive.zip", "PK looks like text")
		_, err := e.read(tooldefs.ReadInput{FilePath: p})
		Expect(err).To(MatchError(ContainSubstring("cannot read binary files")))
	})

	It("warns about an empty file and about an offset past the end", func() {
		p := e.put("empty.txt", "")
		Expect(e.mustRead(p).Content).To(ContainSubstring("the file exists but the contents are empty"))
		q := e.put("short.txt", linesFile(3))
		out, err := e.read(tooldefs.ReadInput{FilePath: q, Offset: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Content).To(ContainSubstring("shorter than the provided offset (10). The file has 3 lines."))
	})

	Context("reading the same range again", func() {
		var p string
		BeforeEach(func() {
			p = e.put("same.txt", linesFile(5))
			e.mustRead(p)
		})

		It("answers briefly that it is unchanged", func() {
			out := e.mustRead(p)
			Expect(out.Kind).To(Equal(tooldefs.ReadUnchanged))
			Expect(out.Content).To(HavePrefix("File unchanged since last read"))
			Expect(out.Content).NotTo(ContainSubstring("line1"))
			Expect(tooldefs.Read{}.RenderResult(nil, out)).To(Equal("Unchanged since last read"))
		})

		It("resends the content when the file changed", func() {
			Expect(os.WriteFile(p, []byte(linesFile(6)), 0o644)).To(Succeed())
			out := e.mustRead(p)
			Expect(out.Kind).To(Equal(tooldefs.ReadText))
			Expect(out.Content).To(ContainSubstring("6\tline6"))
		})

		It("resends the content for another range", func() {
			out, err := e.read(tooldefs.ReadInput{FilePath: p, Offset: 2})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Kind).To(Equal(tooldefs.ReadText))
		})

		It("resends the content after a tool wrote the file", func() {
			_, err := e.edit(tooldefs.EditInput{FilePath: p, OldString: "line3", NewString: "LINE3"})
			Expect(err).NotTo(HaveOccurred())
			out := e.mustRead(p)
			Expect(out.Kind).To(Equal(tooldefs.ReadText), "Edit's record does not count as the model having seen the file")
			Expect(out.Content).To(ContainSubstring("3\tLINE3"))
		})
	})

	Context("with a bad path", func() {
		It("says a missing file does not exist and suggests a similar name", func() {
			e.put("main.ts", "x")
			_, err := e.read(tooldefs.ReadInput{FilePath: e.path("main.go")})
			Expect(err).To(MatchError(ContainSubstring("File does not exist: " + e.path("main.go"))))
			Expect(err.Error()).To(ContainSubstring("Did you mean " + e.path("main.ts") + "?"))
			Expect(tooldefs.Read{}.ValidateInput(context.Background(), &tooldefs.ReadInput{FilePath: e.path("main.go")}, e.tc)).
				To(MatchError(ContainSubstring("File does not exist")))
		})

		It("refuses a directory", func() {
			Expect(os.Mkdir(e.path("sub"), 0o755)).To(Succeed())
			_, err := e.read(tooldefs.ReadInput{FilePath: e.path("sub")})
			Expect(err).To(MatchError(ContainSubstring("is a directory")))
		})

		It("refuses a relative path, suggesting the absolute one", func() {
			_, err := e.read(tooldefs.ReadInput{FilePath: "src/a.go"})
			Expect(err).To(MatchError(ContainSubstring(`file_path must be an absolute path, got "src/a.go" (did you mean "` + e.path("src/a.go") + `"?)`)))
		})

		It("refuses a file outside the working directories", func() {
			p := filepath.Join(e.outside, "secret.txt")
			Expect(os.WriteFile(p, []byte("s"), 0o644)).To(Succeed())
			_, err := e.read(tooldefs.ReadInput{FilePath: p})
			Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
			Expect(tooldefs.Read{}.ValidateInput(context.Background(), &tooldefs.ReadInput{FilePath: p}, e.tc)).
				To(MatchError(ContainSubstring("outside the working directories")))
		})

		It("refuses a symlink inside the working directory that points outside", func() {
			secret := filepath.Join(e.outside, "secret.txt")
			Expect(os.WriteFile(secret, []byte("s"), 0o644)).To(Succeed())
			Expect(os.Symlink(secret, e.path("innocent.txt"))).To(Succeed())
			_, err := e.read(tooldefs.ReadInput{FilePath: e.path("innocent.txt")})
			Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
		})

		It("reads a file in a second working directory", func() {
			e.tc.WorkingDirs = append(e.tc.WorkingDirs, e.outside)
			p := filepath.Join(e.outside, "ok.txt")
			Expect(os.WriteFile(p, []byte("ok\n"), 0o644)).To(Succeed())
			Expect(e.mustRead(p).Content).To(Equal("1\tok"))
		})
	})

	It("stops when its context is cancelled", func() {
		p := e.put("a.txt", "a\n")
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := tooldefs.Read{}.Call(ctx, &tooldefs.ReadInput{FilePath: p}, runtime.NewCall("id", e.tc, nil))
		Expect(err).To(MatchError(context.Canceled))
	})

	It("targets the path for permission rules, as a read", func() {
		Expect(tooldefs.Read{}.PermissionTarget(&tooldefs.ReadInput{FilePath: "/x/../y/a.go"})).
			To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: "/y/a.go"}))
	})

	It("renders use, result, rejection, error and groups", func() {
		wd, err := os.Getwd()
		Expect(err).NotTo(HaveOccurred())
		in := &tooldefs.ReadInput{FilePath: filepath.Join(wd, "src", "main.go")}
		r := tooldefs.Read{}
		Expect(r.RenderUse(in)).To(Equal(filepath.Join("src", "main.go")))
		Expect(r.RenderUse(&tooldefs.ReadInput{FilePath: "/elsewhere/x.go", Offset: 10, Limit: 5})).To(Equal("/elsewhere/x.go · lines 10-14"))
		Expect(r.RenderResult(in, tooldefs.ReadOutput{Kind: tooldefs.ReadText, NumLines: 120})).To(Equal("Read 120 lines"))
		Expect(r.RenderResult(in, tooldefs.ReadOutput{Kind: tooldefs.ReadText, NumLines: 1})).To(Equal("Read 1 line"))
		Expect(r.RenderRejected(in)).To(Equal("Read of src/main.go was rejected"))
		Expect(r.RenderError(in, errors.New("first\nsecond"))).To(Equal("first"))
		Expect(r.RenderGrouped([]*tooldefs.ReadInput{in, {FilePath: filepath.Join(wd, "b.go")}})).To(Equal("Read 2 files: src/main.go, b.go"))
	})
})

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
			Expect(tooldefs.Edit{}.RenderResult(nil, out)).To(Equal("Updated " + p + " with 2 additions and 1 removal"))
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

var _ = Describe("NotebookEdit", func() {
	var (
		e *fileEnv
		p string
	)
	BeforeEach(func() {
		e = newFileEnv()
		p = e.put("nb.ipynb", sampleNotebook)
	})

	// saved parses the notebook on disk, failing on invalid JSON.
	saved := func() map[string]any {
		var m map[string]any
		Expect(json.Unmarshal([]byte(e.content(p)), &m)).To(Succeed())
		Expect(m["metadata"]).To(HaveKeyWithValue("kernelspec", HaveKeyWithValue("name", "python3")))
		return m
	}
	cells := func() []any { return saved()["cells"].([]any) }

	Context("after the notebook was read", func() {
		BeforeEach(func() { e.mustRead(p) })

		It("replaces a cell's source by id, clearing its outputs", func() {
			out, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "print(2)\n"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.EditMode).To(Equal("replace"))
			Expect(out.CellType).To(Equal("code"))
			c := cells()[1].(map[string]any)
			Expect(c["source"]).To(Equal([]any{"print(2)\n"}))
			Expect(c["outputs"]).To(BeEmpty())
			Expect(tooldefs.NotebookEdit{}.RenderResult(nil, out)).To(Equal("Replaced cell calc"))
			Expect(tooldefs.NotebookEdit{}.ResultBlocks(out)[0].Text).To(HavePrefix("Updated cell calc of " + p))
		})

		It("inserts a cell after another, and at the start without cell_id", func() {
			out, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "intro", NewSource: "x = 1", CellType: "code", EditMode: "insert"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()).To(HaveLen(3))
			Expect(cells()[1].(map[string]any)["id"]).To(Equal(out.CellID))
			out2, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "# top", CellType: "markdown", EditMode: "insert"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()[0].(map[string]any)["id"]).To(Equal(out2.CellID))
			Expect(tooldefs.NotebookEdit{}.RenderResult(nil, out2)).To(Equal("Inserted markdown cell " + out2.CellID))
		})

		It("deletes a cell, which is destructive", func() {
			in := tooldefs.NotebookEditInput{NotebookPath: p, CellID: "intro", EditMode: "delete"}
			Expect(tooldefs.NotebookEdit{}.IsDestructive(&in)).To(BeTrue())
			Expect(tooldefs.NotebookEdit{}.IsDestructive(&tooldefs.NotebookEditInput{EditMode: "insert"})).To(BeFalse())
			_, err := e.nbEdit(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()).To(HaveLen(1))
			Expect(cells()[0].(map[string]any)["id"]).To(Equal("calc"))
		})

		It("lists the cell ids when the cell is unknown", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "zzz", NewSource: "x"})
			Expect(err).To(MatchError(ContainSubstring(`cell "zzz" not found; the notebook's cells are: intro, calc`)))
		})

		It("requires cell_id to replace or delete, and cell_type to insert", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "x"})
			Expect(err).To(MatchError(ContainSubstring("cell_id is required to replace")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, EditMode: "delete"})
			Expect(err).To(MatchError(ContainSubstring("cell_id is required to delete")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, NewSource: "x", EditMode: "insert"})
			Expect(err).To(MatchError(ContainSubstring("cell_type is required")))
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", EditMode: "move"})
			Expect(err).To(MatchError(ContainSubstring("edit_mode must be replace, insert or delete")))
		})

		It("records what it wrote, so a second edit needs no new read", func() {
			_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "a"})
			Expect(err).NotTo(HaveOccurred())
			_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "b"})
			Expect(err).NotTo(HaveOccurred())
			Expect(cells()[1].(map[string]any)["source"]).To(Equal([]any{"b"}))
		})
	})

	It("refuses a notebook that was not read, or changed since", func() {
		_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "x"})
		Expect(errors.Is(err, filetool.ErrNotRead)).To(BeTrue())
		e.mustRead(p)
		Expect(os.WriteFile(p, []byte(strings.Replace(sampleNotebook, "print(1)", "print(9)", 1)), 0o644)).To(Succeed())
		_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: p, CellID: "calc", NewSource: "x"})
		Expect(errors.Is(err, filetool.ErrModified)).To(BeTrue())
	})

	It("refuses files that are not notebooks, and paths outside the working directories", func() {
		q := e.put("x.py", "print(1)")
		_, err := e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: q, CellID: "a", NewSource: "x"})
		Expect(err).To(MatchError(ContainSubstring("not a Jupyter notebook")))
		_, err = e.nbEdit(tooldefs.NotebookEditInput{NotebookPath: filepath.Join(e.outside, "n.ipynb"), CellID: "a", NewSource: "x"})
		Expect(errors.Is(err, fspath.ErrOutside)).To(BeTrue())
	})

	It("targets the path as a write and renders", func() {
		wd, _ := os.Getwd()
		in := &tooldefs.NotebookEditInput{NotebookPath: filepath.Join(wd, "a.ipynb"), CellID: "c1"}
		n := tooldefs.NotebookEdit{}
		Expect(n.PermissionTarget(in)).To(Equal(runtime.Target{Kind: runtime.TargetPath, Value: in.NotebookPath, Writes: true}))
		Expect(n.RenderUse(in)).To(Equal("a.ipynb · cell c1"))
		Expect(n.RenderResult(in, tooldefs.NotebookEditOutput{EditMode: "delete", CellID: "c1"})).To(Equal("Deleted cell c1"))
		Expect(n.RenderRejected(in)).To(Equal("Edit of a.ipynb was rejected"))
		Expect(n.RenderError(in, errors.New("x\ny"))).To(Equal("x"))
		Expect(n.RenderGrouped([]*tooldefs.NotebookEditInput{in, in})).To(Equal("Edited 2 cells in a.ipynb"))
	})
})

// BenchmarkReadTool reads a 2000-line file (about 100 KB) through Read:
// numbering, hashing, recording. BenchmarkReadBaseline does the least any
// reader must: os.ReadFile and a SHA-256 of the content.
func BenchmarkReadTool(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.go")
	if err := os.WriteFile(p, []byte(strings.Repeat("\tresult := compute(ctx, value, \"some name\")\n", 2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	tc := runtime.NewToolContext(dir)
	for b.Loop() {
		tc.FileState = runtime.NewFileStateCache()
		if _, err := (tooldefs.Read{}).Call(context.Background(), &tooldefs.ReadInput{FilePath: p}, runtime.NewCall("id", tc, nil)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadBaseline(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f.go")
	if err := os.WriteFile(p, []byte(strings.Repeat("\tresult := compute(ctx, value, \"some name\")\n", 2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		_ = filetool.Hash(data)
	}
}
