// Package tasklist keeps a session's todo list and task list on disk, for
// TodoWrite and the Task tools: one directory per session
// (~/.agentcore/tasks/<session id>/), shared by the session's
// sub-agents, written atomically (temp file and rename) under a lock
// that holds across goroutines and processes, so nothing is lost when
// several agents update the list at once or the process dies.
package tasklist

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentcore/agentcore/runtime"
)

// EnvEnableTasks switches between the two sets of tools, as Claude Code
// switches between TodoWrite and its Task tools: truthy enables
// TaskCreate, TaskGet, TaskUpdate and TaskList and disables TodoWrite;
// anything else the other way round. Never both.
const EnvEnableTasks = "AGENTCORE_ENABLE_TASKS"

// TasksEnabled reports whether EnvEnableTasks picks the Task tools.
func TasksEnabled() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvEnableTasks))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Statuses of todos and tasks.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

// Store is one session's lists on disk.
type Store struct {
	// Dir holds todos.json, tasks.json and the lock file.
	Dir string
}

// For returns the store of tc's session: <config>/tasks/<id>, where
// <config> is the session's ToolOptions.ConfigDir ($AGENTCORE_CONFIG_DIR)
// or else <home>/.agentcore. Outside a session it fails with an error
// wrapping runtime.ErrNoSession.
func For(tc *runtime.ToolContext) (*Store, error) {
	s, err := runtime.Need[runtime.SessionInfo](tc, "the task list")
	if err != nil {
		return nil, err
	}
	config := runtime.ToolOptionsOf(tc).ConfigDir
	if config == "" {
		home := s.Home()
		if home == "" {
			return nil, errors.New("the session has no home directory to keep its task list in: set session.Options.Home or ToolOptions.ConfigDir")
		}
		config = filepath.Join(home, ".agentcore")
	}
	return &Store{Dir: filepath.Join(config, "tasks", s.ID())}, nil
}

// inProcess serialises the store's updates inside this process; the
// flock serialises processes.
var inProcess sync.Mutex

// locked runs f holding the store's lock.
func (s *Store) locked(f func() error) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("create the task directory: %w", err)
	}
	inProcess.Lock()
	defer inProcess.Unlock()
	lf, err := os.OpenFile(filepath.Join(s.Dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open the task list's lock: %w", err)
	}
	defer lf.Close()
	if err := lockFile(lf); err != nil {
		return fmt.Errorf("lock the task list: %w", err)
	}
	defer unlockFile(lf)
	return f()
}

// read decodes name into v; a missing file leaves v as it is.
func (s *Store) read(name string, v any) error {
	data, err := os.ReadFile(filepath.Join(s.Dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is damaged (%w): fix or remove it", filepath.Join(s.Dir, name), err)
	}
	return nil
}

// write replaces name with v's JSON atomically, synced before the rename.
func (s *Store) write(name string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, name+".*.tmp")
	if err != nil {
		return fmt.Errorf("write the task list: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(s.Dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the task list: %w", err)
	}
	return nil
}

// Todo is one item of the todo list.
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

// Todos returns the todo list.
func (s *Store) Todos() ([]Todo, error) {
	var todos []Todo
	err := s.locked(func() error { return s.read("todos.json", &todos) })
	return todos, err
}

// SetTodos replaces the todo list and returns the one it replaced.
func (s *Store) SetTodos(todos []Todo) (old []Todo, err error) {
	err = s.locked(func() error {
		if err := s.read("todos.json", &old); err != nil {
			return err
		}
		return s.write("todos.json", todos)
	})
	return old, err
}

// Task is one task of the task list.
type Task struct {
	ID          string `json:"id"`
	Subject     string `json:"subject"`
	Description string `json:"description"`
	ActiveForm  string `json:"activeForm,omitempty"`
	Status      string `json:"status"`
	Owner       string `json:"owner,omitempty"`
	// Blocks are the tasks that wait for this one; BlockedBy those this
	// one waits for.
	Blocks    []string `json:"blocks"`
	BlockedBy []string `json:"blockedBy"`
}

// List is the whole task list.
type List struct {
	// Next is the number the next task gets.
	Next  int    `json:"next"`
	Tasks []Task `json:"tasks"`
}

// Find returns the task id, or an error naming the known ids.
func (l *List) Find(id string) (*Task, error) {
	id = strings.TrimPrefix(strings.TrimSpace(id), "#")
	for i := range l.Tasks {
		if l.Tasks[i].ID == id {
			return &l.Tasks[i], nil
		}
	}
	if len(l.Tasks) == 0 {
		return nil, fmt.Errorf("no task %q: the task list is empty; create one with TaskCreate", id)
	}
	ids := make([]string, len(l.Tasks))
	for i, t := range l.Tasks {
		ids[i] = t.ID
	}
	return nil, fmt.Errorf("no task %q: the tasks are %s", id, strings.Join(ids, ", "))
}

// OpenBlockers returns the ids of t's blockers that are not completed.
func (l *List) OpenBlockers(t *Task) []string {
	var open []string
	for _, id := range t.BlockedBy {
		if b, err := l.Find(id); err == nil && b.Status != Completed {
			open = append(open, id)
		}
	}
	return open
}

// Tasks returns the task list.
func (s *Store) Tasks() (List, error) {
	var l List
	err := s.locked(func() error { return s.read("tasks.json", &l) })
	return l, err
}

// Update changes the task list under the lock: f gets the current list,
// and what it leaves is written back, unless it fails.
func (s *Store) Update(f func(*List) error) (List, error) {
	var l List
	err := s.locked(func() error {
		if err := s.read("tasks.json", &l); err != nil {
			return err
		}
		if err := f(&l); err != nil {
			return err
		}
		return s.write("tasks.json", l)
	})
	return l, err
}

// Mark is the sign the lists are rendered with: ✓ completed, ▸ in
// progress, ○ pending.
func Mark(status string) string {
	switch status {
	case Completed:
		return "✓"
	case InProgress:
		return "▸"
	}
	return "○"
}

// TodoLines renders a todo list, one line per item; the item in progress
// shows its activeForm.
func TodoLines(todos []Todo) string {
	if len(todos) == 0 {
		return "(no todos)"
	}
	lines := make([]string, len(todos))
	for i, t := range todos {
		text := t.Content
		if t.Status == InProgress && t.ActiveForm != "" {
			text = t.ActiveForm
		}
		lines[i] = Mark(t.Status) + " " + text
	}
	return strings.Join(lines, "\n")
}

// TaskLine renders one task: mark, id, subject, owner, open blockers.
func (l *List) TaskLine(t *Task) string {
	s := fmt.Sprintf("%s #%s %s", Mark(t.Status), t.ID, t.Subject)
	if t.Owner != "" {
		s += " (" + t.Owner + ")"
	}
	if open := l.OpenBlockers(t); len(open) > 0 {
		s += " [blocked by #" + strings.Join(open, ", #") + "]"
	}
	return s
}

// CompactReminder is a todo list as the model is shown it again after a
// compaction (runtime.CompactReminders), as Claude Code re-attaches it;
// "" for an empty list.
func CompactReminder(todos []Todo) string {
	if len(todos) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<system-reminder>\nYour todo list before the summary; it is still current. Keep it up to date with TodoWrite:\n")
	for i, t := range todos {
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, t.Status, t.Content)
	}
	b.WriteString("</system-reminder>")
	return b.String()
}
