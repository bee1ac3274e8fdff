package tooldefs

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/filetool"
	"github.com/agentcore/agentcore/tooldefs/notebook"
)

// Read limits.
const (
	// ReadDefaultLines is how many lines Read returns when no limit is given.
	ReadDefaultLines = 2000
	// ReadMaxLineLength is the length (in characters) past which a line is cut.
	ReadMaxLineLength = 2000
	// ReadMaxFileSize is the largest file Read returns without a limit.
	ReadMaxFileSize = 256 << 10
	// ReadMaxOutputChars caps the text of one Read result (about 25 000 tokens).
	ReadMaxOutputChars = 100_000
	// ReadMaxImageSize is the largest image Read sends (5 MB once base64-encoded).
	ReadMaxImageSize = 3_750_000
)

// Read reads a file from the local filesystem.
//
// Usage:
// - file_path must be an absolute path, inside the working directories.
// - By default it reads up to 2000 lines from the start of the file. offset
// (the 1-based line to start at) and limit (how many lines) read part of a
// long file; prefer reading the whole file when it is small enough.
// - Lines longer than 2000 characters are cut.
// - Lines come numbered: the line number, a tab, then the line exactly as in
// the file. When editing, copy what follows the tab, never the number.
// - Images (PNG, JPEG, GIF, WebP) are returned as images, to be seen.
// - Jupyter notebooks (.ipynb) are returned as all their cells with outputs.
// - Binary files and directories are refused. List a directory with ls in
// Bash, or with Glob.
// - Reading a file again when it has not changed answers briefly that the
// earlier result is still current.
// - You can call several tools in one response: read every file that may
// be useful in parallel.
//
// +tool:name=Read
// +tool:localOnly
// +tool:permissionFamily=read-path
// +tool:readOnly
// +tool:concurrencySafe
// +tool:searchHint="read a file, image or notebook with line numbers"
type Read struct{}

// ReadInput is the input of Read.
type ReadInput struct {
	// The absolute path of the file to read.
	FilePath string `json:"file_path" jsonschema:"minLength=1"`
	// The line number to start reading from (1-based). Only give it when the file is too large to read at once.
	Offset int `json:"offset,omitempty" jsonschema:"minimum=0"`
	// The number of lines to read. Only give it when the file is too large to read at once.
	Limit int `json:"limit,omitempty" jsonschema:"minimum=1"`
}

// Kinds of ReadOutput.
const (
	ReadText      = "text"
	ReadImage     = "image"
	ReadNotebook  = "notebook"
	ReadEmpty     = "empty"
	ReadUnchanged = "unchanged"
)

// ReadOutput is what Read returns.
type ReadOutput struct {
	// Kind is text, image, notebook, empty or unchanged.
	Kind string `json:"kind"`
	// FilePath is the absolute path read.
	FilePath string `json:"file_path"`
	// Content is the text sent to the model: numbered lines, a rendered
	// notebook, or a note.
	Content string `json:"content,omitempty"`
	// StartLine is the first line returned (1-based).
	StartLine int `json:"start_line,omitempty"`
	// NumLines is how many lines were returned.
	NumLines int `json:"num_lines,omitempty"`
	// TotalLines is the file's line count.
	TotalLines int `json:"total_lines,omitempty"`
	// Cells is a notebook's cell count.
	Cells int `json:"cells,omitempty"`
	// MediaType is an image's type, e.g. image/png.
	MediaType string `json:"media_type,omitempty"`
	// Size is an image's size in bytes.
	Size int64 `json:"size,omitempty"`
	// Blocks is the tool_result content when it is more than text (images).
	Blocks []runtime.Block `json:"-"`
}

// ValidateInput checks the path: absolute, inside the working directories,
// an existing regular file.
func (Read) ValidateInput(_ context.Context, in *ReadInput, tc *runtime.ToolContext) error {
	key, real, err := filetool.Path(tc, "file_path", in.FilePath)
	if err != nil {
		return err
	}
	_, err = filetool.Stat(tc, key, real)
	return err
}

// PermissionTarget is the file read.
func (Read) PermissionTarget(in *ReadInput) runtime.Target {
	return runtime.Target{Kind: runtime.TargetPath, Value: filetool.Key(in.FilePath)}
}

