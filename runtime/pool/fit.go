package pool

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// A tool's description may point the model at other tools ("Glob to find
// files (not find or ls)"). Sent with a pool that lacks one of them —
// simple mode, a deny rule, a sub-agent's tools, a variant built without
// it — such a sentence sends the model after a tool it cannot call. The
// pool therefore fits each description to the tools it is sent with:
//
//   - a sentence that names an absent tool is dropped;
//   - a list item ("- …" or "1. …", with its wrapped lines) whose first
//     sentence went goes whole: it was about that tool;
//   - a paragraph left empty goes, and so does the sentence ending with
//     ":" that led into a list that went.
//
// A name counts when it stands as a word of its own, with the same case
// ("Glob", not "glob" or "GlobTool"), and only names the pool knows of
// (Options.Known and every tool given to Assemble) count. Descriptions are
// written so that each mention of another tool sits in a sentence or an
// item that can go without the rest losing its sense.

// FitDescription returns desc without the list items and sentences that
// name a tool in absent.
func FitDescription(desc string, absent []string) string {
	if len(absent) == 0 || !mentionsAny(desc, absent) {
		return desc
	}
	paras := strings.Split(desc, "\n\n")
	var out []string
	for _, p := range paras {
		if q := fitParagraph(p, absent); strings.TrimSpace(q) != "" {
			out = append(out, q)
		}
	}
	return strings.Join(out, "\n\n")
}

// itemStart matches the first line of a list item; it is compiled on
// first use, not at every start of the binary.
var itemStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*•]|\d+[.)])\s`) })

// fitParagraph fits one paragraph: its lead (the lines before the first
// list item) sentence by sentence, its list item by item.
func fitParagraph(p string, absent []string) string {
	lines := strings.Split(p, "\n")
	var lead []string
	var items [][]string
	for _, l := range lines {
		switch {
		case itemStart().MatchString(l):
			items = append(items, []string{l})
		case len(items) > 0:
			items[len(items)-1] = append(items[len(items)-1], l)
		default:
			lead = append(lead, l)
		}
	}
	var kept []string
	for _, it := range items {
		text := strings.Join(it, "\n")
		if !mentionsAny(text, absent) {
			kept = append(kept, text)
			continue
		}
		if first := sentences(text)[0]; !mentionsAny(first, absent) {
			kept = append(kept, fitSentences(text, absent))
		}
	}
	leadText := fitSentences(strings.Join(lead, "\n"), absent)
	if len(items) > 0 && len(kept) == 0 && strings.HasSuffix(strings.TrimSpace(leadText), ":") {
		// The list went: so does the sentence that led into it.
		ss := sentences(leadText)
		leadText = strings.TrimSpace(strings.Join(ss[:len(ss)-1], " "))
	}
	var parts []string
	if strings.TrimSpace(leadText) != "" {
		parts = append(parts, leadText)
	}
	return strings.Join(append(parts, kept...), "\n")
}

// fitSentences drops the sentences of s that name an absent tool. A
// sentence ends at ".", "!" or "?" (and any closing ")" or quotes)
// followed by white space and a capital letter, a digit or "(".
func fitSentences(s string, absent []string) string {
	if !mentionsAny(s, absent) {
		return s
	}
	var kept []string
	for _, sent := range sentences(s) {
		if !mentionsAny(sent, absent) {
			kept = append(kept, strings.TrimSpace(sent))
		}
	}
	return strings.Join(kept, " ")
}

func sentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s)-1; i++ {
		if !strings.ContainsRune(".!?", rune(s[i])) {
			continue
		}
		end := i + 1 // past the closing marks: "(… faster.) Next"
		for end < len(s) && (s[end] == ')' || s[end] == '"' || s[end] == '\'') {
			end++
		}
		if end == len(s) || (s[end] != ' ' && s[end] != '\n') {
			continue
		}
		i = end - 1
		j := end
		for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
			j++
		}
		if j < len(s) && (s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '(') {
			out = append(out, s[start:i+1])
			start = j
			i = j - 1
		}
	}
	return append(out, s[start:])
}

// mentionsAny reports whether text names one of names as a word of its
// own.
func mentionsAny(text string, names []string) bool {
	for _, n := range names {
		if mentions(text, n) {
			return true
		}
	}
	return false
}

func mentions(text, name string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		at := i + k
		end := at + len(name)
		if (at == 0 || !isWordByte(text[at-1])) && (end == len(text) || !isWordByte(text[end])) {
			return true
		}
		i = at + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// fit returns tools with each description fitted to them: known names the
// tools may mention, and any of them not among tools is absent. A tool
// fitted before (to another pool) is fitted again from its own
// description (runtime.Refit: a copy, or the tool's one wrapper).
func fit(tools []runtime.Tool, known []string) []runtime.Tool {
	present := map[string]bool{}
	for _, t := range tools {
		present[t.Name()] = true
	}
	var absent []string
	for _, n := range known {
		if !present[n] && !slices.Contains(absent, n) {
			absent = append(absent, n)
		}
	}
	out := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		out[i] = runtime.Refit(t, func(own string) string {
			if len(absent) == 0 {
				return own
			}
			return FitDescription(own, absent)
		})
	}
	return out
}
