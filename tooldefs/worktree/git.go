// Package worktree is the engine of the EnterWorktree and ExitWorktree
// tools and of the Agent tool's isolation "worktree": git worktrees that
// agentcore makes under <repository root>/.agentcore/worktrees/<name>, each
// on a new branch agentcore/<name> that starts at the HEAD commit of the
// directory it was made from, and that it removes again when nothing was
// done in them. It runs the real git (os/exec), found on PATH.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Dir is where agentcore keeps its worktrees, relative to the
// repository's root.
const Dir = ".agentcore/worktrees"

// BranchPrefix starts the name of every branch agentcore makes for a
// worktree: the worktree "brave-otter-3f2a" is on agentcore/brave-otter-3f2a.
const BranchPrefix = "agentcore/"

// ErrNotRepo is wrapped by the errors of a directory outside every git
// repository.
var ErrNotRepo = errors.New("not inside a git repository")

// cleanupTimeout bounds the git commands that run when a worktree's user
// is done with it (Release), whose callers have no context of their own.
const cleanupTimeout = 30 * time.Second

// Repo is the git repository a directory belongs to.
type Repo struct {
	// Root is the top-level directory of the repository's main worktree,
	// where agentcore keeps its worktrees (Dir): worktrees made from a
	// linked worktree are its siblings, not nested in it.
	Root string
	// Top is the top-level directory of the worktree the directory is in:
	// Root, or a linked worktree.
	Top string
	// CommonDir is the git directory every worktree shares (Root/.git).
	CommonDir string
}

// FindRepo returns the repository dir belongs to. Outside a repository
// the error wraps ErrNotRepo and says what to do.
func FindRepo(ctx context.Context, dir string) (Repo, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel", "--git-common-dir")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return Repo{}, fmt.Errorf("git is not installed or not on PATH: worktrees need it (%w)", err)
		}
		return Repo{}, fmt.Errorf("%s is %w (%w): worktrees need one; run git init and commit there, or work without a worktree", dir, ErrNotRepo, err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		return Repo{}, fmt.Errorf("git rev-parse in %s answered %q: cannot tell the repository's root", dir, out)
	}
	top, common := filepath.Clean(lines[0]), lines[1]
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	common = filepath.Clean(common)
	root := top
	if filepath.Base(common) == ".git" {
		root = filepath.Dir(common)
	}
	return Repo{Root: root, Top: top, CommonDir: common}, nil
}

// Worktree is a worktree agentcore made.
type Worktree struct {
	// Name is the worktree's name, the last element of Path.
	Name string `json:"name"`
	// Path is its directory, Repo.Root/Dir/Name.
	Path string `json:"path"`
	// Branch is the branch checked out in it, BranchPrefix + Name.
	Branch string `json:"branch"`
	// Base is the commit the branch started at.
	Base string `json:"base"`
	// Repo is the repository it belongs to.
	Repo Repo `json:"-"`
}

// Create makes a worktree called name (a random one when name is empty)
// for the repository dir is in, on a new branch from dir's HEAD commit.
// A name already taken, by a worktree directory or a branch, is an error;
// a generated name is drawn again.
func Create(ctx context.Context, dir, name string) (*Worktree, error) {
	if name != "" {
		if err := ValidName(name); err != nil {
			return nil, err
		}
		return create(ctx, dir, func(int) (string, bool) { return name, false })
	}
	return create(ctx, dir, func(i int) (string, bool) { return RandomName(), i < 9 })
}

// ForAgent makes the worktree a sub-agent works in, named after the
// Agent call's tool_use id ("agent-" and the id's letters and digits), with
// a number added when that name is taken.
func ForAgent(ctx context.Context, dir, callID string) (*Worktree, error) {
	base := "agent-" + idPart(callID)
	return create(ctx, dir, func(i int) (string, bool) {
		if i == 0 {
			return base, true
		}
		return base + "-" + strconv.Itoa(i+1), i < 99
	})
}

// create adds the worktree named by names(0), or by names(1), names(2)…
// while a name is taken and names says to try another.
func create(ctx context.Context, dir string, names func(i int) (name string, again bool)) (*Worktree, error) {
	repo, err := FindRepo(ctx, dir)
	if err != nil {
		return nil, err
	}
	base, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("the repository at %s has no commit yet: a worktree starts from the HEAD commit, so commit first", repo.Top)
	}
	base = strings.TrimSpace(base)
	if err := exclude(repo); err != nil {
		return nil, err
	}
	for i := 0; ; i++ {
		name, again := names(i)
		w := &Worktree{Name: name, Path: filepath.Join(repo.Root, filepath.FromSlash(Dir), name), Branch: BranchPrefix + name, Base: base, Repo: repo}
		if taken := w.taken(ctx); taken != "" {
			if again {
				continue
			}
			return nil, fmt.Errorf("cannot create the worktree %q: %s already; pick another name, or leave name out for a new one", name, taken)
		}
		if _, err := git(ctx, dir, "worktree", "add", "-b", w.Branch, w.Path, base); err != nil {
			return nil, fmt.Errorf("git worktree add %s: %w", w.Path, err)
		}
		return w, nil
	}
}

