package tui

import (
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The markdown styles: a few attributes on the terminal's own colours, so
// the text reads on dark and light backgrounds alike.
var (
	mdHeading = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12"))
	mdStrong  = lipgloss.NewStyle().Bold(true)
	mdEmph    = lipgloss.NewStyle().Italic(true)
	mdCode    = lipgloss.NewStyle().Foreground(lipgloss.Color("11"))
	mdLink    = lipgloss.NewStyle().Foreground(lipgloss.Color("14"))
	mdFaint   = lipgloss.NewStyle().Faint(true)
)

var (
	mdParserOnce sync.Once
	mdParser     parser.Parser
)

// markdownParser is goldmark's CommonMark parser, built on first use so
// that a run that prints no markdown (-p, exec) never pays for it.
func markdownParser() parser.Parser {
	mdParserOnce.Do(func() {
		mdParser = parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...), parser.WithInlineParsers(parser.DefaultInlineParsers()...), parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
	})
	return mdParser
}

// Markdown renders the model's markdown for a terminal width columns
// wide: headings, emphasis, code, lists, quotes and links styled,
// paragraphs word-wrapped, fenced code kept as written in a plain style.
// Tables and other extensions stay as their source text.
func Markdown(src string, width int) string {
	if width < 20 {
		width = 20
	}
	source := []byte(src)
	doc := markdownParser().Parse(text.NewReader(source))
	r := mdRenderer{src: source, width: width}
	r.blocks(doc, "")
	return strings.Trim(strings.Join(r.out, "\n"), "\n")
}

// mdRenderer walks goldmark's tree, writing lines to out.
type mdRenderer struct {
	src   []byte
	width int
	out   []string
}

// blocks renders n's children, each line prefixed with indent; blocks are
// separated by a blank line, as in the source.
func (r *mdRenderer) blocks(n ast.Node, indent string) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c != n.FirstChild() && !(isListItem(n) && isTight(n)) {
			r.out = append(r.out, "")
		}
		r.block(c, indent)
	}
}

func isListItem(n ast.Node) bool { _, ok := n.(*ast.ListItem); return ok }

func isTight(n ast.Node) bool {
	if l, ok := n.Parent().(*ast.List); ok {
		return l.IsTight
	}
	return false
}

func (r *mdRenderer) block(n ast.Node, indent string) {
	switch n := n.(type) {
	case *ast.Heading:
		r.wrapped(indent, mdHeading.Render(strings.Repeat("#", n.Level)+" ")+r.inlines(n, mdHeading))
	case *ast.Paragraph, *ast.TextBlock:
		if rows := tableRows(n, r.src); rows != nil {
			r.table(indent, rows)
			return
		}
		r.wrapped(indent, r.inlines(n, lipgloss.NewStyle()))
	case *ast.ThematicBreak:
		r.out = append(r.out, indent+mdFaint.Render(strings.Repeat("─", max(r.width-len(indent), 3))))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			line := strings.TrimRight(string(seg.Value(r.src)), "\n")
			r.out = append(r.out, indent+"  "+mdCode.Render(line))
		}
	case *ast.Blockquote:
		start := len(r.out)
		r.blocks(n, "")
		bar := mdFaint.Render("│ ")
		for i := start; i < len(r.out); i++ {
			r.out[i] = indent + bar + r.out[i]
		}
	case *ast.List:
		num := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			if item != n.FirstChild() && !n.IsTight {
				r.out = append(r.out, "")
			}
			marker := "• "
			if n.IsOrdered() {
				marker = strconv.Itoa(num) + ". "
				num++
			}
			start := len(r.out)
			r.blocks(item, "")
			pad := strings.Repeat(" ", len(marker))
			for i := start; i < len(r.out); i++ {
				if i == start {
					r.out[i] = indent + marker + r.out[i]
				} else if r.out[i] != "" {
					r.out[i] = indent + pad + r.out[i]
				}
			}
		}
	case *ast.HTMLBlock:
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			r.out = append(r.out, indent+strings.TrimRight(string(seg.Value(r.src)), "\n"))
		}
	default:
		// Blocks a later goldmark may add: their text, unstyled.
		r.wrapped(indent, r.inlines(n, lipgloss.NewStyle()))
	}
}

// wrapped appends s word-wrapped to the width left after indent.
func (r *mdRenderer) wrapped(indent, s string) {
	w := max(r.width-ansi.StringWidth(indent), 10)
	for _, line := range strings.Split(ansi.Wordwrap(s, w, ""), "\n") {
		r.out = append(r.out, indent+line)
	}
}

// inlines renders n's inline children in style base.
func (r *mdRenderer) inlines(n ast.Node, base lipgloss.Style) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		b.WriteString(r.inline(c, base))
	}
	return b.String()
}

func (r *mdRenderer) inline(n ast.Node, base lipgloss.Style) string {
	switch n := n.(type) {
	case *ast.Text:
		s := string(n.Segment.Value(r.src))
		if n.HardLineBreak() {
			s += "\n"
		} else if n.SoftLineBreak() {
			s += " "
		}
		return base.Render(s)
	case *ast.String:
		return base.Render(string(n.Value))
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(r.src))
			}
		}
		return mdCode.Render(b.String())
	case *ast.Emphasis:
		if n.Level >= 2 {
			return r.inlines(n, base.Bold(true))
		}
		return r.inlines(n, base.Italic(true))
	case *ast.Link:
		label := r.inlines(n, mdLink)
		dest := string(n.Destination)
		if dest == "" || ansi.Strip(label) == dest {
			return label
		}
		return label + mdFaint.Render(" ("+dest+")")
	case *ast.AutoLink:
		return mdLink.Render(string(n.URL(r.src)))
	case *ast.Image:
		return mdFaint.Render("[image: ") + r.inlines(n, base) + mdFaint.Render("]")
	case *ast.RawHTML:
		var b strings.Builder
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			b.Write(seg.Value(r.src))
		}
		return b.String()
	}
	return r.inlines(n, base)
}

// tableRows returns the cells of a paragraph that is a GitHub table (every
// line starts with '|', the second is the delimiter row), else nil.
// CommonMark has no tables; the parser sees one as a paragraph.
func tableRows(n ast.Node, src []byte) [][]string {
	lines := n.Lines()
	if lines.Len() < 2 {
		return nil
	}
	var rows [][]string
	for i := range lines.Len() {
		seg := lines.At(i)
		line := strings.TrimSpace(string(seg.Value(src)))
		if !strings.HasPrefix(line, "|") {
			return nil
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if i == 1 {
			for _, c := range cells {
				if strings.Trim(c, ":-") != "" || c == "" {
					return nil
				}
			}
			continue
		}
		rows = append(rows, cells)
	}
	return rows
}

// table writes rows with aligned columns, the header row bold.
func (r *mdRenderer) table(indent string, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for j, c := range row {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			widths[j] = max(widths[j], ansi.StringWidth(c))
		}
	}
	for i, row := range rows {
		var b strings.Builder
		for j, c := range row {
			if j > 0 {
				b.WriteString(mdFaint.Render(" │ "))
			}
			cell := c + strings.Repeat(" ", widths[j]-ansi.StringWidth(c))
			if j == len(row)-1 {
				cell = c
			}
			if i == 0 {
				cell = mdStrong.Render(cell)
			}
			b.WriteString(cell)
		}
		r.out = append(r.out, indent+b.String())
		if i == 0 {
			var sep []string
			for _, w := range widths {
				sep = append(sep, strings.Repeat("─", w))
			}
			r.out = append(r.out, indent+mdFaint.Render(strings.Join(sep, "─┼─")))
		}
	}
}
