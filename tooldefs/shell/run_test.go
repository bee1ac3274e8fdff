package shell_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

var _ = Describe("Run", func() {
	var (
		dir  string
		tmp  string
		ctx  context.Context
		opts shell.Options
		run  func() shell.Result
	)

	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		tmp = GinkgoT().TempDir()
		ctx = context.Background()
		opts = shell.Options{Dir: dir, TempDir: tmp, KillGrace: 500 * time.Millisecond}
		run = func() shell.Result {
			res, err := shell.Run(ctx, opts)
			Expect(err).NotTo(HaveOccurred())
			return res
		}
	})

	It("runs a real bash and returns its output and exit status", func() {
		opts.Command = "echo hello; [[ -n $BASH_VERSION ]] && echo bash"
		res := run()
		Expect(res.Output).To(Equal("hello\nbash"))
		Expect(res.ExitCode).To(Equal(0))
		Expect(res.TotalLines).To(Equal(2))
		Expect(res.Truncated).To(BeFalse())
	})

	It("reports non-zero exit codes", func() {
		opts.Command = "echo failing; exit 7"
		res := run()
		Expect(res.ExitCode).To(Equal(7))
		Expect(res.Output).To(Equal("failing"))
	})

	It("reports a syntax error as bash does, with exit status 2", func() {
		opts.Command = "echo 'unterminated"
		res := run()
		Expect(res.ExitCode).To(Equal(2))
		Expect(res.Output).To(ContainSubstring("line 1"))
	})

	It("interleaves stdout and stderr in the order they were written", func() {
		opts.Command = "echo out1; echo err1 >&2; echo out2; echo err2 >&2; printf 'no newline'"
		res := run()
		Expect(res.Output).To(Equal("out1\nerr1\nout2\nerr2\nno newline"))
		Expect(res.TotalLines).To(Equal(5))
	})

	It("runs in the given directory with extra environment", func() {
		opts.Command = "pwd -P; echo $AGENT_X"
		opts.Env = []string{"AGENT_X=42"}
		res := run()
		real, _ := filepath.EvalSymlinks(dir)
		Expect(res.Output).To(Equal(real + "\n42"))
	})

	It("gives the command no stdin", func() {
		opts.Command = "cat; echo after"
		Expect(run().Output).To(Equal("after"))
	})

	It("reports the final working directory, even after a failure", func() {
		Expect(os.Mkdir(filepath.Join(dir, "sub"), 0o755)).To(Succeed())
		opts.Command = "cd sub && false"
		res := run()
		real, _ := filepath.EvalSymlinks(filepath.Join(dir, "sub"))
		Expect(res.Cwd).To(Equal(real))
		Expect(res.ExitCode).To(Equal(1))
	})

	It("keeps the exit status of an explicit exit", func() {
		opts.Command = "cd /; exit 3"
		res := run()
		Expect(res.ExitCode).To(Equal(3))
		Expect(res.Cwd).To(Equal("/"))
	})

	It("reports no directory when the command does not run", func() {
		opts.Command = "cd / &&& ls"
		Expect(run().Cwd).To(BeEmpty())
	})

	Context("with output over the cap", func() {
		BeforeEach(func() {
			opts.Command = "seq 1 20000" // 108894 characters
		})

		It("keeps the head and tail and the whole output in a file the result names", func() {
			res := run()
			Expect(res.Truncated).To(BeTrue())
			Expect(len(res.Output)).To(BeNumerically("<=", shell.MaxOutputChars))
			Expect(res.Output).To(HavePrefix("1\n2\n3\n"))
			Expect(res.Output).To(HaveSuffix("19999\n20000"))
			Expect(res.Output).To(ContainSubstring(res.FullOutputPath))
			Expect(res.TotalLines).To(Equal(20000))
			Expect(res.FullOutputPath).To(HavePrefix(tmp))
			full, err := os.ReadFile(res.FullOutputPath)
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.Count(string(full), "\n")).To(Equal(20000))
		})

		It("counts characters, not bytes, and never cuts a character", func() {
			opts.Command = "for i in $(seq 1 12000); do echo 'héllo✓'; done"
			res := run()
			Expect(res.Truncated).To(BeTrue())
			Expect(res.TotalChars).To(Equal(int64(12000 * 7)))
			Expect(len([]rune(res.Output))).To(BeNumerically("<=", shell.MaxOutputChars))
			Expect(res.Output).NotTo(ContainSubstring("\uFFFD"))
		})

		It("honours a smaller cap", func() {
			opts.MaxOutputChars = 1000
			res := run()
			Expect(res.Truncated).To(BeTrue())
			Expect(len(res.Output)).To(BeNumerically("<=", 1000+len(res.FullOutputPath)))
		})
	})

	It("deletes the output file when nothing was cut", func() {
		opts.Command = "echo small"
		run()
		entries, err := os.ReadDir(tmp)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(BeEmpty())
	})

	It("replaces invalid UTF-8", func() {
		opts.Command = `printf 'a\xffb'`
		Expect(run().Output).To(Equal("a\uFFFDb"))
	})

	Context("timeouts", func() {
		It("kills the whole process group, grandchildren included", func() {
			opts.Command = "sleep 300 & echo $!; sleep 300"
			opts.Timeout = 300 * time.Millisecond
			res := run()
			Expect(res.TimedOut).To(BeTrue())
			Expect(res.ExitCode).NotTo(Equal(0))
			pid := firstLinePID(res.Output)
			Expect(pid).To(BeNumerically(">", 0))
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
		})

		It("escalates to SIGKILL when the group ignores SIGTERM", func() {
			opts.Command = "trap '' TERM; (trap '' TERM; sleep 300) & echo $!; while :; do sleep 0.05; done"
			opts.Timeout = 300 * time.Millisecond
			opts.KillGrace = 200 * time.Millisecond
			res := run()
			Expect(res.TimedOut).To(BeTrue())
			Expect(res.ExitCode).To(Equal(128 + 9))
			pid := firstLinePID(res.Output)
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
		})
	})

	Context("cancellation", func() {
		It("kills the group when the context ends", func() {
			c, cancel := context.WithCancel(context.Background())
			ctx = c
			opts.Command = "sleep 300 & echo $!; sleep 300"
			var pidSeen sync.WaitGroup
			pidSeen.Add(1)
			var once sync.Once
			opts.ProgressInterval = 20 * time.Millisecond
			opts.OnProgress = func(p shell.Progress) {
				if p.TotalLines > 0 {
					once.Do(func() { pidSeen.Done() })
				}
			}
			go func() {
				pidSeen.Wait()
				cancel()
			}()
			res := run()
			Expect(res.Canceled).To(BeTrue())
			pid := firstLinePID(res.Output)
			Expect(pid).To(BeNumerically(">", 0))
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
		})

		It("does not start when the context has already ended", func() {
			c, cancel := context.WithCancel(context.Background())
			cancel()
			opts.Command = "touch started"
			res, err := shell.Run(c, opts)
			Expect(err).To(MatchError(context.Canceled))
			Expect(res.Canceled).To(BeTrue())
			Expect(filepath.Join(dir, "started")).NotTo(BeAnExistingFile())
		})
	})

	It("streams the last lines as progress while the command runs", func() {
		var mu sync.Mutex
		var seen []shell.Progress
		opts.ProgressInterval = 20 * time.Millisecond
		opts.OnProgress = func(p shell.Progress) {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, p)
		}
		// Each line waits until the previous one has been reported.
		marker := filepath.Join(dir, "go")
		opts.Command = `for i in 1 2 3 4 5 6 7; do echo line$i; done; while [ ! -e ` + marker + ` ]; do sleep 0.02; done; echo end`
		done := make(chan shell.Result)
		go func() { defer GinkgoRecover(); done <- run() }()
		Eventually(func() string {
			mu.Lock()
			defer mu.Unlock()
			if len(seen) == 0 {
				return ""
			}
			return seen[len(seen)-1].LastLines
		}).Should(Equal("line3\nline4\nline5\nline6\nline7"))
		Expect(os.WriteFile(marker, nil, 0o644)).To(Succeed())
		res := <-done
		Expect(res.Output).To(HaveSuffix("line7\nend"))
		mu.Lock()
		defer mu.Unlock()
		Expect(seen[len(seen)-1].TotalLines).To(BeNumerically(">=", 7))
	})

	Describe("errors", func() {
		It("refuses an empty command", func() {
			_, err := shell.Run(ctx, shell.Options{Command: "  ", Dir: dir})
			Expect(err).To(MatchError(ContainSubstring("command is empty")))
		})

		It("refuses a missing working directory", func() {
			_, err := shell.Run(ctx, shell.Options{Command: "ls", Dir: filepath.Join(dir, "gone")})
			Expect(err).To(MatchError(ContainSubstring("does not exist")))
		})
	})
})

