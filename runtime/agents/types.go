// Package agents holds the kinds of sub-agent the Agent tool starts:
// the built-ins (general-purpose, Explore, Plan), the custom ones of
// .claude/agents/ and .agentcore/agents/, and those an embedding host
// defines (HostTypes). Front ends load and describe them here; the Agent
// tool (tooldefs/subagent) runs them.
package agents

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentcore/agentcore/runtime/frontmatter"
)

// Type is a kind of sub-agent: which tools it gets and how it is told to
// work.
type Type struct {
	// Name is what subagent_type names; Description tells the model when
	// to pick it.
	Name, Description string
	// Tools are the names of the tools the type may use; nil means every
	// tool of the parent but Agent.
	Tools []string
	// ReadOnly limits the type to read-only calls (Explore, Plan): every
	// call that would change something is refused.
	ReadOnly bool
	// Model is "" or "inherit" for the parent's model, else an alias
	// ("haiku", "sonnet", "opus") or a full model name.
	Model string
	// System is the sub-agent's system prompt.
	System string
	// Source is "built-in" or the file the type came from.
	Source string
}

// GeneralPurpose is the type of an Agent call without subagent_type.
const GeneralPurpose = "general-purpose"

const generalPrompt = `You are an agent for agentcore, a coding agent. Given the task, use the tools available to complete it fully — do not gold-plate, but do not leave it half done either.

Your strengths: searching for code, configurations and patterns across large codebases; analysing several files to understand how a system fits together; investigating questions that need several rounds of exploration; carrying out multi-step changes.

Guidelines:
- For file searches, use Grep or Glob when you need to search broadly, Read when you know the path.
- Start broad and narrow down; try several search strategies if the first does not find it; check several locations and naming conventions.
- Never create files unless the task needs them; prefer editing an existing file to creating a new one. Never create documentation files unless asked.
- In your final answer, share the relevant file paths (absolute) and code snippets; avoid emojis.`

const explorePrompt = `You are a file search specialist for agentcore. You excel at navigating and exploring codebases quickly.

This is a READ-ONLY task. You must not create, modify, move or delete any file, nor run any command that changes the system's state: calls that would are refused. Use Glob for broad file-pattern matching, Grep for searching file contents with regular expressions, Read when you know the path, and Bash only for read-only commands (ls, git status, git log, git diff, find, cat, head, tail).

Adapt your thoroughness to what the task asks ("quick", "medium" or "very thorough"). Be fast: wherever you can, make several independent searches and reads in one message, so they run in parallel.

Answer with a clear, direct report of what you found: the file paths (absolute), the relevant lines, and how the pieces fit together. Do not write files to report.`

const planPrompt = `You are a software architect and planning specialist for agentcore. Your job is to explore the codebase and design an implementation plan.

This is a READ-ONLY task: you must not create, modify or delete any file, nor run a command that changes the system's state; such calls are refused.

Process:
1. Understand the requirements you were given.
2. Explore thoroughly: read the files named in the task, find existing patterns and conventions with Glob, Grep and Read, trace the relevant code paths.
3. Design the solution: weigh the trade-offs, follow the existing patterns where they fit.
4. Detail the plan: a step-by-step strategy, the dependencies and order of the changes, and what could go wrong.

End your answer with "Critical files for implementation": the 3–5 files most important to the plan, each with a one-line reason.`

// Builtins returns the built-in types: general-purpose, Explore, Plan.
func Builtins() []Type {
	return []Type{
		{Name: GeneralPurpose, Source: "built-in", System: generalPrompt,
			Description: "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks. When you are searching for a keyword or file and are not confident you will find the right match in the first few tries, use this agent to do the search for you."},
		{Name: "Explore", Source: "built-in", ReadOnly: true, System: explorePrompt,
			Description: `Fast agent specialized for exploring codebases, read-only. Use it to find files by patterns (e.g. "src/components/**/*.tsx"), search code for keywords (e.g. "API endpoints"), or answer questions about the codebase (e.g. "how do API endpoints work?"). Say how thorough to be: "quick", "medium" or "very thorough".`},
		{Name: "Plan", Source: "built-in", ReadOnly: true, System: planPrompt,
			Description: "Software architect agent for designing implementation plans, read-only. Use it to plan how to implement a task: it returns a step-by-step plan, identifies the critical files and weighs architectural trade-offs."},
	}
}

