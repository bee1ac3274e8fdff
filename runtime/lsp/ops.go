package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// The operations of Query, Claude Code's names.
const (
	OpDefinition     = "goToDefinition"
	OpReferences     = "findReferences"
	OpHover          = "hover"
	OpDocumentSymbol = "documentSymbol"
	OpWorkspaceSym   = "workspaceSymbol"
	OpImplementation = "goToImplementation"
	OpPrepareCalls   = "prepareCallHierarchy"
	OpIncomingCalls  = "incomingCalls"
	OpOutgoingCalls  = "outgoingCalls"
)

// Operations are every operation, in Claude Code's order.
var Operations = []string{OpDefinition, OpReferences, OpHover, OpDocumentSymbol, OpWorkspaceSym,
	OpImplementation, OpPrepareCalls, OpIncomingCalls, OpOutgoingCalls}

// Bounds of a rendered answer.
const (
	maxItems    = 100
	maxHover    = 8000
	maxLineText = 120
)

// Request is one query: an operation at a 1-based line and character
// (counted in characters, as editors show them) of a file.
type Request struct {
	Operation string
	// Path is the file, absolute.
	Path string
	// Line and Character are 1-based.
	Line, Character int
	// Query is workspaceSymbol's search; empty means the identifier at
	// the position.
	Query string
	// Root is the working directory: the server's root, and what paths in
	// the answer are shown relative to.
	Root string
}

// Result is an answer rendered for the model.
type Result struct {
	Text string
	// Count is the number of items found (locations, symbols, calls).
	Count int
	// Files is the number of files they are in.
	Files int
}

// PositionError is the error of a position outside the file.
type PositionError struct{ msg string }

func (e *PositionError) Error() string { return e.msg }

