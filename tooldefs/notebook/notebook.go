// Package notebook reads and edits Jupyter notebooks (nbformat 4) while
// keeping every field it does not understand: the notebook's metadata, the
// cells' metadata and attachments, unknown keys. Read renders cells with
// their outputs for a model; Replace, Insert and Delete change one cell
// found by id.
package notebook

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Cell types a notebook cell may have.
const (
	Code     = "code"
	Markdown = "markdown"
	Raw      = "raw"
)

// Notebook is a parsed .ipynb file.
type Notebook struct {
	top   map[string]json.RawMessage
	cells []map[string]json.RawMessage
	// Major and Minor are nbformat and nbformat_minor.
	Major, Minor int
}

// Parse decodes a notebook. It accepts nbformat 4 only and says so.
func Parse(data []byte) (*Notebook, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("the notebook is not valid JSON: %w", err)
	}
	if top == nil {
		return nil, errors.New("the notebook is not a JSON object")
	}
	nb := &Notebook{top: top}
	if raw, ok := top["nbformat"]; ok {
		if err := json.Unmarshal(raw, &nb.Major); err != nil {
			return nil, fmt.Errorf("the notebook's nbformat is not a number: %w", err)
		}
	}
	if raw, ok := top["nbformat_minor"]; ok {
		_ = json.Unmarshal(raw, &nb.Minor)
	}
	if nb.Major != 4 {
		return nil, fmt.Errorf("only nbformat 4 notebooks are supported (this one is nbformat %d); convert it with `jupyter nbconvert --to notebook`", nb.Major)
	}
	raw, ok := top["cells"]
	if !ok {
		return nil, errors.New(`the notebook has no "cells" array`)
	}
	if err := json.Unmarshal(raw, &nb.cells); err != nil {
		return nil, fmt.Errorf(`the notebook's "cells" is not an array of objects: %w`, err)
	}
	for i, c := range nb.cells {
		if c == nil {
			return nil, fmt.Errorf("cell %d is not a JSON object", i)
		}
	}
	return nb, nil
}

// Len is the number of cells.
func (nb *Notebook) Len() int { return len(nb.cells) }

// Cell is a read-only view of one cell.
type Cell struct {
	// Index is the 0-based position.
	Index int
	// ID is the cell's id, or "cell-N" (its index) when it has none.
	ID string
	// Type is code, markdown or raw.
	Type string
	// Source is the cell's text.
	Source string
	// ExecutionCount is set for executed code cells.
	ExecutionCount *int
	// Outputs are a code cell's outputs.
	Outputs []Output
}

// Output is one output of a code cell.
type Output struct {
	// Type is stream, execute_result, display_data or error.
	Type string
	// Name is the stream name (stdout, stderr).
	Name string
	// Text is the text form: stream text, text/plain data, or the error
	// with its traceback.
	Text string
	// Images are image data (base64) by media type, e.g. image/png.
	Images []Image
}

// Image is one image of an output.
type Image struct {
	// MediaType is e.g. image/png.
	MediaType string
	// Data is the base64-encoded image.
	Data string
}

// Cells returns a view of every cell.
func (nb *Notebook) Cells() []Cell {
	out := make([]Cell, len(nb.cells))
	for i := range nb.cells {
		out[i] = nb.cell(i)
	}
	return out
}

func (nb *Notebook) cell(i int) Cell {
	m := nb.cells[i]
	c := Cell{Index: i, ID: str(m["id"]), Type: str(m["cell_type"]), Source: multiline(m["source"])}
	if c.ID == "" {
		c.ID = "cell-" + strconv.Itoa(i)
	}
	var n int
	if raw, ok := m["execution_count"]; ok && json.Unmarshal(raw, &n) == nil && string(raw) != "null" {
		c.ExecutionCount = &n
	}
	var outs []map[string]json.RawMessage
	if raw, ok := m["outputs"]; ok {
		_ = json.Unmarshal(raw, &outs)
	}
	for _, o := range outs {
		c.Outputs = append(c.Outputs, parseOutput(o))
	}
	return c
}

func parseOutput(o map[string]json.RawMessage) Output {
	out := Output{Type: str(o["output_type"]), Name: str(o["name"])}
	switch out.Type {
	case "stream":
		out.Text = multiline(o["text"])
	case "error":
		var tb []string
		_ = json.Unmarshal(o["traceback"], &tb)
		out.Text = str(o["ename"]) + ": " + str(o["evalue"])
		if len(tb) > 0 {
			out.Text += "\n" + stripANSI(strings.Join(tb, "\n"))
		}
	default:
		var data map[string]json.RawMessage
		_ = json.Unmarshal(o["data"], &data)
		out.Text = multiline(data["text/plain"])
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			switch k {
			case "image/png", "image/jpeg", "image/gif", "image/webp":
				out.Images = append(out.Images, Image{MediaType: k, Data: strings.ReplaceAll(multiline(data[k]), "\n", "")})
			}
		}
	}
	return out
}

