package tooldefs_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/filetool"
)

// numbered builds the lines "1\ta\n2\tb…" for n lines named line1….
func numberedLines(from, to int) string {
	var parts []string
	for i := from; i <= to; i++ {
		parts = append(parts, fmt.Sprintf("%d\tline%d", i, i))
	}
	return strings.Join(parts, "\n")
}

func pngBytes() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	Expect(png.Encode(&buf, img)).To(Succeed())
	return buf.Bytes()
}

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
		mkfifo(p)
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
