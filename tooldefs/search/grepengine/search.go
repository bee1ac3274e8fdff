// Package grepengine is a native content search with ripgrep's interface
// and output: RE2 regular expressions (Go's regexp), the files_with_matches,
// content and count output modes, line numbers, before/after context with
// `--` separators, case-insensitive and multiline search, --glob and
// --type filters, .gitignore handling (package walk), and binary files
// skipped. A literal every match must contain is extracted from the parsed
// regexp and found with a memchr scan for its rarest byte before the regexp
// runs; files are read into per-worker buffers by a parallel walk, and
// results come out sorted by path.
package grepengine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/tooldefs/search/walk"
)

// Mode is ripgrep's output mode.
type Mode int

const (
	// FilesWithMatches lists the files that match (rg -l).
	FilesWithMatches Mode = iota
	// Content prints matching lines (rg's default).
	Content
	// Count prints the number of matching lines per file (rg -c).
	Count
)

// ParseMode parses "files_with_matches", "content" or "count"; "" is
// files_with_matches.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", "files_with_matches":
		return FilesWithMatches, nil
	case "content":
		return Content, nil
	case "count":
		return Count, nil
	}
	return 0, fmt.Errorf("unknown output_mode %q: use files_with_matches, content or count", s)
}

// String returns the mode's name.
func (m Mode) String() string {
	switch m {
	case Content:
		return "content"
	case Count:
		return "count"
	}
	return "files_with_matches"
}

// Options are a search's parameters, named after ripgrep's flags.
type Options struct {
	// Pattern is an RE2 regular expression (Go regexp syntax).
	Pattern string
	// IgnoreCase is rg -i.
	IgnoreCase bool
	// Multiline is rg -U --multiline-dotall: matches may span lines and
	// `.` matches '\n'.
	Multiline bool
	// Mode is the output mode.
	Mode Mode
	// LineNumbers is rg -n (content mode).
	LineNumbers bool
	// Before and After are rg -B and -A (content mode).
	Before, After int
	// MaxColumns is rg --max-columns: longer lines are replaced by a note.
	MaxColumns int
	// Walk selects the files: hidden, ignore files, --glob, --type.
	Walk walk.Options
}

// Line is one output line of a file in content mode.
type Line struct {
	// Num is the 1-based line number.
	Num int
	// Text is the line without its terminator.
	Text string
	// Context is true for a context line, false for a matching line.
	Context bool
	// Break is true for a "--" separator (Num and Text unset).
	Break bool
}

// FileResult is what one file contributed.
type FileResult struct {
	// Path is the file's path (the root joined with Rel).
	Path string
	// Rel is the slash-separated path relative to the search root.
	Rel string
	// Count is the number of matching lines (in multiline mode, of
	// matches), rg -c's number. In files_with_matches mode it is 1.
	Count int
	// Lines are the content-mode output lines.
	Lines []Line
	// BinaryOffset, when not -1, is the offset of a NUL byte past the
	// first read buffer: the search stopped before it, as rg's does.
	BinaryOffset int
	// ModTime is the file's modification time when it was read.
	ModTime time.Time
}

// Result is a whole search's outcome, files sorted by path.
type Result struct {
	// Files are the files with at least one match.
	Files []FileResult
	// SingleFile is true when the root was a file: rg then omits the
	// file name from content and count lines.
	SingleFile bool
	opts       *Options
}

// Searcher is a compiled search, reusable and safe for concurrent use.
type Searcher struct {
	opts    Options
	re      *regexp.Regexp
	pf      *prefilter
	multiNL bool // multiline and the regexp can match '\n'
	filter  *walk.Filter
}

// New compiles opts. Its errors say what to fix: the regexp's syntax, a
// multiline pattern without multiline mode, an unknown type or a bad glob.
func New(opts Options) (*Searcher, error) {
	flags := syntax.Perl &^ syntax.OneLine
	if opts.IgnoreCase {
		flags |= syntax.FoldCase
	}
	if opts.Multiline {
		flags |= syntax.DotNL
	}
	parsed, err := syntax.Parse(opts.Pattern, flags)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("invalid regular expression %q: %s: `%s` (the pattern uses RE2 syntax; escape literal characters such as ( [ { . * + ? with a backslash)", opts.Pattern, se.Code, se.Expr)
		}
		return nil, fmt.Errorf("invalid regular expression %q: %w", opts.Pattern, err)
	}
	// The original parsed, for its error messages; now the Unicode form.
	pattern := unicodeClasses(opts.Pattern)
	if parsed, err = syntax.Parse(pattern, flags); err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", opts.Pattern, err)
	}
	parsed = parsed.Simplify()
	if !opts.Multiline && hasLiteralNewline(parsed) {
		return nil, fmt.Errorf("the pattern %q contains a literal line break (\\n), which a line-by-line search never sees; set multiline to true to match across lines", opts.Pattern)
	}
	nl := canMatchNewline(parsed)
	prefix := "(?m)"
	if opts.IgnoreCase {
		prefix = "(?mi)"
	}
	if opts.Multiline {
		prefix = prefix[:len(prefix)-1] + "s)"
	}
	re, err := regexp.Compile(prefix + pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %w", opts.Pattern, err)
	}
	s := &Searcher{opts: opts, re: re, multiNL: opts.Multiline && nl}
	if l, ok, exact := requiredLiteral(parsed); ok && !strings.Contains(l.s, "\n") {
		s.pf = newPrefilter(l, exact && !s.multiNL)
	}
	if s.filter, err = walk.NewFilter(opts.Walk); err != nil {
		return nil, err
	}
	return s, nil
}

