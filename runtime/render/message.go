package render

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/agentcore/agentcore/runtime"
)

// message prints a message a tool sent the user (SendUserMessage): set
// apart from the model's text and the tool calls, its attachments as
// links to the files.
func (t *transcript) message(m runtime.UserMessage) {
	t.begin(secMessage)
	head := "◆ Message"
	if m.Status == "proactive" {
		head += " (unprompted)"
	}
	var b strings.Builder
	b.WriteString(t.st.message(head) + "\n")
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	for _, a := range m.Attachments {
		u := url.URL{Scheme: "file", Path: a.Path}
		b.WriteString("  📎 " + t.st.link(a.Path, u.String()) + t.st.dim(" · "+size(a.Size)) + "\n")
	}
	t.write(b.String())
	t.redraw()
}

// size is n bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