// Query runs one operation on the server for r.Path, starting it if
// needed.
func (m *Manager) Query(ctx context.Context, r Request) (Result, error) {
	if !slices.Contains(Operations, r.Operation) {
		return Result{}, fmt.Errorf("unknown operation %q; use one of %s", r.Operation, strings.Join(Operations, ", "))
	}
	lines := fileLines(r.Path)
	if r.Line < 1 || r.Line > max(len(lines), 1) {
		return Result{}, &PositionError{fmt.Sprintf("line %d is outside %s, which has %d lines", r.Line, filepath.Base(r.Path), len(lines))}
	}
	text := ""
	if len(lines) > 0 {
		text = lines[r.Line-1]
	}
	if n := utf8.RuneCountInString(text); r.Character < 1 || r.Character > n+1 {
		return Result{}, &PositionError{fmt.Sprintf("character %d is outside line %d of %s, which has %d characters", r.Character, r.Line, filepath.Base(r.Path), n)}
	}
	c, err := m.client(ctx, r.Path, r.Root)
	if err != nil {
		return Result{}, err
	}
	c.refresh()
	uri, _, _, err := c.sync(r.Path)
	if err != nil {
		return Result{}, fmt.Errorf("send %s to %s: %w", r.Path, c.name, err)
	}
	q := &query{c: c, r: r, files: map[string][]string{r.Path: lines}}
	doc := map[string]string{"uri": uri}
	pos := Position{Line: r.Line - 1, Character: utf16Offset(text, r.Character-1)}
	at := map[string]any{"textDocument": doc, "position": pos}
	var raw json.RawMessage
	call := func(method string, params any) error {
		raw = nil
		rctx, cancel := context.WithTimeout(ctx, m.reqTimeout)
		defer cancel()
		if err := c.rpc.Call(rctx, method, params, &raw); err != nil {
			switch {
			case !c.alive():
				return c.gone()
			case ctx.Err() == nil && rctx.Err() != nil:
				return fmt.Errorf("%s did not answer %s within %s; try again, or check the server", c.name, method, m.reqTimeout)
			}
			return fmt.Errorf("%s: %w", c.name, err)
		}
		return nil
	}
	switch r.Operation {
	case OpDefinition, OpImplementation:
		method := "textDocument/definition"
		what := "definition"
		if r.Operation == OpImplementation {
			method, what = "textDocument/implementation", "implementation"
		}
		if err := call(method, at); err != nil {
			return Result{}, err
		}
		return q.locations(decodeLocations(raw), what), nil
	case OpReferences:
		at["context"] = map[string]bool{"includeDeclaration": true}
		if err := call("textDocument/references", at); err != nil {
			return Result{}, err
		}
		return q.locations(decodeLocations(raw), "reference"), nil
	case OpHover:
		if err := call("textDocument/hover", at); err != nil {
			return Result{}, err
		}
		return q.hover(raw), nil
	case OpDocumentSymbol:
		if err := call("textDocument/documentSymbol", map[string]any{"textDocument": doc}); err != nil {
			return Result{}, err
		}
		return q.symbols(raw, true), nil
	case OpWorkspaceSym:
		query := r.Query
		if query == "" {
			query = wordAt(text, r.Character-1)
		}
		if err := call("workspace/symbol", map[string]string{"query": query}); err != nil {
			return Result{}, err
		}
		res := q.symbols(raw, false)
		res.Text = fmt.Sprintf("Query %q: %s", query, res.Text)
		return res, nil
	}
	// The call hierarchy.
	if err := call("textDocument/prepareCallHierarchy", at); err != nil {
		return Result{}, err
	}
	var items []callItem
	_ = json.Unmarshal(raw, &items)
	if len(items) == 0 {
		return Result{Text: "No function or method at this position (place the cursor on its name)."}, nil
	}
	if r.Operation == OpPrepareCalls {
		var b strings.Builder
		fmt.Fprintf(&b, "%s:\n", plural(len(items), "call hierarchy item"))
		for _, it := range items {
			b.WriteString("  " + q.item(it) + "\n")
		}
		return Result{Text: strings.TrimSuffix(b.String(), "\n"), Count: len(items), Files: 1}, nil
	}
	method, dir, field := "callHierarchy/incomingCalls", "Callers of", "from"
	if r.Operation == OpOutgoingCalls {
		method, dir, field = "callHierarchy/outgoingCalls", "Calls made by", "to"
	}
	if err := call(method, map[string]any{"item": items[0]}); err != nil {
		return Result{}, err
	}
	var calls []map[string]json.RawMessage
	_ = json.Unmarshal(raw, &calls)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s):", dir, items[0].Name, plural(len(calls), "call"))
	files := map[string]bool{}
	for i, cl := range calls {
		if i == maxItems {
			fmt.Fprintf(&b, "\n  … and %d more", len(calls)-maxItems)
			break
		}
		var it callItem
		_ = json.Unmarshal(cl[field], &it)
		files[it.URI] = true
		b.WriteString("\n  " + q.item(it))
		var ranges []Range
		_ = json.Unmarshal(cl["fromRanges"], &ranges)
		if len(ranges) > 0 {
			// fromRanges are in the caller for incoming calls, in the
			// item asked about for outgoing ones.
			src := it.URI
			if r.Operation == OpOutgoingCalls {
				src = items[0].URI
			}
			var at []string
			for _, fr := range ranges {
				l, col := q.pos(uriPath(src), fr.Start)
				at = append(at, fmt.Sprintf("%d:%d", l, col))
			}
			b.WriteString(" (call at " + strings.Join(at, ", ") + ")")
		}
	}
	if len(calls) == 0 {
		b.WriteString(" none found")
	}
	return Result{Text: b.String(), Count: len(calls), Files: len(files)}, nil
}

// query renders one answer.
type query struct {
	c     *client
	r     Request
	files map[string][]string // lines of the files read
}

// lines are path's lines, read once.
func (q *query) lines(path string) []string {
	if l, ok := q.files[path]; ok {
		return l
	}
	l := fileLines(path)
	q.files[path] = l
	return l
}

// pos is a position as 1-based line and character.
func (q *query) pos(path string, p Position) (int, int) {
	col := p.Character
	if l := q.lines(path); p.Line < len(l) {
		col = runeColumn(l[p.Line], p.Character)
	}
	return p.Line + 1, col + 1
}

