package tooldefs

import (
	"context"
	"fmt"
	"slices"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/tooldefs/worktree"
)

// EnterWorktree creates an isolated git worktree and switches the
// session into it.
//
// Use it ONLY when told to work in a worktree: the user says "worktree"
// ("start a worktree", "work in a worktree"), or the project's
// instructions ask for one. To create or switch branches, or to fix a bug
// or build a feature, use git and the normal workflow instead.
//
// Requirements: the working directory is inside a git repository with at
// least one commit, and the session is not in a worktree already.
//
// Behavior:
// - Creates a worktree in .agentcore/worktrees/<name> at the repository's
// root, on a new branch agentcore/<name> from the current HEAD commit
// (uncommitted changes stay behind in the main checkout).
// - Moves the session's working directory into it: Bash, relative paths
// and file tools work there from now on.
// - Use ExitWorktree to leave it (keep it, or remove it). When the session
// ends inside it, a worktree with nothing in it is removed, one with
// changes or commits is kept.
//
// +tool:name=EnterWorktree
// +tool:localOnly
// +tool:shouldDefer
// +tool:searchHint="create an isolated git worktree and switch the session into it"
type EnterWorktree struct{}

// EnterWorktreeInput is the input of EnterWorktree.
type EnterWorktreeInput struct {
	// A name for the new worktree: letters, digits, dots, underscores and dashes, starting with a letter or digit. A random name is generated when it is not given.
	Name string `json:"name,omitempty" jsonschema:"maxLength=64"`
}

// EnterWorktreeOutput is the worktree the session moved into.
type EnterWorktreeOutput struct {
	WorktreePath   string `json:"worktree_path"`
	WorktreeBranch string `json:"worktree_branch"`
	// BaseCommit is the commit the branch starts at.
	BaseCommit string `json:"base_commit"`
	// OriginalCwd is where ExitWorktree returns to.
	OriginalCwd string `json:"original_cwd"`
}

// ValidateInput refuses what cannot work: a bad name, a session in a
// worktree already, a directory outside every git repository.
func (EnterWorktree) ValidateInput(ctx context.Context, in *EnterWorktreeInput, tc *runtime.ToolContext) error {
	if in.Name != "" {
		if err := worktree.ValidName(in.Name); err != nil {
			return err
		}
	}
	st, err := worktree.StateOf(tc)
	if err != nil {
		return err
	}
	if e := st.Active(); e != nil {
		return worktree.AlreadyIn(e.Path)
	}
	repo, err := worktree.FindRepo(ctx, tc.Cwd)
	if err != nil {
		return err
	}
	if path, ok := worktree.Inside(repo, tc.Cwd); ok {
		return worktree.AlreadyIn(path)
	}
	return nil
}

// CheckPermissions allows the call: a new worktree changes none of the
// user's files (Claude Code does not ask either), except in plan mode.
func (EnterWorktree) CheckPermissions(_ context.Context, _ *EnterWorktreeInput, tc *runtime.ToolContext) runtime.PermissionDecision {
	return worktree.AllowUnlessPlan(tc)
}

// Call creates the worktree and moves the session into it.
func (EnterWorktree) Call(ctx context.Context, in *EnterWorktreeInput, c *runtime.Call) (EnterWorktreeOutput, error) {
	tc := c.Context
	st, err := worktree.StateOf(tc)
	if err != nil {
		return EnterWorktreeOutput{}, err
	}
	if e := st.Active(); e != nil {
		return EnterWorktreeOutput{}, worktree.AlreadyIn(e.Path)
	}
	w, err := worktree.Create(ctx, tc.Cwd, in.Name)
	if err != nil {
		return EnterWorktreeOutput{}, err
	}
	if err := st.Enter(&worktree.Entered{Worktree: w, Cwd: tc.Cwd, Dirs: slices.Clone(tc.WorkingDirs)}); err != nil {
		_, _ = w.Release()
		return EnterWorktreeOutput{}, err
	}
	c.ModifyContext(func(tc *runtime.ToolContext) { worktree.MoveIn(tc, w.Path) })
	return EnterWorktreeOutput{WorktreePath: w.Path, WorktreeBranch: w.Branch, BaseCommit: w.Base, OriginalCwd: tc.Cwd}, nil
}

// ResultBlocks tells the model where it works now.
func (EnterWorktree) ResultBlocks(out EnterWorktreeOutput) []runtime.Block {
	return []runtime.Block{runtime.TextBlock(fmt.Sprintf(
		"Created worktree at %s on branch %s (from commit %s). The session now works in the worktree: Bash, relative paths and file tools resolve there. Use ExitWorktree to leave it, keeping or removing it.",
		out.WorktreePath, out.WorktreeBranch, worktree.Short(out.BaseCommit)))}
}

// RenderUse shows the name asked for.
func (EnterWorktree) RenderUse(in *EnterWorktreeInput) string { return in.Name }

// RenderResult shows where the session is now.
func (EnterWorktree) RenderResult(_ *EnterWorktreeInput, out EnterWorktreeOutput) string {
	return "Switched to worktree on branch " + out.WorktreeBranch + " (" + out.WorktreePath + ")"
}
