package gnu

import (
	"bytes"
	"strconv"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/agentcore/agentcore/tooldefs/search/gnu/find"
)

// gnuReadSize is GNU grep 3.8's read size (INITIAL_BUFSIZE, 96 KiB): a
// NUL byte found in one read makes the rest of the file binary, while the
// lines of earlier reads have been printed already. A regular file is
// read whole and then scanned as if read in such pieces, so the boundary
// falls where GNU's does (for lines shorter than a page).
const gnuReadSize = 96 << 10

// fileResult is what searching one file produced, in order.
type fileResult struct {
	segs []seg
	// leadSep: the file's first group of lines wants a "--" before it if
	// anything was output before (GNU's static "used" flag).
	leadSep bool
	// prtext: a group of lines was selected, so later files' first groups
	// get their separator.
	prtext bool
	count  int64
	errors bool
	// direct, when set, receives the output at once instead (a single
	// operand searched in order, e.g. a pipe).
	direct *emitter
}

// seg is a piece of output: stdout bytes, or one stderr message.
type seg struct {
	msg  bool
	data []byte
}

func (r *fileResult) write(b []byte) {
	if r.direct != nil {
		r.direct.out.Write(b)
		return
	}
	if n := len(r.segs); n > 0 && !r.segs[n-1].msg {
		r.segs[n-1].data = append(r.segs[n-1].data, b...)
		return
	}
	r.segs = append(r.segs, seg{data: append([]byte(nil), b...)})
}

func (r *fileResult) writeByte(c byte) {
	if r.direct != nil {
		r.direct.out.WriteByte(c)
		return
	}
	if n := len(r.segs); n > 0 && !r.segs[n-1].msg {
		r.segs[n-1].data = append(r.segs[n-1].data, c)
		return
	}
	r.segs = append(r.segs, seg{data: []byte{c}})
}

func (r *fileResult) message(s string) {
	if r.direct != nil {
		r.direct.message(s)
		return
	}
	r.segs = append(r.segs, seg{msg: true, data: []byte(s)})
}

// source supplies a file's data to the search loop in reads.
type source interface {
	// fill makes more data visible at s.buf[s.end:], advancing s.end, and
	// returns how much; 0 at end of file.
	fill(s *searcher) (int, error)
}

// searcher runs GNU grep's per-file algorithm (grep.c: grep, grepbuf,
// prtext, prline, prpending, print_line_head) over one file at a time. A
// worker owns one and reuses its buffer.
type searcher struct {
	c   *grepConfig
	m   Matcher
	run *grepRun
	out *fileResult
	// streaming: the source is a pipe or device; direct output is flushed
	// after each read.
	streaming bool
	name      string
	buf       []byte
	outFile   bool

	// used is GNU's static flag: some group was output before. usedKnown
	// is false when the searcher runs ahead of the output order; the first
	// group's separator is then left to the emitter (fileResult.leadSep).
	used, usedKnown bool

	// Per-file state, named after grep.c's.
	start, end          int // bufbeg and buflim
	lastout             int // -1: none
	pending             int64
	outleft             int64
	doneOnMatch         bool
	outQuiet            bool
	encodingErrorOutput bool
	firstGroup          bool
	nlPos               int
	nlCount             int64 // newlines in buf[:nlPos], plus those dropped
	// firstNUL is the offset in buf of the file's first NUL byte as the
	// source found it while reading, -1 for none, or nulUnknown.
	firstNUL int
}

func newSearcher(c *grepConfig, m Matcher) *searcher {
	return &searcher{c: c, m: m}
}

// lineNo is the 1-based number of the line starting at off.
func (s *searcher) lineNo(off int) int64 {
	if off < s.nlPos {
		s.nlCount -= int64(bytes.Count(s.buf[off:s.nlPos], []byte{'\n'}))
	} else {
		s.nlCount += int64(bytes.Count(s.buf[s.nlPos:off], []byte{'\n'}))
	}
	s.nlPos = off
	return s.nlCount + 1
}