var _ = Describe("Within", func() {
	It("accepts the roots and their descendants only", func() {
		root := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755)).To(Succeed())
		Expect(shell.Within(root, []string{root})).To(BeTrue())
		Expect(shell.Within(filepath.Join(root, "a", "b"), []string{root})).To(BeTrue())
		Expect(shell.Within(filepath.Dir(root), []string{root})).To(BeFalse())
		Expect(shell.Within(root+"-sibling", []string{root})).To(BeFalse())
		Expect(shell.Within("/", []string{root})).To(BeFalse())
		Expect(shell.Within("/", []string{"", root, "/"})).To(BeTrue())
	})

	It("resolves symlinks on both sides", func() {
		root := GinkgoT().TempDir()
		other := GinkgoT().TempDir()
		link := filepath.Join(root, "link")
		Expect(os.Symlink(other, link)).To(Succeed())
		Expect(shell.Within(link, []string{root})).To(BeFalse(), "a link out of the root escapes it")
		Expect(shell.Within(other, []string{link})).To(BeTrue())
	})
})

var _ = Describe("a missing bash", func() {
	It("is an error that says how to fix it", func() {
		GinkgoT().Setenv("PATH", GinkgoT().TempDir())
		_, err := shell.Run(context.Background(), shell.Options{Command: "ls", Dir: GinkgoT().TempDir(), TempDir: GinkgoT().TempDir()})
		Expect(err).To(MatchError(ContainSubstring("needs bash on PATH")))
		_, err = shell.NewRegistry().Start(shell.BackgroundOptions{Command: "ls", Dir: GinkgoT().TempDir(), TempDir: GinkgoT().TempDir()})
		Expect(err).To(MatchError(ContainSubstring("needs bash on PATH")))
	})
})
