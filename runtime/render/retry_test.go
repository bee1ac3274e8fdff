package render_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/render"
)

// retried is a turn whose first attempt broke off and whose second, after
// a wait, answered.
func retried() (string, []agent.Event) {
	broken := &agent.RetryInfo{Attempt: 1, MaxRetries: 10, Delay: 4 * time.Second, Kind: provider.ErrStream,
		Err: &provider.APIError{Provider: "anthropic", Kind: provider.ErrStream, Message: "the server closed the stream"}}
	busy := &agent.RetryInfo{Attempt: 2, MaxRetries: 10, Delay: 1500 * time.Millisecond, Status: 529, Kind: provider.ErrOverloaded,
		Err: &provider.APIError{Provider: "anthropic", Status: 529, Kind: provider.ErrOverloaded, Message: "Overloaded"}}
	answer := provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("Hi.")}}
	return "hello", []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		text("Hel"),
		{Kind: agent.EventRetry, Turn: 1, Text: agent.RetryNotice(broken), Retry: broken},
		{Kind: agent.EventRequest, Turn: 1},
		{Kind: agent.EventRetry, Turn: 1, Text: agent.RetryNotice(busy), Retry: busy},
		{Kind: agent.EventRequest, Turn: 1},
		text("Hi."),
		{Kind: agent.EventAssistant, Turn: 1, Message: &answer, Stop: provider.StopEndTurn},
		{Kind: agent.EventDone, Turn: 1, Outcome: &agent.Outcome{Stop: agent.StopEndTurn, Turns: 1, Text: "Hi.", Duration: 30 * time.Millisecond}},
	}
}

var _ = Describe("a retried request", func() {
	opts := func(f render.Format) render.Options {
		n := 0
		return render.Options{Format: f, Session: "s-1", Init: render.Init{Model: "anthropic:m", Cwd: "/repo"},
			NewUUID: func() string { n++; return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) },
			Now:     func() time.Time { return time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) }}
	}

	It("shows each retry in the terminal: the wait, the attempt, what happened", func() {
		p, evs := retried()
		out := play(opts(render.Text), p, evs)
		Expect(out).To(ContainSubstring("⚠ retrying in 4 s (attempt 1 of 10): stream failed: the server closed the stream\n"))
		Expect(out).To(ContainSubstring("⚠ retrying in 1.5 s (attempt 2 of 10): 529 (overloaded): Overloaded\n"))
	})

	It("writes Claude Code's api_retry system message in stream-json, and the answer once", func() {
		p, evs := retried()
		out := play(opts(render.StreamJSON), p, evs)
		var retries []map[string]any
		var texts []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var ev map[string]any
			Expect(json.Unmarshal([]byte(line), &ev)).To(Succeed(), line)
			if ev["subtype"] == "api_retry" {
				retries = append(retries, ev)
			}
			if ev["type"] == "assistant" {
				texts = append(texts, fmt.Sprint(ev["message"].(map[string]any)["content"]))
			}
		}
		Expect(retries).To(HaveLen(2))
		Expect(retries[0]).To(Equal(map[string]any{"type": "system", "subtype": "api_retry", "attempt": 1.0, "max_retries": 10.0,
			"retry_delay_ms": 4000.0, "error_status": nil, "error": "unknown", "uuid": retries[0]["uuid"], "session_id": "s-1"}))
		Expect(retries[1]).To(HaveKeyWithValue("error_status", 529.0))
		Expect(retries[1]).To(HaveKeyWithValue("error", "overloaded"))
		Expect(retries[1]).To(HaveKeyWithValue("retry_delay_ms", 1500.0))
		Expect(texts).To(HaveLen(1), "the broken attempt's text is not sent as a message")
		Expect(texts[0]).To(ContainSubstring("Hi."))
		Expect(texts[0]).NotTo(ContainSubstring("Hel"))
	})

	It("says nothing of it in the json format", func() {
		p, evs := retried()
		Expect(play(opts(render.JSON), p, evs)).NotTo(ContainSubstring("api_retry"))
	})
})
