package worktree_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/tooldefs/worktree"
)

// gitIn runs git in dir with a fixed identity and no user configuration,
// and returns its output.
func gitIn(dir string, args ...string) string {
	GinkgoHelper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Spec", "-c", "user.email=spec@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "git %v: %s", args, out)
	return string(out)
}

// newRepo makes a repository in a new directory with one commit.
func newRepo() string {
	GinkgoHelper()
	dir, err := filepath.EvalSymlinks(GinkgoT().TempDir())
	Expect(err).NotTo(HaveOccurred())
	gitIn(dir, "init", "-q")
	Expect(os.WriteFile(filepath.Join(dir, "README"), []byte("hello\n"), 0o644)).To(Succeed())
	Expect(os.MkdirAll(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("a\n"), 0o644)).To(Succeed())
	gitIn(dir, "add", ".")
	gitIn(dir, "commit", "-q", "-m", "first")
	return dir
}

func branchExists(repo, branch string) bool {
	return exec.Command("git", "-C", repo, "show-ref", "--verify", "--quiet", "refs/heads/"+branch).Run() == nil
}

var _ = Describe("worktrees", func() {
	ctx := context.Background()
	var repo string

	BeforeEach(func() { repo = newRepo() })

	It("finds the repository's root from a subdirectory", func() {
		r, err := worktree.FindRepo(ctx, filepath.Join(repo, "sub"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Root).To(Equal(repo))
		Expect(r.Top).To(Equal(repo))
		Expect(r.CommonDir).To(Equal(filepath.Join(repo, ".git")))
	})

	It("says clearly that a directory outside every repository has none", func() {
		_, err := worktree.FindRepo(ctx, GinkgoT().TempDir())
		Expect(errors.Is(err, worktree.ErrNotRepo)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("not inside a git repository"))
		Expect(err.Error()).To(ContainSubstring("run git init"))
		_, err = worktree.Create(ctx, GinkgoT().TempDir(), "x")
		Expect(errors.Is(err, worktree.ErrNotRepo)).To(BeTrue())
	})

	It("creates a named worktree on its own branch from HEAD, and keeps the main checkout's status clean", func() {
		head := strings.TrimSpace(gitIn(repo, "rev-parse", "HEAD"))
		w, err := worktree.Create(ctx, filepath.Join(repo, "sub"), "feat")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Path).To(Equal(filepath.Join(repo, ".agentcore", "worktrees", "feat")))
		Expect(w.Branch).To(Equal("agentcore/feat"))
		Expect(w.Base).To(Equal(head))
		Expect(filepath.Join(w.Path, "sub", "a.txt")).To(BeAnExistingFile())
		Expect(strings.TrimSpace(gitIn(w.Path, "branch", "--show-current"))).To(Equal("agentcore/feat"))
		Expect(gitIn(repo, "status", "--porcelain", "--untracked-files=all")).To(BeEmpty())

		// A second worktree adds no second exclude line.
		_, err = worktree.Create(ctx, repo, "other")
		Expect(err).NotTo(HaveOccurred())
		exclude, err := os.ReadFile(filepath.Join(repo, ".git", "info", "exclude"))
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Count(string(exclude), "/.agentcore/worktrees/\n")).To(Equal(1))
		Expect(gitIn(repo, "status", "--porcelain", "--untracked-files=all")).To(BeEmpty())
	})

	It("refuses a name taken by a worktree or a branch, and bad names", func() {
		_, err := worktree.Create(ctx, repo, "feat")
		Expect(err).NotTo(HaveOccurred())
		_, err = worktree.Create(ctx, repo, "feat")
		Expect(err).To(MatchError(ContainSubstring("exists already")))
		gitIn(repo, "branch", "agentcore/taken")
		_, err = worktree.Create(ctx, repo, "taken")
		Expect(err).To(MatchError(ContainSubstring("the branch agentcore/taken exists")))
		_, err = worktree.Create(ctx, repo, "../escape")
		Expect(err).To(MatchError(ContainSubstring("invalid worktree name")))
	})

	It("generates a name when none is given", func() {
		w, err := worktree.Create(ctx, repo, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Name).To(MatchRegexp(`^[a-z]+-[a-z]+-[0-9a-f]{4}$`))
		Expect(w.Path).To(BeADirectory())
	})

	It("refuses a repository without a commit", func() {
		empty := GinkgoT().TempDir()
		gitIn(empty, "init", "-q")
		_, err := worktree.Create(ctx, empty, "x")
		Expect(err).To(MatchError(ContainSubstring("no commit yet")))
	})

	It("makes worktrees of a linked worktree next to it, in the main checkout, and tells what lies inside one", func() {
		w, err := worktree.Create(ctx, repo, "one")
		Expect(err).NotTo(HaveOccurred())
		r, err := worktree.FindRepo(ctx, filepath.Join(w.Path, "sub"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Root).To(Equal(repo))
		Expect(r.Top).To(Equal(w.Path))
		path, ok := worktree.Inside(r, filepath.Join(w.Path, "sub"))
		Expect(ok).To(BeTrue())
		Expect(path).To(Equal(w.Path))
		_, ok = worktree.Inside(r, repo)
		Expect(ok).To(BeFalse())
		_, ok = worktree.Inside(r, filepath.Join(repo, ".agentcore", "worktrees"))
		Expect(ok).To(BeFalse())

		two, err := worktree.Create(ctx, w.Path, "two")
		Expect(err).NotTo(HaveOccurred())
		Expect(two.Path).To(Equal(filepath.Join(repo, ".agentcore", "worktrees", "two")))
	})

	It("names a sub-agent's worktree after its call, numbering when taken", func() {
		a, err := worktree.ForAgent(ctx, repo, "toolu_01/Ab")
		Expect(err).NotTo(HaveOccurred())
		Expect(a.Name).To(Equal("agent-toolu_01Ab"))
		b, err := worktree.ForAgent(ctx, repo, "toolu_01/Ab")
		Expect(err).NotTo(HaveOccurred())
		Expect(b.Name).To(Equal("agent-toolu_01Ab-2"))
	})

	Describe("changes and removal", func() {
		var w *worktree.Worktree

		BeforeEach(func() {
			var err error
			w, err = worktree.Create(ctx, repo, "work")
			Expect(err).NotTo(HaveOccurred())
		})

		It("lists untracked and modified files as changes", func() {
			Expect(w.Changes(ctx)).To(BeEmpty())
			Expect(os.WriteFile(filepath.Join(w.Path, "new.txt"), []byte("x"), 0o644)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(w.Path, "README"), []byte("changed\n"), 0o644)).To(Succeed())
			Expect(w.Changes(ctx)).To(ConsistOf(" M README", "?? new.txt"))
		})

		It("removes a clean worktree and its branch", func() {
			r, err := w.Remove(ctx, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(r.BranchKept).To(BeFalse())
			Expect(w.Path).NotTo(BeADirectory())
			Expect(branchExists(repo, w.Branch)).To(BeFalse())
			Expect(gitIn(repo, "worktree", "list")).NotTo(ContainSubstring(w.Path))
		})

		It("removes a worktree with uncommitted changes only with force", func() {
			Expect(os.WriteFile(filepath.Join(w.Path, "new.txt"), []byte("x"), 0o644)).To(Succeed())
			_, err := w.Remove(ctx, false)
			Expect(err).To(HaveOccurred())
			Expect(filepath.Join(w.Path, "new.txt")).To(BeAnExistingFile())
			_, err = w.Remove(ctx, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(w.Path).NotTo(BeADirectory())
			Expect(branchExists(repo, w.Branch)).To(BeFalse())
		})

		It("keeps a branch that has commits of its own", func() {
			Expect(os.WriteFile(filepath.Join(w.Path, "new.txt"), []byte("x"), 0o644)).To(Succeed())
			gitIn(w.Path, "add", "new.txt")
			gitIn(w.Path, "commit", "-q", "-m", "work")
			Expect(w.Commits(ctx)).To(Equal(1))
			r, err := w.Remove(ctx, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(r).To(Equal(worktree.Removal{BranchKept: true, Commits: 1}))
			Expect(w.Path).NotTo(BeADirectory())
			Expect(branchExists(repo, w.Branch)).To(BeTrue())
		})

		It("forgets a worktree deleted by hand", func() {
			Expect(os.RemoveAll(w.Path)).To(Succeed())
			Expect(w.Changes(ctx)).To(BeEmpty())
			_, err := w.Remove(ctx, false)
			Expect(err).NotTo(HaveOccurred())
			Expect(gitIn(repo, "worktree", "list")).NotTo(ContainSubstring(w.Path))
		})

		It("releases: removes an untouched worktree, keeps one with changes or commits", func() {
			kept, err := w.Release()
			Expect(err).NotTo(HaveOccurred())
			Expect(kept).To(BeFalse())
			Expect(w.Path).NotTo(BeADirectory())

			dirty, err := worktree.Create(ctx, repo, "dirty")
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(dirty.Path, "new.txt"), []byte("x"), 0o644)).To(Succeed())
			Expect(dirty.Release()).To(BeTrue())
			Expect(dirty.Path).To(BeADirectory())

			committed, err := worktree.Create(ctx, repo, "committed")
			Expect(err).NotTo(HaveOccurred())
			gitIn(committed.Path, "commit", "-q", "--allow-empty", "-m", "empty")
			Expect(committed.Release()).To(BeTrue())
			Expect(committed.Path).To(BeADirectory())

			var none *worktree.Worktree
			Expect(none.Release()).To(BeFalse())
		})
	})
})

var _ = DescribeTable("ValidName",
	func(name string, ok bool) {
		err := worktree.ValidName(name)
		if ok {
			Expect(err).NotTo(HaveOccurred())
		} else {
			Expect(err).To(MatchError(ContainSubstring("invalid worktree name")))
		}
	},
	Entry("simple", "feat", true),
	Entry("dots, dashes, underscores", "fix-1.2_b", true),
	Entry("64 characters", strings.Repeat("a", 64), true),
	Entry("empty", "", false),
	Entry("65 characters", strings.Repeat("a", 65), false),
	Entry("a slash", "a/b", false),
	Entry("leading dash", "-a", false),
	Entry("leading dot", ".a", false),
	Entry("dot dot", "a..b", false),
	Entry(".lock", "a.lock", false),
	Entry("trailing dot", "a.", false),
	Entry("a space", "a b", false),
)
