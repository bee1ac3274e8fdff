// Package transcript keeps sessions on disk so that none is lost: every
// message of a conversation is appended, as it becomes final, to a JSONL
// file under <config dir>/projects/<dir>/<session id>.jsonl, where <dir>
// is the working directory made into a file name as Claude Code makes its
// ~/.claude/projects names (every character but a-z, A-Z and 0-9 becomes
// "-"). The file is synced at each turn end, so a process that is killed
// loses at most the turn in flight.
//
// A transcript read back (Load) is a conversation the API accepts: a line
// cut by the kill is dropped, and a tool_use whose result never got
// written (the process died while the call ran) is answered by a
// synthetic error tool_result, Interrupted, so every tool_use is paired.
// The model thus learns the call did not finish instead of losing the
// call it made; the assistant message with its text stays.
//
// Each line is one JSON object in Claude Code's transcript shape: type
// ("user" or "assistant"), uuid, parentUuid, sessionId, cwd, timestamp,
// version and message (the API message: role and content blocks). A line
// of type "amend" adds its message's blocks to the message before it (the
// notices the agent loop adds to the last user message before a request).
// A line of type "tool_result" holds one call's result the moment it was
// known (message: one tool_result block; toolUse: the call), before the
// turn's results message, which waits for every call: Load answers a
// tool_use with it when the process died before that message, so a call
// that ran is never reported as not run. A line of type "deferred" names
// a call (toolUse) a PreToolUse hook deferred: when the transcript ends
// with that call's assistant message, Load leaves the turn open
// (Repair.Deferred) instead of answering the call as interrupted, so a
// resumed run can ask the hooks again and run it.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
)

// Interrupted is the content of the synthetic tool_result that answers a
// tool_use whose result the transcript does not hold.
const Interrupted = "interrupted: the session ended before this call finished"

// Ext is the transcripts' file extension.
const Ext = ".jsonl"

// ConfigDir is agentcore's default user directory, home/.agentcore (the
// settings live there too); agentcore's AGENTCORE_CONFIG_DIR replaces it.
func ConfigDir(home string) string {
	return filepath.Join(home, ".agentcore")
}

// maxDirName is the length past which a project directory's name is cut
// and a hash of the whole path appended, as in Claude Code.
const maxDirName = 200

// DirName is the project directory name of the working directory cwd:
// every UTF-16 code unit that is not an ASCII letter or digit becomes
// "-" (/home/me/src → -home-me-src), and a name longer than 200
// characters is cut to 200 and followed by "-" and a base-36 hash of
// cwd — Claude Code's rule, so both tools name a directory alike.
func DirName(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	var b strings.Builder
	for _, u := range units {
		if u < 128 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			b.WriteByte(byte(u))
		} else {
			b.WriteByte('-')
		}
	}
	name := b.String()
	if len(name) <= maxDirName {
		return name
	}
	// JavaScript's classic string hash: h = h*31 + unit, in int32.
	var h int32
	for _, u := range units {
		h = h*31 + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return name[:maxDirName] + "-" + strconv.FormatInt(abs, 36)
}

// ValidID reports whether id is a UUID (8-4-4-4-12 hex digits, lower or
// upper case), the only form a session id takes (it names a file, so
// nothing else is let through). It is checked by hand rather than by a
// regexp compiled at every start.
func ValidID(id string) bool {
	if len(id) != 36 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// Store is where transcripts live: Root/<DirName(cwd)>/<id>.jsonl.
type Store struct {
	// Root is the projects directory, e.g. ~/.agentcore/projects.
	Root string
}

// StoreIn returns the store under agentcore's user directory configDir
// (configDir/projects; ConfigDir(home) by default).
func StoreIn(configDir string) Store { return Store{Root: filepath.Join(configDir, "projects")} }

// Path is the transcript file of session id in cwd.
func (s Store) Path(cwd, id string) string {
	return filepath.Join(s.Root, DirName(cwd), id+Ext)
}

// Info describes one stored session.
type Info struct {
	ID      string
	Path    string
	Cwd     string    // the working directory its first line names
	ModTime time.Time // when it was last written
	Prompt  string    // the first user prompt's text, cut to 80 characters
}

// List returns the sessions stored for cwd, the latest first.
func (s Store) List(cwd string) ([]Info, error) {
	dir := filepath.Join(s.Root, DirName(cwd))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the sessions of %s: %w", cwd, err)
	}
	var out []Info
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), Ext)
		if !ok || e.IsDir() || !ValidID(id) {
			continue
		}
		fi, err := e.Info()
		if err != nil || fi.Size() == 0 {
			continue
		}
		info := Info{ID: id, Path: filepath.Join(dir, e.Name()), ModTime: fi.ModTime()}
		info.Cwd, info.Prompt = peek(info.Path)
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b Info) int { return b.ModTime.Compare(a.ModTime) })
	return out, nil
}

