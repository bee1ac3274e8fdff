package shell

import "strings"

// OneLine is a command on one line, at most n characters: its first line,
// cut with "…" when longer, followed by " …" when more lines follow.
func OneLine(cmd string, n int) string {
	cmd = strings.TrimSpace(cmd)
	first, rest, multi := strings.Cut(cmd, "\n")
	if r := []rune(first); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	if multi && strings.TrimSpace(rest) != "" {
		return first + " …"
	}
	return first
}
