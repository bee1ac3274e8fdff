// Package editengine is the engine of the Edit tool: exact-string
// replacement with Claude Code's rules (unique unless replace_all), CRLF
// files edited with LF strings, curly/straight quote normalisation when the
// exact string is absent, the closest region of the file quoted when it is
// not found at all, and unified diffs of the change.
package editengine

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNoChange is returned when old and new strings are identical.
var ErrNoChange = errors.New("no changes to make: old_string and new_string are exactly the same; give a new_string that differs")

// ErrEmptyOld is returned when old_string is empty: there is nothing to
// find.
var ErrEmptyOld = errors.New("old_string is empty; give the exact text to replace (to set a whole file's content use Write)")

// NotFoundError says old_string is not in the file, and quotes the region
// most like it.
type NotFoundError struct {
	// Old is the old_string that was searched for.
	Old string
	// Closest is the region of the file most similar to Old; nil when no
	// region is similar enough to be worth quoting.
	Closest *Region
}

// Error tells the model what was not found and shows the closest region
// with line numbers, as Read shows them, so it can copy the exact text.
func (e *NotFoundError) Error() string {
	var b strings.Builder
	b.WriteString("String to replace not found in file.\nString: ")
	b.WriteString(clip(e.Old, 2000))
	if e.Closest == nil {
		b.WriteString("\nNo region of the file resembles it: Read the file again to see its current content.")
		return b.String()
	}
	r := e.Closest
	if r.StartLine == r.EndLine {
		fmt.Fprintf(&b, "\nThe closest match is line %d (%.0f%% similar):\n", r.StartLine, r.Similarity*100)
	} else {
		fmt.Fprintf(&b, "\nThe closest match is lines %d-%d (%.0f%% similar):\n", r.StartLine, r.EndLine, r.Similarity*100)
	}
	b.WriteString(r.Numbered())
	if r.Hint != "" {
		b.WriteString("\n")
		b.WriteString(r.Hint)
	}
	b.WriteString("\nCopy the exact text from the file (what follows the line number and tab) into old_string and try again.")
	return b.String()
}

// AmbiguousError says old_string occurs more than once and replace_all was
// not set.
type AmbiguousError struct {
	// Old is the old_string that was searched for.
	Old string
	// Count is how many times it occurs.
	Count int
	// Lines are the 1-based line numbers where the occurrences start.
	Lines []int
}

// Error tells the model how to disambiguate.
func (e *AmbiguousError) Error() string {
	lines := make([]string, 0, len(e.Lines))
	for i, l := range e.Lines {
		if i == 10 {
			lines = append(lines, "…")
			break
		}
		lines = append(lines, fmt.Sprint(l))
	}
	return fmt.Sprintf("Found %d matches of the string to replace (at lines %s), but replace_all is false. "+
		"To replace all occurrences, set replace_all to true. To replace only one occurrence, "+
		"add more surrounding context to old_string so that it matches exactly once.\nString: %s",
		e.Count, strings.Join(lines, ", "), clip(e.Old, 2000))
}

// Edit is one replacement request.
type Edit struct {
	// Old is the text to find; New replaces it.
	Old, New string
	// ReplaceAll replaces every occurrence instead of requiring one.
	ReplaceAll bool
}

// Result is the outcome of a successful Apply.
type Result struct {
	// Content is the new file content.
	Content string
	// Count is the number of replacements made.
	Count int
	// ActualOld is the text that was found in the file: Old itself, or Old
	// adapted to the file's line endings or quotes.
	ActualOld string
	// ActualNew is the text that was put in, adapted the same way.
	ActualNew string
	// CRLF is true when Old and New were adapted to the file's CRLF line
	// endings.
	CRLF bool
	// QuotesNormalized is true when Old was only found once curly and
	// straight quotes were treated as equal.
	QuotesNormalized bool
}

// span is a match [start, end) in the content, in bytes.
type span struct{ start, end int }

