package runtime

import (
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
	c.m[path] = s
}

// Delete forgets path.
func (c *FileStateCache) Delete(path string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, path)
}
