package shell_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

var _ = Describe("background shells", func() {
	var (
		reg  *shell.Registry
		dir  string
		tmp  string
		ctx  context.Context
		opts func(cmd string) shell.BackgroundOptions
	)

	BeforeEach(func() {
		reg = shell.NewRegistry()
		DeferCleanup(reg.Reset)
		dir = GinkgoT().TempDir()
		tmp = GinkgoT().TempDir()
		ctx = context.Background()
		opts = func(cmd string) shell.BackgroundOptions {
			return shell.BackgroundOptions{Command: cmd, Dir: dir, TempDir: tmp, KillGrace: 300 * time.Millisecond}
		}
	})

	It("starts a command, reads its new output incrementally and reports completion", func() {
		gate := filepath.Join(dir, "gate")
		t, err := reg.Start(opts("echo first; while [ ! -e " + gate + " ]; do sleep 0.02; done; echo second >&2"))
		Expect(err).NotTo(HaveOccurred())
		Expect(t.ID).To(HavePrefix("bash_"))
		Expect(t.OutputPath).To(HavePrefix(tmp))

		Eventually(func() (string, error) { return t.ReadNew(0) }).Should(Equal("first\n"))
		st, _ := t.State()
		Expect(st).To(Equal(shell.StatusRunning))
		Expect(t.ReadNew(0)).To(BeEmpty(), "nothing new since the last read")

		Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
		ended, err := t.Wait(ctx, time.Minute)
		Expect(err).NotTo(HaveOccurred())
		Expect(ended).To(BeTrue())
		Expect(t.ReadNew(0)).To(Equal("second\n"))
		st, code := t.State()
		Expect(st).To(Equal(shell.StatusCompleted))
		Expect(code).To(Equal(0))
		Expect(t.Output(0)).To(Equal("first\nsecond"))
	})

	It("marks a non-zero exit as failed with its code", func() {
		t, err := reg.Start(opts("exit 4"))
		Expect(err).NotTo(HaveOccurred())
		Eventually(t.Done()).Should(BeClosed())
		st, code := t.State()
		Expect(st).To(Equal(shell.StatusFailed))
		Expect(code).To(Equal(4))
	})

	It("waits no longer than the timeout for a running task", func() {
		t, err := reg.Start(opts("sleep 300"))
		Expect(err).NotTo(HaveOccurred())
		ended, err := t.Wait(ctx, 10*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		Expect(ended).To(BeFalse())
		c, cancel := context.WithCancel(ctx)
		cancel()
		_, err = t.Wait(c, time.Minute)
		Expect(err).To(MatchError(context.Canceled))
	})

	It("kills the whole process group and ends its goroutine", func() {
		t, err := reg.Start(opts("sleep 300 & echo $!; sleep 300"))
		Expect(err).NotTo(HaveOccurred())
		var out string
		Eventually(func() string {
			s, _ := t.ReadNew(0)
			out += s
			return out
		}).Should(ContainSubstring("\n"))
		pid := firstLinePID(out)
		Expect(tooltest.Alive(pid)).To(BeTrue())

		killed, err := reg.Kill(t.ID)
		Expect(err).NotTo(HaveOccurred())
		Expect(killed).To(BeIdenticalTo(t))
		Expect(t.Done()).To(BeClosed())
		st, _ := t.State()
		Expect(st).To(Equal(shell.StatusKilled))
		Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
	})

	It("refuses to kill a task that has ended, or an unknown one", func() {
		t, err := reg.Start(opts("true"))
		Expect(err).NotTo(HaveOccurred())
		Eventually(t.Done()).Should(BeClosed())
		_, err = reg.Kill(t.ID)
		Expect(errors.Is(err, shell.ErrNotRunning)).To(BeTrue())
		Expect(err).To(MatchError(ContainSubstring("completed")))
		_, err = reg.Kill("bash_999")
		Expect(errors.Is(err, shell.ErrNotFound)).To(BeTrue())
		_, ok := reg.Get("bash_999")
		Expect(ok).To(BeFalse())
	})

	It("keeps only the newest output of a large read, naming the file", func() {
		t, err := reg.Start(opts("seq 1 50000"))
		Expect(err).NotTo(HaveOccurred())
		Eventually(t.Done()).Should(BeClosed())
		s, err := t.ReadNew(1000)
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(HavePrefix("[... earlier output omitted"))
		Expect(s).To(ContainSubstring(t.OutputPath))
		Expect(s).To(HaveSuffix("49999\n50000\n"))
		Expect(len(s)).To(BeNumerically("<=", 1000+len(t.OutputPath)))
		full, err := t.Output(1000)
		Expect(err).NotTo(HaveOccurred())
		Expect(full).To(HavePrefix("1\n2\n"))
		Expect(full).To(ContainSubstring("output truncated"))
	})

	It("holds back a character cut in half until it is complete", func() {
		gate := filepath.Join(dir, "gate")
		t, err := reg.Start(opts(`printf 'a\xe2\x9c'; while [ ! -e ` + gate + ` ]; do sleep 0.02; done; printf '\x93b'`))
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() (string, error) { return t.ReadNew(0) }).Should(Equal("a"))
		Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
		Eventually(t.Done()).Should(BeClosed())
		Expect(t.ReadNew(0)).To(Equal("✓b"))
	})

	It("is safe for concurrent use and lists tasks in start order", func() {
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				_, err := reg.Start(opts(fmt.Sprintf("echo %d; sleep 300", i)))
				Expect(err).NotTo(HaveOccurred())
			}()
		}
		wg.Wait()
		list := reg.List()
		Expect(list).To(HaveLen(8))
		ids := map[string]bool{}
		for i, t := range list {
			ids[t.ID] = true
			if i > 0 {
				Expect(t.Started).NotTo(BeTemporally("<", list[i-1].Started))
			}
		}
		Expect(ids).To(HaveLen(8))
		reg.KillAll()
		for _, t := range list {
			st, _ := t.State()
			Expect(st).To(Equal(shell.StatusKilled))
		}
	})

	It("on KillAll, kills a task that ignores SIGTERM after ShutdownGrace, not after its own long grace", func() {
		o := opts(`trap "" TERM; echo ready; while :; do sleep 0.05; done`)
		o.KillGrace = time.Hour
		t, err := reg.Start(o)
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string { s, _ := t.ReadNew(0); return s }).WithTimeout(10 * time.Second).Should(ContainSubstring("ready"))
		done := make(chan struct{})
		go func() {
			defer close(done)
			reg.KillAll()
		}()
		Eventually(done).WithTimeout(30*time.Second).Should(BeClosed(), "KillAll waited out the task's hour of grace")
		st, _ := t.State()
		Expect(st).To(Equal(shell.StatusKilled))
	})

	It("forgets tasks and removes their files on Reset", func() {
		t, err := reg.Start(opts("sleep 300"))
		Expect(err).NotTo(HaveOccurred())
		reg.Reset()
		Expect(t.Done()).To(BeClosed())
		Expect(t.OutputPath).NotTo(BeAnExistingFile())
		Expect(reg.List()).To(BeEmpty())
	})

	It("refuses an empty command or a missing directory", func() {
		_, err := reg.Start(shell.BackgroundOptions{Command: " ", Dir: dir})
		Expect(err).To(MatchError(ContainSubstring("command is empty")))
		_, err = reg.Start(shell.BackgroundOptions{Command: "ls", Dir: filepath.Join(dir, "nope")})
		Expect(err).To(MatchError(ContainSubstring("does not exist")))
	})
})
