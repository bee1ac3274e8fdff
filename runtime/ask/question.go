package ask

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Question is one multiple-choice question put to the user
// (AskQuestions). The user picks one option, several when MultiSelect,
// or answers in their own words ("Other").
type Question struct {
	// Question is the full question, e.g. "Which library should we use?".
	Question string
	// Header is a short label shown before it, e.g. "Library".
	Header string
	// Options are the choices, each a short label and what it means.
	Options []QuestionOption
	// MultiSelect lets the user pick more than one option.
	MultiSelect bool
}

// QuestionOption is one choice of a Question.
type QuestionOption struct {
	Label       string
	Description string
}

// QuestionAnswer is the user's answer to one Question: the labels of the
// options picked, in the order listed, and Other, the user's own words
// when they answered with text instead of (or besides) an option.
type QuestionAnswer struct {
	Labels []string
	Other  string
}

// String is the answer as one line: the labels and the user's own words,
// joined with ", ".
func (a QuestionAnswer) String() string {
	parts := append([]string(nil), a.Labels...)
	if a.Other != "" {
		parts = append(parts, a.Other)
	}
	return strings.Join(parts, ", ")
}

// QuestionAsker is an Asker that can also put multiple-choice questions
// to the user: a terminal, or an SDK host. It returns one answer per
// question, in order.
type QuestionAsker interface {
	Asker
	AskQuestions(ctx context.Context, agent string, qs []Question) ([]QuestionAnswer, error)
}

// ErrNoUser is the error of AskQuestions in a run nobody can answer: a
// non-interactive run, or an Asker that cannot show questions.
var ErrNoUser = errors.New("no user is present to answer questions in this run (it is non-interactive); decide yourself with what you know, say which assumptions you made, or ask in your final message")

// ErrNotAnswered is the error of a question the user dismissed (Esc, or
// the end of input) instead of answering.
var ErrNotAnswered = errors.New("the user dismissed the questions without answering")

// AskQuestions shows each question with numbered options and one more,
// "Other", and reads the answer:
//
//	[Library] Which library should we use?
//	  1. cobra — the CLI framework most Go tools use
//	  2. urfave/cli — smaller
//	  3. Other (type your answer)
//	Answer [1-3, or your own words]:
//
// A number picks that option (several numbers, separated by commas or
// spaces, when the question is multi-select); any other text is the
// user's own answer; the number of Other asks for the text. An empty line
// asks again; the end of input is ErrNotAnswered.
func (p *Prompt) AskQuestions(ctx context.Context, agent string, qs []Question) ([]QuestionAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if agent != "" {
		fmt.Fprintf(p.out, "\n%s asks:\n", agent)
	}
	answers := make([]QuestionAnswer, 0, len(qs))
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, err := p.askOne(q)
		if err != nil {
			return nil, err
		}
		answers = append(answers, a)
	}
	return answers, nil
}

func (p *Prompt) askOne(q Question) (QuestionAnswer, error) {
	head := q.Question
	if q.Header != "" {
		head = "[" + q.Header + "] " + head
	}
	fmt.Fprintf(p.out, "\n%s\n", head)
	for i, o := range q.Options {
		line := fmt.Sprintf("  %d. %s", i+1, o.Label)
		if o.Description != "" {
			line += " — " + o.Description
		}
		fmt.Fprintln(p.out, line)
	}
	other := len(q.Options) + 1
	fmt.Fprintf(p.out, "  %d. Other (type your answer)\n", other)
	how := fmt.Sprintf("[1-%d, or your own words]", other)
	if q.MultiSelect {
		how = fmt.Sprintf("[numbers 1-%d separated by commas, or your own words]", other)
	}
	for attempt := 0; attempt < 3; attempt++ {
		fmt.Fprintf(p.out, "Answer %s: ", how)
		line, err := p.readLine()
		if err != nil {
			return QuestionAnswer{}, err
		}
		if line == "" {
			continue
		}
		nums, ok := parseChoices(line, other, q.MultiSelect)
		if !ok {
			return QuestionAnswer{Other: line}, nil
		}
		var a QuestionAnswer
		for _, n := range nums {
			if n == other {
				fmt.Fprint(p.out, "Your answer: ")
				text, err := p.readLine()
				if err != nil {
					return QuestionAnswer{}, err
				}
				a.Other = text
				continue
			}
			a.Labels = append(a.Labels, q.Options[n-1].Label)
		}
		if len(a.Labels) > 0 || a.Other != "" {
			return a, nil
		}
	}
	return QuestionAnswer{}, ErrNotAnswered
}

// readLine reads one trimmed line; the end of input is ErrNotAnswered.
func (p *Prompt) readLine() (string, error) {
	line, err := p.in.ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(p.out)
		if err == io.EOF {
			return "", ErrNotAnswered
		}
		return "", fmt.Errorf("read the answer: %w", err)
	}
	return strings.TrimSpace(line), nil
}

// parseChoices reads "2" or, when multi, "1, 3" or "1 3" as option numbers
// in 1..max, in the order listed and without repeats; ok is false for
// anything else (the user's own words).
func parseChoices(s string, max int, multi bool) (nums []int, ok bool) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	if len(fields) == 0 || (!multi && len(fields) > 1) {
		return nil, false
	}
	seen := map[int]bool{}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 || n > max {
			return nil, false
		}
		seen[n] = true
	}
	for n := 1; n <= max; n++ {
		if seen[n] {
			nums = append(nums, n)
		}
	}
	return nums, true
}
