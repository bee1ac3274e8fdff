package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/anthropic"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// cut closes the connection under the response, as a network failure or a
// dying proxy would: what was flushed has arrived, the rest never will.
func (s *sse) cut() {
	conn, _, err := s.w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close()
}

// fakeClock is a retry policy's clock and sleeper: Sleep records the wait
// and moves the clock on at once, so no spec waits for a back-off.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	waited []time.Duration
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waited = append(c.waited, d)
	c.now = c.now.Add(d)
	return true
}

func (c *fakeClock) Waited() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waited...)
}

// policy is the default policy on c, without jitter.
func (c *fakeClock) policy() agent.RetryPolicy {
	return agent.RetryPolicy{Sleep: c.Sleep, Now: c.Now, Jitter: func() float64 { return 0 }}
}

// sideEffects is a Bash-like tool that appends its summary to a file, so
// that a spec counts how often each command really ran.
type sideEffects struct {
	path string
}

func (f sideEffects) tool(name string) *tooltest.Sim {
	return &tooltest.Sim{ToolName: name, OnCall: func(_ context.Context, in *tooltest.Input, _ *runtime.Call) (runtime.Result, error) {
		if in.SleepMS > 0 {
			time.Sleep(time.Duration(in.SleepMS) * time.Millisecond)
		}
		fh, err := os.OpenFile(f.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return runtime.Result{}, err
		}
		defer fh.Close()
		if _, err := fh.WriteString(in.Summary + "\n"); err != nil {
			return runtime.Result{}, err
		}
		return runtime.Result{Content: []runtime.Block{runtime.TextBlock("ran " + in.Summary)}}, nil
	}}
}

// runs counts the lines of the side-effect file that are line.
func (f sideEffects) runs(line string) int {
	data, _ := os.ReadFile(f.path)
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		if l == line {
			n++
		}
	}
	return n
}

// toolResults maps the tool_use ids of a request body to the texts of
// their tool_results, and counts each id's results.
func toolResults(body map[string]any) (texts map[string]string, count map[string]int) {
	texts, count = map[string]string{}, map[string]int{}
	for _, m := range messages(body) {
		for _, b := range blocks(m) {
			if b["type"] != "tool_result" {
				continue
			}
			id := b["tool_use_id"].(string)
			count[id]++
			var parts []string
			if c, ok := b["content"].([]any); ok {
				for _, p := range c {
					if t, ok := p.(map[string]any)["text"].(string); ok {
						parts = append(parts, t)
					}
				}
			}
			texts[id] = strings.Join(parts, "")
		}
	}
	return texts, count
}

// everyUseAnsweredOnce checks the API's pairing rule and that no tool_use
// of the body has two results.
func everyUseAnsweredOnce(body map[string]any) {
	GinkgoHelper()
	Expect(pairingProblems(body)).To(BeEmpty())
	_, count := toolResults(body)
	for id, n := range count {
		Expect(n).To(Equal(1), "tool_use %s answered %d times", id, n)
	}
}

