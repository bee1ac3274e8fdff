//go:build !internal && !ant

package main_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/tooltest"
)

// sdkOutcome is what a host script sees of a query: which calls its
// canUseTool was asked about, each tool result's is_error, the files the
// calls left, and the result's subtype, text and denial count.
type sdkOutcome struct {
	Asked   []string
	IsError []bool
	Denied  string // the deny message, as the model got it
	Files   []string
	Subtype string
	Result  string
	Denials int
}

// runCanUseTool runs testdata/sdk/can_use_tool.mjs with cli as the
// SDK's executable against a fresh scripted API and directory.
func runCanUseTool(entry, cli string, env ...string) sdkOutcome {
	dir := GinkgoT().TempDir()
	api := scriptedAPI(
		[2]string{"Bash", `{"command":"touch asked.txt","description":"Make the file"}`},
		[2]string{"Write", `{"file_path":"` + filepath.Join(dir, "w.txt") + `","content":"x"}`},
	)
	var o sdkOutcome
	for _, ev := range sdkScript("can_use_tool.mjs", entry, cli, dir, api, env...) {
		switch {
		case ev.Kind == "can_use_tool":
			o.Asked = append(o.Asked, ev.Name)
		case ev.Kind == "message" && ev.Message["type"] == "user":
			msg, _ := ev.Message["message"].(map[string]any)
			content, _ := msg["content"].([]any)
			for _, c := range content {
				b, _ := c.(map[string]any)
				if b["type"] != "tool_result" {
					continue
				}
				isErr, _ := b["is_error"].(bool)
				o.IsError = append(o.IsError, isErr)
				if isErr {
					o.Denied = toolResultText(b["content"])
				}
			}
		case ev.Kind == "message" && ev.Message["type"] == "result":
			o.Subtype, _ = ev.Message["subtype"].(string)
			o.Result, _ = ev.Message["result"].(string)
			d, _ := ev.Message["permission_denials"].([]any)
			o.Denials = len(d)
		}
	}
	entries, err := os.ReadDir(dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		o.Files = append(o.Files, e.Name())
	}
	return o
}

// toolResultText is a tool_result's content as text, a string or text
// blocks.
func toolResultText(c any) string {
	if s, ok := c.(string); ok {
		return s
	}
	var b strings.Builder
	blocks, _ := c.([]any)
	for _, x := range blocks {
		if m, ok := x.(map[string]any); ok {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// The parity specs below run one Agent SDK script per scenario
// (testdata/sdk), unchanged, twice: with the Claude Code the SDK bundles
// as its executable, and with agentcore. Each run gets its own directory
// and its own fake Messages API on loopback, scripted the same way; the
// spec then compares what a host and the model see: the SDK messages'
// types and subtypes in order, the tool results, what the host's
// callbacks were asked, the conversation the API received and the files
// the calls left. A difference the spec accepts is written out as an
// exception, with what each side does.

// apiCall is one request to a parity run's fake API.
type apiCall struct {
	Dir     string         // the query's directory
	Body    map[string]any // the request
	Results int            // the tool_result blocks it carries
}

// sdkTrace is one run of a testdata/sdk script: the lines it printed,
// the requests its fake API got, and the files left in its directory.
type sdkTrace struct {
	Dir      string
	Lines    []sdkLine
	Requests []map[string]any
	Files    []string
}

// bundledClaude returns the SDK's bundled Claude Code (a linux-x64
// optional dependency of the SDK), skipping the spec when it is missing,
// or failing it where npm is required: without it there is nothing to
// compare with.
func bundledClaude() string {
	return tooltest.NeedNpmFile("@anthropic-ai/claude-agent-sdk-linux-x64/claude")
}

// traceSDK runs testdata/sdk/script with cli as the SDK's executable
// against a fake API whose answers reply picks; every answer gets its own
// message id, as the real API's do (Claude Code joins the blocks of
// answers that share one).
func traceSDK(script, cli string, reply func(apiCall) fakeReply) sdkTrace {
	t := sdkTrace{Dir: GinkgoT().TempDir()}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/messages" {
			http.Error(w, "the parity API answers /v1/messages only", http.StatusNotFound)
			return
		}
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		mu.Lock()
		t.Requests = append(t.Requests, body)
		n := len(t.Requests)
		mu.Unlock()
		rep := reply(apiCall{Dir: t.Dir, Body: body, Results: strings.Count(string(raw), `"tool_result"`)})
		rep.ID = fmt.Sprintf("msg_%d", n)
		rep.write(w)
	}))
	DeferCleanup(srv.Close)
	t.Lines = sdkScript(script, sdkEntry(), cli, t.Dir, srv)
	srv.Close()
	for _, l := range t.Lines {
		Expect(l.Kind).NotTo(Equal("timeout"), "%s with %s timed out", script, cli)
	}
	entries, err := os.ReadDir(t.Dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		t.Files = append(t.Files, e.Name())
	}
	return t
}

