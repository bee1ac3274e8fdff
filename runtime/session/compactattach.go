package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/fspath"
	"github.com/agentcore/agentcore/runtime/provider"
)

// What a compaction shows the model again, with Claude Code's budgets
// (compact.ts: POST_COMPACT_MAX_FILES_TO_RESTORE, POST_COMPACT_TOKEN_BUDGET,
// POST_COMPACT_MAX_TOKENS_PER_FILE), at four characters a token.
const (
	// RestoreMaxFiles is how many of the most recently read files are
	// attached to the summary.
	RestoreMaxFiles = 5
	// RestoreBudgetTokens bounds all the attached files together.
	RestoreBudgetTokens = 50_000
	// RestoreFileTokens bounds one attached file; a longer one is cut,
	// saying so.
	RestoreFileTokens = 5_000
)

// Attachments is what the summary message carries besides the summary
// (agent.CompactAttacher), as Claude Code re-attaches it: the most
// recently read files, read again from disk, unless the kept messages
// show them already, and what the tools keep for it
// (runtime.CompactReminders: TodoWrite's todo list). Every other file's
// earlier Read result is gone with the summarised messages, so the
// file-state cache stops pointing the model back to it
// (FileStateCache.Unshow); the read-before-write check is unchanged.
func (h compactHooks) Attachments(_ context.Context, _, kept []provider.Message) []provider.Block {
	s := h.s
	shown := s.filesShownIn(kept)
	var out []provider.Block
	restored := map[string]bool{}
	budget := RestoreBudgetTokens * 4
	for _, p := range s.tc.FileState.Recent(RestoreMaxFiles) {
		if shown[p] {
			continue
		}
		b, n, whole, ok := s.restoreFile(p, min(budget, RestoreFileTokens*4))
		if !ok {
			continue
		}
		out = append(out, b)
		restored[p] = whole
		if budget -= n; budget <= 0 {
			break
		}
	}
	for _, p := range s.tc.FileState.Paths() {
		if !shown[p] && !restored[p] {
			s.tc.FileState.Unshow(p)
		}
	}
	for _, text := range runtime.RemindersOf(s.tc).All() {
		out = append(out, provider.Text(text))
	}
	return out
}

// restoreFile reads the file at key again (inside the working
// directories, as Read would) and returns it as Claude Code's re-attached
// Read result, numbered as Read numbers it and cut at limit characters,
// with the characters used and whether it is whole. A file that is gone,
// outside the working directories, binary or empty is not attached. A file shown whole is
// recorded as shown, so a Read of it answers "unchanged"; its hash is the
// content's now, since that is what the model has.
func (s *Session) restoreFile(key string, limit int) (_ provider.Block, n int, whole, ok bool) {
	roots := s.tc.WorkingDirs
	if len(roots) == 0 && s.tc.Cwd != "" {
		roots = []string{s.tc.Cwd}
	}
	real, err := fspath.Confine(key, roots)
	if err != nil {
		return provider.Block{}, 0, false, false
	}
	f, err := os.Open(real)
	if err != nil {
		return provider.Block{}, 0, false, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return provider.Block{}, 0, false, false
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil || bytes.IndexByte(data, 0) >= 0 {
		return provider.Block{}, 0, false, false
	}
	whole = int64(len(data)) == fi.Size() && len(data) <= limit
	if !whole {
		data = data[:min(len(data), limit)]
		if i := bytes.LastIndexByte(data, '\n'); i > 0 {
			data = data[:i+1]
		}
	}
	var b strings.Builder
	input, _ := json.Marshal(map[string]string{"file_path": key})
	fmt.Fprintf(&b, "<system-reminder>\nCalled the Read tool with the following input: %s\nResult of calling the Read tool:\n", input)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	for i, l := range lines {
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteByte('\t')
		b.WriteString(strings.TrimSuffix(l, "\n"))
		b.WriteByte('\n')
	}
	if !whole {
		fmt.Fprintf(&b, "[Only the first %d lines are shown here. To read more, call Read with offset=%d.]\n", len(lines), len(lines)+1)
	} else {
		sum := sha256.Sum256(data)
		s.tc.FileState.Set(key, runtime.FileState{Hash: hex.EncodeToString(sum[:]), ModTime: fi.ModTime(), Offset: 1})
	}
	b.WriteString("</system-reminder>")
	return provider.Text(b.String()), len(data), whole, true
}

// filesShownIn returns the files whose content msgs hold (by the
// cache's key, the cleaned path): the targets of calls of the session's
// file readers, the tools that read a path (a path target that is not
// written) and never spill their result (a negative size cap: the CLI's
// Read).
func (s *Session) filesShownIn(msgs []provider.Message) map[string]bool {
	readers := map[string]runtime.Tool{}
	for _, t := range s.Tools() {
		if s.resultCap(t.Name(), t) < 0 {
			readers[t.Name()] = t
		}
	}
	shown := map[string]bool{}
	for _, m := range msgs {
		for _, u := range m.ToolUses() {
			t := readers[u.Name]
			if t == nil {
				continue
			}
			in, err := t.Decode(u.Input)
			if err != nil {
				continue
			}
			if target := targetOf(t, in); target.Kind == runtime.TargetPath && !target.Writes && target.Value != "" {
				shown[filepath.Clean(target.Value)] = true
			}
		}
	}
	return shown
}

// targetOf is t's permission target for in; the zero Target if the tool
// panics.
func targetOf(t runtime.Tool, in any) (target runtime.Target) {
	defer func() {
		if recover() != nil {
			target = runtime.Target{}
		}
	}()
	return t.PermissionTarget(in)
}
