// Package frontmatter splits a Markdown file that starts with a YAML
// header — the format of Claude Code's agent and skill files:
//
//	---
//	name: reviewer
//	description: Reviews a change for bugs
//	tools: Read, Grep
//	---
//	You are a careful reviewer…
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// ErrNoHeader is Parse's error for a file that does not start with a
// "---" line.
var ErrNoHeader = errors.New(`no front matter: the file must start with a "---" line, then YAML, then another "---" line`)

// Parse decodes the YAML header of data into v (a pointer to a struct
// with yaml tags, or a map) and returns the body after the header, with
// leading blank lines removed. Keys v does not name are ignored.
func Parse(data []byte, v any) (body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(data, []byte("---\n"))
	if !ok {
		return "", ErrNoHeader
	}
	var head []byte
	switch {
	case bytes.HasPrefix(rest, []byte("---\n")) || bytes.Equal(rest, []byte("---")):
		head, rest = nil, bytes.TrimPrefix(bytes.TrimPrefix(rest, []byte("---")), []byte("\n"))
	default:
		i := bytes.Index(rest, []byte("\n---\n"))
		end := 5
		if i < 0 && bytes.HasSuffix(rest, []byte("\n---")) {
			i, end = len(rest)-4, 4
		}
		if i < 0 {
			return "", errors.New(`the front matter is not closed: add a "---" line after the YAML header`)
		}
		head, rest = rest[:i], rest[i+end:]
	}
	if err := yaml.Unmarshal(head, v); err != nil {
		return "", fmt.Errorf("the front matter is not valid YAML: %w", err)
	}
	return string(bytes.TrimLeft(rest, "\n")), nil
}