// messages returns the SDK messages of the lines of the given kinds
// ("message" when none is given).
func (t sdkTrace) messages(kinds ...string) []map[string]any {
	if len(kinds) == 0 {
		kinds = []string{"message"}
	}
	var out []map[string]any
	for _, l := range t.Lines {
		if l.Message != nil && slices.Contains(kinds, l.Kind) {
			out = append(out, l.Message)
		}
	}
	return out
}

// kinds is the SDK messages' types, with their subtypes, in order; a
// sub-agent's message ends in "@" and its Agent call's id.
func (t sdkTrace) kinds(lineKinds ...string) []string {
	var out []string
	for _, m := range t.messages(lineKinds...) {
		k, _ := m["type"].(string)
		if sub, ok := m["subtype"].(string); ok {
			k += "/" + sub
		}
		if p, ok := m["parent_tool_use_id"].(string); ok && p != "" {
			k += "@" + p
		}
		out = append(out, k)
	}
	return out
}

// result is the last result message.
func (t sdkTrace) result(lineKinds ...string) map[string]any {
	var r map[string]any
	for _, m := range t.messages(lineKinds...) {
		if m["type"] == "result" {
			r = m
		}
	}
	Expect(r).NotTo(BeNil(), "the query ended with a result message")
	return r
}

// calls is the script's own lines of kind (can_use_tool, hook, tool),
// without the time they took.
func (t sdkTrace) calls(kind string) []sdkLine {
	var out []sdkLine
	for _, l := range t.Lines {
		if l.Kind == kind {
			l.MS = 0
			out = append(out, l)
		}
	}
	return out
}

// toolResult is a tool_result block as text.
type toolResult struct {
	ID, Text string
	IsError  bool
}

// toolResults are the tool_result blocks of the SDK's user messages, in
// order, as text (a string, or its text blocks joined).
func (t sdkTrace) toolResults() []toolResult {
	var out []toolResult
	for _, m := range t.messages() {
		if m["type"] != "user" {
			continue
		}
		msg, _ := m["message"].(map[string]any)
		out = append(out, resultsOf(msg["content"])...)
	}
	return out
}

func resultsOf(content any) []toolResult {
	var out []toolResult
	blocks, _ := content.([]any)
	for _, x := range blocks {
		b, _ := x.(map[string]any)
		if b["type"] != "tool_result" {
			continue
		}
		id, _ := b["tool_use_id"].(string)
		isErr, _ := b["is_error"].(bool)
		out = append(out, toolResult{ID: id, Text: toolResultText(b["content"]), IsError: isErr})
	}
	return out
}

