package main

import "strings"

// variadicFlags take several values after one flag, as Claude Code's
// (commander's "<values...>") do: --allowedTools Read Grep "Bash(git:*)".
var variadicFlags = map[string]bool{
	"--allowedTools": true, "--allowed-tools": true,
	"--disallowedTools": true, "--disallowed-tools": true,
	"--add-dir": true, "--mcp-config": true,
}

// expandVariadic rewrites the values that follow a variadic flag, up to
// the next argument that starts with "-", into one --flag=value each, so
// the flag parser sees the form it knows. As in Claude Code, a prompt
// right after such a flag's values is taken as one more value: put the
// prompt first, or after "--".
func expandVariadic(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if !variadicFlags[a] {
			out = append(out, a)
			continue
		}
		j := i + 1
		for ; j < len(args) && !strings.HasPrefix(args[j], "-"); j++ {
			out = append(out, a+"="+args[j])
		}
		if j == i+1 {
			out = append(out, a) // no value: let the parser say so
		}
		i = j - 1
	}
	return out
}