// Call reads the file and records what was read in the file-state cache.
func (Read) Call(ctx context.Context, in *ReadInput, c *runtime.Call) (ReadOutput, error) {
	tc := c.Context
	key, real, err := filetool.Path(tc, "file_path", in.FilePath)
	if err != nil {
		return ReadOutput{}, err
	}
	fi, err := filetool.Stat(tc, key, real)
	if err != nil {
		return ReadOutput{}, err
	}
	if err := ctx.Err(); err != nil {
		return ReadOutput{}, err
	}
	ext := strings.ToLower(filepath.Ext(key))
	switch {
	case imageTypes[ext] != "":
		return readImage(c, key, real, fi.Size())
	case ext == ".ipynb":
		return readNotebook(c, key, real)
	case filetool.IsBinaryExt(key):
		return ReadOutput{}, fmt.Errorf("this tool cannot read binary files: %s is a %s file; inspect it with a program that understands the format through Bash", key, ext)
	}
	if in.Limit == 0 && fi.Size() > ReadMaxFileSize {
		return ReadOutput{}, fmt.Errorf("file content (%s) exceeds the maximum size Read returns at once (%s); read a part with offset and limit (e.g. offset=1, limit=%d), or search it with Grep",
			kb(fi.Size()), kb(ReadMaxFileSize), ReadDefaultLines/2)
	}
	return readText(ctx, in, c, key, real, fi)
}

// imageTypes maps image extensions to the media type they should contain.
var imageTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
}

func kb(n int64) string { return fmt.Sprintf("%.1f KB", float64(n)/1024) }

// readText streams the file once: hashing all of it, keeping the lines of
// the requested range.
func readText(ctx context.Context, in *ReadInput, c *runtime.Call, key, real string, fi os.FileInfo) (ReadOutput, error) {
	f, err := os.Open(real)
	if err != nil {
		return ReadOutput{}, err
	}
	defer f.Close()
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(f, h), 64<<10)
	head, _ := br.Peek(8000)
	if filetool.IsBinary(head) {
		return ReadOutput{}, fmt.Errorf("this tool cannot read binary files: %s does not contain text; inspect it through Bash (e.g. file, xxd or a program for its format)", key)
	}
	start := max(in.Offset, 1)
	limit := in.Limit
	if limit == 0 {
		limit = ReadDefaultLines
	}
	// The numbered text is about the file plus a few bytes a line.
	b := make([]byte, 0, min(fi.Size()+fi.Size()/4+64, ReadMaxOutputChars+ReadMaxLineLength*4))
	var (
		long  []byte // a line longer than the reader's buffer, so far
		more  bool   // long holds a part of a line
		drop  int    // bytes of the long line not kept
		total int
		shown int
	)
	// A line is kept whole only up to keepLine bytes: far more than is shown,
	// so that a huge file without line breaks never fills memory.
	const keepLine = 4 * ReadMaxLineLength * utf8.UTFMax
	for {
		chunk, err := br.ReadSlice('\n')
		wanted := total+1 >= start && shown < limit
		if errors.Is(err, bufio.ErrBufferFull) {
			more = true
			if drop > 0 && drop%(64<<20) < len(chunk) && ctx.Err() != nil {
				return ReadOutput{}, ctx.Err() // a huge line: check now and then
			}
			if wanted && len(long) < keepLine {
				long = append(long, chunk...)
			} else {
				drop += len(chunk)
			}
			continue
		}
		line := chunk
		if more {
			long = append(long, chunk...)
			line = long
		}
		if len(line) > 0 || more {
			total++
			if total >= start && shown < limit {
				if shown > 0 {
					b = append(b, '\n')
				}
				b = strconv.AppendInt(b, int64(total), 10)
				b = append(b, '\t')
				b = appendCut(b, bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), drop)
				shown++
				if len(b) > ReadMaxOutputChars {
					return ReadOutput{}, fmt.Errorf("the %d lines from line %d are more than %d characters, too much for one result; read fewer lines with offset and limit (e.g. offset=%d, limit=%d)",
						shown, start, ReadMaxOutputChars, start, max(1, shown/2))
				}
			}
			if total%4096 == 0 && ctx.Err() != nil {
				return ReadOutput{}, ctx.Err()
			}
		}
		long, more, drop = long[:0], false, 0
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return ReadOutput{}, fmt.Errorf("read %s: %w", key, err)
		}
	}
	hash := hex.EncodeToString(h.Sum(nil))
	out := ReadOutput{Kind: ReadText, FilePath: key, StartLine: start, NumLines: shown, TotalLines: total}
	st := runtime.FileState{Hash: hash, ModTime: fi.ModTime(), Offset: start, Limit: in.Limit, Partial: start > 1 || start+shown-1 < total}
	if unchanged(c.Context, key, st) {
		return unchangedOutput(key, start, shown), nil
	}
	filetool.Record(c, key, st)
	switch {
	case total == 0:
		out.Kind = ReadEmpty
		out.Content = "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"
	case shown == 0:
		out.Kind = ReadEmpty
		out.Content = fmt.Sprintf("<system-reminder>Warning: the file exists but is shorter than the provided offset (%d). The file has %d lines.</system-reminder>", start, total)
	default:
		out.Content = string(b)
		if last := start + shown - 1; last < total {
			out.Content += fmt.Sprintf("\n\n[Showing lines %d-%d of %d. To read more, call Read with offset=%d.]", start, last, total, last+1)
		}
	}
	return out, nil
}

