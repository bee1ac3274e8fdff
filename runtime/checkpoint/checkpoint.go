// Package checkpoint keeps what the file-writing tools (Edit, Write,
// NotebookEdit) are about to overwrite, per user turn, so that the files
// can be put back as they were before a chosen turn (Claude Code's
// /rewind, --rewind-files, the SDK's rewindFiles).
//
// A Store lives in one directory, the session's: blobs/<sha256> holds each
// content once, turns/<turn>.json lists, for one turn, the files written
// in it and what each held before its first write in that turn (or that
// it did not exist). Only the last MaxTurns turns are kept; a blob no kept
// turn names is removed with the turn that dropped it.
//
// Changes made by other means (a Bash command's sed or rm, an editor) are
// not recorded: a rewind leaves them as they are, unless the same file
// was also written by a tool, in which case it gets the content the tool
// found.
package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime/atomicfile"
)

// MaxTurns is how many turns a Store keeps by default (Claude Code keeps
// the last 100 checkpoints of a session).
const MaxTurns = 100

// MaxFileSize is the largest file a Store keeps by default; a larger one
// is recorded as too large and a rewind leaves it as it is.
const MaxFileSize = 16 << 20

// Turn is what a Store knows of one user turn.
type Turn struct {
	// N numbers the turn: the session's Nth user prompt, from 1.
	N int `json:"turn"`
	// Prompt is the start of the prompt that began the turn.
	Prompt string `json:"prompt,omitempty"`
	// Started is when the turn began.
	Started time.Time `json:"started"`
	// Files are the files the tools wrote in the turn, in the order of
	// their first write.
	Files []File `json:"files,omitempty"`
}

// File is what one file held before the turn first wrote it.
type File struct {
	// Path is the file's absolute path.
	Path string `json:"path"`
	// Existed is false when the turn created the file.
	Existed bool `json:"existed"`
	// Hash names the blob of the content (hex SHA-256); "" when the file
	// did not exist or was too large.
	Hash string `json:"hash,omitempty"`
	// Mode is the file's permission bits.
	Mode fs.FileMode `json:"mode,omitempty"`
	// TooLarge is true when the file was above the size cap and was not
	// kept.
	TooLarge bool `json:"tooLarge,omitempty"`
}

// Store records checkpoints in one directory. It is safe for concurrent
// use by one process.
type Store struct {
	dir      string
	maxTurns int
	maxSize  int64

	mu   sync.Mutex
	made bool  // the directories exist (makeDirs)
	cur  *Turn // the turn being recorded; nil before Begin
	// unwritten is true while the current turn's file waits for Write
	// (or the next settle); pending is closed when Write's write of the
	// turn is done, and pendingErr is then that write's error (all under
	// mu).
	unwritten  bool
	pending    chan struct{}
	pendingErr error
}

// settle waits for Write's write of the current turn and returns its
// error, once, or writes the turn now when nobody called Write (under
// mu).
func (s *Store) settle() error {
	if s.pending != nil {
		<-s.pending
		err := s.pendingErr
		s.pending, s.pendingErr = nil, nil
		if err != nil {
			return err
		}
	}
	if !s.unwritten {
		return nil
	}
	s.unwritten = false
	t := *s.cur
	if err := s.writeTurn(&t); err != nil {
		return err
	}
	return s.prune()
}

// Flush writes the current turn if it is not yet, waits for the write
// Write left running, and returns their error. A session calls it as it
// closes.
func (s *Store) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settle()
}

// Open opens the store kept in dir, with the default bounds. It touches
// no file: the directories are made by the first write (a turn's, which
// Write runs in the background, off the path to the model's first
// request), so a session that never began a turn leaves nothing behind,
// and a directory that cannot be made is reported as a failed write is.
func Open(dir string) (*Store, error) {
	return &Store{dir: dir, maxTurns: MaxTurns, maxSize: MaxFileSize}, nil
}

// makeDirs makes the store's directories, once (under mu).
func (s *Store) makeDirs() error {
	if s.made {
		return nil
	}
	for _, d := range []string{filepath.Join(s.dir, "blobs"), filepath.Join(s.dir, "turns")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("checkpoint store: %w", err)
		}
	}
	s.made = true
	return nil
}