// str decodes a JSON string, or returns "".
func str(raw json.RawMessage) string {
	var s string
	if raw != nil {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

// multiline decodes nbformat's "multiline string": a string or a list of
// strings to concatenate.
func multiline(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return ""
}

// stripANSI removes terminal colour sequences from tracebacks.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Find returns the index of the cell with the given id, also accepting
// "cell-N" (0-based index) for cells without ids. Its error lists the ids
// there are.
func (nb *Notebook) Find(id string) (int, error) {
	for i, c := range nb.cells {
		if str(c["id"]) == id {
			return i, nil
		}
	}
	if rest, ok := strings.CutPrefix(id, "cell-"); ok {
		if n, err := strconv.Atoi(rest); err == nil && n >= 0 && n < len(nb.cells) {
			return n, nil
		}
	}
	ids := make([]string, 0, min(len(nb.cells), 20))
	for i := range nb.cells {
		if i == 20 {
			ids = append(ids, "…")
			break
		}
		ids = append(ids, nb.cell(i).ID)
	}
	if len(ids) == 0 {
		return -1, fmt.Errorf("cell %q not found: the notebook has no cells (use edit_mode insert without cell_id)", id)
	}
	return -1, fmt.Errorf("cell %q not found; the notebook's cells are: %s", id, strings.Join(ids, ", "))
}

// validType checks a cell type given by the model.
func validType(t string) error {
	switch t {
	case Code, Markdown, Raw:
		return nil
	}
	return fmt.Errorf("cell_type must be code or markdown (got %q)", t)
}

// Replace sets the source of cell id; a non-empty cellType also changes
// its type. A code cell loses its outputs and execution count, which no
// longer match its source.
func (nb *Notebook) Replace(id, source, cellType string) error {
	i, err := nb.Find(id)
	if err != nil {
		return err
	}
	m := nb.cells[i]
	if cellType == "" {
		cellType = str(m["cell_type"])
	}
	if err := validType(cellType); err != nil {
		return err
	}
	m["cell_type"] = mustJSON(cellType)
	m["source"] = sourceJSON(source, m["source"])
	shape(m, cellType)
	return nil
}

// Insert adds a new cell after cell afterID (at the start when afterID is
// empty) and returns the new cell's id ("cell-N" when the notebook's
// format predates cell ids).
func (nb *Notebook) Insert(afterID, source, cellType string) (string, error) {
	if cellType == "" {
		return "", errors.New("cell_type is required when inserting a cell: give code or markdown")
	}
	if err := validType(cellType); err != nil {
		return "", err
	}
	at := 0
	if afterID != "" {
		i, err := nb.Find(afterID)
		if err != nil {
			return "", err
		}
		at = i + 1
	}
	m := map[string]json.RawMessage{
		"cell_type": mustJSON(cellType),
		"metadata":  json.RawMessage("{}"),
		"source":    sourceJSON(source, nil),
	}
	id := ""
	if nb.Minor >= 5 {
		id = nb.newID()
		m["id"] = mustJSON(id)
	}
	shape(m, cellType)
	nb.cells = append(nb.cells, nil)
	copy(nb.cells[at+1:], nb.cells[at:])
	nb.cells[at] = m
	if id == "" {
		id = "cell-" + strconv.Itoa(at)
	}
	return id, nil
}

// Delete removes cell id.
func (nb *Notebook) Delete(id string) error {
	i, err := nb.Find(id)
	if err != nil {
		return err
	}
	nb.cells = append(nb.cells[:i], nb.cells[i+1:]...)
	return nil
}

// shape gives a cell the fields its type requires and drops the others.
func shape(m map[string]json.RawMessage, cellType string) {
	if cellType == Code {
		m["outputs"] = json.RawMessage("[]")
		m["execution_count"] = json.RawMessage("null")
		return
	}
	delete(m, "outputs")
	delete(m, "execution_count")
}

// newID returns a random 8-hex-digit id not used by any cell, as nbformat
// makes them.
func (nb *Notebook) newID() string {
	used := map[string]bool{}
	for _, c := range nb.cells {
		used[str(c["id"])] = true
	}
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if !used[id] {
			return id
		}
	}
}

// sourceJSON encodes a source in the shape the cell used before (a string
// stays a string); new sources are lists of lines, as Jupyter writes them.
func sourceJSON(source string, prev json.RawMessage) json.RawMessage {
	var s string
	if prev != nil && json.Unmarshal(prev, &s) == nil {
		return mustJSON(source)
	}
	lines := strings.SplitAfter(source, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return mustJSON(lines)
}

func mustJSON(v any) json.RawMessage {
	b, err := encode(v)
	if err != nil {
		panic(err) // strings and string slices always marshal
	}
	return b
}

// encode is json.Marshal without HTML escaping, so "<" in code stays "<"
// as Jupyter writes it.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Marshal encodes the notebook as Jupyter does: keys sorted, one-space
// indent, a final newline.
func (nb *Notebook) Marshal() ([]byte, error) {
	top := make(map[string]json.RawMessage, len(nb.top))
	for k, v := range nb.top {
		top[k] = v
	}
	cells, err := encode(nb.cells)
	if err != nil {
		return nil, err
	}
	top["cells"] = cells
	raw, err := encode(top)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", " "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