// Find looks for session id in every project directory of the store: the
// session's Info, and false when no directory holds it.
func (s Store) Find(id string) (Info, bool) {
	if !ValidID(id) {
		return Info{}, false
	}
	dirs, _ := os.ReadDir(s.Root)
	for _, d := range dirs {
		p := filepath.Join(s.Root, d.Name(), id+Ext)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			info := Info{ID: id, Path: p, ModTime: fi.ModTime()}
			info.Cwd, info.Prompt = peek(p)
			return info, true
		}
	}
	return Info{}, false
}

// peek reads a transcript's first lines for its directory and first
// prompt.
func peek(path string) (cwd, prompt string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for i := 0; i < 20 && sc.Scan(); i++ {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if cwd == "" {
			cwd = e.Cwd
		}
		if e.Type == "user" && e.Message != nil {
			for _, b := range e.Message.Content {
				if b.Type == provider.TextBlock && b.Text != "" {
					prompt = b.Text
					break
				}
			}
		}
		if cwd != "" && prompt != "" {
			break
		}
	}
	prompt = strings.Join(strings.Fields(prompt), " ")
	if r := []rune(prompt); len(r) > 80 {
		prompt = string(r[:79]) + "…"
	}
	return cwd, prompt
}

// ErrExists is Create's error when the session's file is already there.
var ErrExists = errors.New("the session already exists")

// ErrNotFound is the error of Resume and Latest when there is no such
// session; the message says how to find one.
var ErrNotFound = errors.New("no such session")

// Latest returns the id of cwd's most recently written session, or an
// ErrNotFound error.
func (s Store) Latest(cwd string) (string, error) {
	list, err := s.List(cwd)
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", fmt.Errorf("%w: no conversation found to continue in %s (sessions are kept in %s)", ErrNotFound, cwd, filepath.Join(s.Root, DirName(cwd)))
	}
	return list[0].ID, nil
}

// Meta is what every line of a transcript repeats.
type Meta struct {
	SessionID string
	Cwd       string
	// Version is the program's version, written on each line.
	Version string
}

// Create starts the transcript of a new session, which must not exist
// yet (ErrExists). The file (and its directory) is made at the first
// message, so a session that never got a prompt leaves nothing behind.
func (s Store) Create(meta Meta) (*Writer, error) {
	if !ValidID(meta.SessionID) {
		return nil, fmt.Errorf("invalid session ID %q: it must be a UUID", meta.SessionID)
	}
	path := s.Path(meta.Cwd, meta.SessionID)
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("session ID %s is already in use (%s): %w", meta.SessionID, path, ErrExists)
	}
	return &Writer{path: path, meta: meta, create: true}, nil
}

// open makes the file of a new session. Callers hold w.mu.
func (w *Writer) open() error {
	if err := os.MkdirAll(filepath.Dir(w.path), 0o700); err != nil {
		return fmt.Errorf("session transcript: %w", err)
	}
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("session ID %s is already in use (%s): %w", w.meta.SessionID, w.path, ErrExists)
	}
	if err != nil {
		return fmt.Errorf("session transcript: %w", err)
	}
	w.f, w.create = f, false
	return nil
}

