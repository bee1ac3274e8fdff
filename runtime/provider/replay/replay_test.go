package replay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
)

// collect plays one request and returns its events.
func collect(p provider.Provider, req provider.Request) ([]provider.Event, error) {
	var out []provider.Event
	for ev, err := range p.Stream(context.Background(), req) {
		if err != nil {
			return out, err
		}
		out = append(out, ev)
	}
	return out, nil
}

func prompt(s string) provider.Request {
	return provider.Request{Messages: []provider.Message{{Role: provider.User, Content: []provider.Block{provider.Text(s)}}}}
}

func answered(req provider.Request, asst provider.Message, errs map[string]bool) provider.Request {
	user := provider.Message{Role: provider.User}
	for _, u := range asst.ToolUses() {
		r := runtime.Result{Content: []runtime.Block{runtime.TextBlock("ok")}, IsError: errs[u.ID]}
		user.Content = append(user.Content, provider.ToolResult(u.ID, r))
	}
	req.Messages = append(append(req.Messages, asst), user)
	return req
}

const branching = `
# a comment
{"name":"branch","prompt":"go"}
{"blocks":[{"type":"text","text":"one two three"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"false"}}]}
{"when":{"errors":["t1"]},"blocks":[{"type":"text","text":"it failed"}]}
{"when":{"ok":["t1"]},"blocks":[{"type":"text","text":"it worked"}]}
`

var _ = Describe("Parse", func() {
	DescribeTable("rejects bad scenarios with a message that says what is wrong",
		func(src, want string) {
			_, err := replay.Parse([]byte(src))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("empty", "  \n", "empty"),
		Entry("no turns", `{"name":"x"}`, "no turns"),
		Entry("not JSON", "{\"blocks\":[}\n", "line 1"),
		Entry("unknown key in a turn", `{"blocks":[{"type":"text","text":"x"}],"colour":1}`, "unknown field"),
		Entry("a header after turns", "{\"blocks\":[{\"type\":\"text\"}]}\n{\"name\":\"late\"}", "header"),
		Entry("a bad block type", `{"blocks":[{"type":"image"}]}`, `"text" or "tool_use"`),
		Entry("a tool_use without a name", `{"blocks":[{"type":"tool_use","id":"a"}]}`, `needs a "name"`),
		Entry("an input that is not an object", `{"blocks":[{"type":"tool_use","name":"Read","input":[1]}]}`, "must be a JSON object"),
		Entry("a duplicate id", "{\"blocks\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"X\"}]}\n{\"blocks\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"X\"}]}", "used twice"),
		Entry("a negative delay", `{"blocks":[{"type":"text","delay_ms":-1}]}`, "negative"),
		Entry("no blocks", `{"blocks":[]}`, "no blocks"),
	)

	It("reads JSONL with a header and comments, and one JSON document alike", func() {
		sc, err := replay.Parse([]byte(branching))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Name).To(Equal("branch"))
		Expect(sc.Turns).To(HaveLen(3))

		doc := `{"name":"doc","turns":[{"blocks":[{"type":"tool_use","name":"Read"}]}]}`
		sc, err = replay.Parse([]byte(doc))
		Expect(err).NotTo(HaveOccurred())
		Expect(sc.Turns[0].Blocks[0].ID).To(Equal("toolu_replay_01_01"), "ids are filled in deterministically")
		Expect(string(sc.Turns[0].Blocks[0].Input)).To(Equal("{}"))
	})

	It("lets the turns after one conditioned on said reuse its ids, as its alternatives", func() {
		alt := "{\"when\":{\"said\":{\"ask\":\"Table\"}},\"blocks\":[{\"type\":\"tool_use\",\"id\":\"edit\",\"name\":\"Edit\"}]}\n" +
			"{\"blocks\":[{\"type\":\"tool_use\",\"id\":\"edit\",\"name\":\"Edit\"}]}\n" +
			"{\"blocks\":[{\"type\":\"tool_use\",\"id\":\"other\",\"name\":\"Read\"}]}\n" +
			"{\"blocks\":[{\"type\":\"tool_use\",\"id\":\"other\",\"name\":\"Read\"}]}"
		_, err := replay.Parse([]byte(alt))
		Expect(err).To(MatchError(ContainSubstring(`turn 4, block 1: tool_use id "other" is used twice`)), "edit may repeat, other may not")
	})

	It("loads the examples and the embedded default", func() {
		Expect(replay.Default().Turns).NotTo(BeEmpty())
		files, _ := filepath.Glob("../../../examples/*.jsonl")
		Expect(files).NotTo(BeEmpty())
		for _, f := range files {
			_, err := replay.Load(f)
			Expect(err).NotTo(HaveOccurred(), f)
		}
	})

	It("names the file when loading fails", func() {
		_, err := replay.Load(filepath.Join(GinkgoT().TempDir(), "missing.jsonl"))
		Expect(err).To(MatchError(ContainSubstring("missing.jsonl")))
	})
})

