package tui

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// History is the prompts typed in one directory, kept as JSON lines in
// ~/.agentcore/history/<dir>.jsonl (dir with its separators replaced).
type History struct {
	path    string
	entries []string
}

// HistoryPath is where the history of directory dir is kept under home.
func HistoryPath(home, dir string) string {
	name := strings.NewReplacer(string(filepath.Separator), "-", ":", "-").Replace(filepath.Clean(dir))
	return filepath.Join(home, ".agentcore", "history", name+".jsonl")
}

// LoadHistory reads the history at path; a missing file is empty.
func LoadHistory(path string) *History {
	h := &History{path: path}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		var e struct{ Prompt string }
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Prompt != "" {
			h.entries = append(h.entries, e.Prompt)
		}
	}
	return h
}

// Entries are the prompts, oldest first.
func (h *History) Entries() []string { return h.entries }

// Add appends p (not a repeat of the last) and saves it.
func (h *History) Add(p string) {
	if n := len(h.entries); n > 0 && h.entries[n-1] == p {
		return
	}
	h.entries = append(h.entries, p)
	if h.path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(h.path), 0o700) != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	b, _ := json.Marshal(struct {
		Prompt string `json:"prompt"`
	}{p})
	f.Write(append(b, '\n'))
}
