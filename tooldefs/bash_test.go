package tooldefs_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"go.uber.org/goleak"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/tooltest"
	"github.com/agentcore/agentcore/tooldefs"
	"github.com/agentcore/agentcore/tooldefs/shell"
)

var _ = Describe("Bash tools", func() {
	var (
		root string
		tc   *runtime.ToolContext
		reg  *shell.Registry
		ctx  context.Context
		bash tooldefs.Bash

		mu       sync.Mutex
		progress []tooldefs.BashProgress
		newCall  func() *runtime.Call
		run      func(in *tooldefs.BashInput) (*runtime.Call, tooldefs.BashOutput, error)
	)

	BeforeEach(func() {
		ignore := goleak.IgnoreCurrent()
		DeferCleanup(func() {
			// Ginkgo's output interceptor (ginkgo -p) comes and goes on its own.
			goleak.VerifyNone(GinkgoT(), ignore,
				goleak.IgnoreAnyFunction("github.com/onsi/ginkgo/v2/internal.(*genericOutputInterceptor).ResumeIntercepting.func1.1"))
		})

		var err error
		root, err = filepath.EvalSymlinks(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		tc = runtime.NewToolContext(root)
		reg = shell.NewRegistry()
		DeferCleanup(reg.Reset)
		runtime.WithService(tc, reg)
		ctx = context.Background()
		progress = nil
		newCall = func() *runtime.Call {
			return runtime.NewCall("toolu_1", tc, func(p any) {
				mu.Lock()
				defer mu.Unlock()
				progress = append(progress, p.(tooldefs.BashProgress))
			})
		}
		run = func(in *tooldefs.BashInput) (*runtime.Call, tooldefs.BashOutput, error) {
			c := newCall()
			out, err := bash.Call(ctx, in, c)
			return c, out, err
		}
	})

	apply := func(c *runtime.Call) {
		if m := c.Modifier(); m != nil {
			m(tc)
		}
	}
	text := func(blocks []runtime.Block) string { return runtime.Result{Content: blocks}.Text() }

	Describe("Bash", func() {
		It("lets a test suite finish on interrupt and cancels anything else", func() {
			Expect(bash.InterruptBehavior(&tooldefs.BashInput{Command: "go test ./..."})).To(Equal(runtime.InterruptBlock))
			Expect(bash.InterruptBehavior(&tooldefs.BashInput{Command: "cd web && npm test"})).To(Equal(runtime.InterruptBlock))
			Expect(bash.InterruptBehavior(&tooldefs.BashInput{Command: "npm install"})).To(Equal(runtime.InterruptCancel))
			Expect(bash.InterruptBehavior(&tooldefs.BashInput{Command: "curl -sO https://example.com/x"})).To(Equal(runtime.InterruptCancel))
		})

		It("runs the command in a real bash and returns its output", func() {
			_, out, err := run(&tooldefs.BashInput{Command: "echo hello; echo $0"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Output).To(Equal("hello\nbash"))
			Expect(out.ExitCode).To(Equal(0))
			Expect(out.TotalLines).To(Equal(2))
			Expect(text(bash.ResultBlocks(out))).To(Equal("hello\nbash"))
			Expect(bash.RenderResult(&tooldefs.BashInput{Command: "echo hello"}, out)).To(MatchRegexp(`^Ran in \d+\.\ds, 2 lines\nhello\nbash$`))
		})

		It("renders the first lines of the output under the summary, and how many more there are", func() {
			in := &tooldefs.BashInput{Command: "seq 10"}
			_, out, err := run(in)
			Expect(err).NotTo(HaveOccurred())
			Expect(bash.RenderResult(in, out)).To(MatchRegexp(`^Ran in \d+\.\ds, 10 lines\n1\n2\n3\n4\n… \+6 lines$`))
		})

		It("says so when there is no output", func() {
			_, out, err := run(&tooldefs.BashInput{Command: "true"})
			Expect(err).NotTo(HaveOccurred())
			Expect(text(bash.ResultBlocks(out))).To(Equal("(no output)"))
			Expect(bash.RenderResult(&tooldefs.BashInput{Command: "true"}, out)).To(HaveSuffix("no output"))
		})

		It("interleaves stdout and stderr as a terminal shows them", func() {
			_, out, err := run(&tooldefs.BashInput{Command: "echo a; echo b >&2; echo c; echo d >&2"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Output).To(Equal("a\nb\nc\nd"))
			Expect(text(bash.ResultBlocks(out))).To(Equal("a\nb\nc\nd"))
			// Claude Code 2.1.197 (echo out; echo err >&2; echo out2): its
			// tool_use_result is {"stdout":"out\nerr\nout2","stderr":"",…}.
			data, err := json.Marshal(out)
			Expect(err).NotTo(HaveOccurred())
			var m map[string]any
			Expect(json.Unmarshal(data, &m)).To(Succeed())
			Expect(m).To(HaveKeyWithValue("stdout", "a\nb\nc\nd"))
			Expect(m).To(HaveKeyWithValue("stderr", ""))
		})

		It("fails on a non-zero exit status with the output and the exit code", func() {
			_, out, err := run(&tooldefs.BashInput{Command: "echo building; echo 'error: boom' >&2; exit 3"})
			Expect(err).To(HaveOccurred())
			// Claude Code 2.1.197 sends the exit code first: "Exit code 3\nout1\nerr1\nout2".
			Expect(err.Error()).To(Equal("Exit code 3\nbuilding\nerror: boom"))
			var be *tooldefs.BashError
			Expect(errors.As(err, &be)).To(BeTrue())
			Expect(be.ExitCode).To(Equal(3))
			Expect(out.ExitCode).To(Equal(3))
			Expect(bash.RenderError(nil, err)).To(Equal("Exit code 3\nbuilding\nerror: boom"))
		})

		It("treats grep's no-match status as an answer, not a failure", func() {
			Expect(os.WriteFile(filepath.Join(root, "f.txt"), []byte("alpha\n"), 0o644)).To(Succeed())
			in := &tooldefs.BashInput{Command: "grep beta f.txt"}
			c := newCall()
			out, err := bash.Call(ctx, in, c)
			Expect(err).NotTo(HaveOccurred())
			Expect(out.ExitCode).To(Equal(1))
			Expect(out.ExitNote).To(Equal("No matches found"))
			Expect(text(bash.ResultBlocks(out))).To(Equal("(exit code 1: No matches found)"))
			Expect(bash.RenderResult(in, out)).To(Equal("Found 0 lines · exit code 1: No matches found"))

			_, _, err = run(&tooldefs.BashInput{Command: "grep beta missing.txt"})
			Expect(err).To(MatchError(ContainSubstring("Exit code 2")), "grep's 2 is an error")
			_, _, err = run(&tooldefs.BashInput{Command: "grep beta f.txt | wc -l; false"})
			Expect(err).To(MatchError(ContainSubstring("Exit code 1")), "the last command decides")
		})

		It("reports a command that is not found", func() {
			_, _, err := run(&tooldefs.BashInput{Command: "no-such-program-xyz"})
			Expect(err).To(MatchError(And(ContainSubstring("command not found"), ContainSubstring("Exit code 127"))))
		})

		It("times out after the given milliseconds, killing every process it started", func() {
			c, _, err := run(&tooldefs.BashInput{Command: "sleep 300 & echo $!; sleep 300", Timeout: 300})
			Expect(err).To(MatchError(ContainSubstring("Command timed out after 300 ms")))
			var be *tooldefs.BashError
			Expect(errors.As(err, &be)).To(BeTrue())
			Expect(be.TimedOut).To(BeTrue())
			pid, perr := strconv.Atoi(strings.SplitN(be.Output, "\n", 2)[0])
			Expect(perr).NotTo(HaveOccurred())
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
			Expect(bash.RenderError(nil, err)).To(HavePrefix("Timed out after 0.3s"))
			Expect(c.Modifier()).To(BeNil())
		})

		It("takes its default timeout from BASH_DEFAULT_TIMEOUT_MS", func() {
			tc.Env = map[string]string{"BASH_DEFAULT_TIMEOUT_MS": "200"}
			_, _, err := run(&tooldefs.BashInput{Command: "sleep 300"})
			Expect(err).To(MatchError(ContainSubstring("Command timed out after 200 ms")))
		})

		It("takes its default timeout from the session's ToolOptions.CommandTimeout, the settings' env over it", func() {
			GinkgoT().Setenv("BASH_DEFAULT_TIMEOUT_MS", "100") // read by the CLI, not the tool
			runtime.WithService(tc, runtime.ToolOptions{CommandTimeout: 250 * time.Millisecond})
			_, _, err := run(&tooldefs.BashInput{Command: "sleep 300"})
			Expect(err).To(MatchError(ContainSubstring("Command timed out after 250 ms")))
			tc.Env = map[string]string{"BASH_DEFAULT_TIMEOUT_MS": "200"}
			_, _, err = run(&tooldefs.BashInput{Command: "sleep 300"})
			Expect(err).To(MatchError(ContainSubstring("Command timed out after 200 ms")))
		})

		It("is killed whole when the call is cancelled", func() {
			c, cancel := context.WithCancel(context.Background())
			ctx = c
			pidFile := filepath.Join(root, "pid")
			go func() {
				defer GinkgoRecover()
				Eventually(pidFile).Should(BeAnExistingFile())
				cancel()
			}()
			_, _, err := run(&tooldefs.BashInput{Command: "sleep 300 & echo $! > pid.tmp; mv pid.tmp pid; sleep 300"})
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
			Expect(err).To(MatchError(ContainSubstring("aborted")))
			b, _ := os.ReadFile(pidFile)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
			Expect(pid).To(BeNumerically(">", 0))
			Expect(bash.RenderError(nil, err)).To(HavePrefix("Interrupted"))
		})

		It("refuses to start in an already cancelled call", func() {
			c, cancel := context.WithCancel(context.Background())
			cancel()
			ctx = c
			_, _, err := run(&tooldefs.BashInput{Command: "touch " + filepath.Join(root, "ran")})
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
			Expect(filepath.Join(root, "ran")).NotTo(BeAnExistingFile())
		})

		It("caps long output, keeping head and tail and the whole in a file it names", func() {
			_, out, err := run(&tooldefs.BashInput{Command: "seq 1 30000"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Truncated).To(BeTrue())
			Expect(len(out.Output)).To(BeNumerically("<=", 30000))
			Expect(out.Output).To(HavePrefix("1\n2\n"))
			Expect(out.Output).To(HaveSuffix("29999\n30000"))
			Expect(out.TotalLines).To(Equal(30000))
			Expect(text(bash.ResultBlocks(out))).To(ContainSubstring(out.FullOutputPath))
			Expect(out.FullOutputPath).To(HavePrefix(shell.OutputDir()))
			full, err := os.ReadFile(out.FullOutputPath)
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.Count(string(full), "\n")).To(Equal(30000))
			os.Remove(out.FullOutputPath)
			Expect(bash.RenderResult(&tooldefs.BashInput{Command: "seq 1 30000"}, out)).To(ContainSubstring("output truncated"))
		})

		It("passes the context's environment", func() {
			tc.Env = map[string]string{"AGENT_GREETING": "hi there"}
			_, out, err := run(&tooldefs.BashInput{Command: `echo "$AGENT_GREETING"`})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Output).To(Equal("hi there"))
		})

		It("streams the last lines as progress", func() {
			gate := filepath.Join(root, "gate")
			done := make(chan error, 1)
			go func() {
				_, _, err := run(&tooldefs.BashInput{Command: "for i in 1 2 3 4 5 6; do echo step$i; done; while [ ! -e gate ]; do sleep 0.02; done"})
				done <- err
			}()
			Eventually(func() string {
				mu.Lock()
				defer mu.Unlock()
				if len(progress) == 0 {
					return ""
				}
				return progress[len(progress)-1].LastLines
			}, "10s").Should(Equal("step2\nstep3\nstep4\nstep5\nstep6"))
			Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
			Expect(<-done).To(Succeed())
			mu.Lock()
			p := progress[len(progress)-1]
			mu.Unlock()
			Expect(p.TimeoutMs).To(Equal(int64(120000)))
			Expect(bash.RenderProgress(nil, p)).To(And(HavePrefix("step2\n"), ContainSubstring("Running…"), ContainSubstring("6 lines"), ContainSubstring("timeout 2m0s")))
			Expect(bash.RenderProgress(nil, tooldefs.BashProgress{ElapsedMs: 1500})).To(Equal("Running… 1.5s"))
		})

		Context("working directory", func() {
			BeforeEach(func() {
				Expect(os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755)).To(Succeed())
			})

			It("persists a cd between calls", func() {
				c, out, err := run(&tooldefs.BashInput{Command: "cd sub/deeper"})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Cwd).To(Equal(filepath.Join(root, "sub", "deeper")))
				apply(c)
				Expect(tc.Cwd).To(Equal(filepath.Join(root, "sub", "deeper")))
				_, out, err = run(&tooldefs.BashInput{Command: "pwd; cd .."})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Output).To(Equal(filepath.Join(root, "sub", "deeper")))
				Expect(out.Cwd).To(Equal(filepath.Join(root, "sub")))
			})

			It("registers no change when the directory stays the same", func() {
				c, out, err := run(&tooldefs.BashInput{Command: "cd sub && cd .."})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Cwd).To(BeEmpty())
				Expect(c.Modifier()).To(BeNil())
			})

			It("keeps a cd made before a failure", func() {
				c, _, err := run(&tooldefs.BashInput{Command: "cd sub && false"})
				Expect(err).To(MatchError(ContainSubstring("Exit code 1")))
				apply(c)
				Expect(tc.Cwd).To(Equal(filepath.Join(root, "sub")))
			})

			It("resets to the first working directory, with a note, when the command leaves them", func() {
				tc.Cwd = filepath.Join(root, "sub")
				c, out, err := run(&tooldefs.BashInput{Command: "cd /"})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Cwd).To(BeEmpty())
				Expect(out.CwdNote).To(ContainSubstring("Shell cwd was reset to " + root))
				Expect(text(bash.ResultBlocks(out))).To(ContainSubstring("Shell cwd was reset"))
				apply(c)
				Expect(tc.Cwd).To(Equal(root))
			})

			It("does not follow a symlink out of the working directories", func() {
				outside, err := filepath.EvalSymlinks(GinkgoT().TempDir())
				Expect(err).NotTo(HaveOccurred())
				Expect(os.Symlink(outside, filepath.Join(root, "escape"))).To(Succeed())
				c, out, err := run(&tooldefs.BashInput{Command: "cd escape"})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.CwdNote).To(ContainSubstring(outside))
				apply(c)
				Expect(tc.Cwd).To(Equal(root))
			})

			It("follows a cd into another working directory", func() {
				other, err := filepath.EvalSymlinks(GinkgoT().TempDir())
				Expect(err).NotTo(HaveOccurred())
				tc.WorkingDirs = append(tc.WorkingDirs, other)
				c, out, err := run(&tooldefs.BashInput{Command: "cd " + other})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Cwd).To(Equal(other))
				apply(c)
				Expect(tc.Cwd).To(Equal(other))
			})

			It("starts from the first working directory when the cwd has been removed", func() {
				gone := filepath.Join(root, "sub", "deeper")
				tc.Cwd = gone
				Expect(os.Remove(gone)).To(Succeed())
				c, out, err := run(&tooldefs.BashInput{Command: "pwd"})
				Expect(err).NotTo(HaveOccurred())
				Expect(out.Output).To(Equal(root))
				Expect(out.CwdNote).To(ContainSubstring("no longer exists"))
				apply(c)
				Expect(tc.Cwd).To(Equal(root))
			})
		})

		Context("scheduling attributes and permissions", func() {
			DescribeTable("follow the parsed command",
				func(cmd string, readOnly, destructive bool) {
					in := &tooldefs.BashInput{Command: cmd}
					Expect(bash.IsReadOnly(in)).To(Equal(readOnly))
					Expect(bash.IsConcurrencySafe(in)).To(Equal(readOnly))
					Expect(bash.IsDestructive(in)).To(Equal(destructive))
				},
				Entry(nil, "git status && git diff", true, false),
				Entry(nil, "ls -la | wc -l", true, false),
				Entry(nil, "grep -rn TODO . 2>/dev/null", true, false),
				Entry(nil, "npm test", false, false),
				Entry(nil, "ls > listing.txt", false, false),
				Entry(nil, "echo $(rm -rf x)", false, true),
				Entry(nil, "rm -rf build", false, true),
				Entry(nil, "git reset --hard", false, true),
				Entry(nil, "echo 'broken", false, false),
			)

			It("names the command as the permission target, parsed", func() {
				t := bash.PermissionTarget(&tooldefs.BashInput{Command: "npm run test"})
				Expect(t.Kind).To(Equal(runtime.TargetCommand))
				Expect(t.Value).To(Equal("npm run test"))
				Expect(t.Shell).NotTo(BeNil())
				Expect(t.Shell.Source).To(Equal("npm run test"))
				Expect(t.Shell.Err).NotTo(HaveOccurred())
				Expect(t.Shell.Cmds).To(HaveLen(1))
			})

			It("refuses a blank command", func() {
				Expect(bash.ValidateInput(ctx, &tooldefs.BashInput{Command: " \n "}, tc)).To(MatchError(ContainSubstring("blank")))
				Expect(bash.ValidateInput(ctx, &tooldefs.BashInput{Command: "ls"}, tc)).To(Succeed())
			})
		})

		Context("rendering", func() {
			It("shows the command on one line, shortened", func() {
				Expect(bash.RenderUse(&tooldefs.BashInput{Command: "go test ./..."})).To(Equal("go test ./..."))
				Expect(bash.RenderUse(&tooldefs.BashInput{Command: "echo a\necho b"})).To(Equal("echo a …"))
				long := bash.RenderUse(&tooldefs.BashInput{Command: strings.Repeat("x", 500)})
				Expect([]rune(long)).To(HaveLen(160))
				Expect(long).To(HaveSuffix("…"))
				Expect(bash.RenderUse(&tooldefs.BashInput{Command: "npm run dev", RunInBackground: true})).To(Equal("npm run dev (in background)"))
			})

			It("summarises searches, reads and listings compactly", func() {
				out := tooldefs.BashOutput{TotalLines: 12}
				Expect(bash.RenderResult(&tooldefs.BashInput{Command: "grep -rn x ."}, out)).To(Equal("Found 12 lines"))
				Expect(bash.RenderResult(&tooldefs.BashInput{Command: "cat a | head"}, out)).To(Equal("Read 12 lines"))
				Expect(bash.RenderResult(&tooldefs.BashInput{Command: "ls -la"}, out)).To(Equal("Listed 12 lines"))
				Expect(bash.RenderResult(&tooldefs.BashInput{Command: "make"}, tooldefs.BashOutput{TotalLines: 1, DurationMs: 1234})).To(Equal("Ran in 1.2s, 1 line"))
				Expect(bash.RenderResult(&tooldefs.BashInput{Command: "x"}, tooldefs.BashOutput{BackgroundTaskID: "bash_3"})).To(Equal("Running in background with ID bash_3"))
			})

			It("groups parallel commands", func() {
				Expect(bash.RenderGrouped([]*tooldefs.BashInput{{Command: "grep a b"}, {Command: "rg c"}, {Command: "cat x"}, {Command: "ls"}})).
					To(Equal("Searched 2, read 1, listed 1 (4 commands)"))
				Expect(bash.RenderGrouped([]*tooldefs.BashInput{{Command: "make"}, {Command: "ls"}})).To(Equal("$ make\n$ ls"))
			})

			It("says a rejected command did not run", func() {
				Expect(bash.RenderRejected(&tooldefs.BashInput{Command: "rm -rf /"})).To(Equal("Rejected: did not run rm -rf /"))
			})

			It("renders foreign errors as their text", func() {
				Expect(bash.RenderError(nil, errors.New("start bash: no such file"))).To(Equal("start bash: no such file"))
			})
		})
	})

	Describe("background shells", func() {
		var (
			output tooldefs.TaskOutput
			stop   tooldefs.TaskStop
			yes    = true
			no     = false
		)
		ms := func(n int) *int { return &n }

		start := func(cmd string) string {
			_, out, err := run(&tooldefs.BashInput{Command: cmd, RunInBackground: true, Description: "test task"})
			Expect(err).NotTo(HaveOccurred())
			Expect(out.BackgroundTaskID).NotTo(BeEmpty())
			Expect(text(bash.ResultBlocks(out))).To(And(
				ContainSubstring("Command running in background with ID: "+out.BackgroundTaskID),
				ContainSubstring(out.BackgroundOutputPath)))
			return out.BackgroundTaskID
		}

		It("starts a command, returns at once, and TaskOutput waits for the rest", func() {
			id := start("echo started; sleep 0.2; echo finished; exit 5")
			Expect(output.ValidateInput(ctx, &tooldefs.TaskOutputInput{TaskID: id}, tc)).To(Succeed())
			res, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id, Block: &yes, Timeout: ms(60000)}, newCall())
			Expect(err).NotTo(HaveOccurred())
			Expect(res.RetrievalStatus).To(Equal(tooldefs.RetrievalSuccess))
			Expect(res.Status).To(Equal("failed"))
			Expect(*res.ExitCode).To(Equal(5))
			Expect(res.Output).To(Equal("started\nfinished"))
			Expect(text(output.ResultBlocks(res))).To(And(
				ContainSubstring("<retrieval_status>success</retrieval_status>"),
				ContainSubstring("<exit_code>5</exit_code>"),
				ContainSubstring("<output>\nstarted\nfinished\n</output>")))
			Expect(output.RenderResult(nil, res)).To(Equal(id + " failed (exit code 5), 2 new lines"))

			// A second read has nothing new.
			res, err = output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id}, newCall())
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Output).To(BeEmpty())
			Expect(text(output.ResultBlocks(res))).To(ContainSubstring("(no new output)"))
		})

		It("reads new output incrementally without blocking", func() {
			gate := filepath.Join(root, "gate")
			id := start("echo one; while [ ! -e gate ]; do sleep 0.02; done; echo two")
			Eventually(func() string {
				res, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id, Block: &no}, newCall())
				Expect(err).NotTo(HaveOccurred())
				Expect(res.RetrievalStatus).To(Equal(tooldefs.RetrievalNotReady))
				Expect(res.ExitCode).To(BeNil())
				return res.Output
			}).Should(Equal("one"))
			Expect(os.WriteFile(gate, nil, 0o644)).To(Succeed())
			res, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id}, newCall())
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Output).To(Equal("two"))
			Expect(res.Status).To(Equal("completed"))
			Expect(output.RenderUse(&tooldefs.TaskOutputInput{TaskID: id, Block: &no})).To(Equal(id + " (non-blocking)"))
		})

		It("reports a wait that ends before the task", func() {
			id := start("sleep 300")
			res, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id, Timeout: ms(50)}, newCall())
			Expect(err).NotTo(HaveOccurred())
			Expect(res.RetrievalStatus).To(Equal(tooldefs.RetrievalTimeout))
			Expect(res.Status).To(Equal("running"))
			Expect(output.RenderResult(nil, res)).To(ContainSubstring("still running"))
		})

		It("stops waiting when the call is cancelled", func() {
			id := start("sleep 300")
			c, cancel := context.WithCancel(ctx)
			time.AfterFunc(50*time.Millisecond, cancel)
			_, err := output.Call(c, &tooldefs.TaskOutputInput{TaskID: id}, newCall())
			Expect(errors.Is(err, context.Canceled)).To(BeTrue())
		})

		It("stops a running task with TaskStop, process group and all", func() {
			id := start("sleep 300 & echo $!; sleep 300")
			var first string
			Eventually(func() string {
				res, _ := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: id, Block: &no}, newCall())
				first += res.Output
				return first
			}).ShouldNot(BeEmpty())
			pid, err := strconv.Atoi(first)
			Expect(err).NotTo(HaveOccurred())

			in := &tooldefs.TaskStopInput{TaskID: id}
			Expect(stop.ValidateInput(ctx, in, tc)).To(Succeed())
			res, err := stop.Call(ctx, in, newCall())
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Status).To(Equal("killed"))
			Expect(text(stop.ResultBlocks(res))).To(Equal("Successfully stopped task: " + id + " (sleep 300 & echo $!; sleep 300)"))
			Expect(stop.RenderResult(in, res)).To(HavePrefix("Stopped " + id))
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())

			Expect(stop.ValidateInput(ctx, in, tc)).To(MatchError(ContainSubstring("is not running (status: killed)")))
			_, err = stop.Call(ctx, in, newCall())
			Expect(err).To(MatchError(ContainSubstring("is not running")))
		})

		It("accepts KillShell's shell_id", func() {
			id := start("sleep 300")
			in := &tooldefs.TaskStopInput{ShellID: id}
			Expect(stop.ValidateInput(ctx, in, tc)).To(Succeed())
			Expect(stop.RenderUse(in)).To(Equal(id))
			_, err := stop.Call(ctx, in, newCall())
			Expect(err).NotTo(HaveOccurred())
		})

		It("refuses unknown and missing task IDs", func() {
			Expect(output.ValidateInput(ctx, &tooldefs.TaskOutputInput{TaskID: "bash_404"}, tc)).To(MatchError(ContainSubstring(`no background task found with ID "bash_404"`)))
			_, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: "bash_404"}, newCall())
			Expect(err).To(HaveOccurred())
			Expect(stop.ValidateInput(ctx, &tooldefs.TaskStopInput{}, tc)).To(MatchError(ContainSubstring("missing required parameter task_id")))
			Expect(stop.ValidateInput(ctx, &tooldefs.TaskStopInput{TaskID: "bash_404"}, tc)).To(MatchError(ContainSubstring("no background task found")))
			_, err = stop.Call(ctx, &tooldefs.TaskStopInput{}, newCall())
			Expect(err).To(HaveOccurred())
		})

		It("keeps the session's own shells when the context names no registry: shared by clones, killed on Close", func() {
			session := runtime.NewToolContext(root)
			DeferCleanup(session.Close)
			c := runtime.NewCall("toolu_2", session, nil)
			out, err := bash.Call(ctx, &tooldefs.BashInput{Command: "sleep 300 & echo $!; sleep 300", RunInBackground: true}, c)
			Expect(err).NotTo(HaveOccurred())
			_, ok := reg.Get(out.BackgroundTaskID)
			Expect(ok).To(BeFalse(), "not in another context's registry")
			Expect(output.ValidateInput(ctx, &tooldefs.TaskOutputInput{TaskID: out.BackgroundTaskID}, runtime.NewToolContext(root))).
				To(MatchError(ContainSubstring("no background task found")), "nor in another session's")

			clone := session.Clone()
			Expect(stop.ValidateInput(ctx, &tooldefs.TaskStopInput{TaskID: out.BackgroundTaskID}, clone)).To(Succeed())
			var first string
			Eventually(func() string {
				res, err := output.Call(ctx, &tooldefs.TaskOutputInput{TaskID: out.BackgroundTaskID, Block: &no}, runtime.NewCall("toolu_3", clone, nil))
				Expect(err).NotTo(HaveOccurred())
				first += res.Output
				return first
			}).ShouldNot(BeEmpty())
			pid, err := strconv.Atoi(first)
			Expect(err).NotTo(HaveOccurred())
			Expect(tooltest.Alive(pid)).To(BeTrue())

			clone.Close()
			Eventually(func() bool { return tooltest.Alive(pid) }).Should(BeFalse())
			_, err = bash.Call(ctx, &tooldefs.BashInput{Command: "sleep 300", RunInBackground: true}, c)
			Expect(err).To(MatchError(ContainSubstring("the session is closed")))
		})

		It("refuses run_in_background without the session's tool context", func() {
			_, err := bash.Call(ctx, &tooldefs.BashInput{Command: "sleep 300", RunInBackground: true}, runtime.NewCall("toolu_4", nil, nil))
			Expect(err).To(MatchError(ContainSubstring("the tool context has no session")))
			_, err = stop.Call(ctx, &tooldefs.TaskStopInput{TaskID: "bash_1"}, runtime.NewCall("toolu_5", nil, nil))
			Expect(err).To(MatchError(ContainSubstring("the tool context has no session")))
		})
	})
})