var _ = Describe("Provider", func() {
	It("streams text deltas, announces tool_use blocks, and ends with the whole message", func() {
		sc, _ := replay.Parse([]byte(branching))
		evs, err := collect(replay.New(sc, replay.Options{}), prompt("go"))
		Expect(err).NotTo(HaveOccurred())
		var kinds []provider.EventType
		text := ""
		for _, ev := range evs {
			kinds = append(kinds, ev.Type)
			text += ev.Text
		}
		Expect(text).To(Equal("one two three"))
		Expect(kinds[len(kinds)-3:]).To(Equal([]provider.EventType{provider.EventToolUseStart, provider.EventToolUse, provider.EventMessage}))
		last := evs[len(evs)-1]
		Expect(last.StopReason).To(Equal(provider.StopToolUse))
		Expect(last.Message.ToolUses()).To(HaveLen(1))
		Expect(string(last.Message.ToolUses()[0].Input)).To(Equal(`{"command":"false"}`))
	})

	DescribeTable("picks the next turn by the previous tool results",
		func(failed bool, want string) {
			sc, _ := replay.Parse([]byte(branching))
			p := replay.New(sc, replay.Options{})
			req := prompt("go")
			evs, _ := collect(p, req)
			req = answered(req, evs[len(evs)-1].Message, map[string]bool{"t1": failed})
			evs, err := collect(p, req)
			Expect(err).NotTo(HaveOccurred())
			Expect(evs[len(evs)-1].Message.Content[0].Text).To(Equal(want))
			Expect(evs[len(evs)-1].StopReason).To(Equal(provider.StopEndTurn))
		},
		Entry("an error", true, "it failed"),
		Entry("a success", false, "it worked"),
	)

	DescribeTable("goes on from what an earlier result said, two turns later",
		func(answer, want string) {
			const chosen = `{"blocks":[{"type":"tool_use","id":"ask","name":"AskUserQuestion","input":{}}]}
{"blocks":[{"type":"tool_use","id":"look","name":"Read","input":{}}]}
{"when":{"said":{"ask":"Table"},"ok":["look"]},"blocks":[{"type":"text","text":"a table"}]}
{"when":{"ok":["look"]},"blocks":[{"type":"text","text":"a list"}]}`
			sc, err := replay.Parse([]byte(chosen))
			Expect(err).NotTo(HaveOccurred())
			p := replay.New(sc, replay.Options{})
			req := prompt("go")
			evs, _ := collect(p, req)
			user := provider.Message{Role: provider.User, Content: []provider.Block{
				provider.ToolResult("ask", runtime.Result{Content: []runtime.Block{runtime.TextBlock(answer)}})}}
			req.Messages = append(req.Messages, evs[len(evs)-1].Message, user)
			evs, _ = collect(p, req)
			req = answered(req, evs[len(evs)-1].Message, nil)
			evs, err = collect(p, req)
			Expect(err).NotTo(HaveOccurred())
			Expect(evs[len(evs)-1].Message.Content[0].Text).To(Equal(want))
		},
		Entry("the answer it names", `Format: Table`, "a table"),
		Entry("any other answer", `Format: Short list (Recommended)`, "a list"),
	)

	It("says so when the conversation outruns the script or no turn matches", func() {
		sc, _ := replay.Parse([]byte(`{"when":{"results":["zz"]},"blocks":[{"type":"text","text":"x"}]}`))
		_, err := collect(replay.New(sc, replay.Options{}), prompt("go"))
		Expect(err).To(MatchError(ContainSubstring("no remaining turn")))

		sc, _ = replay.Parse([]byte(`{"blocks":[{"type":"text","text":"x"}]}`))
		p := replay.New(sc, replay.Options{})
		_, err = collect(p, prompt("go"))
		Expect(err).NotTo(HaveOccurred())
		_, err = collect(p, prompt("again"))
		Expect(err).To(MatchError(ContainSubstring("no turn left")))
	})

	It("does not stream when the scenario says stream:false", func() {
		sc, _ := replay.Parse([]byte(`{"stream":false,"turns":[{"blocks":[{"type":"text","text":"a b"},{"type":"tool_use","name":"Read"}]}]}`))
		p := replay.New(sc, replay.Options{})
		Expect(p.Streams()).To(BeFalse())
		evs, err := collect(p, prompt("go"))
		Expect(err).NotTo(HaveOccurred())
		Expect(evs).To(HaveLen(1))
		Expect(evs[0].Type).To(Equal(provider.EventMessage))
	})

	It("replaces ${CWD} in tool inputs, JSON-escaped", func() {
		sc, _ := replay.Parse([]byte(`{"blocks":[{"type":"tool_use","name":"Read","input":{"file_path":"${CWD}/go.mod"}}]}`))
		evs, _ := collect(replay.New(sc, replay.Options{Cwd: `/tmp/a "b"`}), prompt("go"))
		var in map[string]string
		Expect(json.Unmarshal(evs[len(evs)-1].Message.ToolUses()[0].Input, &in)).To(Succeed())
		Expect(in["file_path"]).To(Equal(`/tmp/a "b"/go.mod`))
	})

	It("stops at once when the context is cancelled mid-delay", func() {
		sc, _ := replay.Parse([]byte(`{"blocks":[{"type":"text","text":"x","delay_ms":60000}]}`))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		var got error
		for _, err := range replay.New(sc, replay.Options{Speed: 1}).Stream(ctx, prompt("go")) {
			got = err
		}
		Expect(got).To(MatchError(context.Canceled))
	})
})

