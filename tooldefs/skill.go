package tooldefs

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/tooldefs/skills"
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
	sess, err := skillSessionOf(tc)
	if err != nil {
		return err
	}
	_, _, _, err = findSkill(sess, in)
	return err
}

// skillSession is what running a skill needs of the session: where it
// is (the skills of its directory and the user's), the conversation the
// skill's instructions join, and the rules its allowed-tools add.
type skillSession struct {
	runtime.SessionInfo
	runtime.Conversation
	permission.TemporaryRules
}

func skillSessionOf(tc *runtime.ToolContext) (skillSession, error) {
	var s skillSession
	var err error
	if s.SessionInfo, err = runtime.Need[runtime.SessionInfo](tc, SkillName); err != nil {
		return s, err
	}
	if s.Conversation, err = runtime.Need[runtime.Conversation](tc, SkillName); err != nil {
		return s, err
	}
	s.TemporaryRules, err = runtime.Need[permission.TemporaryRules](tc, SkillName)
	return s, err
}

func findSkill(sess runtime.SessionInfo, in *SkillInput) (skills.Skill, string, []permission.Rule, error) {
	all, _ := skills.Load(sess.Dir(), sess.Home())
	s, body, err := skills.Find(all, in.Skill)
	if err != nil {
		return s, "", nil, err
	}
	rules, err := permission.ParseRules(s.AllowedTools, runtime.Allow, permission.Source("skill "+s.Name), s.Path)
	if err != nil {
		return s, "", nil, fmt.Errorf("skill %s: allowed-tools: %w", s.Name, err)
	}
	return s, body, rules, nil
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
	sess, err := skillSessionOf(c.Context)
	if err != nil {
		return SkillOutput{}, err
	}
	s, text, err := invokeSkill(sess, in.Skill, in.Args)
	if err != nil {
		return SkillOutput{}, err
	}
	sess.Notify(text)
	return SkillOutput{Name: s.Name, Dir: s.Dir, AllowedTools: s.AllowedTools}, nil
}

// InvokeSkill launches the skill name in the session of tc as the Skill
// tool does — the interactive session's /NAME runs it the same way: it
// returns the skill's instructions (its folder and args with them) as the
// text for the conversation, and allows the tools the skill lists until
// the running turn ends (the next one when none runs).
func InvokeSkill(tc *runtime.ToolContext, name, args string) (skills.Skill, string, error) {
	sess, err := skillSessionOf(tc)
	if err != nil {
		return skills.Skill{}, "", err
	}
	return invokeSkill(sess, name, args)
}

func invokeSkill(sess skillSession, name, args string) (skills.Skill, string, error) {
	s, body, rules, err := findSkill(sess, &SkillInput{Skill: name})
	if err != nil {
		return s, "", err
	}
	text := fmt.Sprintf("<skill name=%q>\nBase directory for this skill: %s\n\n%s", s.Name, s.Dir, strings.TrimSpace(body))
	if strings.TrimSpace(args) != "" {
		text += "\n\nARGUMENTS: " + strings.TrimSpace(args)
	}
	if len(rules) > 0 {
		sess.AfterRun(sess.AddTemporaryRules(rules, permission.Source("skill "+s.Name)))
	}
	return s, text + "\n</skill>", nil
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
