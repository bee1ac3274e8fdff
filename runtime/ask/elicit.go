package ask

import (
	"context"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ElicitMode is how an elicitation asks: a form the user fills in, or a
// URL the user opens (MCP's two modes).
type ElicitMode string

const (
	// ElicitForm asks for the values of a flat form.
	ElicitForm ElicitMode = "form"
	// ElicitURL asks the user to open a URL and do what it says there
	// (sign in, pay, approve); nothing is typed into agentcore.
	ElicitURL ElicitMode = "url"
)

// ElicitRequest is a request for input from someone other than the
// model: an MCP server's elicitation/create, in the engine's terms.
type ElicitRequest struct {
	// Server names who asks (the MCP server's name in .mcp.json).
	Server string
	// Mode is ElicitForm or ElicitURL.
	Mode ElicitMode
	// Message says what the input is for.
	Message string
	// Fields are the form's fields, in order (form mode).
	Fields []FormField
	// URL is what the user is asked to open (URL mode).
	URL string
	// Agent names the sub-agent whose call led to the request; empty for
	// the main agent.
	Agent string
}

// FieldKind is the type of a form field's value.
type FieldKind string

// The kinds of form fields MCP's elicitation schemas allow.
const (
	FieldString  FieldKind = "string"
	FieldNumber  FieldKind = "number"
	FieldInteger FieldKind = "integer"
	FieldBoolean FieldKind = "boolean"
	// FieldChoice is one value of Choices; FieldMultiChoice several.
	FieldChoice      FieldKind = "choice"
	FieldMultiChoice FieldKind = "multichoice"
)

// FormField is one field of an elicitation form.
type FormField struct {
	// Name is the key of the value in the answer.
	Name string
	// Title is the label shown (Name when empty); Description explains it.
	Title, Description string
	Kind               FieldKind
	Required           bool
	// Default, when not nil, is the value an empty answer takes: a
	// string, float64 (integer fields too), bool, or []string.
	Default any
	// Choices are the values of a choice field, each with its label.
	Choices []Choice
	// Format is a string field's format: email, uri, date or date-time.
	Format string
	// Min and Max bound a number's value, a string's length, or the
	// number of choices of a multi-choice field.
	Min, Max *float64
}

// Choice is one value a choice field may take.
type Choice struct {
	Value string
	// Label is what the user sees; Value when empty.
	Label string
}

func (c Choice) label() string {
	if c.Label != "" {
		return c.Label
	}
	return c.Value
}

// ElicitAction is what the user did with an elicitation.
type ElicitAction string

// The three answers MCP defines.
const (
	// ElicitAccept: the user submitted the form (or opened the URL).
	ElicitAccept ElicitAction = "accept"
	// ElicitDecline: the user, or agentcore for want of a user, refused.
	ElicitDecline ElicitAction = "decline"
	// ElicitCancel: the user dismissed it without choosing.
	ElicitCancel ElicitAction = "cancel"
)

// ElicitAnswer is the answer to an ElicitRequest.
type ElicitAnswer struct {
	Action ElicitAction
	// Content holds the form's values by field name when accepted: string,
	// float64, int64 (integer fields), bool or []string.
	Content map[string]any
	// Reason says why agentcore declined without asking anyone; empty
	// when a person answered.
	Reason string
}

// ElicitAsker is an Asker that can also put forms and URLs to the user:
// the terminal prompt.
type ElicitAsker interface {
	Asker
	Elicit(ctx context.Context, req ElicitRequest) (ElicitAnswer, error)
}

// Elicit shows an elicitation on the terminal. A form first asks whether
// to fill it in, then asks each field in turn:
//
//	MCP server "everything" asks for input:
//	Please provide inputs for the following fields:
//	  1. Fill in the form (12 fields)
//	  2. Decline
//	  3. Cancel
//	Answer? [1/2/3]: 1
//	String (name) — Your full, legal name, required: Ada
//	Boolean (check) — Agree to the terms and conditions [y/n]: y
//	Integer (integer) — Your favorite integer, 1 to 100 [42]:
//
// An empty answer takes the field's default, skips an optional field and
// asks a required one again; a wrong value says why and asks again
// (three times at most, then the form is cancelled). A choice field lists
// its choices by number; a multi-choice field takes several numbers. A
// URL is shown with the choice to open it (accept), decline or cancel.
// The end of input cancels.
func (p *Prompt) Elicit(ctx context.Context, req ElicitRequest) (ElicitAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return ElicitAnswer{Action: ElicitCancel}, err
	}
	who := "An MCP server"
	if req.Server != "" {
		who = fmt.Sprintf("MCP server %q", req.Server)
	}
	if req.Agent != "" {
		who = req.Agent + ": " + who
	}
	url := req.EffectiveMode() == ElicitURL
	if url {
		fmt.Fprintf(p.out, "\n%s asks you to open a URL:\n", who)
	} else {
		fmt.Fprintf(p.out, "\n%s asks for input:\n", who)
	}
	if m := strings.TrimSpace(req.Message); m != "" {
		fmt.Fprintln(p.out, m)
	}
	first := fmt.Sprintf("Fill in the form (%d field%s)", len(req.Fields), plural(len(req.Fields)))
	if url {
		fmt.Fprintf(p.out, "  URL: %s\n", req.URL)
		first = "I opened it and did what it asks"
	}
	fmt.Fprintf(p.out, "  1. %s\n  2. Decline\n  3. Cancel\n", first)
	choice := ""
	for attempt := 0; attempt < 3 && choice == ""; attempt++ {
		fmt.Fprint(p.out, "Answer? [1/2/3]: ")
		line, err := p.readLine()
		if err != nil {
			return ElicitAnswer{Action: ElicitCancel}, nil
		}
		switch strings.ToLower(line) {
		case "1", "y", "yes":
			choice = "accept"
		case "2", "n", "no":
			return ElicitAnswer{Action: ElicitDecline}, nil
		case "3", "", "c", "cancel":
			return ElicitAnswer{Action: ElicitCancel}, nil
		default:
			fmt.Fprintln(p.out, "Please answer 1, 2 or 3.")
		}
	}
	if choice == "" {
		return ElicitAnswer{Action: ElicitCancel}, nil
	}
	if url {
		return ElicitAnswer{Action: ElicitAccept}, nil
	}
	content := map[string]any{}
	for _, f := range req.Fields {
		if err := ctx.Err(); err != nil {
			return ElicitAnswer{Action: ElicitCancel}, err
		}
		v, ok, err := p.askField(f)
		if err != nil {
			return ElicitAnswer{Action: ElicitCancel}, nil
		}
		if ok {
			content[f.Name] = v
		}
	}
	return ElicitAnswer{Action: ElicitAccept, Content: content}, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// askField reads one field's value; ok is false for an optional field
// left empty. An error cancels the form (end of input, three bad answers).
func (p *Prompt) askField(f FormField) (v any, ok bool, err error) {
	label := f.Title
	if label == "" {
		label = f.Name
	} else if f.Title != f.Name {
		label += " (" + f.Name + ")"
	}
	if f.Description != "" {
		label += " — " + f.Description
	}
	if hint := fieldHint(f); hint != "" {
		label += ", " + hint
	}
	if f.Required && f.Default == nil {
		label += ", required"
	}
	switch f.Kind {
	case FieldBoolean:
		label += " [y/n]"
	case FieldChoice, FieldMultiChoice:
		fmt.Fprintln(p.out, label)
		for i, c := range f.Choices {
			fmt.Fprintf(p.out, "  %d. %s\n", i+1, c.label())
		}
		label = "Choice"
		if f.Kind == FieldMultiChoice {
			label = "Choices (numbers separated by commas)"
		}
	}
	if f.Default != nil {
		label += " [" + showDefault(f) + "]"
	}
	for attempt := 0; attempt < 3; attempt++ {
		fmt.Fprintf(p.out, "%s: ", label)
		line, err := p.readLine()
		if err != nil {
			return nil, false, err
		}
		if line == "" {
			if f.Default != nil {
				return normalizeDefault(f), true, nil
			}
			if !f.Required {
				return nil, false, nil
			}
			fmt.Fprintln(p.out, "This field is required.")
			continue
		}
		v, err := parseField(f, line)
		if err == nil {
			return v, true, nil
		}
		fmt.Fprintf(p.out, "%v.\n", err)
	}
	return nil, false, ErrNotAnswered
}

// fieldHint states a field's bounds and format.
func fieldHint(f FormField) string {
	var unit string
	switch f.Kind {
	case FieldString:
		unit = " characters"
	case FieldMultiChoice:
		unit = " choices"
	}
	var parts []string
	if f.Format != "" {
		parts = append(parts, f.Format)
	}
	switch {
	case f.Min != nil && f.Max != nil:
		parts = append(parts, fmt.Sprintf("%s to %s%s", num(*f.Min), num(*f.Max), unit))
	case f.Min != nil:
		parts = append(parts, fmt.Sprintf("at least %s%s", num(*f.Min), unit))
	case f.Max != nil:
		parts = append(parts, fmt.Sprintf("at most %s%s", num(*f.Max), unit))
	}
	return strings.Join(parts, ", ")
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// showDefault renders the default as the user would type it.
func showDefault(f FormField) string {
	label := func(v string) string {
		for i, c := range f.Choices {
			if c.Value == v {
				return fmt.Sprintf("%d. %s", i+1, c.label())
			}
		}
		return v
	}
	switch d := f.Default.(type) {
	case bool:
		if d {
			return "y"
		}
		return "n"
	case float64:
		return num(d)
	case string:
		if f.Kind == FieldChoice {
			return label(d)
		}
		return d
	case []string:
		out := make([]string, len(d))
		for i, v := range d {
			out[i] = label(v)
		}
		return strings.Join(out, ", ")
	}
	return fmt.Sprint(f.Default)
}

// normalizeDefault gives the default in the answer's types.
func normalizeDefault(f FormField) any {
	if d, ok := f.Default.(float64); ok && f.Kind == FieldInteger {
		return int64(d)
	}
	return f.Default
}

// parseField reads a typed answer; the error says what was wrong.
func parseField(f FormField, s string) (any, error) {
	inRange := func(x float64, what string) error {
		if f.Min != nil && x < *f.Min {
			return fmt.Errorf("%s must be at least %s", what, num(*f.Min))
		}
		if f.Max != nil && x > *f.Max {
			return fmt.Errorf("%s must be at most %s", what, num(*f.Max))
		}
		return nil
	}
	switch f.Kind {
	case FieldBoolean:
		switch strings.ToLower(s) {
		case "y", "yes", "true", "1":
			return true, nil
		case "n", "no", "false", "0":
			return false, nil
		}
		return nil, fmt.Errorf("answer y or n")
	case FieldInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", s)
		}
		return n, inRange(float64(n), "the number")
	case FieldNumber:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return x, inRange(x, "the number")
	case FieldChoice:
		n, err := strconv.Atoi(s)
		if err == nil && n >= 1 && n <= len(f.Choices) {
			return f.Choices[n-1].Value, nil
		}
		for _, c := range f.Choices {
			if strings.EqualFold(s, c.Value) || strings.EqualFold(s, c.label()) {
				return c.Value, nil
			}
		}
		return nil, fmt.Errorf("answer a number from 1 to %d", len(f.Choices))
	case FieldMultiChoice:
		nums, ok := parseChoices(s, len(f.Choices), true)
		if !ok {
			return nil, fmt.Errorf("answer numbers from 1 to %d, separated by commas", len(f.Choices))
		}
		vals := make([]string, len(nums))
		for i, n := range nums {
			vals[i] = f.Choices[n-1].Value
		}
		return vals, inRange(float64(len(vals)), "the number of choices")
	}
	if err := inRange(float64(len([]rune(s))), "the length"); err != nil {
		return nil, err
	}
	switch f.Format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s {
			return nil, fmt.Errorf("%q is not an email address", s)
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || u.Scheme == "" {
			return nil, fmt.Errorf("%q is not a URI (with a scheme, such as https://)", s)
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return nil, fmt.Errorf("%q is not a date such as 2006-01-02", s)
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return nil, fmt.Errorf("%q is not a date and time such as 2006-01-02T15:04:05Z", s)
		}
	}
	return s, nil
}

// EffectiveMode is req.Mode, or ElicitForm when it is unset.
func (req ElicitRequest) EffectiveMode() ElicitMode {
	if req.Mode == "" {
		return ElicitForm
	}
	return req.Mode
}