// SetLimits changes how many turns the store keeps and the largest file
// it keeps (0 leaves a limit as it is).
func (s *Store) SetLimits(turns int, size int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending != nil {
		<-s.pending // Begin's write reads the limits; its error stays for the next call
	}
	if turns > 0 {
		s.maxTurns = turns
	}
	if size > 0 {
		s.maxSize = size
	}
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Begin starts recording turn n (its prompt shown in Turns): later
// Before calls record under it. Turns older than the bound are dropped.
// The turn's file is not written yet, so that the disk (whose fsync took
// 1–12 ms here) stays off the path to the model's first request: Write
// writes it in the background once that request is out; else the turn's
// first Before, or the next call that reads the store, writes it.
func (s *Store) Begin(n int, prompt string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.settle(); err != nil {
		return err
	}
	if line, _, ok := strings.Cut(prompt, "\n"); ok {
		prompt = line
	}
	if r := []rune(prompt); len(r) > 200 {
		prompt = string(r[:200]) + "…"
	}
	s.cur = &Turn{N: n, Prompt: prompt, Started: time.Now().UTC()}
	s.unwritten = true
	return nil
}

// Write starts writing the current turn's file in the background when
// Begin's turn is not written yet; the next call of the store waits for
// it, and reports its error.
func (s *Store) Write() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.unwritten || s.pending != nil {
		return
	}
	s.unwritten = false
	t := *s.cur
	done := make(chan struct{})
	s.pending = done
	go func() {
		defer close(done)
		// Every other method settles first, so nothing else touches
		// the store's files until done is closed.
		err := s.writeTurn(&t)
		if err == nil {
			err = s.prune()
		}
		s.pendingErr = err
	}()
}

// BeginNext begins the turn after the last one kept (1 in a new store)
// and returns its number: a resumed session's turns go on from where
// they were.
func (s *Store) BeginNext(prompt string) (int, error) {
	s.mu.Lock()
	err := s.settle()
	var turns []Turn
	if err == nil {
		turns, err = s.turns()
	}
	s.mu.Unlock()
	if err != nil {
		return 0, err
	}
	n := 1
	if len(turns) > 0 {
		n = turns[len(turns)-1].N + 1
	}
	return n, s.Begin(n, prompt)
}

// Before records what path holds now, before a tool writes it: the first
// write of path in the current turn is kept, later ones in the same turn
// change nothing. Without a current turn (Begin not called) it records
// nothing.
func (s *Store) Before(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.settle(); err != nil {
		return err
	}
	if s.cur == nil {
		return nil
	}
	path = filepath.Clean(path)
	if slices.ContainsFunc(s.cur.Files, func(f File) bool { return f.Path == path }) {
		return nil
	}
	f := File{Path: path}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("checkpoint %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil // a device or a directory: nothing a rewind could put back
	case fi.Size() > s.maxSize:
		f.Existed, f.TooLarge, f.Mode = true, true, fi.Mode().Perm()
	default:
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("checkpoint %s: %w", path, err)
		}
		f.Existed, f.Mode = true, fi.Mode().Perm()
		if f.Hash, err = s.putBlob(data); err != nil {
			return err
		}
	}
	s.cur.Files = append(s.cur.Files, f)
	return s.writeTurn(s.cur)
}

// Turns returns the turns kept, oldest first.
func (s *Store) Turns() ([]Turn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.settle(); err != nil {
		return nil, err
	}
	return s.turns()
}

// Change is what a rewind did, or would do, to one file.
type Change struct {
	// Path is the file's absolute path.
	Path string
	// Removed is true when the file did not exist before the turn and
	// was (or would be) deleted.
	Removed bool
	// Skipped says why the file was left as it is ("" when it was
	// restored or removed).
	Skipped string
}

// Restore puts every file the tools wrote in turn n or later back as it
// was before turn n: content and permission bits restored (written
// atomically), files created since removed. A file already in that state
// is left alone and not listed. With dryRun nothing is written: the
// changes are what a rewind would do. Restore does not forget the turns:
// the next Begin records on top.
func (s *Store) Restore(n int, dryRun bool) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.settle(); err != nil {
		return nil, err
	}
	turns, err := s.turns()
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(turns, func(t Turn) bool { return t.N == n }) {
		return nil, fmt.Errorf("no checkpoint of turn %d: %s", n, describe(turns))
	}
	// The state before turn n of a file is what the first turn >= n that
	// wrote it found.
	var plan []File
	seen := map[string]bool{}
	for _, t := range turns {
		if t.N < n {
			continue
		}
		for _, f := range t.Files {
			if !seen[f.Path] {
				seen[f.Path] = true
				plan = append(plan, f)
			}
		}
	}
	var changes []Change
	for _, f := range plan {
		c, err := s.restoreOne(f, dryRun)
		if err != nil {
			return changes, err
		}
		if c != nil {
			changes = append(changes, *c)
		}
	}
	return changes, nil
}

