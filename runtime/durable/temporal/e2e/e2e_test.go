package e2e

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"
	"go.temporal.io/sdk/client"

	"github.com/agentcore/agentcore/generated"
	durable "github.com/agentcore/agentcore/runtime/durable/temporal"
	"github.com/agentcore/agentcore/runtime/permission"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// script parses a JSONL replay scenario.
func script(lines ...string) *replay.Scenario {
	sc, err := replay.Parse([]byte(strings.Join(lines, "\n")))
	Expect(err).NotTo(HaveOccurred())
	return sc
}

// startWorker runs an in-process worker on queue with workspace ws that
// bypasses permissions.
func startWorker(c client.Client, queue, ws string, sc *replay.Scenario) *durable.Worker {
	return startWorkerWith(c, queue, ws, GinkgoT().TempDir(), permission.ModeBypass, sc)
}

// startWorkerWith runs an in-process worker with its state in state and
// permission mode mode.
func startWorkerWith(c client.Client, queue, ws, state string, mode permission.Mode, sc *replay.Scenario) *durable.Worker {
	w, err := durable.NewWorker(c, durable.WorkerOptions{TaskQueue: queue, Workspace: ws, StateDir: state,
		Tools: generated.AllBaseTools(), Provider: durable.NewScript(sc, replay.Options{}),
		Permissions: permission.Sources{Mode: mode, ConfigDir: GinkgoT().TempDir()},
		Logger:      slog.New(slog.NewTextHandler(GinkgoWriter, nil))})
	Expect(err).NotTo(HaveOccurred())
	Expect(w.Start()).To(Succeed())
	DeferCleanup(w.Stop)
	return w
}

// answeredOnce checks every tool_use has exactly one tool_result.
func answeredOnce(msgs []provider.Message) {
	for i, m := range msgs {
		uses := m.ToolUses()
		if len(uses) == 0 {
			continue
		}
		Expect(i + 1).To(BeNumerically("<", len(msgs)))
		got := map[string]int{}
		for _, b := range msgs[i+1].Content {
			if b.Type == provider.ToolResultBlock {
				got[b.ToolUseID]++
			}
		}
		for _, u := range uses {
			Expect(got[u.ID]).To(Equal(1), "tool_use %s", u.ID)
		}
	}
}

var queueN int
var queueMu sync.Mutex

// newQueue returns a task queue no other spec uses.
func newQueue() string {
	queueMu.Lock()
	defer queueMu.Unlock()
	queueN++
	return fmt.Sprintf("e2e-%d-%d", os.Getpid(), queueN)
}