// Apply replaces e.Old by e.New in content. It tries, in order: the exact
// string; the string with LF line breaks turned into CRLF when the content
// has CRLF line endings; then both again with curly and straight quotes
// treated as equal. Errors: ErrEmptyOld, ErrNoChange, *AmbiguousError when
// it occurs more than once without ReplaceAll, *NotFoundError.
func Apply(content string, e Edit) (Result, error) {
	if e.Old == "" {
		return Result{}, ErrEmptyOld
	}
	if e.Old == e.New {
		return Result{}, ErrNoChange
	}
	// Deleting whole lines: when new is empty and every occurrence of old
	// is followed by a line break, the line break goes too, so no blank
	// line is left where the lines were (as Claude Code does).
	if e.New == "" && !strings.HasSuffix(e.Old, "\n") {
		eol := "\n"
		if UsesCRLF(content) {
			eol = "\r\n"
		}
		if n := strings.Count(content, e.Old+eol); n > 0 && n == strings.Count(content, e.Old) {
			e.Old += eol
		}
	}
	type candidate struct {
		old, new string
		crlf     bool
	}
	// In a file with CRLF line endings, old and new are tried with CRLF
	// first, so that a LF in them never matches half of a CRLF and the
	// lines new adds get the file's line ending.
	var cands []candidate
	if UsesCRLF(content) {
		o, n := toCRLF(e.Old), toCRLF(e.New)
		if o != e.Old || n != e.New {
			cands = append(cands, candidate{o, n, true})
		}
		if o != e.Old {
			cands = append(cands, candidate{e.Old, e.New, false})
		}
	}
	if len(cands) == 0 {
		cands = []candidate{{e.Old, e.New, false}}
	}
	var (
		spans  []span
		chosen candidate
		quoted bool
	)
	for _, c := range cands {
		if spans = findExact(content, c.old); len(spans) > 0 {
			chosen = c
			break
		}
	}
	if len(spans) == 0 && (hasCurly(content) || hasCurly(e.Old)) {
		nc := normalize(content)
		for _, c := range cands {
			if spans = findNormalized(nc, NormalizeQuotes(c.old)); len(spans) > 0 {
				chosen, quoted = c, true
				break
			}
		}
	}
	if len(spans) == 0 {
		return Result{}, &NotFoundError{Old: e.Old, Closest: Closest(content, e.Old)}
	}
	if len(spans) > 1 && !e.ReplaceAll {
		return Result{}, &AmbiguousError{Old: e.Old, Count: len(spans), Lines: lineNumbers(content, spans)}
	}
	actualOld := content[spans[0].start:spans[0].end]
	actualNew := chosen.new
	if quoted {
		actualNew = applyQuoteStyle(chosen.new, actualOld)
	}
	var b strings.Builder
	b.Grow(len(content) + len(spans)*(len(actualNew)-len(actualOld)))
	prev := 0
	for _, s := range spans {
		b.WriteString(content[prev:s.start])
		if quoted {
			b.WriteString(applyQuoteStyle(chosen.new, content[s.start:s.end]))
		} else {
			b.WriteString(actualNew)
		}
		prev = s.end
	}
	b.WriteString(content[prev:])
	return Result{
		Content:          b.String(),
		Count:            len(spans),
		ActualOld:        actualOld,
		ActualNew:        actualNew,
		CRLF:             chosen.crlf,
		QuotesNormalized: quoted,
	}, nil
}

// UsesCRLF reports whether content's line endings are mostly CRLF.
func UsesCRLF(content string) bool {
	crlf := strings.Count(content, "\r\n")
	return crlf > 0 && crlf >= strings.Count(content, "\n")-crlf
}

// toCRLF turns every line break of s into CRLF (existing CRLFs are kept).
func toCRLF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n")
}

// findExact returns the non-overlapping occurrences of old, left to right.
func findExact(content, old string) []span {
	var out []span
	for i := 0; i <= len(content); {
		j := strings.Index(content[i:], old)
		if j < 0 {
			break
		}
		out = append(out, span{i + j, i + j + len(old)})
		i += j + len(old)
	}
	return out
}

// findNormalized finds old in the normalised content and maps the matches
// back to byte ranges of the original content.
func findNormalized(nc normalized, old string) []span {
	var out []span
	for _, s := range findExact(nc.text, old) {
		out = append(out, span{nc.orig[s.start], nc.orig[s.end]})
	}
	return out
}

// lineNumbers returns the 1-based line on which each span starts.
func lineNumbers(content string, spans []span) []int {
	out := make([]int, len(spans))
	line, pos := 1, 0
	for i, s := range spans {
		line += strings.Count(content[pos:s.start], "\n")
		pos = s.start
		out[i] = line
	}
	return out
}

// Count returns the number of non-overlapping occurrences of old in
// content, exact match only.
func Count(content, old string) int {
	if old == "" {
		return 0
	}
	return strings.Count(content, old)
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("… [%d more bytes]", len(s)-i)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