// search runs grep() over src and returns the number of selected lines.
func (s *searcher) search(src source) int64 {
	c := s.c
	s.start, s.end, s.lastout = 0, 0, -1
	s.pending, s.outleft = 0, c.maxCount
	if s.outleft < 0 {
		s.outleft = 1<<63 - 1
	}
	s.doneOnMatch, s.outQuiet = c.doneOnMatch, c.outQuiet
	s.encodingErrorOutput = false
	s.firstGroup = true
	s.nlPos, s.nlCount = 0, 0
	s.firstNUL = nulUnknown
	var nlines int64
	nlFirstNull := int64(-1)
	zap := false
	residue := 0
	first := true
	for {
		n, err := src.fill(s)
		if err != nil {
			s.out.errors = true
			if !c.suppressErrors {
				s.out.message(s.name + ": " + find.ErrnoText(err))
			}
			if first {
				return 0
			}
			break
		}
		first = false
		newStart := s.end - n
		if nlFirstNull < 0 && c.binaryFiles != binaryText && s.hasNUL() {
			if c.binaryFiles == binaryWithoutMatch {
				return 0
			}
			if !c.count {
				s.doneOnMatch, s.outQuiet = true, true
			}
			nlFirstNull = nlines
			zap = true
		}
		if n == 0 {
			// End of file: the last line may lack its newline.
			if residue > 0 {
				s.ensure(1)
				s.buf[s.end] = '\n'
				s.end++
				if s.outleft > 0 {
					nlines += s.grepbuf(s.end-residue-1, s.end)
				}
				if s.pending > 0 {
					s.prpending(s.end)
				}
			}
			break
		}
		if zap {
			// GNU's zap_nuls: find the next NUL, then turn the whole run
			// of them into line ends (a binary file's NULs come in long
			// runs; a search per NUL cost a seventh of a grep -rn).
			for i := newStart; ; {
				z := bytes.IndexByte(s.buf[i:s.end], 0)
				if z < 0 {
					break
				}
				for i += z; i < s.end && s.buf[i] == 0; i++ {
					s.buf[i] = '\n'
				}
			}
		}
		beg := newStart - residue
		lim := beg
		if q := bytes.LastIndexByte(s.buf[newStart:s.end], '\n'); q >= 0 {
			lim = newStart + q + 1
		}
		residue = s.end - lim
		if beg < lim {
			if s.outleft > 0 {
				nlines += s.grepbuf(beg, lim)
			}
			if s.pending > 0 {
				s.prpending(lim)
			}
			if (s.outleft == 0 && s.pending == 0) || (s.doneOnMatch && max(0, nlFirstNull) < nlines) {
				break
			}
		}
		// Keep the last lines before lim for leading context.
		b := lim
		for i := int64(0); i < c.before && b > s.start && b != s.lastout; i++ {
			for {
				b--
				if b == s.start || s.buf[b-1] == '\n' {
					break
				}
			}
		}
		if b != s.lastout {
			s.lastout = -1
		}
		s.start = b
		if s.streaming && s.out.direct != nil {
			s.out.direct.out.Flush()
		}
	}
	s.doneOnMatch, s.outQuiet = c.doneOnMatch, c.outQuiet
	if c.binaryFiles == binaryBinary && !s.outQuiet && (s.encodingErrorOutput || (nlFirstNull >= 0 && nlFirstNull < nlines)) {
		s.out.message(s.name + ": binary file matches")
	}
	return nlines
}

// hasNUL reports whether the visible data, s.buf[s.start:s.end], holds a
// NUL byte. It is asked only until it first says yes, so where the
// source knows the file's first NUL (firstNUL), that answers without a
// second pass over the data: the earlier parts had none, so the first
// NUL is in this one if it is before s.end.
func (s *searcher) hasNUL() bool {
	if s.firstNUL == nulUnknown {
		return bytes.IndexByte(s.buf[s.start:s.end], 0) >= 0
	}
	return s.firstNUL >= 0 && s.firstNUL < s.end
}