// restoreOne puts f back; nil when it is already as it was.
func (s *Store) restoreOne(f File, dryRun bool) (*Change, error) {
	cur, err := os.ReadFile(f.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("rewind %s: %w", f.Path, err)
	}
	if !f.Existed {
		if !exists {
			return nil, nil
		}
		if !dryRun {
			if err := os.Remove(f.Path); err != nil {
				return nil, fmt.Errorf("rewind %s: remove the file the turn created: %w", f.Path, err)
			}
		}
		return &Change{Path: f.Path, Removed: true}, nil
	}
	if f.TooLarge {
		return &Change{Path: f.Path, Skipped: "it was larger than the checkpoint size cap"}, nil
	}
	data, err := os.ReadFile(filepath.Join(s.dir, "blobs", f.Hash))
	if err != nil {
		return nil, fmt.Errorf("rewind %s: its checkpoint is gone: %w", f.Path, err)
	}
	if exists && string(cur) == string(data) {
		if fi, err := os.Stat(f.Path); err == nil && fi.Mode().Perm() == f.Mode {
			return nil, nil
		}
	}
	if !dryRun {
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return nil, fmt.Errorf("rewind %s: %w", f.Path, err)
		}
		if err := atomicfile.Write(f.Path, data, f.Mode); err != nil {
			return nil, fmt.Errorf("rewind %s: %w", f.Path, err)
		}
		// Write keeps an existing file's mode; the checkpoint's wins.
		if err := os.Chmod(f.Path, f.Mode); err != nil {
			return nil, fmt.Errorf("rewind %s: %w", f.Path, err)
		}
	}
	return &Change{Path: f.Path}, nil
}

// describe lists the kept turns for an error message.
func describe(turns []Turn) string {
	if len(turns) == 0 {
		return "the session has no checkpoints (no file was written by Edit, Write or NotebookEdit)"
	}
	return fmt.Sprintf("the session keeps turns %d to %d", turns[0].N, turns[len(turns)-1].N)
}

// turns reads the kept turns, oldest first (under mu); a store whose
// directory is not made yet keeps none.
func (s *Store) turns() ([]Turn, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "turns"))
	if errors.Is(err, fs.ErrNotExist) && !s.made {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint store: %w", err)
	}
	var out []Turn
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		if _, err := strconv.Atoi(name); err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir, "turns", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("checkpoint store: %w", err)
		}
		var t Turn
		if err := json.Unmarshal(data, &t); err != nil {
			return nil, fmt.Errorf("checkpoint store: turn file %s is damaged: %w", e.Name(), err)
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Turn) int { return a.N - b.N })
	return out, nil
}

// prune drops the oldest turns past maxTurns and the blobs no kept turn
// names (under mu).
func (s *Store) prune() error {
	turns, err := s.turns()
	if err != nil || len(turns) <= s.maxTurns {
		return err
	}
	for _, t := range turns[:len(turns)-s.maxTurns] {
		if err := os.Remove(s.turnPath(t.N)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checkpoint store: drop turn %d: %w", t.N, err)
		}
	}
	keep := map[string]bool{}
	for _, t := range turns[len(turns)-s.maxTurns:] {
		for _, f := range t.Files {
			keep[f.Hash] = true
		}
	}
	ents, err := os.ReadDir(filepath.Join(s.dir, "blobs"))
	if err != nil {
		return fmt.Errorf("checkpoint store: %w", err)
	}
	for _, e := range ents {
		if !keep[e.Name()] {
			_ = os.Remove(filepath.Join(s.dir, "blobs", e.Name()))
		}
	}
	return nil
}

// putBlob stores data once under its hash (under mu).
func (s *Store) putBlob(data []byte) (string, error) {
	if err := s.makeDirs(); err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	p := filepath.Join(s.dir, "blobs", h)
	if _, err := os.Stat(p); err == nil {
		return h, nil
	}
	if err := atomicfile.Write(p, data, 0o600); err != nil {
		return "", fmt.Errorf("checkpoint store: %w", err)
	}
	return h, nil
}

func (s *Store) turnPath(n int) string {
	return filepath.Join(s.dir, "turns", fmt.Sprintf("%06d.json", n))
}

// writeTurn saves t's index (under mu).
func (s *Store) writeTurn(t *Turn) error {
	if err := s.makeDirs(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("checkpoint store: %w", err)
	}
	if err := atomicfile.Write(s.turnPath(t.N), data, 0o600); err != nil {
		return fmt.Errorf("checkpoint store: %w", err)
	}
	return nil
}
