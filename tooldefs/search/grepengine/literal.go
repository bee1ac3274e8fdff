package grepengine

import (
	"bytes"
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// litInfo describes what a regexp node requires of any text it matches.
type litInfo struct {
	// exact: the node matches exactly the string lit (case-folded when
	// fold), nothing else.
	exact    bool
	exactLit string
	exactFld bool
	// cands are literals every match must contain.
	cands []lit
}

type lit struct {
	s    string
	fold bool
}

// requiredLiteral finds the best literal every match of re must contain,
// and whether re matches exactly that literal (so the regexp need not run).
func requiredLiteral(re *syntax.Regexp) (best lit, ok, exact bool) {
	info := analyze(re)
	cands := info.cands
	if info.exact && info.exactLit != "" {
		cands = append(cands, lit{info.exactLit, info.exactFld})
	}
	bestScore := -1
	for _, c := range cands {
		for _, run := range usableRuns(c) {
			sc := score(run)
			if sc > bestScore || (sc == bestScore && len(run.s) > len(best.s)) {
				best, bestScore = run, sc
			}
		}
	}
	if bestScore < 0 {
		return lit{}, false, false
	}
	exact = info.exact && best.s == info.exactLit && best.fold == info.exactFld &&
		(!best.fold || isSimpleFold(info.exactLit))
	return best, true, exact
}

// score is higher for better prefilter literals: rarer anchor bytes first.
func score(l lit) int {
	_, r := anchorOf(l)
	return 256 - int(r)
}

// usableRuns splits a literal into parts the prefilter can scan for. A
// case-sensitive literal is usable whole. A case-folded one is cut at runes
// whose case variants are not one ASCII pair (k and s fold to the Kelvin
// sign and long s, which have other byte lengths), so that offsets inside a
// run are fixed.
func usableRuns(l lit) []lit {
	if !l.fold {
		if l.s == "" {
			return nil
		}
		return []lit{l}
	}
	var runs []lit
	start := 0
	for i := 0; i < len(l.s); {
		r, size := utf8.DecodeRuneInString(l.s[i:])
		if !simpleFoldRune(r) {
			if i > start {
				runs = append(runs, lit{l.s[start:i], true})
			}
			start = i + size
		}
		i += size
	}
	if start < len(l.s) {
		runs = append(runs, lit{l.s[start:], true})
	}
	return runs
}

// simpleFoldRune reports whether r is ASCII and every rune it folds to is
// ASCII too.
func simpleFoldRune(r rune) bool {
	if r >= utf8.RuneSelf {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isSimpleFold(s string) bool {
	for _, r := range s {
		if !simpleFoldRune(r) {
			return false
		}
	}
	return true
}

func analyze(re *syntax.Regexp) litInfo {
	switch re.Op {
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		s := string(re.Rune)
		if fold && !hasCase(s) {
			fold = false
		}
		return litInfo{exact: true, exactLit: s, exactFld: fold}
	case syntax.OpEmptyMatch:
		return litInfo{exact: true}
	case syntax.OpCharClass:
		if len(re.Rune) == 2 && re.Rune[0] == re.Rune[1] {
			return litInfo{exact: true, exactLit: string(re.Rune[0])}
		}
		return litInfo{}
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpPlus:
		return required(analyze(re.Sub[0]))
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(analyze(re.Sub[0]))
		}
		return litInfo{}
	case syntax.OpConcat:
		return analyzeConcat(re.Sub)
	}
	return litInfo{}
}

// required keeps what a node requires but drops exactness.
func required(in litInfo) litInfo {
	out := litInfo{cands: in.cands}
	if in.exact && in.exactLit != "" {
		out.cands = append(out.cands, lit{in.exactLit, in.exactFld})
	}
	return out
}

func analyzeConcat(subs []*syntax.Regexp) litInfo {
	var out litInfo
	exact := true
	var run []byte
	runFold, inRun := false, false
	flush := func() {
		if inRun && len(run) > 0 {
			out.cands = append(out.cands, lit{string(run), runFold})
		}
		run, inRun = nil, false
	}
	var whole []byte
	wholeFold, wholeSet := false, false
	for _, sub := range subs {
		info := analyze(sub)
		if info.exact {
			if info.exactLit == "" {
				continue
			}
			if inRun && runFold != info.exactFld {
				flush()
			}
			if !inRun {
				inRun, runFold = true, info.exactFld
			}
			run = append(run, info.exactLit...)
			if exact {
				if wholeSet && wholeFold != info.exactFld {
					exact = false
				} else {
					wholeSet, wholeFold = true, info.exactFld
					whole = append(whole, info.exactLit...)
				}
			}
			continue
		}
		exact = false
		flush()
		out.cands = append(out.cands, info.cands...)
	}
	flush()
	if exact {
		out.exact, out.exactLit, out.exactFld = true, string(whole), wholeFold
	}
	return out
}

func hasCase(s string) bool {
	for _, r := range s {
		if unicode.SimpleFold(r) != r {
			return true
		}
	}
	return false
}

// anchorOf picks the literal's rarest byte (for a folded literal, the
// byte whose commoner case variant is rarest) and returns its index and
// rank.
func anchorOf(l lit) (int, uint8) {
	best, bestRank := 0, uint8(255)
	for i := 0; i < len(l.s); i++ {
		b := l.s[i]
		r := byteRank[b]
		if l.fold {
			if o := otherCase(b); o != b && byteRank[o] > r {
				r = byteRank[o]
			}
		}
		if i == 0 || r < bestRank {
			best, bestRank = i, r
		}
	}
	return best, bestRank
}

func otherCase(b byte) byte {
	switch {
	case 'a' <= b && b <= 'z':
		return b - 'a' + 'A'
	case 'A' <= b && b <= 'Z':
		return b - 'A' + 'a'
	}
	return b
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// prefilter finds occurrences of a required literal with a memchr scan
// for its rarest byte and a check of the bytes around it.
type prefilter struct {
	lit    []byte // lower-cased when fold
	fold   bool
	off    int  // index of the anchor byte in lit
	a1, a2 byte // the anchor byte and its other case (a2 == a1 when none)
	// exact: the literal is the whole regexp; a found literal is a match.
	exact bool
}

func newPrefilter(l lit, exact bool) *prefilter {
	p := &prefilter{fold: l.fold, exact: exact}
	p.lit = []byte(l.s)
	if p.fold {
		for i, b := range p.lit {
			p.lit[i] = lower(b)
		}
	}
	p.off, _ = anchorOf(l)
	p.a1 = p.lit[p.off]
	p.a2 = p.a1
	if p.fold {
		p.a2 = otherCase(p.a1)
	}
	return p
}

// scanner holds the cached next positions of both anchor bytes, so that a
// two-byte search stays linear.
type scanner struct {
	p      *prefilter
	buf    []byte
	n1, n2 int // next known index of a1/a2 at or after the last query; -2 unknown
}

func (p *prefilter) scanner(buf []byte) scanner {
	return scanner{p: p, buf: buf, n1: -2, n2: -2}
}

// next returns the start of the first occurrence of the literal that
// begins at or after pos, or -1.
func (s *scanner) next(pos int) int {
	p, buf := s.p, s.buf
	n, m := len(buf), len(p.lit)
	for {
		from := pos + p.off
		if from >= n {
			return -1
		}
		var a int
		if p.a1 == p.a2 {
			i := bytes.IndexByte(buf[from:], p.a1)
			if i < 0 {
				return -1
			}
			a = from + i
		} else {
			if s.n1 != -1 && s.n1 < from {
				if i := bytes.IndexByte(buf[from:], p.a1); i < 0 {
					s.n1 = -1
				} else {
					s.n1 = from + i
				}
			}
			if s.n2 != -1 && s.n2 < from {
				if i := bytes.IndexByte(buf[from:], p.a2); i < 0 {
					s.n2 = -1
				} else {
					s.n2 = from + i
				}
			}
			switch {
			case s.n1 < 0 && s.n2 < 0:
				return -1
			case s.n1 < 0:
				a = s.n2
			case s.n2 < 0:
				a = s.n1
			default:
				a = min(s.n1, s.n2)
			}
		}
		start := a - p.off
		if start+m <= n && p.verify(buf[start:start+m]) {
			return start
		}
		pos = start + 1
	}
}

func (p *prefilter) verify(b []byte) bool {
	if !p.fold {
		return bytes.Equal(b, p.lit)
	}
	for i, c := range b {
		if lower(c) != p.lit[i] {
			return false
		}
	}
	return true
}

// canMatchNewline reports whether re can match a '\n' byte.
func canMatchNewline(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
		return false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] <= '\n' && '\n' <= re.Rune[i+1] {
				return true
			}
		}
		return false
	case syntax.OpAnyChar:
		return true
	}
	for _, s := range re.Sub {
		if canMatchNewline(s) {
			return true
		}
	}
	return false
}

// hasLiteralNewline reports whether re contains a literal '\n', which
// ripgrep refuses outside multiline mode (classes merely lose '\n').
func hasLiteralNewline(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral {
		for _, r := range re.Rune {
			if r == '\n' {
				return true
			}
		}
	}
	for _, s := range re.Sub {
		if hasLiteralNewline(s) {
			return true
		}
	}
	return false
}