var _ = Describe("a model stream that breaks", Label("faults"), func() {
	var (
		rec   *recorder
		tc    *runtime.ToolContext
		fx    sideEffects
		clock *fakeClock
	)
	BeforeEach(func() {
		rec = &recorder{}
		dir := GinkgoT().TempDir()
		tc = runtime.NewToolContext(dir)
		fx = sideEffects{path: filepath.Join(dir, "marker")}
		clock = newFakeClock()
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
	})
	newAgent := func(api *fakeAPI, policy ...agent.RetryPolicy) *agent.Agent {
		p := anthropic.New("fake-model", option.WithBaseURL(api.URL()), option.WithMaxRetries(0))
		tools := []runtime.Tool{fx.tool("Bash"), fx.tool("Write")}
		retry := clock.policy()
		if len(policy) > 0 {
			retry = policy[0]
		}
		return agent.New(agent.Config{Provider: p, Tools: agent.List(tools), System: "be brief", Observer: rec.observe, Retry: retry}, tc)
	}

	It("before any call started: drops the attempt, sends the same request again after a back-off the user sees, and completes", func() {
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Writing the file. ")
				s.toolStart("toolu_cut", "Bash", `{"summary":"echo x >> mar`, 9)
				s.cut()
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_ok", "Bash", `{"summary":"echo x >> marker"}`)
				s.stop("tool_use")
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Done.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		ag := newAgent(api)

		out := ag.Run(context.Background(), "append x to marker")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Done."))
		Expect(out.Turns).To(Equal(2), "the retried request is the same turn")

		// What the model was told: the same request again, then the real result.
		reqs := api.Requests()
		Expect(reqs).To(HaveLen(3))
		Expect(reqs[1]["messages"]).To(Equal(reqs[0]["messages"]), "the retry is the same request")
		texts, _ := toolResults(reqs[2])
		Expect(texts).To(Equal(map[string]string{"toolu_ok": "ran echo x >> marker"}))
		everyUseAnsweredOnce(reqs[2])
		raw, _ := json.Marshal(reqs)
		Expect(string(raw)).NotTo(ContainSubstring("toolu_cut"), "nothing of the dropped attempt reaches the model")

		// What the user saw.
		retries := rec.kinds(agent.EventRetry)
		Expect(retries).To(HaveLen(1))
		Expect(retries[0].Retry.Attempt).To(Equal(1))
		Expect(retries[0].Retry.MaxRetries).To(Equal(agent.DefaultMaxRetries))
		Expect(retries[0].Retry.Kind).To(Equal(provider.ErrStream))
		Expect(retries[0].Text).To(HavePrefix("retrying in 0.5 s (attempt 1 of 10): stream failed"))
		Expect(clock.Waited()).To(Equal([]time.Duration{500 * time.Millisecond}))
		Expect(rec.kinds(agent.EventRequest)).To(HaveLen(3), "each attempt is a request the front ends see")

		Expect(fx.runs("echo x >> marker")).To(Equal(1))
		Expect(fx.runs("echo x >> mar")).To(BeZero(), "the half call never runs")
		Expect(ag.Messages()).To(HaveLen(4))
	})

	It("after a call ran: keeps its real result, answers the half call as cut off, and the next request goes on from there", func() {
		started := make(chan struct{})
		var once sync.Once
		rec.on = func(ev agent.Event) {
			if ev.Kind == agent.EventToolStart {
				once.Do(func() { close(started) })
			}
		}
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.tool("toolu_a", "Write", `{"summary":"write a.txt","sleep_ms":100}`)
				select { // the first call runs before the cut
				case <-started:
				case <-time.After(10 * time.Second):
				}
				s.toolStart("toolu_b", "Bash", `{"summary":"rm -rf bu`, 6)
				s.cut()
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("I see a.txt was written.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		ag := newAgent(api)

		out := ag.Run(context.Background(), "write a.txt, then clean up")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("I see a.txt was written."))
		Expect(fx.runs("write a.txt")).To(Equal(1), "the call that ran is not run again")
		Expect(fx.runs("rm -rf bu")).To(BeZero(), "the half call never runs")

		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		everyUseAnsweredOnce(reqs[1])
		msgs := messages(reqs[1])
		Expect(msgs).To(HaveLen(3), "the prompt, what the model got to say, the results")
		var ids []string
		for _, b := range blocks(msgs[1]) {
			if b["type"] == "tool_use" {
				ids = append(ids, b["id"].(string))
			}
		}
		Expect(ids).To(Equal([]string{"toolu_a", "toolu_b"}))
		texts, _ := toolResults(reqs[1])
		Expect(texts["toolu_a"]).To(Equal("ran write a.txt"), "the real result")
		Expect(texts["toolu_b"]).To(Equal(agent.CutOffResult))
		Expect(string(mustJSON(msgs[2]))).To(ContainSubstring(agent.StreamBrokenNotice))
		Expect(string(mustJSON(msgs[2]))).NotTo(ContainSubstring("interrupted"), "no user interrupted")

		retries := rec.kinds(agent.EventRetry)
		Expect(retries).To(HaveLen(1))
		Expect(retries[0].Text).To(HavePrefix("retrying in 0.5 s (attempt 1 of 10): "))
		Expect(rec.kinds(agent.EventInterrupted)).To(BeEmpty())
	})

	It("retries five 500s with a growing back-off, each retry an event, and completes", func() {
		var scripts []func(*sse, map[string]any)
		for range 5 {
			scripts = append(scripts, func(s *sse, _ map[string]any) { s.fail(500, "api_error", "Internal server error") })
		}
		scripts = append(scripts, func(s *sse, _ map[string]any) {
			s.start()
			s.text("Fine now.")
			s.stop("end_turn")
		})
		api := newFakeAPI(scripts...)
		DeferCleanup(api.Close)
		ag := newAgent(api)

		out := ag.Run(context.Background(), "hello")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(out.Text).To(Equal("Fine now."))
		Expect(out.Turns).To(Equal(1))
		Expect(api.Requests()).To(HaveLen(6))
		retries := rec.kinds(agent.EventRetry)
		Expect(retries).To(HaveLen(5))
		for i, r := range retries {
			Expect(r.Retry.Attempt).To(Equal(i + 1))
			Expect(r.Retry.Status).To(Equal(500))
			Expect(r.Retry.Kind).To(Equal(provider.ErrServer))
		}
		Expect(retries[2].Text).To(Equal("retrying in 2 s (attempt 3 of 10): 500 Internal Server Error (server error): Internal server error"))
		Expect(clock.Waited()).To(Equal([]time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second}))
	})

	It("gives up after the policy's retries with the last error", func() {
		api := newFakeAPI()
		api.cycle = true
		api.scripts = []func(*sse, map[string]any){func(s *sse, _ map[string]any) {
			s.fail(529, "overloaded_error", "Overloaded")
		}}
		DeferCleanup(api.Close)
		ag := newAgent(api, agent.RetryPolicy{MaxRetries: 3, Sleep: clock.Sleep, Now: clock.Now})

		out := ag.Run(context.Background(), "hello")
		Expect(out.Stop).To(Equal(agent.StopError))
		var apiErr *provider.APIError
		Expect(errors.As(out.Err, &apiErr)).To(BeTrue(), "%v", out.Err)
		Expect(apiErr.Status).To(Equal(529))
		Expect(api.Requests()).To(HaveLen(4), "the request and three retries")
		Expect(rec.kinds(agent.EventRetry)).To(HaveLen(3))
		Expect(ag.Messages()).To(HaveLen(1), "only the prompt")
	})

	It("does not retry what sending again cannot cure", func() {
		api := newFakeAPI(func(s *sse, _ map[string]any) { s.fail(400, "invalid_request_error", "messages: bad") })
		DeferCleanup(api.Close)
		ag := newAgent(api)
		out := ag.Run(context.Background(), "hello")
		Expect(out.Stop).To(Equal(agent.StopError))
		Expect(api.Requests()).To(HaveLen(1))
		Expect(rec.kinds(agent.EventRetry)).To(BeEmpty())
	})
})

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return b
}

