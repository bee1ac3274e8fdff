package session

import (
	"errors"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/checkpoint"
)

// ErrNoFileHistory is the error of the rewind methods of a session opened
// without Options.FileHistory.
var ErrNoFileHistory = errors.New("session: no file checkpoints are kept: open the session with Options.FileHistory")

// fileHistory is the store the session's tools report writes to: the
// top session's (a sub-agent's writes belong to its parent's turn).
func (s *Session) fileHistory() *checkpoint.Store {
	for s.parent != nil {
		s = s.parent
	}
	return s.checkpoints
}

// BeginTurn starts a user turn of the file history and returns its
// number: the files the tools write from now on are kept under it. Run
// calls it for every prompt; a program that runs tools with Exec calls it
// where its user's turn starts.
func (s *Session) BeginTurn(prompt string) (int, error) {
	h := s.fileHistory()
	if h == nil {
		return 0, ErrNoFileHistory
	}
	return h.BeginNext(prompt)
}

// FileCheckpoints returns the turns whose files can be rewound, oldest
// first (the last checkpoint.MaxTurns).
func (s *Session) FileCheckpoints() ([]checkpoint.Turn, error) {
	h := s.fileHistory()
	if h == nil {
		return nil, ErrNoFileHistory
	}
	return h.Turns()
}

// RewindFiles puts the files Edit, Write and NotebookEdit wrote in turn
// and later back as they were before turn: content restored, files
// created since removed. Changes made by shell commands are not undone.
// With dryRun it only says what it would change. The conversation is
// left as it is.
func (s *Session) RewindFiles(turn int, dryRun bool) ([]checkpoint.Change, error) {
	h := s.fileHistory()
	if h == nil {
		return nil, ErrNoFileHistory
	}
	changes, err := h.Restore(turn, dryRun)
	if !dryRun {
		// What a tool read before is stale now: the next Edit must read
		// the file again.
		for _, c := range changes {
			if c.Skipped == "" {
				s.tc.FileState.Delete(c.Path)
			}
		}
	}
	return changes, err
}

// BeforeWrite keeps what path holds for a rewind (runtime.FileHistory).
func (c capabilities) BeforeWrite(path string) error {
	return c.s.fileHistory().Before(path)
}

var _ runtime.FileHistory = capabilities{}