// nulUnknown is searcher.firstNUL when the source has not looked.
const nulUnknown = -2

// ensure makes room for n more bytes at s.end.
func (s *searcher) ensure(n int) {
	if s.end+n <= cap(s.buf) {
		s.buf = s.buf[:cap(s.buf)]
		return
	}
	grown := make([]byte, max(2*cap(s.buf), s.end+n, gnuReadSize+1))
	copy(grown, s.buf[:s.end])
	s.buf = grown
}

// grepbuf scans the complete lines [beg, lim) and returns the number of
// lines selected.
func (s *searcher) grepbuf(beg, lim int) int64 {
	c := s.c
	outleft0 := s.outleft
	for p := beg; p < lim; {
		b, endp, ok := s.m.NextLine(s.buf[:lim], p)
		if !ok {
			if !c.invert {
				break
			}
			b, endp = lim, lim
		}
		if !c.invert || p < b {
			prbeg, prend := b, endp
			if c.invert {
				prbeg, prend = p, b
			}
			s.prtext(prbeg, prend)
			if s.outleft == 0 || s.doneOnMatch {
				break
			}
		}
		p = endp
	}
	return outleft0 - s.outleft
}

// nextLineEnd is the end (past its newline) of the line starting at p.
func (s *searcher) nextLineEnd(p int) int {
	return p + bytes.IndexByte(s.buf[p:], '\n') + 1
}

// prpending prints pending trailing context up to lim.
func (s *searcher) prpending(lim int) {
	if s.lastout < 0 {
		s.lastout = s.start
	}
	for ; s.pending > 0 && s.lastout < lim; s.pending-- {
		s.prline(s.lastout, s.nextLineEnd(s.lastout), '-')
	}
}

// prtext outputs the selected lines [beg, lim) with their context.
func (s *searcher) prtext(beg, lim int) {
	c := s.c
	if !s.outQuiet && s.pending > 0 {
		s.prpending(beg)
	}
	p := beg
	if !s.outQuiet {
		bp := s.start
		if s.lastout >= 0 {
			bp = s.lastout
		}
		for i := int64(0); i < c.before; i++ {
			if p > bp {
				for {
					p--
					if p == 0 || s.buf[p-1] == '\n' {
						break
					}
				}
			}
		}
		if (c.before >= 0 || c.after >= 0) && p != s.lastout && c.groupSep != nil {
			switch {
			case s.used:
				s.out.write([]byte(*c.groupSep))
				s.out.writeByte('\n')
			case s.firstGroup && !s.usedKnown:
				s.out.leadSep = true
			}
		}
		for p < beg {
			nl := s.nextLineEnd(p)
			s.prline(p, nl, '-')
			p = nl
		}
	}
	var n int64
	if c.invert {
		for ; p < lim && n < s.outleft; n++ {
			nl := s.nextLineEnd(p)
			if !s.outQuiet {
				s.prline(p, nl, ':')
			}
			p = nl
		}
	} else {
		if !s.outQuiet {
			s.prline(beg, lim, ':')
		}
		n = 1
	}
	if s.outQuiet {
		s.pending = 0
	} else {
		s.pending = max(0, c.after)
	}
	s.used = true
	s.firstGroup = false
	s.out.prtext = true
	s.outleft -= n
}

// prline prints one line; sep is ':' for a selected line, '-' for context.
func (s *searcher) prline(beg, lim int, sep byte) {
	c := s.c
	if !c.onlyMatching {
		if !s.printLineHead(beg, lim-beg-1, sep) {
			return
		}
	}
	matching := (sep == ':') != c.invert
	if c.onlyMatching && matching {
		if !s.printLineMiddle(beg, lim) {
			return
		}
	}
	if !c.onlyMatching {
		s.out.write(s.buf[beg:lim])
	}
	if c.lineBuffered && s.out.direct != nil {
		s.out.direct.out.Flush()
	}
	s.lastout = lim
}

