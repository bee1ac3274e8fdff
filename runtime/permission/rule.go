package permission

import (
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/settings"
)

// Source says where a rule came from, for messages and listings: a
// settings level, the command line or the session (settings.Source).
type Source = settings.Source

// The sources of rules, from the lowest to the highest precedence.
const (
	SourceUser    = settings.SourceUser
	SourceProject = settings.SourceProject
	SourceLocal   = settings.SourceLocal
	SourceFlag    = settings.SourceFlag
	SourceSession = settings.SourceSession
)

// Rule is one parsed permission rule such as Bash(npm run test:*).
type Rule struct {
	// Behavior is Allow, Deny or Ask.
	Behavior runtime.Behavior
	// Tool is the tool name the rule names (an alias is normalised to the
	// name when the engine knows the tool).
	Tool string
	// Content is the text in parentheses; empty for a whole-tool rule.
	Content string
	// Source is where the rule came from.
	Source Source
	// Origin is the settings file the rule came from, if any.
	Origin string
}

// String returns the rule in Claude Code's syntax, e.g. Bash(git status:*).
func (r Rule) String() string {
	if r.Content == "" {
		return r.Tool
	}
	return r.Tool + "(" + escapeContent(r.Content) + ")"
}

// Whole reports whether the rule names the whole tool (no content).
func (r Rule) Whole() bool { return r.Content == "" }

// describe names the rule and where it came from, for messages.
func (r Rule) describe() string {
	s := r.String()
	switch {
	case r.Origin != "":
		return fmt.Sprintf("%s (%s, %s)", s, r.Source, r.Origin)
	case r.Source != "":
		return fmt.Sprintf("%s (%s)", s, r.Source)
	}
	return s
}

// ParseRule parses one rule in Claude Code's syntax: "Tool" or
// "Tool(content)". Parentheses inside the content may be escaped with a
// backslash. "Tool()" and "Tool(*)" mean the whole tool.
func ParseRule(s string, b runtime.Behavior) (Rule, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Rule{}, fmt.Errorf("empty permission rule: write a tool name such as Bash or Bash(git status:*)")
	}
	name, content := s, ""
	if i := strings.IndexByte(s, '('); i >= 0 {
		if !strings.HasSuffix(s, ")") || hasUnescapedClose(s[i+1:len(s)-1]) {
			return Rule{}, fmt.Errorf("permission rule %q: the content must be one parenthesised group at the end, e.g. Bash(npm run test:*)", s)
		}
		name, content = strings.TrimSpace(s[:i]), unescapeContent(s[i+1:len(s)-1])
		content = strings.TrimSpace(content)
		if content == "*" {
			content = ""
		}
	} else if strings.ContainsRune(s, ')') {
		return Rule{}, fmt.Errorf("permission rule %q: ')' without '('", s)
	}
	if err := checkToolName(name); err != nil {
		return Rule{}, fmt.Errorf("permission rule %q: %w", s, err)
	}
	return Rule{Behavior: b, Tool: name, Content: content}, nil
}

func checkToolName(name string) error {
	if name == "" {
		return fmt.Errorf("missing tool name before '('")
	}
	for i, r := range name {
		ok := r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		// mcp__server__* names every tool of a server.
		if r == '*' && i == len(name)-1 && strings.HasPrefix(name, "mcp__") {
			ok = true
		}
		if !ok {
			return fmt.Errorf("tool name %q may only contain letters, digits, '_' and '-'", name)
		}
	}
	return nil
}

// hasUnescapedClose reports whether s closes a parenthesis it did not
// open. A backslash escapes only a parenthesis, as unescapeContent reads
// it.
func hasUnescapedClose(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == ')') {
				i++
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return true
			}
		}
	}
	return false
}

func unescapeContent(s string) string {
	return strings.NewReplacer(`\(`, `(`, `\)`, `)`).Replace(s)
}

// escapeContent writes a rule's content so that ParseRule reads it back:
// as it is when it reads back unchanged (balanced parentheses), else with
// every parenthesis escaped.
func escapeContent(s string) string {
	if readsBack(s, s) {
		return s
	}
	return strings.NewReplacer(`(`, `\(`, `)`, `\)`).Replace(s)
}

// readsBack reports whether ParseRule reads the content written as form
// as content.
func readsBack(form, content string) bool {
	return !hasUnescapedClose(form) && strings.TrimSpace(unescapeContent(form)) == content
}

// ParseRules parses a list of rules with one behaviour; the error names
// every bad rule.
func ParseRules(list []string, b runtime.Behavior, src Source, origin string) ([]Rule, error) {
	var out []Rule
	var errs []string
	for _, s := range list {
		r, err := ParseRule(s, b)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		r.Source, r.Origin = src, origin
		out = append(out, r)
	}
	if len(errs) > 0 {
		where := string(src)
		if origin != "" {
			where = origin
		}
		return out, fmt.Errorf("%s: %s", where, strings.Join(errs, "; "))
	}
	return out, nil
}

// SplitRuleList splits a flag value such as
// "Bash(git log:*) Bash(git diff:*),Read" into rules: commas and spaces
// separate rules except inside parentheses.
func SplitRuleList(s string) []string {
	var out []string
	var cur strings.Builder
	depth := 0
	flush := func() {
		if t := strings.TrimSpace(cur.String()); t != "" {
			out = append(out, t)
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && depth > 0:
			cur.WriteByte(c)
			i++
			cur.WriteByte(s[i])
			continue
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case (c == ',' || c == ' ' || c == '\t' || c == '\n') && depth == 0:
			flush()
			continue
		}
		cur.WriteByte(c)
	}
	flush()
	return out
}

// matchesToolName reports whether the rule's tool part names tool t: its
// name, one of its aliases, or (for MCP tools) its server.
func (r Rule) matchesToolName(t runtime.Tool) bool {
	return nameMatches(r.Tool, t.Name(), t.Aliases())
}

func nameMatches(ruleTool, name string, aliases []string) bool {
	if ruleTool == name {
		return true
	}
	for _, a := range aliases {
		if ruleTool == a {
			return true
		}
	}
	if !strings.HasPrefix(ruleTool, "mcp__") || !strings.HasPrefix(name, "mcp__") {
		return false
	}
	server := strings.TrimSuffix(strings.TrimSuffix(ruleTool, "*"), "__")
	rest := strings.TrimPrefix(server, "mcp__")
	if strings.Contains(rest, "__") || rest == "" {
		return false // names one tool, already compared
	}
	return strings.HasPrefix(name, server+"__")
}
