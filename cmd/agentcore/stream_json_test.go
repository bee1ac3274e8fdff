//go:build !internal && !ant

package main_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// toolThenTextAPI is a Messages API on loopback that asks for one Bash
// call (echo hi) and, once it has the result, answers with text: the
// exchange recorded from Claude Code 2.1.197 in
// testdata/claude-code-2.1.197.stream.jsonl (claude -p "run echo hi"
// --output-format stream-json --verbose --allowedTools "Bash(echo:*)").
func toolThenTextAPI() *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body strings.Builder
		_, _ = bufio.NewReader(r.Body).WriteTo(&body)
		if strings.Contains(body.String(), `"tool_result"`) {
			fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "It printed hi."}}}.write(w)
			return
		}
		fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{Text: "Running it."},
			{ID: "toolu_01", Tool: "Bash", Input: `{"command":"echo hi","description":"Print hi"}`}}}.write(w)
	}))
	DeferCleanup(srv.Close)
	return srv
}

// streamEvents parses stream-json lines.
func streamEvents(out string) []map[string]any {
	var evs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev map[string]any
		Expect(json.Unmarshal([]byte(l), &ev)).To(Succeed(), l)
		evs = append(evs, ev)
	}
	return evs
}

// kind is an event's type, with its subtype when it has one.
func kind(ev map[string]any) string {
	if inner, ok := ev["event"].(map[string]any); ok && ev["type"] == "stream_event" {
		return "stream_event/" + inner["type"].(string)
	}
	if st, ok := ev["subtype"].(string); ok {
		return ev["type"].(string) + "/" + st
	}
	return ev["type"].(string)
}

// shape is v with every leaf replaced by its JSON type: the structure
// two events share when only their values differ.
func shape(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = shape(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = shape(e)
		}
		return out
	}
	return fmt.Sprintf("%T", v)
}