// conversation is a request's messages as the model reads them, one
// string a block: the user's and the assistant's text, tool_use and
// tool_result blocks. What only one side adds is left out: Claude Code's
// <system-reminder> texts and system-role messages, cache_control.
func conversation(body map[string]any) []string {
	var out []string
	msgs, _ := body["messages"].([]any)
	for _, x := range msgs {
		m, _ := x.(map[string]any)
		role, _ := m["role"].(string)
		if role == "system" {
			continue
		}
		content := m["content"]
		if s, ok := content.(string); ok {
			content = []any{map[string]any{"type": "text", "text": s}}
		}
		blocks, _ := content.([]any)
		for _, y := range blocks {
			b, _ := y.(map[string]any)
			switch b["type"] {
			case "text":
				text, _ := b["text"].(string)
				if strings.HasPrefix(strings.TrimSpace(text), "<system-reminder>") {
					continue
				}
				out = append(out, role+": "+text)
			case "tool_use":
				in, _ := json.Marshal(b["input"])
				out = append(out, fmt.Sprintf("tool_use %s %s %s", b["id"], b["name"], in))
			case "tool_result":
				for _, r := range resultsOf([]any{b}) {
					out = append(out, fmt.Sprintf("tool_result %s is_error=%t: %s", r.ID, r.IsError, r.Text))
				}
			default:
				out = append(out, fmt.Sprintf("%s block %v", role, b["type"]))
			}
		}
	}
	return out
}

// last is the conversation of the last request for which keep is true,
// the query's directory written DIR.
func (t sdkTrace) last(keep func(map[string]any) bool) []string {
	var conv []string
	for _, b := range t.Requests {
		if keep(b) {
			conv = conversation(b)
		}
	}
	return mapAll(conv, func(s string) string { return strings.ReplaceAll(s, t.Dir, "DIR") })
}

// anyRequest keeps every request.
func anyRequest(map[string]any) bool { return true }

// bashEmpty is the result text of a Bash command with no output.
// EXCEPTION: Claude Code says "(Bash completed with no output)",
// agentcore "(no output)" (tooldefs/bash.go); the specs map Claude
// Code's words onto agentcore's and compare the rest.
var bashEmpty = strings.NewReplacer("(Bash completed with no output)", "(no output)")

func (r toolResult) mapped(m *strings.Replacer) toolResult {
	r.Text = m.Replace(r.Text)
	return r
}

func mapAll[T any](xs []T, f func(T) T) []T {
	out := make([]T, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// tools answers the n-th request (n = the tool_result blocks it
// carries) with the n-th tool_use, [name, input JSON], and past them
// with the text "done"; input may name the query's directory as DIR.
func tools(calls ...[2]string) func(apiCall) fakeReply {
	return func(c apiCall) fakeReply {
		if c.Results < len(calls) {
			in := strings.ReplaceAll(calls[c.Results][1], "DIR", c.Dir)
			return fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: fmt.Sprintf("toolu_%d", c.Results), Tool: calls[c.Results][0], Input: in}}}
		}
		return fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "done"}}}
	}
}

