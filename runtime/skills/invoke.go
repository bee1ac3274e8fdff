package skills

import (
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

// Session is what launching a skill needs of the session: where it is
// (the skills of its directory and the user's), the conversation the
// skill's instructions join, and the rules its allowed-tools add.
type Session struct {
	runtime.SessionInfo
	runtime.Conversation
	permission.TemporaryRules
	// invoked are the session's launched skills, shown again after a
	// compaction (compact.go); nil outside a session.
	invoked *invoked
}

// SessionOf asks tc for the capabilities a skill's launch needs; tool
// names who asks (the Skill tool, a front end's command) in the error
// when one is missing.
func SessionOf(tc *runtime.ToolContext, tool string) (Session, error) {
	var s Session
	var err error
	if s.SessionInfo, err = runtime.Need[runtime.SessionInfo](tc, tool); err != nil {
		return s, err
	}
	if s.Conversation, err = runtime.Need[runtime.Conversation](tc, tool); err != nil {
		return s, err
	}
	if s.TemporaryRules, err = runtime.Need[permission.TemporaryRules](tc, tool); err != nil {
		return s, err
	}
	s.invoked = invokedOf(tc)
	return s, nil
}

// Resolve finds the skill called name among those of sess's directory
// and user, read anew: the skill, its instructions and the rules its
// allowed-tools grant. An unknown name or a bad rule is an error.
func Resolve(sess runtime.SessionInfo, name string) (Skill, string, []permission.Rule, error) {
	all, _ := Load(sess.Dir(), sess.Home())
	s, body, err := Find(all, name)
	if err != nil {
		return s, "", nil, err
	}
	rules, err := permission.ParseRules(s.AllowedTools, runtime.Allow, permission.Source("skill "+s.Name), s.Path)
	if err != nil {
		return s, "", nil, fmt.Errorf("skill %s: allowed-tools: %w", s.Name, err)
	}
	return s, body, rules, nil
}

// Invoke launches the skill name in sess, as the Skill tool does and the
// interactive session's /NAME too: it returns the skill's instructions
// (its folder and args with them) as the text for the conversation, and
// allows the tools the skill lists until the running turn ends (the next
// one when none runs).
func (sess Session) Invoke(name, args string) (Skill, string, error) {
	s, body, rules, err := Resolve(sess, name)
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
	text += "\n</skill>"
	sess.invoked.add(s, text)
	return s, text, nil
}
