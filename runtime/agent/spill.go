package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/orchestrate"
)

// DefaultMaxResultSizeChars is the size cap of a tool result whose tool
// names none, as in Claude Code (100,000 characters).
const DefaultMaxResultSizeChars = 100_000

// DefaultPreviewChars is how much of a spilled result the model sees
// (Claude Code's 2 KB preview).
const DefaultPreviewChars = 2000

// LargeResults keeps tool results above a size cap out of the
// conversation, as Claude Code does: the whole result is written to a
// file in Dir and the model gets, in its place, a <persisted-output>
// block with the file's path and size and a preview of the beginning. It
// reads the file with Read (or greps it) when it needs more.
type LargeResults struct {
	// Dir is the directory the results are written to, one file per call
	// (<tool_use_id>.txt, .json for JSON); made when first needed. The
	// model must be able to read it (a session adds it to the directories
	// its tools may read).
	Dir string
	// Cap is the size cap of a call's result in characters: the tool's,
	// or the caller's choice for it. 0 means DefaultMaxResultSizeChars; a
	// negative cap never spills (a Read of a spilled file must not spill
	// again). nil: CapOf for every tool.
	Cap func(name string, tool runtime.Tool) int
	// PreviewChars is the preview's size; 0 means DefaultPreviewChars.
	PreviewChars int
}

// CapOf is a tool's own size cap: its Traits' MaxResultSizeChars.
func CapOf(tool runtime.Tool) int {
	if tool == nil {
		return 0
	}
	return tool.Traits().MaxResultSizeChars
}

// apply returns the result of ev as the model gets it: ev's, or the
// preview of it when it is over its cap and could be written to a file.
// A result holding an image is left as it is.
func (l *LargeResults) apply(ev orchestrate.Event) runtime.Result {
	res := ev.Result
	if len(res.Content) == 0 {
		return res
	}
	size := 0
	for _, b := range res.Content {
		if b.Type != "text" {
			return res
		}
		size += utf8.RuneCountInString(b.Text)
	}
	limit := CapOf(ev.Tool)
	if l.Cap != nil {
		limit = l.Cap(ev.Name, ev.Tool)
	}
	if limit == 0 {
		limit = DefaultMaxResultSizeChars
	}
	if limit < 0 || size <= limit || l.Dir == "" {
		return res
	}
	text := res.Text()
	ext := ".txt"
	if t := strings.TrimSpace(text); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		ext = ".json"
	}
	path := filepath.Join(l.Dir, safeName(ev.ID)+ext)
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return res
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return res
	}
	preview := l.PreviewChars
	if preview <= 0 {
		preview = DefaultPreviewChars
	}
	out := res
	out.Content = []runtime.Block{runtime.TextBlock(PersistedOutput(path, len(text), text, preview))}
	return out
}

// PersistedOutput is what the model gets in place of a result of size
// bytes written to path: Claude Code's <persisted-output> block, with the
// first preview characters of text (cut at a line end when one is near).
func PersistedOutput(path string, size int, text string, preview int) string {
	p, more := text, false
	if utf8.RuneCountInString(p) > preview {
		p = string([]rune(p)[:preview])
		if i := strings.LastIndexByte(p, '\n'); i > preview/2 {
			p = p[:i]
		}
		more = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<persisted-output>\nOutput too large (%s). Full output saved to: %s\n\nPreview (first %s):\n%s", humanSize(size), path, humanSize(preview), p)
	if more {
		b.WriteString("\n...")
	}
	b.WriteString("\n</persisted-output>")
	return b.String()
}

// humanSize writes n bytes as Claude Code does: 512B, 2KB, 1.2MB.
func humanSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/1024)) + "KB"
	default:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1024*1024))) + "MB"
	}
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// safeName is id with every character a file name should not hold
// replaced.
func safeName(id string) string {
	if id == "" {
		return "result"
	}
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, id)
}
