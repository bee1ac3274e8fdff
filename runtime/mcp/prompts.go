package mcp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt is one prompt a connected server offers (prompts/list). The
// interactive session runs it as the slash command /[Prompt.CommandName].
type Prompt struct {
	Server      string // the configured server name
	Name        string // the prompt's name on the server
	Title       string
	Description string
	Arguments   []PromptArgument // in the server's order
}

// PromptArgument is one argument of a [Prompt].
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// CommandName is the prompt's slash-command name, as in Claude Code:
// mcp__<server>__<prompt>, the server part normalised ([NormalizeName])
// and the prompt's name kept as the server spells it.
func (p Prompt) CommandName() string {
	return ServerPrefix(p.Server) + p.Name
}

// Usage is "/mcp__server__prompt ARG1 [ARG2]": the command and its
// arguments in order, optional ones in brackets.
func (p Prompt) Usage() string {
	parts := []string{"/" + p.CommandName()}
	for _, a := range p.Arguments {
		if a.Required {
			parts = append(parts, a.Name)
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// ParseArgs maps a command line's words onto the prompt's arguments in
// order, as Claude Code does (words split at white space). Words beyond
// the last argument join it, so a one-argument prompt takes a whole
// sentence. A required argument left without a word is an error that
// shows the usage.
func (p Prompt) ParseArgs(line string) (map[string]string, error) {
	words := strings.Fields(line)
	args := map[string]string{}
	for i, a := range p.Arguments {
		switch {
		case i >= len(words):
		case i == len(p.Arguments)-1:
			args[a.Name] = strings.Join(words[i:], " ")
		default:
			args[a.Name] = words[i]
		}
	}
	if len(p.Arguments) == 0 && len(words) > 0 {
		return nil, fmt.Errorf("MCP prompt %q of server %q takes no arguments; run it as /%s", p.Name, p.Server, p.CommandName())
	}
	if missing := p.missing(args); len(missing) > 0 {
		return nil, fmt.Errorf("MCP prompt %q of server %q: missing required %s %s; usage: %s",
			p.Name, p.Server, "argument"+plural(len(missing)), strings.Join(missing, ", "), p.Usage())
	}
	return args, nil
}

// missing names the required arguments args has no value for.
func (p Prompt) missing(args map[string]string) []string {
	var out []string
	for _, a := range p.Arguments {
		if _, ok := args[a.Name]; a.Required && !ok {
			out = append(out, a.Name)
		}
	}
	return out
}

// PromptMessage is one message of a prompts/get result, its content as
// text: text content as is, other content described in brackets.
type PromptMessage struct {
	Role string // "user" or "assistant"
	Text string
}

// PromptText joins the messages' texts with blank lines: the prompt the
// session sends for an MCP prompt's slash command (Claude Code, too,
// sends every message's content as the user's prompt).
func PromptText(msgs []PromptMessage) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if m.Text != "" {
			parts = append(parts, m.Text)
		}
	}
	return strings.Join(parts, "\n\n")
}

// Prompts returns the prompts of every connected server, sorted by server
// and then prompt name.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.servers {
		s.mu.Lock()
		out = append(out, s.prompts...)
		s.mu.Unlock()
	}
	return out
}

// GetPrompt runs the prompt name of server with args (prompts/get) and
// returns its messages. An unknown prompt's error lists the server's
// prompts; a missing required argument's error names it.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) ([]PromptMessage, error) {
	s, err := m.server(server)
	if err != nil {
		return nil, err
	}
	if _, err := s.session(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	prompts, listErr := s.prompts, s.promptErr
	s.mu.Unlock()
	i := slices.IndexFunc(prompts, func(p Prompt) bool { return p.Name == name })
	if i < 0 {
		if listErr != nil {
			return nil, fmt.Errorf("MCP server %q: its prompts could not be listed (%w), so prompt %q is unknown; /mcp shows the server's state", server, listErr, name)
		}
		if len(prompts) == 0 {
			return nil, fmt.Errorf("MCP server %q offers no prompts, so it has none named %q", server, name)
		}
		names := make([]string, len(prompts))
		for j, p := range prompts {
			names[j] = p.Name
		}
		return nil, fmt.Errorf("MCP server %q has no prompt named %q; its prompts: %s", server, name, joinQuoted(names))
	}
	if missing := prompts[i].missing(args); len(missing) > 0 {
		return nil, fmt.Errorf("MCP prompt %q of server %q: missing required %s %s; usage: %s",
			name, server, "argument"+plural(len(missing)), strings.Join(missing, ", "), prompts[i].Usage())
	}
	var res *sdk.GetPromptResult
	err = s.do(ctx, "prompt "+strconv.Quote(name), func(ctx context.Context, cs *sdk.ClientSession) error {
		var err error
		res, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
		return err
	})
	if err != nil {
		return nil, err
	}
	out := make([]PromptMessage, 0, len(res.Messages))
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		out = append(out, PromptMessage{Role: string(msg.Role), Text: promptContentText(server, msg.Content)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("MCP prompt %q of server %q returned no messages; there is nothing to send", name, server)
	}
	return out, nil
}

// promptContentText is one prompt message's content as text; what text
// cannot carry is described, in Claude Code's words where it has some.
func promptContentText(server string, c sdk.Content) string {
	switch c := c.(type) {
	case nil:
		return ""
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return fmt.Sprintf("[Image from %s: %s, %d bytes, not included]", server, orUnknown(c.MIMEType), len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[Audio from %s: %s, %d bytes, not included]", server, orUnknown(c.MIMEType), len(c.Data))
	case *sdk.ResourceLink:
		s := fmt.Sprintf("[Resource link: %s] %s", c.Name, c.URI)
		if c.Description != "" {
			s += " (" + c.Description + ")"
		}
		return s
	case *sdk.EmbeddedResource:
		r := c.Resource
		switch {
		case r == nil:
			return fmt.Sprintf("[Empty embedded resource from %s]", server)
		case r.Blob != nil:
			return fmt.Sprintf("[Resource from %s at %s] binary content (%s, %d bytes), not included", server, r.URI, orUnknown(r.MIMEType), len(r.Blob))
		default:
			return fmt.Sprintf("[Resource from %s at %s] %s", server, r.URI, r.Text)
		}
	default:
		return fmt.Sprintf("[content of type %T from %s, not included]", c, server)
	}
}

// listPrompts lists every prompt of the session, sorted by name.
func (s *server) listPrompts(ctx context.Context, cs *sdk.ClientSession) ([]Prompt, error) {
	var out []Prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("list prompts: %w", err)
		}
		if p == nil {
			continue
		}
		pr := Prompt{Server: s.name, Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			if a != nil {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
		}
		out = append(out, pr)
	}
	slices.SortFunc(out, func(a, b Prompt) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// refreshPrompts lists the prompts again after the server said its list
// changed (notifications/prompts/list_changed).
func (s *server) refreshPrompts(c *conn) {
	ctx, cancel := context.WithTimeout(s.m.ctx, s.m.opts.ConnectTimeout)
	defer cancel()
	prompts, err := s.listPrompts(ctx, c.cs)
	s.mu.Lock()
	if s.conn == c {
		if err != nil {
			s.promptErr = err
		} else {
			s.prompts, s.promptErr = prompts, nil
		}
	}
	s.mu.Unlock()
}