// appendCut appends a line, cut after ReadMaxLineLength characters with a
// note saying how much was left out; dropped counts bytes of the line that
// were never kept.
func appendCut(b, line []byte, dropped int) []byte {
	if dropped == 0 && (len(line) <= ReadMaxLineLength || utf8.RuneCount(line) <= ReadMaxLineLength) {
		return append(b, line...)
	}
	n, i := 0, 0
	for i < len(line) && n < ReadMaxLineLength {
		_, size := utf8.DecodeRune(line[i:])
		i += size
		n++
	}
	b = append(b, line[:i]...)
	return fmt.Appendf(b, "… [line cut: %d more characters]", utf8.RuneCount(line[i:])+dropped)
}

// unchanged reports whether the same range of the same content was already
// sent to the model by an earlier Read. Entries recorded by writes have
// Offset 0, which never equals a read's offset (at least 1), so content a
// tool wrote is always sent in full the first time it is read.
func unchanged(tc *runtime.ToolContext, key string, now runtime.FileState) bool {
	if tc == nil {
		return false
	}
	prev, ok := tc.FileState.Get(key)
	return ok && prev.Offset == now.Offset && prev.Limit == now.Limit && prev.Hash == now.Hash
}

func unchangedOutput(key string, start, n int) ReadOutput {
	what := "the file"
	if n > 0 {
		what = fmt.Sprintf("lines %d-%d", start, start+n-1)
	}
	return ReadOutput{
		Kind:      ReadUnchanged,
		FilePath:  key,
		StartLine: start,
		NumLines:  n,
		Content: fmt.Sprintf("File unchanged since last read: the earlier Read result for %s (%s) in this conversation is still current; refer to it instead of reading again.",
			key, what),
	}
}

func readImage(c *runtime.Call, key, real string, size int64) (ReadOutput, error) {
	if size > ReadMaxImageSize {
		return ReadOutput{}, fmt.Errorf("image %s is %s, more than the %s an image may be; make a smaller copy (e.g. with ImageMagick: convert in.png -resize 50%% out.png) and read that",
			key, kb(size), kb(ReadMaxImageSize))
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return ReadOutput{}, err
	}
	want := imageTypes[strings.ToLower(filepath.Ext(key))]
	got := http.DetectContentType(data)
	if !strings.HasPrefix(got, "image/") {
		return ReadOutput{}, fmt.Errorf("%s has an image extension but does not contain a %s image (its content looks like %s)", key, want, got)
	}
	st := runtime.FileState{Hash: filetool.Hash(data), Offset: 1}
	if fi, err := os.Stat(real); err == nil {
		st.ModTime = fi.ModTime()
	}
	if unchanged(c.Context, key, st) {
		return unchangedOutput(key, 0, 0), nil
	}
	filetool.Record(c, key, st)
	return ReadOutput{
		Kind:      ReadImage,
		FilePath:  key,
		MediaType: got,
		Size:      int64(len(data)),
		Content:   fmt.Sprintf("[image %s, %s]", got, kb(int64(len(data)))),
		Blocks:    []runtime.Block{{Type: "image", MediaType: got, Data: base64.StdEncoding.EncodeToString(data)}},
	}, nil
}