// Resume opens session id of cwd to continue it: its conversation,
// repaired as Load does, and a Writer appending to the same file. When the
// repair answered dangling tool_use blocks, the answers are written first,
// so the file reads as the model will see it. An unknown id is an
// ErrNotFound error that lists cwd's sessions, or names the directory the
// session belongs to.
func (s Store) Resume(cwd, id string) (*Writer, []provider.Message, error) {
	if !ValidID(id) {
		return nil, nil, fmt.Errorf("%w: %q is not a session ID (a UUID); %s", ErrNotFound, id, s.howToFind(cwd))
	}
	path := s.Path(cwd, id)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if info, ok := s.Find(id); ok && info.Cwd != "" {
			return nil, nil, fmt.Errorf("%w: session %s belongs to another directory, %s (its transcript is %s); resume it from there: cd %s && agentcore --resume %s",
				ErrNotFound, id, info.Cwd, info.Path, info.Cwd, id)
		}
		return nil, nil, fmt.Errorf("%w: no conversation found with session ID %s in %s; %s", ErrNotFound, id, cwd, s.howToFind(cwd))
	}
	msgs, rep, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("session transcript: %w", err)
	}
	if rep.Truncated > 0 { // a line cut by the kill: the next one starts clean
		if err := f.Truncate(rep.Valid); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("session transcript: drop the cut last line: %w", err)
		}
	}
	if rep.unterminated {
		if _, err := f.Write([]byte{'\n'}); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("session transcript: %w", err)
		}
	}
	w := &Writer{f: f, path: path, meta: Meta{SessionID: id, Cwd: cwd}, parent: rep.LastUUID, pending: rep.Deferred}
	for _, m := range rep.Added {
		w.Add(m)
	}
	if len(rep.Added) > 0 {
		w.TurnEnd()
	}
	return w, msgs, w.Err()
}

// Fork starts a new session (meta's id) whose transcript begins with
// msgs: Claude Code's --fork-session.
func (s Store) Fork(meta Meta, msgs []provider.Message) (*Writer, error) {
	w, err := s.Create(meta)
	if err != nil {
		return nil, err
	}
	for _, m := range msgs {
		w.Add(m)
	}
	w.TurnEnd()
	return w, w.Err()
}

// ForkDeferred is Fork for a conversation that ends with a deferred turn
// (Writer.Pending of the session forked): the new transcript keeps it
// open too.
func (s Store) ForkDeferred(meta Meta, msgs []provider.Message, d *agent.Deferred) (*Writer, error) {
	w, err := s.Fork(meta, msgs)
	if err != nil || d == nil {
		return w, err
	}
	for _, u := range d.Uses {
		if r, ok := d.Results[u.ID]; ok {
			w.ToolResult(u, r)
		} else {
			w.Deferred(u)
		}
	}
	w.pending = d
	w.TurnEnd()
	return w, w.Err()
}

