// Package shared holds an input type that lives outside the tooldefs
// package.
package shared

// Range is a line range.
type Range struct {
	// The first line, 1-based.
	From int `json:"from" jsonschema:"minimum=1"`
	// The last line; the end of the file if absent.
	To *int `json:"to,omitempty"`
}