var _ = Describe("Recorder", func() {
	It("writes a scenario that replays the same conversation", func() {
		sc, _ := replay.Parse([]byte(branching))
		var buf bytes.Buffer
		rec := replay.NewRecorder(replay.New(sc, replay.Options{}), &buf, "rec")
		req := prompt("go")
		evs, err := collect(rec, req)
		Expect(err).NotTo(HaveOccurred())
		first := evs[len(evs)-1].Message
		req = answered(req, first, map[string]bool{"t1": true})
		_, err = collect(rec, req)
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.Err()).NotTo(HaveOccurred())

		path := filepath.Join(GinkgoT().TempDir(), "rec.jsonl")
		Expect(os.WriteFile(path, buf.Bytes(), 0o644)).To(Succeed())
		again, err := replay.Load(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Prompt).To(Equal("go"))
		Expect(again.Turns).To(HaveLen(2))
		Expect(again.Turns[1].When.Results).To(Equal([]string{"t1"}))

		p := replay.New(again, replay.Options{})
		evs, _ = collect(p, prompt("go"))
		Expect(evs[len(evs)-1].Message).To(Equal(first))
		evs, _ = collect(p, answered(prompt("go"), first, map[string]bool{"t1": true}))
		Expect(evs[len(evs)-1].Message.Content[0].Text).To(Equal("it failed"))
	})
})