var _ = Describe("a response that hits max_tokens inside a tool_use", Label("faults"), func() {
	It("answers the call as cut off through the real provider, runs nothing, and the model is told so, not a validation error", func() {
		dir := GinkgoT().TempDir()
		fx := sideEffects{path: filepath.Join(dir, "marker")}
		rec := &recorder{}
		GinkgoT().Setenv("ANTHROPIC_API_KEY", "test")
		api := newFakeAPI(
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("Appending. ")
				s.toolStop(s.toolStart("toolu_cut", "Bash", `{"summary":"echo x >> mar`, 9))
				s.stop("max_tokens")
			},
			func(s *sse, _ map[string]any) {
				s.start()
				s.text("I will send the whole call.")
				s.stop("end_turn")
			},
		)
		DeferCleanup(api.Close)
		p := anthropic.New("fake-model", option.WithBaseURL(api.URL()))
		ag := agent.New(agent.Config{Provider: p, Tools: agent.List([]runtime.Tool{fx.tool("Bash")}), Observer: rec.observe,
			Retry: newFakeClock().policy()}, runtime.NewToolContext(dir))

		out := ag.Run(context.Background(), "append x")
		Expect(out.Err).NotTo(HaveOccurred())
		Expect(out.Stop).To(Equal(agent.StopEndTurn))
		Expect(fx.path).NotTo(BeAnExistingFile(), "nothing ran")
		Expect(rec.kinds(agent.EventToolStart)).To(BeEmpty())
		reqs := api.Requests()
		Expect(reqs).To(HaveLen(2))
		everyUseAnsweredOnce(reqs[1])
		texts, _ := toolResults(reqs[1])
		Expect(texts).To(Equal(map[string]string{"toolu_cut": agent.CutOffResult}))
		Expect(rec.kinds(agent.EventRetry)).To(BeEmpty(), "max_tokens is an answer, not a failure")
	})
})
