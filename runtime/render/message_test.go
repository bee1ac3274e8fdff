package render_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/orchestrate"
	"github.com/agentcore/agentcore/runtime/render"
	"github.com/agentcore/agentcore/runtime/tooltest"
)

// note is a tool output carrying a message for the user.
type note struct{ m runtime.UserMessage }

func (n note) UserMessage() runtime.UserMessage { return n.m }

var _ = Describe("a message a tool sends the user", func() {
	briefTool := &tooltest.Sim{ToolName: "SendUserMessage", ReadOnly: true}
	msg := runtime.UserMessage{Text: "The build is green.\nTwo tests were slow.", Status: "proactive",
		Attachments: []runtime.Attachment{{Path: "/repo/build log.txt", Size: 2048}}}
	delivered := runtime.Result{Data: note{msg}, Content: []runtime.Block{runtime.TextBlock("Message delivered to the user.")}}
	events := []agent.Event{
		{Kind: agent.EventRequest, Turn: 1},
		text("Checking the build.\n"),
		result("m1", briefTool, `{"summary":"The build is green."}`, delivered, orchestrate.OutcomeOK, nil),
	}

	It("is set apart from the calls in the transcript, its attachments listed", func() {
		out := play(render.Options{}, "build", events)
		Expect(out).To(ContainSubstring("Checking the build.\n\n◆ Message (unprompted)\n  The build is green.\n  Two tests were slow.\n  📎 /repo/build log.txt · 2.0 KB\n"))
		Expect(out).NotTo(ContainSubstring("● SendUserMessage"), "it is not drawn as a tool call")
	})

	It("links the attachments on a styled terminal", func() {
		out := play(render.Options{Styled: true, Width: 80}, "build", events)
		Expect(out).To(ContainSubstring("\x1b]8;;file:///repo/build%20log.txt\x07/repo/build log.txt\x1b]8;;\x07"))
	})

	It("is its own event in stream-json, after the user event that carries the tool_result", func() {
		out := play(render.Options{Format: render.StreamJSON, Session: "s-1"}, "build", events)
		var line map[string]any
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var ev map[string]any
			Expect(json.Unmarshal([]byte(l), &ev)).To(Succeed())
			if ev["subtype"] == "user_message" {
				line = ev
			}
		}
		Expect(line).To(Equal(map[string]any{
			"type": "system", "subtype": "user_message", "session_id": "s-1", "tool_use_id": "m1",
			"parent_tool_use_id": nil, "message": "The build is green.\nTwo tests were slow.", "status": "proactive",
			"attachments": []any{map[string]any{"path": "/repo/build log.txt", "size": 2048.0, "is_image": false}},
			"uuid":        line["uuid"],
		}))
		Expect(line["uuid"]).To(MatchRegexp(`^[0-9a-f-]{36}$`))
	})

	It("is drawn as a call when the result is an error", func() {
		failed := result("m2", briefTool, `{"summary":"x"}`, runtime.ErrorResult("attachments[0]: /x does not exist"), orchestrate.OutcomeToolError, nil)
		Expect(play(render.Options{}, "x", []agent.Event{failed})).To(ContainSubstring("● SendUserMessage(x)"))
	})
})