// agentFile is the front matter of an agent file.
type agentFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Tools       any    `yaml:"tools"`
	Model       string `yaml:"model"`
}

// LoadTypes returns the built-in types and the custom ones of the
// project (dir/.agentcore/agents/*.md, dir/.claude/agents/*.md) and the
// user (home/.agentcore/agents/*.md, home/.claude/agents/*.md). A custom
// type replaces a type of the same name from a lower level: project over
// user over built-in; within a level, .agentcore over .claude. Each
// broken file is one error naming it, and the other types still load.
func LoadTypes(dir, home string) ([]Type, []error) {
	types := Builtins()
	var errs []error
	var dirs []string
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude", "agents"), filepath.Join(home, ".agentcore", "agents"))
	}
	if dir != "" && dir != home {
		dirs = append(dirs, filepath.Join(dir, ".claude", "agents"), filepath.Join(dir, ".agentcore", "agents"))
	}
	for _, d := range dirs {
		paths, _ := filepath.Glob(filepath.Join(d, "*.md"))
		slices.Sort(paths)
		for _, p := range paths {
			t, err := readType(p)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if i := slices.IndexFunc(types, func(x Type) bool { return x.Name == t.Name }); i >= 0 {
				types[i] = t
			} else {
				types = append(types, t)
			}
		}
	}
	return types, errs
}

// readType reads one agent file.
func readType(path string) (Type, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Type{}, fmt.Errorf("agent file %s: %w", path, err)
	}
	var f agentFile
	body, err := frontmatter.Parse(data, &f)
	if err != nil {
		return Type{}, fmt.Errorf("agent file %s: %w", path, err)
	}
	f.Name, f.Description = strings.TrimSpace(f.Name), strings.TrimSpace(f.Description)
	switch {
	case f.Name == "":
		return Type{}, fmt.Errorf("agent file %s: the front matter needs a name", path)
	case strings.ContainsAny(f.Name, " \t\n"):
		return Type{}, fmt.Errorf("agent file %s: the name %q must be one word (letters, digits, - or _)", path, f.Name)
	case f.Description == "":
		return Type{}, fmt.Errorf("agent file %s: the front matter needs a description: it tells the model when to use the agent", path)
	case strings.TrimSpace(body) == "":
		return Type{}, fmt.Errorf("agent file %s: the body (the agent's system prompt) is empty", path)
	}
	tools, err := toolList(f.Tools)
	if err != nil {
		return Type{}, fmt.Errorf("agent file %s: tools: %w", path, err)
	}
	return Type{Name: f.Name, Description: f.Description, Tools: tools, Model: strings.TrimSpace(f.Model),
		System: strings.TrimSpace(body), Source: path}, nil
}

// toolList reads "tools": a comma-separated string, as Claude Code writes
// it, or a YAML list; absent or "*" means every tool.
func toolList(v any) ([]string, error) {
	var raw []string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		raw = strings.Split(x, ",")
	case []any:
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("want tool names, got %v", e)
			}
			raw = append(raw, s)
		}
	default:
		return nil, errors.New(`want a comma-separated string ("Read, Grep") or a list of tool names`)
	}
	var out []string
	for _, s := range raw {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 || slices.Contains(out, "*") {
		return nil, nil
	}
	return out, nil
}

// FindType finds the type called name; "" means general-purpose. An
// unknown name is an error listing the known ones.
func FindType(types []Type, name string) (Type, error) {
	if name == "" {
		name = GeneralPurpose
	}
	var names []string
	for _, t := range types {
		if t.Name == name {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return Type{}, fmt.Errorf("unknown subagent_type %q: use one of %s", name, strings.Join(names, ", "))
}

// DescribeTypes lists the types for the end of the Agent tool's
// description, as Claude Code's Task tool lists its agents.
func DescribeTypes(types []Type) string {
	var b strings.Builder
	b.WriteString("Available agent types and the tools they have access to:\n")
	for _, t := range types {
		tools := "*"
		switch {
		case len(t.Tools) > 0:
			tools = strings.Join(t.Tools, ", ")
		case t.ReadOnly:
			tools = "read-only tools"
		}
		fmt.Fprintf(&b, "- %s: %s (Tools: %s)\n", t.Name, t.Description, tools)
	}
	return b.String()
}