func keys(m any) []string {
	obj, _ := m.(map[string]any)
	var ks []string
	for k := range obj {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// claudeCodeOnly are the keys of Claude Code's events that agentcore
// leaves out, and why.
var claudeCodeOnly = map[string]map[string]string{
	"system/init": {
		"claude_code_version":       "agentcore says agentcore_version: it is not Claude Code",
		"memory_paths":              "Claude Code's auto-memory directory; agentcore has none",
		"fast_mode_state":           "Claude Code's fast mode",
		"analytics_disabled":        "agentcore sends no analytics",
		"product_feedback_disabled": "agentcore asks for no product feedback",
	},
	"result/success": {
		"fast_mode_state": "Claude Code's fast mode",
	},
}

var _ = Describe("stream-json, as Claude Code emits it", func() {
	// sameAsClaudeCode runs the recorded exchange with args and checks
	// that agentcore's events have the transcript's types, in its order,
	// each with its keys (its message's and content block's, its API
	// event's); it returns agentcore's events.
	sameAsClaudeCode := func(transcript string, args ...string) []map[string]any {
		data, err := os.ReadFile(filepath.Join("testdata", transcript))
		Expect(err).NotTo(HaveOccurred())
		cc := streamEvents(string(data))

		srv := toolThenTextAPI()
		stdout, stderr, code := agentcoreRoot("", []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			append([]string{"-p", "run echo hi", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash(echo:*)"}, args...)...)
		Expect(code).To(Equal(0), stderr)
		ours := streamEvents(stdout)

		kinds := func(evs []map[string]any) []string {
			var ks []string
			for _, ev := range evs {
				ks = append(ks, kind(ev))
			}
			return ks
		}
		Expect(kinds(ours)).To(Equal(kinds(cc)), "one assistant event per block, one user event per tool result")
		for i, want := range cc {
			got := ours[i]
			k := kind(want)
			var missing []string
			for _, key := range keys(want) {
				if _, ok := got[key]; !ok && claudeCodeOnly[k][key] == "" {
					missing = append(missing, key)
				}
			}
			Expect(missing).To(BeEmpty(), "event %d (%s) lacks Claude Code's keys", i, k)
			if msg, ok := want["message"]; ok {
				Expect(keys(got["message"])).To(ContainElements(keys(msg)), "event %d (%s): the message's keys", i, k)
				wantBlock := msg.(map[string]any)["content"].([]any)[0]
				gotBlock := got["message"].(map[string]any)["content"].([]any)[0]
				Expect(keys(gotBlock)).To(Equal(keys(wantBlock)), "event %d (%s): the content block's keys", i, k)
			}
			if inner, ok := want["event"]; ok {
				Expect(shape(got["event"])).To(Equal(shape(inner)), "event %d (%s): the API's event as it came", i, k)
			}
		}
		return ours
	}

	It("has Claude Code's event types in its order, each with Claude Code's keys", func() {
		ours := sameAsClaudeCode("claude-code-2.1.197.stream.jsonl")
		init, result := ours[0], ours[len(ours)-1]
		Expect(init["session_id"]).To(MatchRegexp(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`))
		Expect(init["apiKeySource"]).To(Equal("ANTHROPIC_API_KEY"))
		Expect(init["model"]).To(Equal("claude-sonnet-4-5"))
		Expect(ours[3]["message"].(map[string]any)["content"].([]any)[0]).To(HaveKeyWithValue("content", "hi"), "tool_result content is a string, as Claude Code's")
		// Claude Code's Bash tool_use_result: {"stdout":"hi","stderr":"",…}
		// (its stdout holds stderr too).
		Expect(ours[3]["tool_use_result"]).To(And(HaveKeyWithValue("stdout", "hi"), HaveKeyWithValue("stderr", "")))
		Expect(result).To(HaveKeyWithValue("num_turns", 2.0))
		Expect(result).To(HaveKeyWithValue("terminal_reason", "completed"))
		Expect(result["usage"]).To(HaveKeyWithValue("input_tokens", 100.0))
		// claude-sonnet-4-5: $3 in, $15 out per million tokens.
		Expect(result["total_cost_usd"]).To(BeNumerically("~", (100*3+25*15)/1e6, 1e-12))
		Expect(result["modelUsage"]).To(HaveKey("claude-sonnet-4-5"))
	})

	It("adds the API's stream events with --include-partial-messages, where Claude Code puts them", func() {
		// testdata/claude-code-2.1.197.partial.stream.jsonl: the same
		// exchange with --include-partial-messages.
		ours := sameAsClaudeCode("claude-code-2.1.197.partial.stream.jsonl", "--include-partial-messages")
		var starts int
		for _, ev := range ours {
			if kind(ev) == "stream_event/message_start" {
				starts++
				Expect(ev["ttft_ms"]).To(BeNumerically(">=", 0))
			}
		}
		Expect(starts).To(Equal(2))
	})

	It("refuses --include-partial-messages without stream-json", func() {
		_, stderr, code := agentcoreRoot("", nil, "-p", "hi", "--model", "replay", "--include-partial-messages")
		Expect(code).To(Equal(1))
		Expect(stderr).To(ContainSubstring("--include-partial-messages needs --output-format stream-json"))
	})

	It("lists the calls the permission layer refused in the result", func() {
		srv := toolThenTextAPI()
		stdout, stderr, code := agentcoreRoot("", []string{"ANTHROPIC_API_KEY=test", "ANTHROPIC_BASE_URL=" + srv.URL},
			"-p", "run echo hi", "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--disallowedTools", "Bash(echo:*)")
		Expect(code).To(Equal(0), stderr)
		evs := streamEvents(stdout)
		result := evs[len(evs)-1]
		Expect(result["permission_denials"]).To(ConsistOf(map[string]any{
			"tool_name": "Bash", "tool_use_id": "toolu_01",
			"tool_input": map[string]any{"command": "echo hi", "description": "Print hi"},
		}))
	})
})