var _ = Describe("durable sessions on a real Temporal server", Label("e2e"), func() {
	var c client.Client
	BeforeEach(func() {
		c = server.GetDefaultClient()
	})

	It("completes a session of several turns, continuing as new on the way, its events readable", func() {
		queue := newQueue()
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)).To(Succeed())
		sc := script(`{"name":"turns"}`,
			`{"blocks":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo beta > b.txt","description":"write"}}]}`,
			`{"blocks":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"`+dir+`/a.txt"}},{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"`+dir+`/b.txt"}}]}`,
			`{"blocks":[{"type":"tool_use","id":"t4","name":"Glob","input":{"pattern":"*.txt"}}]}`,
			`{"blocks":[{"type":"text","text":"Four turns."}]}`)
		startWorker(c, queue, "ws", sc)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		_, err := durable.Start(ctx, c, "turns-"+queue, "go", durable.Options{TaskQueue: queue, Dir: dir, HistoryLimit: 25})
		Expect(err).NotTo(HaveOccurred())
		out, err := durable.Wait(ctx, c, "turns-"+queue)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(out.Text).To(Equal("Four turns."))
		Expect(out.Turns).To(Equal(4))
		Expect(out.Runs).To(BeNumerically(">", 1), "the history limit of 25 events makes it continue as new")
		answeredOnce(out.Messages)
		Expect(fmt.Sprint(out.Messages)).To(ContainSubstring("alpha"))
		Expect(fmt.Sprint(out.Messages)).To(ContainSubstring("beta"))
		lines, err := durable.Events(ctx, c, "turns-"+queue)
		Expect(err).NotTo(HaveOccurred())
		Expect(lines[0]).To(ContainSubstring(`"subtype":"init"`))
		Expect(lines[len(lines)-1]).To(ContainSubstring(`"type":"result"`))
	})

	// A real server has no time skipping (the SDK's testsuite has it: the
	// unit spec waits a simulated day); here the ask waits in real time
	// with no worker running at all, and a worker started afterwards
	// takes the answer.
	It("waits for an approval with no worker running, and a worker started later carries it out", func() {
		queue := newQueue()
		dir, state := GinkgoT().TempDir(), GinkgoT().TempDir()
		sc := script(`{"name":"approve"}`,
			`{"blocks":[{"type":"tool_use","id":"p1","name":"Bash","input":{"command":"touch approved.txt","description":"make a file"}}]}`,
			`{"blocks":[{"type":"text","text":"Made it."}]}`)
		w1 := startWorkerWith(c, queue, "disk", state, permission.ModeDefault, sc)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		id := "approve-" + queue
		_, err := durable.Start(ctx, c, id, "make a file", durable.Options{TaskQueue: queue, Dir: dir})
		Expect(err).NotTo(HaveOccurred())
		var asks []durable.Ask
		Eventually(func() []durable.Ask { asks, _ = durable.Pending(ctx, c, id); return asks }).
			WithTimeout(time.Minute).Should(HaveLen(1))
		Expect(asks[0].ToolUseID).To(Equal("p1"))
		Expect(asks[0].ToolName).To(Equal("Bash"))
		Expect(string(asks[0].Input)).To(ContainSubstring("touch approved.txt"))
		w1.Stop() // nothing runs while the human thinks
		time.Sleep(5 * time.Second)
		desc, err := c.DescribeWorkflowExecution(ctx, id, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(desc.WorkflowExecutionInfo.Status.String()).To(Equal("Running"))
		Expect(filepath.Join(dir, "approved.txt")).NotTo(BeAnExistingFile())
		// An update runs on a worker: the answer needs one up (any worker
		// of the shared queue; this one also holds the files).
		startWorkerWith(c, queue, "disk", state, permission.ModeDefault, sc)
		Expect(durable.Reply(ctx, c, id, durable.Answer{ToolUseID: "p1", Behavior: "allow"})).To(Succeed())
		out, err := durable.Wait(ctx, c, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(out.Text).To(Equal("Made it."))
		Expect(filepath.Join(dir, "approved.txt")).To(BeAnExistingFile())
		answeredOnce(out.Messages)
	})

	It("stops `sleep 30` at the first interrupt (Bash cancels it, as locally), answering the call", func() {
		queue := newQueue()
		sc := script(`{"name":"sleep"}`,
			`{"blocks":[{"type":"tool_use","id":"s1","name":"Bash","input":{"command":"sleep 30","description":"wait"}}]}`,
			`{"blocks":[{"type":"text","text":"unreachable"}]}`)
		startWorker(c, queue, "ws", sc)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		id := "sleep-" + queue
		_, err := durable.Start(ctx, c, id, "wait", durable.Options{TaskQueue: queue, Dir: GinkgoT().TempDir()})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string {
			lines, _ := durable.Events(ctx, c, id)
			return strings.Join(lines, "\n")
		}).WithTimeout(time.Minute).Should(ContainSubstring(`"name":"Bash"`))
		time.Sleep(time.Second) // the batch activity is running sleep 30 now
		began := time.Now()
		Expect(durable.Interrupt(ctx, c, id)).To(Succeed())
		out, err := durable.Wait(ctx, c, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(time.Since(began)).To(BeNumerically("<", 20*time.Second), "sleep 30 ran on")
		Expect(out.Stop).To(Equal("interrupted"))
		Expect(out.Turns).To(Equal(1))
		answeredOnce(out.Messages)
		res := out.Messages[2].Content[0]
		Expect(res.ToolUseID).To(Equal("s1"))
		Expect(res.IsError).To(BeTrue())
		Expect(fmt.Sprint(res.Content)).To(ContainSubstring("interrupted"))
	})

	It("lets a build run to its end on a first interrupt (Bash blocks for it, as locally) and stops the turn after it", func() {
		queue := newQueue()
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "Makefile"), []byte("slow:\n\tsleep 4; echo built > built.txt; echo built\n"), 0o644)).To(Succeed())
		sc := script(`{"name":"build"}`,
			`{"blocks":[{"type":"tool_use","id":"m1","name":"Bash","input":{"command":"make -s slow","description":"build"}}]}`,
			`{"blocks":[{"type":"text","text":"unreachable"}]}`)
		startWorker(c, queue, "ws", sc)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		id := "build-" + queue
		_, err := durable.Start(ctx, c, id, "build", durable.Options{TaskQueue: queue, Dir: dir})
		Expect(err).NotTo(HaveOccurred())
		Eventually(func() string {
			lines, _ := durable.Events(ctx, c, id)
			return strings.Join(lines, "\n")
		}).WithTimeout(time.Minute).Should(ContainSubstring(`"name":"Bash"`))
		time.Sleep(time.Second)
		Expect(durable.Interrupt(ctx, c, id)).To(Succeed())
		out, err := durable.Wait(ctx, c, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal("interrupted"))
		answeredOnce(out.Messages)
		res := out.Messages[2].Content[0]
		Expect(res.ToolUseID).To(Equal("m1"))
		Expect(res.IsError).To(BeFalse(), "%v", res.Content)
		Expect(fmt.Sprint(res.Content)).To(ContainSubstring("built"))
		Expect(filepath.Join(dir, "built.txt")).To(BeAnExistingFile())
	})

	It("finishes a batch on a second worker process after the first is SIGKILLed mid-batch, running no finished call again", func() {
		queue := newQueue()
		dir, state := GinkgoT().TempDir(), GinkgoT().TempDir()
		scPath := filepath.Join(GinkgoT().TempDir(), "kill.jsonl")
		Expect(os.WriteFile(scPath, []byte(strings.Join([]string{`{"name":"kill"}`,
			`{"blocks":[{"type":"text","text":"Three steps."},` +
				`{"type":"tool_use","id":"k1","name":"Bash","input":{"command":"echo a >> side.log","description":"step a"}},` +
				`{"type":"tool_use","id":"k2","name":"Bash","input":{"command":"echo b-start >> side.log; sleep 4","description":"step b"}},` +
				`{"type":"tool_use","id":"k3","name":"Bash","input":{"command":"echo c >> side.log","description":"step c"}}]}`,
			`{"blocks":[{"type":"text","text":"All three steps ran."}]}`}, "\n")), 0o644)).To(Succeed())
		worker := func(name string) *gexec.Session {
			cmd := exec.Command(os.Args[0], "worker", "--temporal", server.GetFrontendHostPort(), "--namespace", server.GetDefaultNamespace(),
				"--task-queue", queue, "--workspace", "disk1", "--state", state, "--model", "replay:"+scPath,
				"--permission-mode", "bypassPermissions", "--settings=false")
			cmd.Env = append(os.Environ(), workerEnv+"=1")
			s, err := gexec.Start(cmd, GinkgoWriter, gexec.NewPrefixedWriter("["+name+"] ", GinkgoWriter))
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(func() { s.Kill().Wait(10 * time.Second) })
			return s
		}
		w1 := worker("worker-1")
		Eventually(w1.Err).WithTimeout(time.Minute).Should(gbytes.Say("worker started"))
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		id := "kill-" + queue
		_, err := durable.Start(ctx, c, id, "three steps", durable.Options{TaskQueue: queue, Dir: dir, Heartbeat: 2 * time.Second})
		Expect(err).NotTo(HaveOccurred())
		side := filepath.Join(dir, "side.log")
		Eventually(func() string { b, _ := os.ReadFile(side); return string(b) }).WithTimeout(time.Minute).
			Should(ContainSubstring("b-start"))
		running, err := durable.Events(ctx, c, id) // readable while the batch runs
		Expect(err).NotTo(HaveOccurred())
		Expect(strings.Join(running, "\n")).To(ContainSubstring(`"id":"k2"`))
		killed := fmt.Sprintf("time=%s SIGKILL worker-1 (pid %d) while the batch runs\n",
			time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), w1.Command.Process.Pid)
		Expect(w1.Command.Process.Kill()).To(Succeed()) // SIGKILL
		fmt.Fprint(GinkgoWriter, killed)
		Eventually(w1).WithTimeout(10 * time.Second).Should(gexec.Exit())

		w2 := worker("worker-2")
		out, err := durable.Wait(ctx, c, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal("end_turn"))
		Expect(out.Text).To(Equal("All three steps ran."))
		answeredOnce(out.Messages)
		b, _ := os.ReadFile(side)
		got := strings.Fields(string(b))
		count := map[string]int{}
		for _, g := range got {
			count[g]++
		}
		Expect(count["a"]).To(Equal(1), "the finished call k1 ran again: %v", got)
		Expect(count["c"]).To(Equal(1), "%v", got)
		Expect(count["b-start"]).To(Equal(2), "k2 was running when the worker died: it runs again: %v", got)
		Expect(string(w1.Err.Contents())).To(MatchRegexp(`call journaled.*tool_use_id=k1`))
		Expect(string(w1.Err.Contents())).NotTo(MatchRegexp(`call journaled.*tool_use_id=k2`), "k2 was running when the worker died")
		Eventually(w2.Err).Should(gbytes.Say(`call answered from the journal.*tool_use_id=k1`))
		Eventually(w2.Err).Should(gbytes.Say(`batch done.*replayed=1`))
		Expect(string(w2.Err.Contents())).NotTo(MatchRegexp(`call started.*tool_use_id=k1`), "k1 ran again")

		lines, err := durable.Events(ctx, c, id)
		Expect(err).NotTo(HaveOccurred())
		if dir := os.Getenv("DURABLE_E2E_ARTIFACTS"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, "kill-transcript.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
			_ = os.WriteFile(filepath.Join(dir, "kill-worker-1.log"), w1.Err.Contents(), 0o644)
			_ = os.WriteFile(filepath.Join(dir, "kill-worker-2.log"), w2.Err.Contents(), 0o644)
			_ = os.WriteFile(filepath.Join(dir, "kill-side.log"), b, 0o644)
			_ = os.WriteFile(filepath.Join(dir, "kill-spec.log"), []byte(killed), 0o644)
		}
	})

	It("runs two hundred sessions over two workers", Label("load"), func() {
		queue := newQueue()
		sc := script(`{"name":"many"}`,
			`{"blocks":[{"type":"tool_use","id":"g1","name":"Bash","input":{"command":"echo hi > hi.txt","description":"write"}}]}`,
			`{"blocks":[{"type":"text","text":"ok"}]}`)
		w1 := startWorker(c, queue, "one", sc)
		w2 := startWorker(c, queue, "two", sc)
		const n = 200
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		began := time.Now()
		for i := range n {
			_, err := durable.Start(ctx, c, fmt.Sprintf("many-%s-%d", queue, i), "go", durable.Options{TaskQueue: queue})
			Expect(err).NotTo(HaveOccurred())
		}
		var mu sync.Mutex
		byQueue := map[string]int{}
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Go(func() {
				out, err := durable.Wait(ctx, c, fmt.Sprintf("many-%s-%d", queue, i))
				if err == nil && out.Stop != "end_turn" {
					err = fmt.Errorf("session %d stopped with %s: %s", i, out.Stop, out.Error)
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				byQueue[out.Workspace]++
				if out.Messages[2].Content[0].IsError {
					byQueue["error"]++
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			Expect(err).NotTo(HaveOccurred())
		}
		took := time.Since(began)
		Expect(byQueue["error"]).To(BeZero())
		Expect(byQueue[w1.Queue()]).To(BeNumerically(">", 0), "%v", byQueue)
		Expect(byQueue[w2.Queue()]).To(BeNumerically(">", 0), "%v", byQueue)
		Expect(byQueue[w1.Queue()] + byQueue[w2.Queue()]).To(Equal(n))
		AddReportEntry("200 sessions over two workers", fmt.Sprintf("%s, %.1f sessions/s (%s, %s)", took.Round(time.Millisecond), n/took.Seconds(), w1.Queue(), w2.Queue()))
		fmt.Fprintf(GinkgoWriter, "200 sessions: %s, %.1f sessions/s\n", took, n/took.Seconds())
	})
})
