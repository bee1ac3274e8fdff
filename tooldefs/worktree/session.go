package worktree

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/permission"
)

// Entered is a worktree a session moved into with EnterWorktree, and
// where the session was before.
type Entered struct {
	*Worktree
	// Cwd and Dirs are the session's working directory and working
	// directories before it entered; ExitWorktree restores them.
	Cwd  string
	Dirs []string
}

// State is one session's worktree state: the worktree it is in, if
// EnterWorktree moved it there. It is safe for concurrent use.
type State struct {
	mu     sync.Mutex
	active *Entered
}

// StateOf returns the state of tc's session, made on first use. When the
// session ends inside a worktree, the worktree is removed if nothing was
// done in it and kept otherwise (Release), as Claude Code does on exit.
func StateOf(tc *runtime.ToolContext) (*State, error) {
	s, err := runtime.SessionValue(tc, func() (*State, func()) {
		s := &State{}
		return s, s.release
	})
	if err != nil {
		return nil, fmt.Errorf("no worktree state: %w", err)
	}
	return s, nil
}

func (s *State) release() {
	s.mu.Lock()
	e := s.active
	s.active = nil
	s.mu.Unlock()
	if e != nil {
		_, _ = e.Release()
	}
}

// Active returns the worktree the session is in, nil when none.
func (s *State) Active() *Entered {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.active
}

// ErrNotEntered is the error of leaving a worktree when the session is in
// none that EnterWorktree made.
var ErrNotEntered = errors.New("no worktree session is active: ExitWorktree only leaves a worktree that EnterWorktree made in this session, and nothing was changed")

// Enter records that the session moved into e; it fails when it is in a
// worktree already.
func (s *State) Enter(e *Entered) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active != nil {
		return AlreadyIn(s.active.Path)
	}
	s.active = e
	return nil
}

// Leave records that the session left its worktree and returns it.
func (s *State) Leave() (*Entered, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.active
	if e == nil {
		return nil, ErrNotEntered
	}
	s.active = nil
	return e, nil
}

// AlreadyIn is the error of entering a worktree from inside the worktree
// path.
func AlreadyIn(path string) error {
	return fmt.Errorf("the session is already in the worktree %s: worktrees do not nest; work there, or leave it with ExitWorktree first", path)
}

// MoveIn makes path the working directory of tc and the first of its
// working directories (where Bash returns when a cd leaves them all),
// keeping the others.
func MoveIn(tc *runtime.ToolContext, path string) {
	tc.Cwd = path
	tc.WorkingDirs = append([]string{path}, slices.DeleteFunc(slices.Clone(tc.WorkingDirs), func(d string) bool { return d == path })...)
}

// MoveBack puts tc back where e was entered from.
func MoveBack(tc *runtime.ToolContext, e *Entered) {
	tc.Cwd = e.Cwd
	tc.WorkingDirs = slices.Clone(e.Dirs)
}

// AllowUnlessPlan is the permission of a worktree call that changes
// nothing the user has (a new worktree, leaving one, removing one with
// nothing in it): allowed, as Claude Code allows it, except in plan mode,
// where it goes on to the mode, which refuses calls that are not
// read-only.
func AllowUnlessPlan(tc *runtime.ToolContext) runtime.PermissionDecision {
	if pm, ok := runtime.Service[permission.PlanMode](tc); ok && pm.Mode() == permission.ModePlan {
		return runtime.PermissionDecision{Behavior: runtime.Passthrough}
	}
	return runtime.PermissionDecision{Behavior: runtime.Allow}
}