var _ = Describe("Agent SDK parity: one script, the SDK's own Claude Code and agentcore", Label("node"), func() {
	var claude, ac string
	BeforeEach(func() {
		sdkEntry()
		claude = bundledClaude()
		ac = agentcoreCLI()
	})

	It("canUseTool: an allow with updatedInput runs the changed call, a deny's message reaches the model", func() {
		script := tools(
			[2]string{"Bash", `{"command":"touch asked.txt","description":"Make the file"}`},
			[2]string{"Write", `{"file_path":"DIR/w.txt","content":"x"}`},
		)
		cc := traceSDK("can_use_tool.mjs", claude, script)
		got := traceSDK("can_use_tool.mjs", ac, script)

		Expect(cc.kinds()).To(Equal([]string{"system/init", "assistant", "user", "assistant", "user", "assistant", "result/success"}), "Claude Code, as recorded")
		Expect(got.kinds()).To(Equal(cc.kinds()))
		asked := func(t sdkTrace) []string {
			var out []string
			for _, l := range t.Lines {
				if l.Kind == "can_use_tool" {
					in, _ := json.Marshal(l.Input)
					out = append(out, l.Name+" "+strings.ReplaceAll(string(in), t.Dir, "DIR"))
				}
			}
			return out
		}
		Expect(asked(got)).To(Equal(asked(cc)), "canUseTool was asked about the same calls")
		Expect(cc.Files).To(Equal([]string{"changed.txt"}), "the Bash call ran with the host's updatedInput, the Write did not run")
		Expect(got.Files).To(Equal(cc.Files))
		Expect(got.toolResults()).To(Equal(mapAll(cc.toolResults(), func(r toolResult) toolResult { return r.mapped(bashEmpty) })))
		Expect(cc.toolResults()[1].Text).To(Equal("The host does not allow Write here."))
		Expect(got.last(anyRequest)).To(Equal(mapAll(cc.last(anyRequest), bashEmpty.Replace)), "the model saw the same conversation")
		Expect(got.result()["subtype"]).To(Equal(cc.result()["subtype"]))
		Expect(got.result()["result"]).To(Equal(cc.result()["result"]))
		Expect(got.result()["permission_denials"]).To(HaveLen(len(cc.result()["permission_denials"].([]any))))
	})

	It("interrupt(): a running Bash call stops at once and the query ends as Claude Code's does", func() {
		script := tools([2]string{"Bash", `{"command":"timeout 30 tail -f /dev/null; touch slept.txt","description":"Wait"}`})
		cc := traceSDK("interrupt.mjs", claude, script)
		got := traceSDK("interrupt.mjs", ac, script)
		for _, t := range []sdkTrace{cc, got} {
			Expect(t.calls("interrupted")).To(HaveLen(1))
			Expect(t.Files).To(BeEmpty(), "the interrupted command did not finish")
			done := t.calls("done")
			Expect(done).To(HaveLen(1))
			Expect(t.Lines[len(t.Lines)-1].MS).To(BeNumerically("<", 10000), "far sooner than the 30 s sleep")
		}
		Expect(cc.kinds()).To(Equal([]string{"system/init", "assistant", "user", "user", "result/error_during_execution"}), "Claude Code, as recorded")
		Expect(got.kinds()).To(Equal(cc.kinds()))
		Expect(got.result()["is_error"]).To(Equal(cc.result()["is_error"]))
		Expect(cc.result()["terminal_reason"]).To(Equal("aborted_tools"), "Claude Code, as recorded")
		Expect(got.result()["terminal_reason"]).To(Equal(cc.result()["terminal_reason"]))
		Expect(got.Requests).To(HaveLen(len(cc.Requests)), "no request after the interrupt")
		// Not compared: the result's stop_reason (Claude Code: the last
		// response's, "tool_use"; agentcore: its own "interrupted") and
		// num_turns (Claude Code 3, agentcore 1, for one request).

		// EXCEPTION: the words differ. Claude Code's tool_result is its
		// rejection text ("The user doesn't want to proceed with this tool
		// use. …", with a correction that the call was stopped while
		// running) and the user message after it "[Request interrupted by
		// user for tool use]"; agentcore's tool_result is "[Request
		// interrupted by user for tool use]" and the message after it
		// "[Request interrupted by user]". Both are errors, both mark the
		// interruption.
		ccRes, acRes := cc.toolResults(), got.toolResults()
		Expect(acRes).To(HaveLen(len(ccRes)))
		Expect(ccRes[0].IsError).To(BeTrue())
		Expect(acRes[0].IsError).To(BeTrue())
		Expect(ccRes[0].Text).To(ContainSubstring("stopped while running"))
		Expect(acRes[0].Text).To(Equal("[Request interrupted by user for tool use]"))
	})

	It("an in-process MCP tool (createSdkMcpServer): its handler runs with the model's input, its answer reaches the model", func() {
		script := tools([2]string{"mcp__calc__add", `{"a":2,"b":3}`})
		cc := traceSDK("mcp_tool.mjs", claude, script)
		got := traceSDK("mcp_tool.mjs", ac, script)

		Expect(cc.kinds()).To(Equal([]string{"system/init", "assistant", "user", "assistant", "result/success"}), "Claude Code, as recorded")
		Expect(got.kinds()).To(Equal(cc.kinds()))
		Expect(got.calls("tool")).To(Equal(cc.calls("tool")))
		Expect(cc.calls("tool")).To(HaveLen(1))
		server := func(t sdkTrace) any {
			return t.messages()[0]["mcp_servers"]
		}
		Expect(server(cc)).To(ContainElement(map[string]any{"name": "calc", "status": "connected", "source": "sdk"}))
		Expect(server(got)).To(Equal(server(cc)))
		// The SDK's user message: Claude Code passes the MCP result's
		// content blocks on as they came, without is_error; agentcore
		// joins text blocks into a string and sets is_error (false). Both
		// read as the same text, not an error.
		Expect(cc.toolResults()).To(Equal([]toolResult{{ID: "toolu_0", Text: "the sum is 5"}}))
		Expect(got.toolResults()).To(Equal(cc.toolResults()))
		Expect(got.last(anyRequest)).To(Equal(cc.last(anyRequest)), "the model saw the same conversation")
		Expect(got.result()["result"]).To(Equal(cc.result()["result"]))
	})

	It("PreToolUse hook callbacks: one rewrites the call's input, one denies the call with a reason the model sees", func() {
		script := tools(
			[2]string{"Bash", `{"command":"touch one.txt","description":"Make one"}`},
			[2]string{"Write", `{"file_path":"DIR/w.txt","content":"x"}`},
		)
		cc := traceSDK("hooks.mjs", claude, script)
		got := traceSDK("hooks.mjs", ac, script)

		Expect(cc.kinds()).To(Equal([]string{"system/init", "assistant", "user", "assistant", "user", "assistant", "result/success"}), "Claude Code, as recorded")
		Expect(got.kinds()).To(Equal(cc.kinds()))
		hooked := func(t sdkTrace) []string {
			var out []string
			for _, l := range t.Lines {
				if l.Kind == "hook" {
					in, _ := json.Marshal(l.Input)
					out = append(out, l.Event+" "+l.Tool+" "+strings.ReplaceAll(string(in), t.Dir, "DIR"))
				}
			}
			return out
		}
		Expect(hooked(cc)).To(Equal([]string{`PreToolUse Bash {"command":"touch one.txt","description":"Make one"}`,
			`PreToolUse Write {"content":"x","file_path":"DIR/w.txt"}`}), "Claude Code, as recorded")
		Expect(hooked(got)).To(Equal(hooked(cc)))
		Expect(cc.Files).To(Equal([]string{"hooked.txt"}), "Bash ran the hook's updatedInput, Write did not run")
		Expect(got.Files).To(Equal(cc.Files))
		// EXCEPTION: both put the hook before its deny reason, in other
		// words: Claude Code "PreToolUse:Write hook error: …" (with an
		// absolute file_path; given a relative one, which it makes
		// absolute before the hook runs, it sent the bare reason), agentcore
		// "PreToolUse:Write hook blocked this call: …". The spec maps
		// Claude Code's words onto agentcore's, as it does Bash's "no
		// output".
		hookDeny := strings.NewReplacer("PreToolUse:Write hook error: ", "PreToolUse:Write hook blocked this call: ",
			"(Bash completed with no output)", "(no output)")
		Expect(cc.toolResults()[1]).To(Equal(toolResult{ID: "toolu_1", Text: "PreToolUse:Write hook error: The host blocks Write here.", IsError: true}),
			"Claude Code, as recorded")
		Expect(got.toolResults()).To(Equal(mapAll(cc.toolResults(), func(r toolResult) toolResult { return r.mapped(hookDeny) })))
		Expect(got.last(anyRequest)).To(Equal(mapAll(cc.last(anyRequest), hookDeny.Replace)), "the model saw the same conversation")
		Expect(got.result()["subtype"]).To(Equal(cc.result()["subtype"]))
	})

	It("resume: the second query continues the first one's session, and the model sees the first one's conversation", func() {
		answer := func(apiCall) fakeReply {
			return fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "noted"}}}
		}
		cc := traceSDK("resume.mjs", claude, answer)
		got := traceSDK("resume.mjs", ac, answer)

		for _, q := range []string{"first", "second"} {
			Expect(cc.kinds(q)).To(Equal([]string{"system/init", "assistant", "result/success"}), "Claude Code's %s query, as recorded", q)
			Expect(got.kinds(q)).To(Equal(cc.kinds(q)), "the %s query", q)
		}
		sameSession := func(t sdkTrace) {
			first := t.result("first")["session_id"]
			for _, m := range t.messages("second") {
				Expect(m["session_id"]).To(Equal(first), "the resumed session keeps its ID")
			}
		}
		sameSession(cc)
		sameSession(got)
		Expect(cc.Requests).To(HaveLen(2))
		Expect(got.Requests).To(HaveLen(2))
		Expect(cc.last(anyRequest)).To(Equal([]string{"user: remember the number 42", "assistant: noted", "user: which number was it?"}), "Claude Code, as recorded")
		Expect(got.last(anyRequest)).To(Equal(cc.last(anyRequest)))
	})

	It("a PreToolUse hook callback's defer: the query ends with the deferred call in its result, and a query resuming it with a new prompt runs the call once the hook allows", func() {
		script := tools([2]string{"Bash", `{"command":"echo ran >> side.txt","description":"side effect"}`})
		cc := traceSDK("defer.mjs", claude, script)
		got := traceSDK("defer.mjs", ac, script)

		deferredFields := func(t sdkTrace) map[string]any { return resultFields(t.result("first")) }
		Expect(deferredFields(cc)).To(Equal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "",
			"stop_reason": "tool_deferred", "terminal_reason": "tool_deferred",
			"deferred_tool_use": map[string]any{"id": "toolu_0", "name": "Bash", "input": map[string]any{"command": "echo ran >> side.txt", "description": "side effect"}}}),
			"Claude Code, as recorded")
		Expect(deferredFields(got)).To(Equal(deferredFields(cc)))
		Expect(got.kinds("first")).To(Equal(cc.kinds("first")))
		Expect(resultFields(got.result("second"))).To(Equal(resultFields(cc.result("second"))))
		decisions := func(t sdkTrace) []string {
			var out []string
			for _, l := range t.Lines {
				if l.Kind == "hook" {
					out = append(out, l.Event+" "+l.Tool+" "+l.Decision)
				}
			}
			return out
		}
		Expect(decisions(cc)).To(Equal([]string{"PreToolUse Bash defer", "PreToolUse Bash allow"}), "Claude Code, as recorded")
		Expect(decisions(got)).To(Equal(decisions(cc)))
		Expect(cc.Files).To(Equal([]string{"side.txt"}))
		Expect(got.Files).To(Equal(cc.Files))
		side, err := os.ReadFile(filepath.Join(got.Dir, "side.txt"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(side)).To(Equal("ran\n"), "the deferred call ran once")
		Expect(lastUsers(got.Requests)).To(Equal(lastUsers(cc.Requests)), "each request's last message")
		expectPaired(cc.Requests)
		expectPaired(got.Requests)
	})

	It("a sub-agent from the agents option: the model's Agent call runs it, its turns go to the API with its prompt, its answer comes back", func() {
		const subPrompt = "You are the counter sub-agent."
		isSub := func(body map[string]any) bool {
			sys, _ := json.Marshal(body["system"])
			return strings.Contains(string(sys), subPrompt)
		}
		script := func(c apiCall) fakeReply {
			if isSub(c.Body) {
				if c.Results == 0 {
					return fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: "toolu_sub", Tool: "Bash", Input: `{"command":"touch sub.txt","description":"Count"}`}}}
				}
				return fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "counted 1"}}}
			}
			if c.Results == 0 {
				// run_in_background false: Claude Code runs agents in the
				// background unless told not to.
				return fakeReply{InputTokens: 50, OutputTokens: 20, Blocks: []fakeBlock{{ID: "toolu_agent", Tool: "Agent",
					Input: `{"description":"Count files","prompt":"count the files","subagent_type":"counter","run_in_background":false}`}}}
			}
			return fakeReply{InputTokens: 50, OutputTokens: 5, Blocks: []fakeBlock{{Text: "done"}}}
		}
		cc := traceSDK("subagent.mjs", claude, script)
		got := traceSDK("subagent.mjs", ac, script)

		Expect(cc.Files).To(Equal([]string{"sub.txt"}), "the sub-agent's Bash call ran")
		Expect(got.Files).To(Equal(cc.Files))
		Expect(cc.last(isSub)).To(Equal([]string{"user: count the files", `tool_use toolu_sub Bash {"command":"touch sub.txt","description":"Count"}`,
			"tool_result toolu_sub is_error=false: (Bash completed with no output)"}), "Claude Code's sub-agent request, as recorded")
		Expect(got.last(isSub)).To(Equal(mapAll(cc.last(isSub), bashEmpty.Replace)), "the sub-agent's last request")

		main := func(b map[string]any) bool { return !isSub(b) }
		agentResult := func(t sdkTrace) toolResult {
			for _, r := range t.toolResults() {
				if r.ID == "toolu_agent" {
					return r
				}
			}
			Fail("no result for the Agent call")
			return toolResult{}
		}
		// EXCEPTION: the Agent call's result text is each side's own:
		// both carry the sub-agent's answer, with different bookkeeping
		// around it.
		Expect(agentResult(cc).Text).To(ContainSubstring("counted 1"))
		Expect(agentResult(got).Text).To(ContainSubstring("counted 1"))
		Expect(agentResult(got).IsError).To(Equal(agentResult(cc).IsError))
		Expect(cc.last(main)[0]).To(Equal("user: ask the counter"))
		Expect(got.last(main)[:2]).To(Equal(cc.last(main)[:2]), "the prompt and the Agent call")
		Expect(got.last(main)[2:]).To(HaveLen(len(cc.last(main)[2:])))

		subTools := func(t sdkTrace) []string {
			var names []string
			for _, b := range t.Requests {
				if isSub(b) {
					ts, _ := b["tools"].([]any)
					names = nil
					for _, x := range ts {
						names = append(names, x.(map[string]any)["name"].(string))
					}
				}
			}
			return names
		}
		Expect(subTools(cc)).To(Equal([]string{"Bash"}), "the agent's tools option, as recorded")
		Expect(subTools(got)).To(Equal(subTools(cc)))
		Expect(got.result()["result"]).To(Equal(cc.result()["result"]))

		// EXCEPTION: Claude Code reports the sub-agent as a task: system
		// messages task_started, task_progress, task_updated and
		// task_notification, and the sub-agent's prompt as a user message
		// of its own (parent_tool_use_id set); it sends no assistant
		// message for the sub-agent's closing text (in the background it
		// did). agentcore sends none of the task messages nor the prompt,
		// and does send the closing text (parent_tool_use_id set). The
		// rest, in order, is the same.
		Expect(cc.kinds()).To(ContainElements("system/task_started", "user@toolu_agent", "system/task_notification"), "Claude Code, as recorded")
		Expect(got.kinds()).NotTo(ContainElement(HavePrefix("system/task_")))
		shared := func(t sdkTrace) []string {
			var out []string
			for i, m := range t.messages() {
				k := t.kinds()[i]
				msg, _ := m["message"].(map[string]any)
				blocks, _ := json.Marshal(msg["content"])
				switch {
				case strings.HasPrefix(k, "system/task_"),
					k == "user@toolu_agent" && !strings.Contains(string(blocks), `"tool_result"`),
					k == "assistant@toolu_agent" && !strings.Contains(string(blocks), `"tool_use"`):
					continue
				}
				out = append(out, k)
			}
			return out
		}
		Expect(shared(cc)).To(Equal([]string{"system/init", "assistant", "assistant@toolu_agent", "user@toolu_agent", "user", "assistant", "result/success"}),
			"Claude Code, as recorded")
		Expect(shared(got)).To(Equal(shared(cc)), "the SDK messages both send, a sub-agent's marked with its Agent call")
	})
})
