package tui

import (
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

var (
	mdMu        sync.Mutex
	mdRenderers = map[int]*glamour.TermRenderer{}
)

// Markdown renders the model's markdown for a terminal width columns
// wide (glamour's dark style, word-wrapped); the source itself when it
// cannot be rendered.
func Markdown(src string, width int) string {
	if width < 20 {
		width = 20
	}
	mdMu.Lock()
	r, ok := mdRenderers[width]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(width-2))
		if err != nil {
			mdMu.Unlock()
			return Wrap(src, width)
		}
		mdRenderers[width] = r
	}
	out, err := r.Render(src)
	mdMu.Unlock()
	if err != nil {
		return Wrap(src, width)
	}
	// glamour pads every line to the wrap width and frames the block with
	// blank lines; the transcript spaces its sections itself.
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = trimRightSpace(l)
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// trimRightSpace drops a styled line's trailing spaces (and the styles
// around them).
func trimRightSpace(l string) string {
	plain := ansi.Strip(l)
	keep := len(strings.TrimRight(plain, " "))
	switch keep {
	case len(plain):
		return l
	case 0:
		return ""
	}
	return ansi.Cut(l, 0, ansi.StringWidth(plain[:keep])) + "\x1b[0m"
}
