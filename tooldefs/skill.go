package tooldefs

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/skills"
)

// Skill runs a skill: a folder of instructions (its SKILL.md) and files
// for a kind of task. When a task matches a skill's description, invoke
// the skill first: its instructions and the path of its folder are added
// to the conversation for you to follow, and the tools it lists as
// allowed need no approval for the rest of the turn. Pass the skill's
// name and, optionally, arguments for it. The skills available are
// listed below.
//
// +tool:name=Skill
// +tool:agentOnly
// +tool:localOnly
// +tool:alwaysLoad
// +tool:searchHint="run an installed skill's instructions"
type Skill struct{}

// SkillName is the Skill tool's name.
const SkillName = "Skill"

// SkillInput is the input of Skill.
type SkillInput struct {
	// The skill's name, e.g. "pdf" or "commit".
	Skill string `json:"skill" jsonschema:"minLength=1"`
	// Optional arguments for the skill.
	Args string `json:"args,omitempty"`
}

// SkillOutput is the skill that was launched.
type SkillOutput struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
	// AllowedTools are the rules allowed for the rest of the turn.
	AllowedTools []string `json:"allowed_tools"`
}

// ValidateInput refuses an unknown skill, listing the known ones, and
// allowed-tools that are not rules.
func (Skill) ValidateInput(_ context.Context, in *SkillInput, tc *runtime.ToolContext) error {
	sess, err := skills.SessionOf(tc, SkillName)
	if err != nil {
		return err
	}
	_, _, _, err = skills.Resolve(sess, in.Skill)
	return err
}

// CheckPermissions allows the call: it only reads the skill's file; the
// calls the skill leads to are checked on their own.
func (Skill) CheckPermissions(context.Context, *SkillInput, *runtime.ToolContext) runtime.PermissionDecision {
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}

// Call adds the skill's instructions to the conversation (the next
// request carries them as a message of their own) and allows its tools
// until the turn ends.
func (Skill) Call(_ context.Context, in *SkillInput, c *runtime.Call) (SkillOutput, error) {
	sess, err := skills.SessionOf(c.Context, SkillName)
	if err != nil {
		return SkillOutput{}, err
	}
	s, text, err := sess.Invoke(in.Skill, in.Args)
	if err != nil {
		return SkillOutput{}, err
	}
	sess.Notify(text)
	return SkillOutput{Name: s.Name, Dir: s.Dir, AllowedTools: s.AllowedTools}, nil
}

// ResultBlocks says the skill is launched and where its instructions are.
func (Skill) ResultBlocks(out SkillOutput) []runtime.Block {
	text := fmt.Sprintf("Launching skill: %s. Its instructions follow in the next message; follow them.", out.Name)
	if len(out.AllowedTools) > 0 {
		text += " Allowed without approval for the rest of this turn: " + strings.Join(out.AllowedTools, ", ") + "."
	}
	return []runtime.Block{runtime.TextBlock(text)}
}

// RenderUse shows the skill and its arguments.
func (Skill) RenderUse(in *SkillInput) string {
	if in.Args != "" {
		return in.Skill + " " + in.Args
	}
	return in.Skill
}

// RenderResult names the skill's folder.
func (Skill) RenderResult(_ *SkillInput, out SkillOutput) string {
	return "Loaded " + out.Name + " from " + out.Dir
}
