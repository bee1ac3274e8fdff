//go:build !internal && !ant

package main_test

import (
	"os"
	"path/filepath"
	"strings"

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

var _ = Describe("a script written for Claude Code's Agent SDK", Label("node"), func() {
	It("runs unchanged against agentcore with the tool results and permission outcomes of the SDK's own Claude Code", func() {
		entry := sdkEntry()
		claude := filepath.Join(tooltest.NpmDir(), "node_modules", "@anthropic-ai", "claude-agent-sdk-linux-x64", "claude")
		if _, err := os.Stat(claude); err != nil {
			Skip("the SDK's bundled Claude Code is not at " + claude + " (a linux-x64 optional dependency of the SDK): nothing to compare with")
		}
		wrapper := agentcoreCLI()

		cc := runCanUseTool(entry, claude)
		ac := runCanUseTool(entry, wrapper)

		Expect(cc.Asked).To(Equal([]string{"Bash", "Write"}), "Claude Code, as recorded: %+v", cc)
		Expect(ac.Asked).To(Equal(cc.Asked))
		Expect(ac.IsError).To(Equal(cc.IsError))
		Expect(ac.Files).To(Equal(cc.Files), "the Bash call ran with the host's updatedInput, the Write did not run")
		Expect(ac.Files).To(Equal([]string{"changed.txt"}))
		Expect(cc.Denied).To(ContainSubstring("The host does not allow Write here."))
		Expect(ac.Denied).To(ContainSubstring("The host does not allow Write here."))
		Expect(ac.Subtype).To(Equal(cc.Subtype))
		Expect(ac.Result).To(Equal(cc.Result))
		Expect(ac.Denials).To(Equal(cc.Denials))
	})
})

// interruptOutcome runs testdata/sdk/interrupt.mjs with cli and returns
// the result message and the milliseconds from interrupt() to the end.
func interruptOutcome(entry, cli string) (map[string]any, float64, bool) {
	dir := GinkgoT().TempDir()
	api := scriptedAPI([2]string{"Bash", `{"command":"timeout 30 tail -f /dev/null; touch slept.txt","description":"Wait"}`})
	var result map[string]any
	ms, interrupted := -1.0, false
	for _, ev := range sdkScript("interrupt.mjs", entry, cli, dir, api) {
		switch ev.Kind {
		case "interrupted":
			interrupted = true
		case "done":
			ms = ev.MS
		case "message":
			if ev.Message["type"] == "result" {
				result = ev.Message
			}
		}
	}
	_, err := os.Stat(filepath.Join(dir, "slept.txt"))
	Expect(os.IsNotExist(err)).To(BeTrue(), "the interrupted command did not finish")
	return result, ms, interrupted
}

var _ = Describe("the Agent SDK's interrupt()", Label("node"), func() {
	It("stops a running Bash call at once and ends the query as the SDK's own Claude Code does", func() {
		entry := sdkEntry()
		wrapper := agentcoreCLI()
		ac, acMS, acInterrupted := interruptOutcome(entry, wrapper)
		Expect(acInterrupted).To(BeTrue())
		Expect(ac).NotTo(BeNil(), "agentcore ended the query with a result")
		Expect(acMS).To(BeNumerically("<", 10000), "far sooner than the 30 s sleep")

		claude := filepath.Join(tooltest.NpmDir(), "node_modules", "@anthropic-ai", "claude-agent-sdk-linux-x64", "claude")
		if _, err := os.Stat(claude); err != nil {
			Skip("the SDK's bundled Claude Code is not at " + claude + ": agentcore's interrupt was checked, the comparison is skipped")
		}
		cc, _, ccInterrupted := interruptOutcome(entry, claude)
		Expect(ccInterrupted).To(BeTrue())
		Expect(cc).NotTo(BeNil())
		Expect(ac["subtype"]).To(Equal(cc["subtype"]), "Claude Code's result: %v", cc)
		Expect(ac["is_error"]).To(Equal(cc["is_error"]), "Claude Code's result: %v", cc)
	})
})
