package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Position is a zero-based line and UTF-16 offset, as LSP counts them.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span between two positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a file.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// locationOrLink decodes a Location or a LocationLink.
type locationOrLink struct {
	URI                  string `json:"uri"`
	Range                Range  `json:"range"`
	TargetURI            string `json:"targetUri"`
	TargetSelectionRange *Range `json:"targetSelectionRange"`
}

func (l locationOrLink) location() Location {
	if l.TargetURI != "" && l.TargetSelectionRange != nil {
		return Location{URI: l.TargetURI, Range: *l.TargetSelectionRange}
	}
	return Location{URI: l.URI, Range: l.Range}
}

// decodeLocations reads a definition's or implementation's answer: null,
// one Location, or a list of Locations or LocationLinks.
func decodeLocations(raw json.RawMessage) []Location {
	var list []locationOrLink
	if json.Unmarshal(raw, &list) != nil {
		var one locationOrLink
		if json.Unmarshal(raw, &one) != nil || (one.URI == "" && one.TargetURI == "") {
			return nil
		}
		list = []locationOrLink{one}
	}
	out := make([]Location, 0, len(list))
	for _, l := range list {
		out = append(out, l.location())
	}
	return out
}

// Diagnostic is one problem a server reports in a file.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// symbol is a DocumentSymbol or a SymbolInformation (or WorkspaceSymbol).
type symbol struct {
	Name           string `json:"name"`
	Detail         string `json:"detail"`
	Kind           int    `json:"kind"`
	ContainerName  string `json:"containerName"`
	Range          *Range `json:"range"`
	SelectionRange *Range `json:"selectionRange"`
	Location       *struct {
		URI   string `json:"uri"`
		Range *Range `json:"range"`
	} `json:"location"`
	Children []symbol `json:"children"`
}

// callItem is a CallHierarchyItem.
type callItem struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	Detail         string          `json:"detail,omitempty"`
	URI            string          `json:"uri"`
	Range          Range           `json:"range"`
	SelectionRange Range           `json:"selectionRange"`
	Data           json.RawMessage `json:"data,omitempty"`
}

var symbolKinds = [...]string{"", "File", "Module", "Namespace", "Package", "Class", "Method", "Property",
	"Field", "Constructor", "Enum", "Interface", "Function", "Variable", "Constant", "String", "Number",
	"Boolean", "Array", "Object", "Key", "Null", "EnumMember", "Struct", "Event", "Operator", "TypeParameter"}

// kindName is the name of a SymbolKind.
func kindName(k int) string {
	if k > 0 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "Symbol"
}

var severities = [...]string{"", "error", "warning", "info", "hint"}

func severityName(s int) string {
	if s > 0 && s < len(severities) {
		return severities[s]
	}
	return "error"
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// uriPath is the path of a file: URI (the URI itself when it is not one).
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p)
}

// utf16Offset is the UTF-16 offset of the col-th character (0-based, in
// runes) of line; a col past the end gives the line's length.
func utf16Offset(line string, col int) int {
	n := 0
	for i, r := range []rune(line) {
		if i >= col {
			break
		}
		n += utf16.RuneLen(r)
		if utf16.RuneLen(r) < 0 {
			n++
		}
	}
	return n
}

// runeColumn is the 0-based rune column of a UTF-16 offset in line.
func runeColumn(line string, off int) int {
	col, n := 0, 0
	for len(line) > 0 && n < off {
		r, size := utf8.DecodeRuneInString(line)
		line = line[size:]
		w := utf16.RuneLen(r)
		if w < 0 {
			w = 1
		}
		n += w
		col++
	}
	return col
}