// display is path relative to the root when inside it.
func (q *query) display(path string) string {
	if rel, err := filepath.Rel(q.r.Root, path); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

// where is "file:line:col".
func (q *query) where(uri string, p Position) string {
	path := uriPath(uri)
	l, c := q.pos(path, p)
	return fmt.Sprintf("%s:%d:%d", q.display(path), l, c)
}

// source is the trimmed text of line p.Line of uri, bounded.
func (q *query) source(uri string, p Position) string {
	l := q.lines(uriPath(uri))
	if p.Line >= len(l) {
		return ""
	}
	s := strings.TrimSpace(l[p.Line])
	if utf8.RuneCountInString(s) > maxLineText {
		s = string([]rune(s)[:maxLineText]) + "…"
	}
	return s
}

func (q *query) locations(locs []Location, what string) Result {
	if len(locs) == 0 {
		return Result{Text: "No " + what + "s found."}
	}
	files := map[string]bool{}
	for _, l := range locs {
		files[l.URI] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Found %s", plural(len(locs), what))
	if len(files) > 1 {
		fmt.Fprintf(&b, " in %d files", len(files))
	}
	b.WriteString(":")
	for i, l := range locs {
		if i == maxItems {
			fmt.Fprintf(&b, "\n… and %d more", len(locs)-maxItems)
			break
		}
		b.WriteString("\n" + q.where(l.URI, l.Range.Start))
		if s := q.source(l.URI, l.Range.Start); s != "" {
			b.WriteString(": " + s)
		}
	}
	return Result{Text: b.String(), Count: len(locs), Files: len(files)}
}

func (q *query) hover(raw json.RawMessage) Result {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) == 0 || string(h.Contents) == "null" {
		return Result{Text: "No hover information at this position."}
	}
	text := strings.TrimSpace(markup(h.Contents))
	if text == "" {
		return Result{Text: "No hover information at this position."}
	}
	if len(text) > maxHover {
		text = text[:maxHover] + "\n… (cut)"
	}
	return Result{Text: text, Count: 1, Files: 1}
}

// markup flattens MarkupContent, a MarkedString or a list of them.
func markup(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, r := range list {
			parts = append(parts, markup(r))
		}
		return strings.Join(parts, "\n\n")
	}
	var m struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	_ = json.Unmarshal(raw, &m)
	if m.Language != "" {
		return "```" + m.Language + "\n" + m.Value + "\n```"
	}
	return m.Value
}

func (q *query) symbols(raw json.RawMessage, inFile bool) Result {
	var syms []symbol
	_ = json.Unmarshal(raw, &syms)
	if len(syms) == 0 {
		return Result{Text: "No symbols found."}
	}
	var b strings.Builder
	n := 0
	files := map[string]bool{}
	var walk func(list []symbol, depth int)
	walk = func(list []symbol, depth int) {
		for _, s := range list {
			n++
			if n > maxItems {
				continue
			}
			b.WriteString("\n" + strings.Repeat("  ", depth) + s.Name + " (" + kindName(s.Kind) + ")")
			switch {
			case s.Location != nil && s.Location.Range != nil:
				files[s.Location.URI] = true
				if inFile {
					l, _ := q.pos(q.r.Path, s.Location.Range.Start)
					fmt.Fprintf(&b, " - line %d", l)
				} else {
					b.WriteString(" - " + q.where(s.Location.URI, s.Location.Range.Start))
				}
				if s.ContainerName != "" {
					b.WriteString(" in " + s.ContainerName)
				}
			case s.SelectionRange != nil:
				l, _ := q.pos(q.r.Path, s.SelectionRange.Start)
				fmt.Fprintf(&b, " - line %d", l)
			case s.Range != nil:
				l, _ := q.pos(q.r.Path, s.Range.Start)
				fmt.Fprintf(&b, " - line %d", l)
			}
			walk(s.Children, depth+1)
		}
	}
	walk(syms, 1)
	head := fmt.Sprintf("Found %s", plural(n, "symbol"))
	if n > maxItems {
		b.WriteString(fmt.Sprintf("\n  … and %d more", n-maxItems))
	}
	nf := len(files)
	if inFile {
		nf = 1
	} else if nf > 1 {
		head += fmt.Sprintf(" in %d files", nf)
	}
	return Result{Text: head + ":" + b.String(), Count: n, Files: nf}
}

// item renders a call hierarchy item.
func (q *query) item(it callItem) string {
	s := it.Name + " (" + kindName(it.Kind) + ") - " + q.where(it.URI, it.SelectionRange.Start)
	if it.Detail != "" {
		s += " [" + it.Detail + "]"
	}
	return s
}

// fileLines are the lines of the file at path (nil when it cannot be
// read or is over 8 MiB).
func fileLines(path string) []string {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > 8<<20 {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return []string{""}
	}
	return strings.Split(s, "\n")
}

// wordAt is the identifier around the 0-based rune column col of line.
func wordAt(line string, col int) string {
	rs := []rune(line)
	isWord := func(r rune) bool {
		return r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127
	}
	if len(rs) == 0 {
		return ""
	}
	col = min(max(col, 0), len(rs)-1)
	start, end := col, col
	for start > 0 && isWord(rs[start-1]) {
		start--
	}
	for end < len(rs) && isWord(rs[end]) {
		end++
	}
	if start >= end {
		return ""
	}
	return string(rs[start:end])
}

// plural is "1 thing" or "n things".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(what, "y"))
	}
	return fmt.Sprintf("%d %ss", n, what)
}
