package tooldefs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/ask"
	"github.com/agentcore/agentcore/runtime/session"
)

// AskUserQuestion asks the user multiple-choice questions to gather
// information, clarify ambiguity, understand preferences, make decisions
// or offer them choices. Use it when you need the user's answer during
// the work:
// 1. to gather preferences or requirements;
// 2. to clarify ambiguous instructions;
// 3. to get decisions on implementation choices as you work;
// 4. to offer choices about what direction to take.
//
// Usage notes:
// - Ask 1 to 4 questions at a time, each with 2 to 4 options and a short
// header (at most 12 characters, e.g. "Auth method").
// - The user can always answer "Other" in their own words; do not add an
// "Other" option yourself.
// - Use multiSelect: true when more than one option may be chosen.
// - If you recommend an option, make it the first and add "(Recommended)"
// at the end of its label.
// - Do not use it to ask whether a plan is fine: in plan mode,
// ExitPlanMode asks for the plan's approval.
// - In a run without a user (non-interactive), the call fails: decide
// yourself and say what you assumed.
//
// +tool:name=AskUserQuestion
// +tool:agentOnly
// +tool:readOnly
// +tool:localOnly
// +tool:userFacingName=Question
// +tool:searchHint="ask the user multiple-choice questions and get their answers"
type AskUserQuestion struct{}

// AskUserQuestionInput is the input of AskUserQuestion.
type AskUserQuestionInput struct {
	// Questions to ask the user (1-4 questions).
	Questions []UserQuestion `json:"questions" jsonschema:"minItems=1,maxItems=4"`
}

// UserQuestion is one question of AskUserQuestion.
type UserQuestion struct {
	// The complete question to ask the user, clear and specific, ending with a question mark, e.g. "Which library should we use for date formatting?"
	Question string `json:"question" jsonschema:"minLength=1"`
	// A very short label shown as a chip before the question (at most 12 characters), e.g. "Library", "Approach".
	Header string `json:"header" jsonschema:"minLength=1,maxLength=12"`
	// The choices (2-4), each distinct; "Other" with free text is always offered besides them.
	Options []UserQuestionOption `json:"options" jsonschema:"minItems=2,maxItems=4"`
	// Set to true to let the user pick more than one option.
	MultiSelect bool `json:"multiSelect"`
}

// UserQuestionOption is one choice of a question.
type UserQuestionOption struct {
	// The text the user picks (1-5 words).
	Label string `json:"label" jsonschema:"minLength=1"`
	// What this option means or implies.
	Description string `json:"description"`
}

// AskUserQuestionOutput is the questions and the user's answers.
type AskUserQuestionOutput struct {
	Questions []UserQuestion `json:"questions"`
	// Answers maps each question to its answer: the labels picked and
	// the user's own words, joined with ", ".
	Answers map[string]string `json:"answers"`
}

// ValidateInput refuses repeated questions and repeated labels, and a
// call outside a session (there is nobody to ask).
func (AskUserQuestion) ValidateInput(_ context.Context, in *AskUserQuestionInput, tc *runtime.ToolContext) error {
	if _, ok := session.Of(tc); !ok {
		return errors.New("AskUserQuestion needs a session (runtime/session) whose user it asks; run the tool in one")
	}
	seen := map[string]bool{}
	for i, q := range in.Questions {
		if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Header) == "" {
			return fmt.Errorf("questions[%d]: question and header must not be blank", i)
		}
		if seen[q.Question] {
			return fmt.Errorf("questions[%d]: %q is asked twice; each question must be unique", i, q.Question)
		}
		seen[q.Question] = true
		labels := map[string]bool{}
		for j, o := range q.Options {
			label := strings.TrimSpace(o.Label)
			switch {
			case label == "":
				return fmt.Errorf("questions[%d].options[%d]: the label must not be blank", i, j)
			case labels[label]:
				return fmt.Errorf("questions[%d].options[%d]: the label %q is used twice; each option of a question needs its own label", i, j, label)
			case strings.EqualFold(label, "Other"):
				return fmt.Errorf("questions[%d].options[%d]: do not add an \"Other\" option, the user can always answer in their own words", i, j)
			}
			labels[label] = true
		}
	}
	return nil
}

// CheckPermissions allows the call: it only asks the user.
func (AskUserQuestion) CheckPermissions(context.Context, *AskUserQuestionInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call puts the questions to the user through the session's permission
// engine (permission.Engine.AskQuestions): a terminal shows a picker, an
// SDK host gets them over its protocol; a run nobody can answer fails
// with ask.ErrNoUser.
func (AskUserQuestion) Call(ctx context.Context, in *AskUserQuestionInput, c *runtime.Call) (AskUserQuestionOutput, error) {
	s, ok := session.Of(c.Context)
	if !ok {
		return AskUserQuestionOutput{}, errors.New("AskUserQuestion needs a session whose user it asks")
	}
	qs := make([]ask.Question, len(in.Questions))
	for i, q := range in.Questions {
		qs[i] = ask.Question{Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			qs[i].Options = append(qs[i].Options, ask.QuestionOption{Label: strings.TrimSpace(o.Label), Description: o.Description})
		}
	}
	answers, err := s.Engine().AskQuestions(ctx, qs)
	if err != nil {
		return AskUserQuestionOutput{}, err
	}
	out := AskUserQuestionOutput{Questions: in.Questions, Answers: map[string]string{}}
	for i, q := range in.Questions {
		out.Answers[q.Question] = answers[i].String()
	}
	return out, nil
}

// ResultBlocks gives the answers as Claude Code words them.
func (AskUserQuestion) ResultBlocks(out AskUserQuestionOutput) []runtime.Block {
	var pairs []string
	for _, q := range out.Questions {
		pairs = append(pairs, fmt.Sprintf("%q=%q", q.Question, out.Answers[q.Question]))
	}
	return []runtime.Block{runtime.TextBlock("User has answered your questions: " + strings.Join(pairs, ", ") +
		". You can now continue with the user's answers in mind.")}
}

// RenderUse names the questions by their headers.
func (AskUserQuestion) RenderUse(in *AskUserQuestionInput) string {
	var hs []string
	for _, q := range in.Questions {
		hs = append(hs, q.Header)
	}
	return strings.Join(hs, ", ")
}

// RenderResult shows each answer under its header.
func (AskUserQuestion) RenderResult(in *AskUserQuestionInput, out AskUserQuestionOutput) string {
	var lines []string
	for _, q := range in.Questions {
		lines = append(lines, fmt.Sprintf("%s: %s", q.Header, out.Answers[q.Question]))
	}
	return strings.Join(lines, "\n")
}

// RenderError says plainly that nobody could answer.
func (AskUserQuestion) RenderError(_ *AskUserQuestionInput, err error) string {
	switch {
	case errors.Is(err, ask.ErrNoUser):
		return "No user to ask (non-interactive run)"
	case errors.Is(err, ask.ErrNotAnswered):
		return "Not answered"
	}
	return err.Error()
}