// howToFind says where cwd's sessions are, naming the latest few.
func (s Store) howToFind(cwd string) string {
	list, _ := s.List(cwd)
	if len(list) == 0 {
		return fmt.Sprintf("this directory has no stored sessions (they are kept in %s)", filepath.Join(s.Root, DirName(cwd)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "this directory's sessions, the latest first (agentcore -c continues the latest; all are in %s):", filepath.Join(s.Root, DirName(cwd)))
	for i, in := range list {
		if i == 5 {
			fmt.Fprintf(&b, "\n  … and %d more", len(list)-i)
			break
		}
		fmt.Fprintf(&b, "\n  %s  %s  %s", in.ID, in.ModTime.Format("2006-01-02 15:04"), in.Prompt)
	}
	return b.String()
}

// entry is one line of a transcript.
type entry struct {
	Type       string            `json:"type"`
	UUID       string            `json:"uuid"`
	ParentUUID *string           `json:"parentUuid"`
	SessionID  string            `json:"sessionId"`
	Cwd        string            `json:"cwd"`
	Timestamp  string            `json:"timestamp"`
	Version    string            `json:"version,omitempty"`
	Message    *provider.Message `json:"message"`
	// ToolUse is the call a "tool_result" line answers.
	ToolUse *provider.Block `json:"toolUse,omitempty"`
}

// early is a tool result recorded as its call ended ("tool_result"
// lines); at is how many messages were read before it.
type early struct {
	use, result provider.Block
	at          int
}

// Repair is what Load changed to make a transcript a valid conversation.
type Repair struct {
	// Truncated counts the bytes of a last line cut short (not ending in
	// a newline and not JSON), dropped.
	Truncated int64
	// Valid is the length of the file without that line.
	Valid int64
	// Skipped counts other lines that were not messages (not JSON, or
	// of an unknown type), left out.
	Skipped int
	// Answered are the ids of the tool_use blocks answered with an
	// Interrupted result.
	Answered []string
	// Recovered are the ids of the tool_use blocks answered with the
	// result recorded as the call ended (a "tool_result" line), the
	// turn's results message never written.
	Recovered []string
	// Added are the messages Load inserted: user messages holding those
	// results (Resume writes them to the file).
	Added []provider.Message
	// Deferred is the turn the transcript ends with when a PreToolUse
	// hook deferred some of its calls ("deferred" lines): the messages
	// end with its assistant message, unanswered, and its calls that ran
	// have their results here. nil otherwise.
	Deferred *agent.Deferred
	// LastUUID is the uuid of the last line read.
	LastUUID string
	// unterminated: the last line is whole but lacks its newline.
	unterminated bool
}

// Load reads the transcript at path: its messages, every tool_use paired
// with a tool_result (see Repair), and what was repaired.
func Load(path string) ([]provider.Message, Repair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Repair{}, fmt.Errorf("session transcript: %w", err)
	}
	var rep Repair
	var msgs []provider.Message
	var results []early
	deferred := map[string]bool{}
	off := int64(0)
	for len(data) > 0 {
		line, rest, complete := bytes.Cut(data, []byte{'\n'})
		var e entry
		bad := json.Unmarshal(line, &e) != nil
		if !complete && bad { // the kill cut the last write
			rep.Truncated = int64(len(line))
			break
		}
		off += int64(len(line))
		if complete {
			off++
		} else {
			rep.unterminated = true
		}
		data = rest
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if bad || e.Message == nil {
			rep.Skipped++
			continue
		}
		rep.LastUUID = e.UUID
		switch e.Type {
		case "user", "assistant":
			m := *e.Message
			m.Role = provider.Role(e.Type)
			msgs = append(msgs, m)
		case "amend":
			if n := len(msgs); n > 0 {
				msgs[n-1].Content = append(msgs[n-1].Content, e.Message.Content...)
			}
		case "compact_boundary":
			// A compaction: the messages after the boundary are the
			// whole conversation from here on.
			msgs, results, deferred = nil, nil, map[string]bool{}
		case "deferred":
			if e.ToolUse == nil || e.ToolUse.Type != provider.ToolUseBlock {
				rep.Skipped++
				continue
			}
			deferred[e.ToolUse.ID] = true
		case "tool_result":
			if e.ToolUse == nil || e.ToolUse.Type != provider.ToolUseBlock || len(e.Message.Content) != 1 ||
				e.Message.Content[0].Type != provider.ToolResultBlock || e.Message.Content[0].ToolUseID != e.ToolUse.ID {
				rep.Skipped++
				continue
			}
			results = append(results, early{use: *e.ToolUse, result: e.Message.Content[0], at: len(msgs)})
		default:
			rep.Skipped++
		}
	}
	rep.Valid = off
	msgs = pair(msgs, results, deferred, &rep)
	return msgs, rep, nil
}

// openTurn is the deferred turn msgs end with: the last message is an
// assistant message one of whose unanswered calls a "deferred" line names.
// Its other calls get the results recorded for them, or Interrupted.
func openTurn(msgs []provider.Message, recorded map[string]provider.Block, deferred map[string]bool, rep *Repair) *agent.Deferred {
	n := len(msgs)
	if n == 0 || msgs[n-1].Role != provider.Assistant {
		return nil
	}
	uses := msgs[n-1].ToolUses()
	if !slices.ContainsFunc(uses, func(u provider.Block) bool { _, ran := recorded[u.ID]; return deferred[u.ID] && !ran }) {
		return nil
	}
	d := &agent.Deferred{Uses: uses, Results: map[string]provider.Block{}}
	for _, u := range uses {
		if r, ok := recorded[u.ID]; ok {
			d.Results[u.ID] = r
			rep.Recovered = append(rep.Recovered, u.ID)
		} else if !deferred[u.ID] {
			d.Results[u.ID] = provider.ToolResult(u.ID, runtime.ErrorResult(Interrupted))
			rep.Answered = append(rep.Answered, u.ID)
		}
	}
	return d
}

// pair answers every tool_use that no tool_result of the next message
// answers — with the result recorded as its call ended when there is one,
// else Interrupted — and drops tool_results that answer no tool_use of
// the message before. Results recorded after the last message for calls
// no message holds (the process died before the response's message was
// written) are added at the end with their calls, so what ran is known.
func pair(msgs []provider.Message, results []early, deferred map[string]bool, rep *Repair) []provider.Message {
	recorded := map[string]provider.Block{}
	for _, r := range results {
		recorded[r.use.ID] = r.result
	}
	if rep.Deferred = openTurn(msgs, recorded, deferred, rep); rep.Deferred != nil {
		// The open turn's last message stays unanswered: the rest is
		// paired as usual.
		n := len(msgs) - 1
		return append(pairRecorded(msgs[:n], recorded, rep), msgs[n])
	}
	out := pairRecorded(msgs, recorded, rep)

	known := map[string]bool{}
	for _, m := range out {
		for _, u := range m.ToolUses() {
			known[u.ID] = true
		}
	}
	var call, answer provider.Message
	for _, r := range results {
		if r.at != len(msgs) || known[r.use.ID] {
			continue // its call is in the history, or was dropped (a retried response)
		}
		known[r.use.ID] = true
		call.Content = append(call.Content, r.use)
		answer.Content = append(answer.Content, r.result)
		rep.Recovered = append(rep.Recovered, r.use.ID)
	}
	if len(call.Content) > 0 {
		call.Role, answer.Role = provider.Assistant, provider.User
		if n := len(out); n > 0 && out[n-1].Role == provider.Assistant {
			// Cannot happen in a file the loop wrote (the last message
			// would have its results); keep the API's alternation anyway.
			return out
		}
		rep.Added = append(rep.Added, call, answer)
		out = append(out, call, answer)
	}
	return out
}

func pairRecorded(msgs []provider.Message, recorded map[string]provider.Block, rep *Repair) []provider.Message {
	var out []provider.Message
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == provider.User {
			m = dropOrphans(m, out)
			if len(m.Content) == 0 {
				continue
			}
			out = append(out, m)
			continue
		}
		out = append(out, m)
		uses := m.ToolUses()
		if len(uses) == 0 {
			continue
		}
		answered := map[string]bool{}
		if i+1 < len(msgs) && msgs[i+1].Role == provider.User {
			for _, b := range msgs[i+1].Content {
				if b.Type == provider.ToolResultBlock {
					answered[b.ToolUseID] = true
				}
			}
		}
		var missing []provider.Block
		for _, u := range uses {
			if answered[u.ID] {
				continue
			}
			if r, ok := recorded[u.ID]; ok {
				missing = append(missing, r)
				rep.Recovered = append(rep.Recovered, u.ID)
				continue
			}
			missing = append(missing, provider.ToolResult(u.ID, runtime.ErrorResult(Interrupted)))
			rep.Answered = append(rep.Answered, u.ID)
		}
		if len(missing) == 0 {
			continue
		}
		if i+1 < len(msgs) && msgs[i+1].Role == provider.User {
			// The results the file holds, then the missing ones, in
			// front of the message's other blocks (a later prompt).
			next := msgs[i+1]
			var results, others []provider.Block
			for _, b := range next.Content {
				if b.Type == provider.ToolResultBlock {
					results = append(results, b)
				} else {
					others = append(others, b)
				}
			}
			next.Content = append(append(results, missing...), others...)
			msgs[i+1] = next
			continue
		}
		add := provider.Message{Role: provider.User, Content: missing}
		rep.Added = append(rep.Added, add)
		out = append(out, add)
	}
	return out
}

