package shell

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcore/agentcore/runtime"
)

// MonitorPrefix starts every monitor's ID.
const MonitorPrefix = "monitor_"

// monitorMaxLine caps each line a notification carries, in bytes.
const monitorMaxLine = 2000

// MonitorPoll is how often a monitor reads its task's output file.
const MonitorPoll = 100 * time.Millisecond

// MonitorSet is a session's monitors (the Monitor tool's watches of
// background shells); the session's Close stops them all and waits.
type MonitorSet struct {
	mu   sync.Mutex
	seq  int
	all  map[string]*Watch
	wg   sync.WaitGroup
	quit chan struct{}
}

// Monitors returns tc's session's monitors, made on first use and
// stopped when the session closes.
func Monitors(tc *runtime.ToolContext) (*MonitorSet, error) {
	m, err := runtime.SessionValue(tc, func() (*MonitorSet, func()) {
		m := &MonitorSet{all: map[string]*Watch{}, quit: make(chan struct{})}
		return m, m.stopAll
	})
	if err != nil {
		return nil, fmt.Errorf("monitor: %w", err)
	}
	return m, nil
}

// FindMonitor finds the monitor id of tc's session.
func FindMonitor(tc *runtime.ToolContext, id string) (*Watch, error) {
	m, err := Monitors(tc)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.all[id]
	if !ok {
		return nil, fmt.Errorf("no monitor found with ID %q: use the ID Monitor returned", id)
	}
	return w, nil
}

func (m *MonitorSet) stopAll() {
	m.mu.Lock()
	select {
	case <-m.quit:
	default:
		close(m.quit)
	}
	m.mu.Unlock()
	m.wg.Wait()
}

// Watch is one monitor: a goroutine reading a background shell's output
// file from its start, line by line.
type Watch struct {
	// ID names the watch for TaskStop ("monitor_1").
	ID string
	// Task is the shell watched.
	Task *Task
	stop chan struct{}
	done chan struct{}

	mu     sync.Mutex
	status string // running, completed (the task ended), limit, timeout, killed
	sent   int
	once   sync.Once
}

// WatchOptions say what a watch sends and when it ends.
type WatchOptions struct {
	// Pattern selects the lines sent; nil sends every line.
	Pattern *regexp.Regexp
	// MaxLines ends the watch once that many lines were sent.
	MaxLines int
	// Timeout ends the watch; zero means none (a persistent watch, until
	// TaskStop or the session's end).
	Timeout time.Duration
	// OwnsTask kills the task when the watch ends before it (the limit,
	// the timeout, TaskStop): Monitor started the command for the watch.
	OwnsTask bool
}

// Start watches task: each read's complete lines that the pattern matches
// go to notify as one task notification, until the task ends, MaxLines
// lines were sent, the timeout passes, Kill or the session's end.
func (m *MonitorSet) Start(task *Task, o WatchOptions, notify func(string)) *Watch {
	if o.Pattern == nil {
		o.Pattern = regexp.MustCompile("")
	}
	m.mu.Lock()
	m.seq++
	w := &Watch{ID: MonitorPrefix + strconv.Itoa(m.seq), Task: task, stop: make(chan struct{}), done: make(chan struct{}), status: string(StatusRunning)}
	m.all[w.ID] = w
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		defer close(w.done)
		w.run(o, notify, m.quit)
		if o.OwnsTask {
			_ = task.Kill() // ErrNotRunning when it ended by itself
		}
	}()
	return w
}

// run reads complete lines as they come and sends the matching ones as
// one notification per poll, until the task ended (and its rest was
// read), the limit, the timeout, TaskStop or the session's end.
func (w *Watch) run(o WatchOptions, notify func(string), quit <-chan struct{}) {
	re, maxLines, timeout := o.Pattern, o.MaxLines, o.Timeout
	var expired <-chan time.Time
	if timeout > 0 {
		deadline := time.NewTimer(timeout)
		defer deadline.Stop()
		expired = deadline.C
	}
	tick := time.NewTicker(MonitorPoll)
	defer tick.Stop()
	var (
		offset  int64
		partial string
	)
	for {
		ended := false
		select {
		case <-quit:
			w.end("killed")
			return
		case <-w.stop:
			w.end("killed")
			return
		case <-expired:
			w.end("timeout")
			still := "the task may still run"
			if o.OwnsTask {
				still = "its command was stopped"
			}
			notify(w.notice(nil, fmt.Sprintf("Monitor %s expired after %s; %s.", w.ID, timeout, still)))
			return
		case <-w.Task.Done():
			ended = true
		case <-tick.C:
		}
		chunk, n := readFrom(w.Task.OutputPath, offset, ended)
		offset += n
		text := partial + chunk
		lines := strings.Split(text, "\n")
		partial = lines[len(lines)-1]
		lines = lines[:len(lines)-1]
		if ended && partial != "" {
			lines, partial = append(lines, partial), ""
		}
		var match []string
		limit := false
		for _, l := range lines {
			if !re.MatchString(l) {
				continue
			}
			if w.sent+len(match) >= maxLines {
				limit = true
				break
			}
			if len(l) > monitorMaxLine {
				l = l[:completeUTF8([]byte(l[:monitorMaxLine]))] + "… (line cut)"
			}
			match = append(match, l)
		}
		w.mu.Lock()
		w.sent += len(match)
		w.mu.Unlock()
		switch {
		case limit:
			w.end("limit")
			notify(w.notice(match, fmt.Sprintf("Monitor %s stopped: it sent max_lines (%d) lines.", w.ID, maxLines)))
			return
		case ended:
			st, code := w.Task.State()
			w.end("completed")
			notify(w.notice(match, fmt.Sprintf("Monitor %s ended: task %s %s (exit code %d).", w.ID, w.Task.ID, st, code)))
			return
		case len(match) > 0:
			notify(w.notice(match, ""))
		}
	}
}

// notice is a task notification with the lines and, when the watch
// ends, why.
func (w *Watch) notice(lines []string, end string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<task-notification>\n<task-id>%s</task-id>\n<source>%s</source>\n", w.ID, w.Task.ID)
	if len(lines) > 0 {
		b.WriteString("<output>\n" + strings.Join(lines, "\n") + "\n</output>\n")
	}
	if end != "" {
		b.WriteString("<summary>" + end + "</summary>\n")
	}
	b.WriteString("</task-notification>")
	return b.String()
}

func (w *Watch) end(status string) {
	w.mu.Lock()
	if w.status == string(StatusRunning) {
		w.status = status
	}
	w.mu.Unlock()
}

// Kill stops the watch, and the task when the watch owns it (see
// WatchOptions.OwnsTask), and waits for its goroutine.
func (w *Watch) Kill() error {
	select {
	case <-w.done:
		return ErrNotRunning
	default:
	}
	w.once.Do(func() { close(w.stop) })
	<-w.done
	return nil
}

// readFrom reads what path holds past offset: at most 1 MiB a poll, the
// whole rest when all is true.
func readFrom(path string, offset int64, all bool) (string, int64) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return "", 0
	}
	var r io.Reader = f
	if !all {
		r = io.LimitReader(f, 1<<20)
	}
	b, _ := io.ReadAll(r)
	return string(b), int64(len(b))
}

// Done is closed when the watch has ended.
func (w *Watch) Done() <-chan struct{} { return w.done }

// Status is running, or why the watch ended: completed (the task ended),
// limit, timeout or killed.
func (w *Watch) Status() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.status
}
