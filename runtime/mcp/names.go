package mcp

import (
	"strings"
	"unicode/utf8"
)

// MaxDescriptionLength is the most characters of a server tool's
// description the model is sent, as in Claude Code.
const MaxDescriptionLength = 2048

// truncationMark ends a description that was cut.
const truncationMark = "… [truncated]"

// ToolPrefix starts the name of every MCP tool.
const ToolPrefix = "mcp__"

// NormalizeName replaces every character outside [A-Za-z0-9_-] with "_",
// so that any server or tool name becomes a valid API tool name part.
func NormalizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ToolName is the agentcore name of a server's tool:
// mcp__<server>__<tool>, both parts normalised.
func ToolName(server, tool string) string {
	return ToolPrefix + NormalizeName(server) + "__" + NormalizeName(tool)
}

// ServerPrefix is the name prefix shared by every tool of a server
// (mcp__<server>__), the form a blanket permission rule mcp__server uses.
func ServerPrefix(server string) string {
	return ToolPrefix + NormalizeName(server) + "__"
}

// TruncateDescription cuts s to at most MaxDescriptionLength characters
// (runes), ending a cut text with "… [truncated]".
func TruncateDescription(s string) string {
	if utf8.RuneCountInString(s) <= MaxDescriptionLength {
		return s
	}
	keep := MaxDescriptionLength - utf8.RuneCountInString(truncationMark)
	i, n := 0, 0
	for i < len(s) && n < keep {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return s[:i] + truncationMark
}