// printLineMiddle prints each non-empty match of the line (-o).
func (s *searcher) printLineMiddle(beg, lim int) bool {
	sep := byte(':')
	if s.c.invert {
		sep = '-'
	}
	line := s.buf[beg : lim-1]
	for _, m := range s.m.Matches(line) {
		if !s.printLineHead(beg+m[0], m[1]-m[0], sep) {
			return false
		}
		s.out.write(line[m[0]:m[1]])
		s.out.writeByte('\n')
	}
	return true
}

// printLineHead prints the file name and line number before a line or a
// match of n bytes at beg; false when the text has an encoding error in a
// UTF-8 locale: GNU grep 3.8 leaves such a line out (and says at the end
// that the binary file matches).
func (s *searcher) printLineHead(beg, n int, sep byte) bool {
	c := s.c
	if c.binaryFiles != binaryText && c.utf8 && !utf8.Valid(s.buf[beg:beg+n]) {
		s.encodingErrorOutput = true
		return false
	}
	if s.outFile {
		s.out.write([]byte(s.name))
		if c.nullName {
			s.out.writeByte(0)
		} else {
			s.out.writeByte(sep)
		}
	}
	if c.lineNum {
		s.out.write(strconv.AppendInt(nil, s.lineNo(beg), 10))
		s.out.writeByte(sep)
	}
	return true
}

// fileSource reads a regular file whole, then shows it in GNU-sized reads
// when it holds a NUL byte past the first one.
type fileSource struct {
	fd   int
	size int64
	read bool
	cut  int // end of the first visible part; -1 when all is visible
	all  int
}

func (f *fileSource) fill(s *searcher) (int, error) {
	if !f.read {
		f.read = true
		want := int(f.size) + 1
		if want < 1 {
			want = 1
		}
		s.end = 0
		s.ensure(want)
		n := 0
		for {
			if n == len(s.buf)-1 {
				grown := make([]byte, 2*len(s.buf))
				copy(grown, s.buf[:n])
				s.buf = grown
			}
			m, err := readFD(f.fd, s.buf[n:len(s.buf)-1])
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return 0, err
			}
			if m == 0 {
				break
			}
			n += m
			if int64(n) == f.size && f.size > 0 {
				// Read in full at its stat size: skip the read that
				// would confirm the end.
				break
			}
		}
		f.all = n
		f.cut = -1
		z := bytes.IndexByte(s.buf[:n], 0)
		s.firstNUL = z
		if z >= gnuReadSize {
			f.cut = z / gnuReadSize * gnuReadSize
			s.end = f.cut
			return f.cut, nil
		}
		s.end = n
		return n, nil
	}
	if f.cut >= 0 {
		n := f.all - f.cut
		f.cut = -1
		s.end += n
		return n, nil
	}
	return 0, nil
}

// streamSource reads a pipe, terminal or device as it comes, up to GNU's
// read size at a time, moving the kept lines to the front of the buffer.
type streamSource struct {
	fd  int
	eof bool
}

func (f *streamSource) fill(s *searcher) (int, error) {
	if f.eof {
		return 0, nil
	}
	if s.start > 0 && (s.start >= gnuReadSize || s.end+gnuReadSize > cap(s.buf)) {
		s.shift(s.start)
	}
	s.ensure(gnuReadSize + 1)
	for {
		n, err := readFD(f.fd, s.buf[s.end:s.end+gnuReadSize])
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			// A non-blocking descriptor (opened so as not to hang on a
			// device): wait for data.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err != nil {
			return 0, err
		}
		if n == 0 {
			f.eof = true
		}
		s.end += n
		return n, nil
	}
}

// shift drops buf[:k], which no state refers to any more.
func (s *searcher) shift(k int) {
	s.lineNo(k)
	copy(s.buf, s.buf[k:s.end])
	s.end -= k
	s.start -= k
	if s.lastout >= 0 {
		s.lastout -= k
	}
	s.nlPos = 0
}