// dropOrphans removes from user message m the tool_results that answer no
// tool_use of the assistant message before it.
func dropOrphans(m provider.Message, before []provider.Message) provider.Message {
	ids := map[string]bool{}
	if n := len(before); n > 0 && before[n-1].Role == provider.Assistant {
		for _, u := range before[n-1].ToolUses() {
			ids[u.ID] = true
		}
	}
	var kept []provider.Block
	for _, b := range m.Content {
		if b.Type == provider.ToolResultBlock && !ids[b.ToolUseID] {
			continue
		}
		kept = append(kept, b)
	}
	m.Content = kept
	return m
}

// Writer appends a session's messages to its transcript. Its methods are
// safe for concurrent use. A write that fails is kept as Err and the
// following writes are skipped: the conversation goes on, and the caller
// says once that the transcript is incomplete.
type Writer struct {
	mu     sync.Mutex
	f      *os.File
	path   string
	meta   Meta
	parent string
	err    error
	create bool // the file is made at the first write
	closed bool
	// pending is the deferred turn the resumed transcript ends with.
	pending *agent.Deferred
	// held is true between Hold and Release: lines wait in heldLines.
	held      bool
	heldLines []byte
	// Now is the clock of the timestamps; nil: time.Now.
	Now func() time.Time
}

// Path is the transcript's file.
func (w *Writer) Path() string { return w.path }

// ID is the session's id.
func (w *Writer) ID() string { return w.meta.SessionID }

// SetVersion sets the version written on each later line.
func (w *Writer) SetVersion(v string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.meta.Version = v
}

// Add appends m, a message now final, as one line (one write; after Hold,
// at Release).
func (w *Writer) Add(m provider.Message) { w.write(string(m.Role), m) }

