// Package skills finds the skills the Skill tool serves: folders holding
// a SKILL.md (YAML front matter with name, description and optional
// allowed-tools; the body is the instructions), under
// .agentcore/skills/ and .claude/skills/ of the project and of the user.
package skills

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/frontmatter"
)

// Skill is one skill.
type Skill struct {
	// Name is what the Skill tool's "skill" parameter names.
	Name string
	// Description tells the model when to use it.
	Description string
	// AllowedTools are permission rules ("Bash(git add:*)", "Read") the
	// skill's use allows for the rest of the turn.
	AllowedTools []string
	// Dir is the skill's folder; Path its SKILL.md.
	Dir, Path string
}

type header struct {
	Name         string `yaml:"name"`
	Description  string `yaml:"description"`
	AllowedTools any    `yaml:"allowed-tools"`
}

// Load returns the skills of the user (home/.claude/skills,
// home/.agentcore/skills) and of the project (dir/.claude/skills,
// dir/.agentcore/skills), each folder's SKILL.md. A skill of the same
// name from a later place replaces the earlier: project over user,
// .agentcore over .claude. Each broken SKILL.md is one error naming it.
func Load(dir, home string) ([]Skill, []error) {
	var roots []string
	if home != "" {
		roots = append(roots, filepath.Join(home, ".claude", "skills"), filepath.Join(home, ".agentcore", "skills"))
	}
	if dir != "" && dir != home {
		roots = append(roots, filepath.Join(dir, ".claude", "skills"), filepath.Join(dir, ".agentcore", "skills"))
	}
	var out []Skill
	var errs []error
	for _, root := range roots {
		paths, _ := filepath.Glob(filepath.Join(root, "*", "SKILL.md"))
		slices.Sort(paths)
		for _, p := range paths {
			s, _, err := read(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if i := slices.IndexFunc(out, func(x Skill) bool { return x.Name == s.Name }); i >= 0 {
				out[i] = s
			} else {
				out = append(out, s)
			}
		}
	}
	slices.SortFunc(out, func(a, b Skill) int { return strings.Compare(a.Name, b.Name) })
	return out, errs
}

// read reads a SKILL.md: the skill and its instructions.
func read(path string) (Skill, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Skill{}, "", fmt.Errorf("skill %s: %w", path, err)
	}
	var h header
	body, err := frontmatter.Parse(data, &h)
	if err != nil {
		return Skill{}, "", fmt.Errorf("skill %s: %w", path, err)
	}
	s := Skill{Name: strings.TrimSpace(h.Name), Description: strings.TrimSpace(h.Description), Dir: filepath.Dir(path), Path: path}
	if s.Name == "" {
		s.Name = filepath.Base(s.Dir)
	}
	if s.Description == "" {
		return Skill{}, "", fmt.Errorf("skill %s: the front matter needs a description: it tells the model when to use the skill", path)
	}
	switch v := h.AllowedTools.(type) {
	case nil:
	case string:
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				s.AllowedTools = append(s.AllowedTools, t)
			}
		}
	case []any:
		for _, e := range v {
			t, ok := e.(string)
			if !ok {
				return Skill{}, "", fmt.Errorf("skill %s: allowed-tools: want rules like \"Bash(git add:*)\", got %v", path, e)
			}
			s.AllowedTools = append(s.AllowedTools, strings.TrimSpace(t))
		}
	default:
		return Skill{}, "", fmt.Errorf("skill %s: allowed-tools: want a comma-separated string or a list of rules", path)
	}
	return s, body, nil
}

// Find returns the skill called name and its instructions, read anew;
// an unknown name is an error listing the known skills.
func Find(skills []Skill, name string) (Skill, string, error) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "/")
	var names []string
	for _, s := range skills {
		if s.Name == name {
			return read(s.Path)
		}
		names = append(names, s.Name)
	}
	if len(names) == 0 {
		return Skill{}, "", fmt.Errorf("no skill %q: there are no skills (add folders with a SKILL.md under .agentcore/skills/ or .claude/skills/)", name)
	}
	return Skill{}, "", fmt.Errorf("no skill %q: the skills are %s", name, strings.Join(names, ", "))
}

// Describe lists the skills for the end of the Skill tool's description.
func Describe(skills []Skill) string {
	if len(skills) == 0 {
		return "No skills are installed."
	}
	var b strings.Builder
	b.WriteString("Available skills:\n")
	for _, s := range skills {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, s.Description)
	}
	return b.String()
}

// WithSkills returns tools with the tool named self (the Skill tool)
// describing skills at the end of its description, so the model sees
// their names and descriptions — counted, like every definition, in the
// tool-definition budget. The other tools pass through.
func WithSkills(tools []runtime.Tool, self string, skills []Skill) []runtime.Tool {
	out := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		out[i] = t
		if t.Name() == self {
			out[i] = runtime.WithDescription(t, strings.TrimRight(t.Description(), "\n")+"\n\n"+Describe(skills))
		}
	}
	return out
}
