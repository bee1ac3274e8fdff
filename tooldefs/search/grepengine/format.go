package grepengine

import (
	"fmt"
	"strconv"
)

// Format renders the result as ripgrep prints it without a terminal
// (--no-heading): a path per line in files_with_matches mode, "path:count"
// in count mode, and "path:N:text" for matching lines, "path-N-text" for
// context lines and "--" between groups in content mode. name gives the
// path to print for a file (e.g. relative to the working directory); the
// path is left out when the search root was a single file, as rg does.
func (r *Result) Format(name func(*FileResult) string) []string {
	var out []string
	withName := !r.SingleFile
	context := r.opts.Before > 0 || r.opts.After > 0
	for i := range r.Files {
		f := &r.Files[i]
		p := name(f)
		switch r.opts.Mode {
		case FilesWithMatches:
			out = append(out, p)
		case Count:
			if withName {
				out = append(out, p+":"+strconv.Itoa(f.Count))
			} else {
				out = append(out, strconv.Itoa(f.Count))
			}
		case Content:
			if context && i > 0 && len(out) > 0 {
				out = append(out, "--")
			}
			for _, l := range f.Lines {
				if l.Break {
					out = append(out, "--")
					continue
				}
				sep := ":"
				if l.Context {
					sep = "-"
				}
				var s string
				if withName {
					s = p + sep
				}
				if r.opts.LineNumbers {
					s += strconv.Itoa(l.Num) + sep
				}
				out = append(out, s+l.Text)
			}
			if f.BinaryOffset >= 0 {
				out = append(out, fmt.Sprintf("%s: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset %d)", p, f.BinaryOffset))
			}
		}
	}
	return out
}

// Mode returns the output mode the result was produced in.
func (r *Result) Mode() Mode { return r.opts.Mode }

// TotalCount sums the per-file counts (matching lines, or matches in
// multiline mode).
func (r *Result) TotalCount() int {
	n := 0
	for i := range r.Files {
		n += r.Files[i].Count
	}
	return n
}