func readNotebook(c *runtime.Call, key, real string) (ReadOutput, error) {
	data, err := os.ReadFile(real)
	if err != nil {
		return ReadOutput{}, err
	}
	nb, err := notebook.Parse(data)
	if err != nil {
		return ReadOutput{}, fmt.Errorf("cannot read notebook %s: %w", key, err)
	}
	st := runtime.FileState{Hash: filetool.Hash(data), Offset: 1}
	if fi, err := os.Stat(real); err == nil {
		st.ModTime = fi.ModTime()
	}
	if unchanged(c.Context, key, st) {
		return unchangedOutput(key, 0, 0), nil
	}
	parts := notebook.Render(nb)
	var blocks []runtime.Block
	var text strings.Builder
	for _, p := range parts {
		if p.MediaType != "" {
			blocks = append(blocks, runtime.Block{Type: "image", MediaType: p.MediaType, Data: p.Data})
			continue
		}
		text.WriteString(p.Text)
		blocks = append(blocks, runtime.TextBlock(p.Text))
	}
	if text.Len() > ReadMaxOutputChars {
		return ReadOutput{}, fmt.Errorf("notebook %s renders to %d characters, more than the %d of one result; read parts of it through Bash with jq, e.g. jq '.cells[:10]' %s",
			key, text.Len(), ReadMaxOutputChars, key)
	}
	filetool.Record(c, key, st)
	return ReadOutput{Kind: ReadNotebook, FilePath: key, Cells: nb.Len(), Content: text.String(), Blocks: blocks}, nil
}

// ResultBlocks sends images as image blocks, and text otherwise.
func (Read) ResultBlocks(out ReadOutput) []runtime.Block {
	if len(out.Blocks) > 0 {
		return out.Blocks
	}
	return []runtime.Block{runtime.TextBlock(out.Content)}
}

// RenderUse shows the path relative to the working directory, and the
// range when one was asked for.
func (Read) RenderUse(in *ReadInput) string {
	s := filetool.Display(in.FilePath)
	switch {
	case in.Offset > 1 && in.Limit > 0:
		s += fmt.Sprintf(" · lines %d-%d", in.Offset, in.Offset+in.Limit-1)
	case in.Offset > 1:
		s += fmt.Sprintf(" · from line %d", in.Offset)
	case in.Limit > 0:
		s += fmt.Sprintf(" · lines 1-%d", in.Limit)
	}
	return s
}

// RenderResult summarises what was read, e.g. "Read 120 lines".
func (Read) RenderResult(_ *ReadInput, out ReadOutput) string {
	switch out.Kind {
	case ReadImage:
		return "Read image (" + kb(out.Size) + ")"
	case ReadNotebook:
		return "Read " + filetool.Plural(out.Cells, "cell")
	case ReadUnchanged:
		return "Unchanged since last read"
	case ReadEmpty:
		return "Read 0 lines"
	}
	return "Read " + filetool.Plural(out.NumLines, "line")
}

// RenderRejected says the read was refused.
func (Read) RenderRejected(in *ReadInput) string {
	return "Read of " + filetool.Display(in.FilePath) + " was rejected"
}

// RenderError shows the first line of the error.
func (Read) RenderError(_ *ReadInput, err error) string { return filetool.FirstLine(err) }

// RenderGrouped renders parallel reads as one line.
func (Read) RenderGrouped(ins []*ReadInput) string {
	names := make([]string, len(ins))
	for i, in := range ins {
		names[i] = filetool.Display(in.FilePath)
	}
	return "Read " + filetool.Plural(len(ins), "file") + ": " + strings.Join(names, ", ")
}
