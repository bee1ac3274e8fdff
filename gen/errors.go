package gen

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Error is one positioned problem found in the tooldefs package.
type Error struct {
	// Pos is where the problem is; Filename is relative to the load's
	// BaseDir when it lies under it.
	Pos token.Position
	// Msg says what is wrong and, where it can, what to write instead.
	Msg string
}

// Error returns "file:line:col: msg".
func (e Error) Error() string {
	if !e.Pos.IsValid() {
		if e.Pos.Filename != "" {
			return e.Pos.Filename + ": " + e.Msg
		}
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList is every problem found, sorted by position; toolgen reports
// them all before failing.
type ErrorList []Error

// Error joins the errors, one a line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// errs collects positioned errors, dropping exact duplicates (the same
// problem is found once per variant load).
type errs struct {
	base string
	list ErrorList
}

func (c *errs) rel(p token.Position) token.Position {
	if p.Filename != "" && c.base != "" && filepath.IsAbs(p.Filename) {
		if r, err := filepath.Rel(c.base, p.Filename); err == nil && !strings.HasPrefix(r, "..") {
			p.Filename = filepath.ToSlash(r)
		}
	}
	return p
}

func (c *errs) add(p token.Position, format string, args ...any) {
	e := Error{Pos: c.rel(p), Msg: fmt.Sprintf(format, args...)}
	if !slices.Contains(c.list, e) {
		c.list = append(c.list, e)
	}
}

func (c *errs) err() error {
	if len(c.list) == 0 {
		return nil
	}
	l := slices.Clone(c.list)
	slices.SortStableFunc(l, func(a, b Error) int {
		if r := strings.Compare(a.Pos.Filename, b.Pos.Filename); r != 0 {
			return r
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		if a.Pos.Column != b.Pos.Column {
			return a.Pos.Column - b.Pos.Column
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	return l
}