// taken says what already holds w's directory or branch, "" when nothing.
func (w *Worktree) taken(ctx context.Context) string {
	if _, err := os.Lstat(w.Path); err == nil {
		return w.Path + " exists"
	}
	if _, err := git(ctx, w.Repo.Root, "show-ref", "--verify", "--quiet", "refs/heads/"+w.Branch); err == nil {
		return "the branch " + w.Branch + " exists"
	}
	return ""
}

// excludeLine keeps the worktrees out of the main checkout's git status
// (and out of Grep and Glob there): each is a nested checkout git would
// list as untracked.
const excludeLine = "/" + Dir + "/"

// exclude adds excludeLine to the repository's info/exclude, once.
func exclude(repo Repo) error {
	p := filepath.Join(repo.CommonDir, "info", "exclude")
	data, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read %s: %w", p, err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == excludeLine {
			return nil
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("keep the worktrees out of git status: %w", err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("keep the worktrees out of git status: %w", err)
	}
	add := "# agentcore's worktrees (EnterWorktree, Agent isolation)\n" + excludeLine + "\n"
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		add = "\n" + add
	}
	_, err = f.WriteString(add)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}

// Changes lists w's uncommitted changes, untracked files included, one
// `git status --porcelain` line each ("?? new.txt", " M main.go"). A
// worktree whose directory was deleted has none left.
func (w *Worktree) Changes(ctx context.Context) ([]string, error) {
	if _, err := os.Stat(w.Path); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	out, err := git(ctx, w.Path, "status", "--porcelain", "--untracked-files=normal")
	if err != nil {
		return nil, fmt.Errorf("git status in %s: %w", w.Path, err)
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// Commits counts the commits on w's branch that its base does not have.
func (w *Worktree) Commits(ctx context.Context) (int, error) {
	out, err := git(ctx, w.Repo.Root, "rev-list", "--count", w.Base+".."+"refs/heads/"+w.Branch)
	if err != nil {
		return 0, fmt.Errorf("count the commits of %s: %w", w.Branch, err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil {
		return 0, fmt.Errorf("count the commits of %s: git said %q", w.Branch, out)
	}
	return n, nil
}

// Removal is what Remove did with the branch.
type Removal struct {
	// BranchKept is true when the branch had commits beyond its base and
	// so was kept; Commits counts them.
	BranchKept bool `json:"branch_kept"`
	Commits    int  `json:"commits"`
}

// Remove deletes w's directory — with force, also when it has
// uncommitted changes, which are lost; without, git refuses — and then
// its branch, unless the branch has commits beyond its base: those are
// never deleted, the branch stays and Removal says so.
func (w *Worktree) Remove(ctx context.Context, force bool) (Removal, error) {
	commits, err := w.Commits(ctx)
	if err != nil {
		return Removal{}, err
	}
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	if _, statErr := os.Stat(w.Path); errors.Is(statErr, os.ErrNotExist) {
		// Deleted by hand: forget it.
		_, err = git(ctx, w.Repo.Root, "worktree", "prune")
	} else {
		_, err = git(ctx, w.Repo.Root, append(args, w.Path)...)
	}
	if err != nil {
		return Removal{}, fmt.Errorf("git worktree remove %s: %w", w.Path, err)
	}
	if commits > 0 {
		return Removal{BranchKept: true, Commits: commits}, nil
	}
	if _, err := git(ctx, w.Repo.Root, "branch", "-D", w.Branch); err != nil {
		return Removal{}, fmt.Errorf("the worktree %s was removed, but not its branch: git branch -D %s: %w", w.Path, w.Branch, err)
	}
	return Removal{}, nil
}

// Release removes w, and its branch, when nothing was done in it: no
// uncommitted change and no commit beyond its base. Otherwise, or when
// git fails, w stays, and kept is true. A nil w is nothing to release.
func (w *Worktree) Release() (kept bool, err error) {
	if w == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	changes, err := w.Changes(ctx)
	if err != nil {
		return true, err
	}
	commits, err := w.Commits(ctx)
	if err != nil {
		return true, err
	}
	if len(changes) > 0 || commits > 0 {
		return true, nil
	}
	if _, err := w.Remove(ctx, false); err != nil {
		return true, err
	}
	return false, nil
}

// Inside reports whether dir lies in one of the worktrees agentcore keeps
// in repo, and which.
func Inside(repo Repo, dir string) (path string, ok bool) {
	root := physical(filepath.Join(repo.Root, filepath.FromSlash(Dir)))
	rel, err := filepath.Rel(root, physical(dir))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	name, _, _ := strings.Cut(rel, string(filepath.Separator))
	return filepath.Join(root, name), true
}

func physical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// git runs git in dir and returns its standard output; a failure's error
// carries git's standard error. GIT_DIR and its kind, when set (inside a
// git hook), would point every command at one repository: they are
// dropped.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return stdout.String(), fmt.Errorf("%s: %w", msg, err)
		}
		return stdout.String(), err
	}
	return stdout.String(), nil
}