// ToolResult appends the result of the call use as one "tool_result"
// line, the moment the call ended: a process killed before the turn's
// results message keeps it (the agent loop's ResultRecorder).
func (w *Writer) ToolResult(use, result provider.Block) {
	w.writeEntry("tool_result", provider.Message{Role: provider.User, Content: []provider.Block{result}}, &use)
}

// Deferred appends a "deferred" line naming use, a call of the last
// assistant message a PreToolUse hook deferred (the agent loop's
// DeferRecorder): Load leaves it open for a resumed run.
func (w *Writer) Deferred(use provider.Block) {
	w.writeEntry("deferred", provider.Message{Role: provider.User}, &use)
	w.TurnEnd()
}

// Pending is the deferred turn the transcript Resume opened ends with
// (Repair.Deferred), nil when there is none: pass it to the agent loop
// as Config.Deferred with the messages.
func (w *Writer) Pending() *agent.Deferred {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pending
}

// Amend appends blocks added to the last message.
func (w *Writer) Amend(blocks []provider.Block) {
	if len(blocks) == 0 {
		return
	}
	w.write("amend", provider.Message{Role: provider.User, Content: blocks})
}

func (w *Writer) write(typ string, m provider.Message) { w.writeEntry(typ, m, nil) }

func (w *Writer) writeEntry(typ string, m provider.Message, use *provider.Block) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil || w.closed {
		return
	}
	now := time.Now
	if w.Now != nil {
		now = w.Now
	}
	if m.Content == nil {
		m.Content = []provider.Block{}
	}
	e := entry{Type: typ, UUID: runtime.NewUUID(), SessionID: w.meta.SessionID, Cwd: w.meta.Cwd,
		Timestamp: now().UTC().Format("2006-01-02T15:04:05.000Z"), Version: w.meta.Version, Message: &m, ToolUse: use}
	if w.parent != "" {
		p := w.parent
		e.ParentUUID = &p
	}
	line, err := json.Marshal(e)
	if err != nil {
		w.err = fmt.Errorf("session transcript %s: %w", w.path, err)
		return
	}
	w.parent = e.UUID
	w.heldLines = append(append(w.heldLines, line...), '\n')
	if !w.held {
		w.writeHeld()
	}
}

// Hold keeps the lines added from now on in memory, unwritten, until
// Release (or TurnEnd, Err, Close): a session holds them while it sends
// a turn's model request, so that making a new session's file (1 ms on
// some disks) and the write wait until the request is out. A process
// killed meanwhile loses them.
func (w *Writer) Hold() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = true
}

// Release writes the lines held since Hold, in one write, and writes each
// later line as it is added again.
func (w *Writer) Release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = false
	w.writeHeld()
}

// writeHeld writes the lines waiting in heldLines, making the file of a
// new session first (under mu).
func (w *Writer) writeHeld() {
	if len(w.heldLines) == 0 || w.err != nil {
		return
	}
	if w.create {
		if w.err = w.open(); w.err != nil {
			return
		}
	}
	if _, err := w.f.Write(w.heldLines); err != nil {
		w.err = fmt.Errorf("session transcript %s: %w", w.path, err)
	}
	w.heldLines = w.heldLines[:0]
}

// Compacted records a compaction (the agent loop's CompactRecorder): a
// "compact_boundary" line, then msgs, the conversation that replaces
// everything before it; Load starts over at the boundary.
func (w *Writer) Compacted(_ agent.CompactInfo, msgs []provider.Message) {
	w.write("compact_boundary", provider.Message{Role: provider.User})
	for _, m := range msgs {
		w.Add(m)
	}
	w.TurnEnd()
}

// TurnEnd syncs the file to disk: what was added so far survives a crash.
func (w *Writer) TurnEnd() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = false
	w.writeHeld()
	if w.err != nil || w.f == nil {
		return
	}
	if err := w.f.Sync(); err != nil {
		w.err = fmt.Errorf("session transcript %s: sync: %w", w.path, err)
	}
}

// Err is the first write or sync error, if any.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = false
	w.writeHeld()
	return w.err
}

// Close syncs and closes the file; it returns Err or the close's error.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held = false
	w.writeHeld()
	w.closed = true
	if w.f == nil {
		return w.err
	}
	if w.err == nil {
		if err := w.f.Sync(); err != nil {
			w.err = fmt.Errorf("session transcript %s: sync: %w", w.path, err)
		}
	}
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("session transcript %s: %w", w.path, err)
	}
	w.f = nil
	return w.err
}

var _ io.Closer = (*Writer)(nil)
