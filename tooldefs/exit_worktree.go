package tooldefs

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/worktree"
)

// ExitWorktree leaves the worktree EnterWorktree made in this session and
// returns the session to the directory it was in before, keeping the
// worktree or removing it.
//
// Scope: only a worktree EnterWorktree made in this session. Called
// outside one, it is an error and changes nothing; it never touches
// worktrees made by hand with git worktree add, or by earlier sessions.
//
// When to use it: when the user asks to leave, exit or finish the
// worktree, or to go back. Do not call it on your own initiative.
//
// Parameters:
// - action "keep" leaves the worktree and its branch on disk, to come back
// to or merge later: use it when there is work to keep.
// - action "remove" deletes the worktree's directory and its branch. A
// branch with commits of its own is never deleted: it stays, and the
// result says so. A worktree with uncommitted changes or untracked files
// is not removed unless discard_changes is true; when the call fails
// listing them, ask the user before calling again with discard_changes.
//
// +tool:name=ExitWorktree
// +tool:localOnly
// +tool:shouldDefer
// +tool:searchHint="leave the git worktree, keep or remove it"
type ExitWorktree struct{}

// ExitWorktreeInput is the input of ExitWorktree.
type ExitWorktreeInput struct {
	// "keep" leaves the worktree and its branch on disk; "remove" deletes the worktree, and its branch unless the branch has commits.
	Action string `json:"action" jsonschema:"enum=keep,enum=remove"`
	// With action "remove": remove the worktree even though it has uncommitted changes or untracked files, which are lost. Only after the user agreed.
	DiscardChanges bool `json:"discard_changes,omitempty"`
}

// ExitWorktreeOutput is what ExitWorktree did.
type ExitWorktreeOutput struct {
	// Action is "keep" or "remove".
	Action         string `json:"action"`
	WorktreePath   string `json:"worktree_path"`
	WorktreeBranch string `json:"worktree_branch"`
	// OriginalCwd is the directory the session is back in.
	OriginalCwd string `json:"original_cwd"`
	// Discarded counts the uncommitted changes a removal threw away.
	Discarded int `json:"discarded_changes,omitempty"`
	// Branch is what became of the branch on removal.
	Branch worktree.Removal `json:"branch"`
}

// IsDestructive is true for a removal that discards changes.
func (ExitWorktree) IsDestructive(in *ExitWorktreeInput) bool {
	return in.Action == "remove" && in.DiscardChanges
}

// ValidateInput refuses a session that is in no worktree of its own.
func (ExitWorktree) ValidateInput(_ context.Context, _ *ExitWorktreeInput, tc *runtime.ToolContext) error {
	st, err := worktree.StateOf(tc)
	if err != nil {
		return err
	}
	if st.Active() == nil {
		return worktree.ErrNotEntered
	}
	return nil
}

// CheckPermissions allows leaving and removing a worktree that loses
// nothing (plan mode aside, for removal); a removal that discards changes
// goes by the rules and the mode: in default mode the user is asked.
func (ExitWorktree) CheckPermissions(_ context.Context, in *ExitWorktreeInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	switch {
	case in.Action == "keep":
		return runtime.PermissionDecision{Behavior: runtime.Allow}
	case in.DiscardChanges:
		return runtime.PermissionDecision{Behavior: runtime.Passthrough}
	}
	return worktree.AllowUnlessPlan(tc)
}

// Call leaves the worktree, removing it first for action "remove".
func (ExitWorktree) Call(ctx context.Context, in *ExitWorktreeInput, c *runtime.Call) (ExitWorktreeOutput, error) {
	st, err := worktree.StateOf(c.Context)
	if err != nil {
		return ExitWorktreeOutput{}, err
	}
	e := st.Active()
	if e == nil {
		return ExitWorktreeOutput{}, worktree.ErrNotEntered
	}
	out := ExitWorktreeOutput{Action: in.Action, WorktreePath: e.Path, WorktreeBranch: e.Branch, OriginalCwd: e.Cwd}
	if in.Action == "remove" {
		changes, err := e.Changes(ctx)
		if err != nil {
			return ExitWorktreeOutput{}, err
		}
		if len(changes) > 0 && !in.DiscardChanges {
			return ExitWorktreeOutput{}, fmt.Errorf("the worktree %s has %d uncommitted change(s):\n%s\nNothing was removed and the session is still in the worktree. Commit what should stay, leave with action \"keep\", or, once the user agrees to lose them, call again with discard_changes true",
				e.Path, len(changes), exitListChanges(changes))
		}
		if out.Branch, err = e.Remove(ctx, in.DiscardChanges); err != nil {
			return ExitWorktreeOutput{}, err
		}
		out.Discarded = len(changes)
	}
	if _, err := st.Leave(); err != nil {
		return ExitWorktreeOutput{}, err
	}
	c.ModifyContext(func(tc *runtime.ToolContext) { worktree.MoveBack(tc, e) })
	return out, nil
}

// exitListChanges shows at most 20 status lines.
func exitListChanges(lines []string) string {
	if len(lines) > 20 {
		return strings.Join(lines[:20], "\n") + fmt.Sprintf("\n… and %d more", len(lines)-20)
	}
	return strings.Join(lines, "\n")
}

// ResultBlocks says what became of the worktree and its branch, and
// where the session is.
func (ExitWorktree) ResultBlocks(out ExitWorktreeOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(exitSummary(out) + " The session is back in " + out.OriginalCwd + ".")}
}

func exitSummary(out ExitWorktreeOutput) string {
	if out.Action == "keep" {
		return fmt.Sprintf("Exited the worktree; it is kept at %s on branch %s.", out.WorktreePath, out.WorktreeBranch)
	}
	s := "Exited and removed the worktree " + out.WorktreePath
	if out.Discarded > 0 {
		s += fmt.Sprintf(", discarding %d uncommitted change(s)", out.Discarded)
	}
	if out.Branch.BranchKept {
		return s + fmt.Sprintf(". Its branch %s was kept: it has %d commit(s) of its own (delete it with git branch -D %s once they are not needed).",
			out.WorktreeBranch, out.Branch.Commits, out.WorktreeBranch)
	}
	return s + ", and its branch " + out.WorktreeBranch + "."
}

// RenderUse shows the action.
func (ExitWorktree) RenderUse(in *ExitWorktreeInput) string {
	if in.DiscardChanges {
		return in.Action + ", discarding changes"
	}
	return in.Action
}

// RenderResult sums up what happened.
func (ExitWorktree) RenderResult(_ *ExitWorktreeInput, out ExitWorktreeOutput) string {
	return exitSummary(out)
}
