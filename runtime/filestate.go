package runtime

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// FileState records one read (or write) of a file by a tool.
type FileState struct {
	// Hash is the hex SHA-256 of the whole file content when read.
	Hash string
	// ModTime is the file's modification time when read.
	ModTime time.Time
	// Offset and Limit are the line range read (1-based offset; Limit 0 =
	// to the end).
	Offset, Limit int
	// Partial is true when only part of the file was seen.
	Partial bool
}

// FileStateCache maps absolute paths to what tools last saw of them. It is
// safe for concurrent use.
type FileStateCache struct {
	mu sync.RWMutex
	m  map[string]FileState
	// seq orders the paths by their last Set, for Recent.
	seq  map[string]uint64
	next uint64
}

// NewFileStateCache returns an empty cache.
func NewFileStateCache() *FileStateCache {
	return &FileStateCache{m: map[string]FileState{}}
}

// Get returns the recorded state of path.
func (c *FileStateCache) Get(path string) (FileState, bool) {
	if c == nil {
		return FileState{}, false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.m[path]
	return s, ok
}

// Set records the state of path. The zero value is an empty cache; on a
// nil cache (a ToolContext built without one) Set remembers nothing, so
// a later Edit refuses the file as unread, the fail-closed answer.
func (c *FileStateCache) Set(path string, s FileState) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]FileState{}
	}
	if c.seq == nil {
		c.seq = map[string]uint64{}
	}
	c.next++
	c.m[path], c.seq[path] = s, c.next
}

// Recent returns at most n of the recorded paths, the most recently set
// first: the files a compaction shows the model again.
func (c *FileStateCache) Recent(n int) []string {
	if c == nil || n <= 0 {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	paths := make([]string, 0, len(c.m))
	for p := range c.m {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int { return cmp.Compare(c.seq[b], c.seq[a]) })
	return paths[:min(n, len(paths))]
}

// Delete forgets path.
func (c *FileStateCache) Delete(path string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, path)
	delete(c.seq, path)
}

// Unshow records that what the model was shown of path has left the
// conversation (a compaction summarised it away): the next Read of path
// sends its content again instead of pointing back to an earlier result.
// Write checks, which look at the content's hash only, are unchanged.
func (c *FileStateCache) Unshow(path string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[path]; ok {
		s.Offset, s.Limit = 0, 0
		c.m[path] = s
	}
}

// Paths returns every recorded path, in no order.
func (c *FileStateCache) Paths() []string {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	paths := make([]string, 0, len(c.m))
	for p := range c.m {
		paths = append(paths, p)
	}
	return paths
}