// Search runs the search under root, a directory or a file.
func Search(ctx context.Context, root string, opts Options) (*Result, error) {
	s, err := New(opts)
	if err != nil {
		return nil, err
	}
	return s.Search(ctx, root)
}

// Search runs the search under root, a directory or a file.
func (s *Searcher) Search(ctx context.Context, root string) (*Result, error) {
	threads := s.filter.Threads()
	bufs := make([][]byte, threads)
	var mu sync.Mutex
	res := &Result{opts: &s.opts, SingleFile: isFile(root)}
	err := s.filter.Walk(ctx, root, func(e *walk.Entry) error {
		data, mtime, binary, err := readFile(e.Path, bufs[e.Worker])
		if cap(data) <= maxKeptBuffer {
			bufs[e.Worker] = data[:0]
		}
		if err != nil || binary {
			return nil // unreadable files are skipped, as rg does (with a warning)
		}
		fr, ok := s.searchBytes(data)
		if !ok {
			return nil
		}
		fr.Path, fr.Rel, fr.ModTime = e.Path, e.Rel, mtime
		mu.Lock()
		res.Files = append(res.Files, fr)
		mu.Unlock()
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(res.Files, func(a, b FileResult) int { return ComparePaths(a.Rel, b.Rel) })
	return res, nil
}

// maxKeptBuffer bounds the per-worker buffer kept between files.
const maxKeptBuffer = 8 << 20

// ComparePaths orders slash-separated paths component by component, the
// order of `rg --sort path`.
func ComparePaths(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		if ca == '/' {
			return -1
		}
		if cb == '/' {
			return 1
		}
		if ca < cb {
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}

// binaryWindow is ripgrep's read-buffer size: a NUL byte in the first
// window makes the whole file binary, one further in ends the search there.
const binaryWindow = 64 << 10

// searchable returns the part of buf ripgrep would search, false when
// the file is binary from the start, and the NUL byte's offset (-1 none).
func searchable(buf []byte) ([]byte, bool, int) {
	z := bytes.IndexByte(buf, 0)
	if z < 0 {
		return buf, true, -1
	}
	// Emulate ripgrep's line buffer: each fill reads up to the capacity
	// after the last complete line; the fill that brings in the NUL is not
	// searched.
	consumed, capacity := 0, binaryWindow
	for {
		end := min(consumed+capacity, len(buf))
		if z < end {
			if consumed == 0 {
				return nil, false, z
			}
			return buf[:consumed], true, z
		}
		nl := bytes.LastIndexByte(buf[consumed:end], '\n')
		if nl < 0 {
			capacity *= 2
			continue
		}
		consumed += nl + 1
	}
}

// searchBytes searches one file's content.
func (s *Searcher) searchBytes(buf []byte) (FileResult, bool) {
	buf, ok, nul := searchable(buf)
	if !ok || len(buf) == 0 {
		return FileResult{}, false
	}
	if nul >= 0 && s.opts.Mode == Count {
		// rg prints no count for a file it stopped searching as binary.
		return FileResult{}, false
	}
	var spans []span
	count := 0
	if s.multiNL {
		spans, count = s.findMulti(buf)
	} else {
		spans = s.findLines(buf)
		count = len(spans)
	}
	if count == 0 {
		return FileResult{}, false
	}
	fr := FileResult{Count: count, BinaryOffset: nul}
	if s.opts.Mode == Content {
		fr.Lines = s.render(buf, spans)
	}
	return fr, true
}

// span is one matching line: its number and byte range (no terminator).
type span struct {
	num        int
	start, end int
}

// lineCounter turns byte offsets into line numbers incrementally.
type lineCounter struct {
	buf  []byte
	pos  int
	line int
}

func (c *lineCounter) at(off int) int {
	if off < c.pos {
		c.pos, c.line = 0, 1
	}
	c.line += bytes.Count(c.buf[c.pos:off], []byte{'\n'})
	c.pos = off
	return c.line
}

func lineBounds(buf []byte, i int) (int, int) {
	ls := bytes.LastIndexByte(buf[:i], '\n') + 1
	le := bytes.IndexByte(buf[i:], '\n')
	if le < 0 {
		le = len(buf)
	} else {
		le += i
	}
	return ls, le
}

// findLines finds the matching lines of a line-oriented search. In
// files_with_matches mode it stops at the first.
func (s *Searcher) findLines(buf []byte) []span {
	var out []span
	lc := lineCounter{buf: buf, line: 1}
	needNum := s.opts.Mode == Content
	first := s.opts.Mode == FilesWithMatches
	n := len(buf)
	var sc scanner
	if s.pf != nil {
		sc = s.pf.scanner(buf)
	}
	for pos := 0; pos < n; {
		var ls, le int
		if s.pf != nil {
			c := sc.next(pos)
			if c < 0 {
				break
			}
			ls, le = lineBounds(buf, c)
			if !s.pf.exact && !s.re.Match(buf[ls:le]) {
				pos = le + 1
				continue
			}
		} else {
			loc := s.re.FindIndex(buf[pos:])
			if loc == nil {
				break
			}
			c := pos + loc[0]
			if c >= n && (n == 0 || buf[n-1] == '\n') {
				break // an empty match after the final line terminator
			}
			ls, le = lineBounds(buf, c)
			if pos+loc[1] > le && !s.re.Match(buf[ls:le]) {
				pos = le + 1
				continue
			}
		}
		sp := span{start: ls, end: le}
		if needNum {
			sp.num = lc.at(ls)
		}
		out = append(out, sp)
		if first {
			break
		}
		pos = le + 1
	}
	return out
}

// findMulti finds the matches of a multiline search whose regexp can match
// line breaks. It returns every line the matches touch and ripgrep's count
// (the number of matches).
func (s *Searcher) findMulti(buf []byte) ([]span, int) {
	if s.pf != nil {
		if sc := s.pf.scanner(buf); sc.next(0) < 0 {
			return nil, 0
		}
	}
	var out []span
	lc := lineCounter{buf: buf, line: 1}
	count := 0
	n := len(buf)
	lastLineEnd := -1 // end of the last line added
	for pos := 0; pos <= n; {
		loc := s.re.FindIndex(buf[pos:])
		if loc == nil {
			break
		}
		a, b := pos+loc[0], pos+loc[1]
		if a >= n && n > 0 && buf[n-1] == '\n' {
			break
		}
		count++
		if s.opts.Mode == FilesWithMatches {
			return []span{{start: a, end: b}}, 1
		}
		if s.opts.Mode == Content {
			last := b
			if b > a {
				last = b - 1
			}
			for i := a; ; {
				ls, le := lineBounds(buf, i)
				if le > lastLineEnd {
					out = append(out, span{num: lc.at(ls), start: ls, end: le})
					lastLineEnd = le
				}
				if le >= last || le >= n {
					break
				}
				i = le + 1
			}
		}
		if b == a {
			pos = b + 1
		} else {
			pos = b
		}
	}
	return out, count
}

// render turns matching lines into output lines with context and breaks.
func (s *Searcher) render(buf []byte, spans []span) []Line {
	before, after := s.opts.Before, s.opts.After
	var out []Line
	lastEmitted := 0 // line number of the last line emitted
	n := len(buf)
	for i := 0; i < len(spans); {
		j := i
		for j+1 < len(spans) && spans[j+1].num-before <= spans[j].num+after+1 {
			j++
		}
		startNum := max(1, spans[i].num-before, lastEmitted+1)
		endNum := spans[j].num + after
		if lastEmitted > 0 && startNum > lastEmitted+1 && (before > 0 || after > 0) {
			out = append(out, Line{Break: true})
		}
		pos := spans[i].start
		for k := spans[i].num; k > startNum; k-- {
			pos = bytes.LastIndexByte(buf[:pos-1], '\n') + 1
		}
		mi := i
		ln := startNum
		for ; ln <= endNum && pos < n; ln++ {
			le := bytes.IndexByte(buf[pos:], '\n')
			if le < 0 {
				le = n
			} else {
				le += pos
			}
			isMatch := mi <= j && spans[mi].num == ln
			if isMatch {
				mi++
			}
			out = append(out, s.line(ln, buf[pos:le], le < n, !isMatch))
			pos = le + 1
		}
		lastEmitted = ln - 1
		i = j + 1
	}
	return out
}

func (s *Searcher) line(num int, text []byte, terminated, context bool) Line {
	l := Line{Num: num, Context: context}
	width := len(text)
	if terminated {
		width++
	}
	if s.opts.MaxColumns > 0 && width > s.opts.MaxColumns {
		if context {
			l.Text = "[Omitted long context line]"
		} else {
			l.Text = "[Omitted long matching line]"
		}
		return l
	}
	l.Text = string(text)
	return l
}
