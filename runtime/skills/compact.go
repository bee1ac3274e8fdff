package skills

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// What a compaction shows the model again of the skills launched before
// it, with Claude Code's budgets (compact.ts: POST_COMPACT_SKILLS_TOKEN_BUDGET,
// POST_COMPACT_MAX_TOKENS_PER_SKILL), at four characters a token.
const (
	// RestoreSkillTokens bounds one skill's text; a longer one is cut,
	// saying so.
	RestoreSkillTokens = 5_000
	// RestoreSkillsBudgetTokens bounds the skills' texts together; the
	// most recently launched come first, and one that does not fit is
	// left out.
	RestoreSkillsBudgetTokens = 25_000
)

// reminderKey is the skills' entry in runtime.CompactReminders.
const reminderKey = "skills"

// skillsPreamble is Claude Code's introduction of the skills it shows
// again after a compaction, with agentcore's ARGUMENTS line in place of
// its "## Input" sections.
const skillsPreamble = "The following skills were invoked EARLIER in this session (before the conversation was compacted), " +
	"not on the current turn. They are shown here for context only so you remain aware of their guidelines.\n\n" +
	"IMPORTANT: Do NOT re-execute these skills or perform their one-time setup actions (e.g., scheduling, creating files) again. " +
	"The ARGUMENTS lines below reflect the original arguments from when each skill was first invoked \u2014 they are NOT the user's current message. " +
	"Only continue to apply ongoing behavioral guidelines from these skills where still relevant.\n\n"

// cutNote ends a skill's text cut to RestoreSkillTokens.
const cutNote = "\n\n[... skill content truncated for compaction; use Read on the skill path if you need the full text]"

// invoked are a session's launched skills, the last launch of each, in
// launch order; every launch rewrites the session's compaction reminder.
type invoked struct {
	mu        sync.Mutex
	list      []invokedSkill
	reminders *runtime.CompactReminders
}

type invokedSkill struct {
	name, path, text string
}

// invokedOf returns tc's session's launched skills, made on first use;
// nil outside a session (add then does nothing).
func invokedOf(tc *runtime.ToolContext) *invoked {
	// Asked first: SessionValue holds the session's lock while it makes
	// a value, so the maker must not ask for another.
	reminders := runtime.RemindersOf(tc)
	v, err := runtime.SessionValue(tc, func() (*invoked, func()) {
		return &invoked{reminders: reminders}, nil
	})
	if err != nil {
		return nil
	}
	return v
}

// add records the launch of s with the text the conversation got, in
// place of an earlier launch of the same skill.
func (in *invoked) add(s Skill, text string) {
	if in == nil {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.list = slices.DeleteFunc(in.list, func(k invokedSkill) bool { return k.name == s.Name })
	in.list = append(in.list, invokedSkill{name: s.Name, path: s.Path, text: text})
	in.reminders.Set(reminderKey, compactText(in.list))
}

// compactText is what a compaction shows of the launched skills (oldest
// first in list): the newest first, each cut to RestoreSkillTokens, as
// many as RestoreSkillsBudgetTokens holds, under Claude Code's preamble.
func compactText(list []invokedSkill) string {
	var parts []string
	budget := RestoreSkillsBudgetTokens * 4
	for i := len(list) - 1; i >= 0; i-- {
		k := list[i]
		text := k.text
		if len(text) > RestoreSkillTokens*4 {
			text = strings.ToValidUTF8(text[:RestoreSkillTokens*4-len(cutNote)], "") + cutNote
		}
		if len(text) > budget {
			continue
		}
		budget -= len(text)
		parts = append(parts, fmt.Sprintf("### Skill: %s\nPath: %s\n\n%s", k.name, k.path, text))
	}
	if len(parts) == 0 {
		return ""
	}
	return skillsPreamble + strings.Join(parts, "\n\n---\n\n")
}
