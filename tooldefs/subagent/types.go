package subagent

import (
	"fmt"
	"strings"
)

// Type is a kind of sub-agent. (Placeholder until the types branch lands.)
type Type struct {
	Name, Description string
	Tools             []string
	ReadOnly          bool
	Model             string
	System            string
	Source            string
}

// Builtins returns the built-in types.
func Builtins() []Type {
	return []Type{
		{Name: "general-purpose", Description: "General-purpose agent for researching complex questions, searching for code, and executing multi-step tasks.", System: "You are an agent for agentcore. Do what the task asks, completely, and report what you did.", Source: "built-in"},
		{Name: "Explore", Description: "Fast read-only agent for exploring codebases.", ReadOnly: true, System: "You are a read-only file search specialist.", Source: "built-in"},
		{Name: "Plan", Description: "Read-only software architect agent for designing implementation plans.", ReadOnly: true, System: "You are a read-only planning specialist. Answer with a step-by-step plan.", Source: "built-in"},
	}
}

// LoadTypes returns the built-in types.
func LoadTypes(dir, home string) ([]Type, []error) { return Builtins(), nil }

// FindType finds a type by name; "" is general-purpose.
func FindType(types []Type, name string) (Type, error) {
	if name == "" {
		name = "general-purpose"
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

// DescribeTypes lists the types for the Agent tool's description.
func DescribeTypes(types []Type) string {
	var b strings.Builder
	b.WriteString("Available agent types and the tools they have access to:\n")
	for _, t := range types {
		tools := "*"
		if len(t.Tools) > 0 {
			tools = strings.Join(t.Tools, ", ")
		}
		fmt.Fprintf(&b, "- %s: %s (Tools: %s)\n", t.Name, t.Description, tools)
	}
	return b.String()
}
