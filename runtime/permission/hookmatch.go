package permission

import (
	"fmt"

	"github.com/agentcore/agentcore/runtime"
)

// RuleMatches reports whether rule, one permission rule ("Bash(git *)",
// "Edit(*.ts)", "Read"), matches the bound call inv the way a deny rule
// would: a shell line when any of its simple commands matches. A hook's
// "if" field is decided with it. An error says the rule cannot be read
// or the call not checked.
func (e *Engine) RuleMatches(rule string, inv *runtime.Invocation, tc *runtime.ToolContext) (bool, error) {
	r, err := ParseRule(rule, runtime.Deny)
	if err != nil {
		return false, err
	}
	if inv == nil || inv.Tool == nil {
		return false, fmt.Errorf("no tool to match %s against", rule)
	}
	c, err := e.newCall(inv, tc)
	if err != nil {
		return false, err
	}
	return e.matches(r, c), nil
}
