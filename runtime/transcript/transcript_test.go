package transcript_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/transcript"
)

func user(text string) provider.Message {
	return provider.Message{Role: provider.User, Content: []provider.Block{provider.Text(text)}}
}

func toolCall(text, id string) provider.Message {
	return provider.Message{Role: provider.Assistant, Content: []provider.Block{
		provider.Text(text), provider.ToolUse(id, "Bash", json.RawMessage(`{"command":"sleep 5"}`))}}
}

func results(ids ...string) provider.Message {
	m := provider.Message{Role: provider.User}
	for _, id := range ids {
		m.Content = append(m.Content, provider.ToolResult(id, runtime.Result{Content: []runtime.Block{runtime.TextBlock("ok " + id)}}))
	}
	return m
}

func lines(path string) []map[string]any {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var v map[string]any
		Expect(json.Unmarshal([]byte(l), &v)).To(Succeed(), l)
		out = append(out, v)
	}
	return out
}

var _ = Describe("DirName", func() {
	DescribeTable("names a working directory as Claude Code names its ~/.claude/projects entries",
		func(cwd, want string) { Expect(transcript.DirName(cwd)).To(Equal(want)) },
		Entry("letters and digits stay, the rest is -", "/home/me/src", "-home-me-src"),
		// Each UTF-16 code unit counts: é is one, 😀 (a surrogate pair) two.
		Entry("punctuation and non-ASCII", "/home/me/my_proj.v2/é😀", "-home-me-my-proj-v2----"),
		// The expected value is what Claude Code 2.1.197's function gives
		// (node, on its source): cut at 200, then its string hash in base 36.
		Entry("a long path is cut and hashed",
			"/home/me/"+strings.Repeat("verylongdirectoryname/", 10)+"é😀",
			"-home-me-"+strings.Repeat("verylongdirectoryname-", 8)+"verylongdirecto-qw9hb8"),
	)
})

var _ = Describe("a transcript store", func() {
	var store transcript.Store
	var cwd string
	BeforeEach(func() {
		store = transcript.Store{Root: filepath.Join(GinkgoT().TempDir(), "projects")}
		cwd = "/work/project"
	})

	It("holds the lines added after Hold, the file unmade, and writes them in order at Release, TurnEnd or Close", func() {
		w, err := store.Create(transcript.Meta{SessionID: runtime.NewUUID(), Cwd: cwd})
		Expect(err).NotTo(HaveOccurred())
		w.Hold()
		w.Add(user("hi"))
		w.Add(user("again"))
		Expect(w.Path()).NotTo(BeAnExistingFile(), "a held line makes no file")
		w.Release()
		Expect(lines(w.Path())).To(HaveLen(2))
		w.Add(toolCall("running", "t1"))
		Expect(lines(w.Path())).To(HaveLen(3), "written as added once released")

		w.Hold()
		w.Add(results("t1"))
		Expect(lines(w.Path())).To(HaveLen(3))
		w.TurnEnd()
		Expect(lines(w.Path())).To(HaveLen(4))

		w.Hold()
		w.Add(user("last"))
		Expect(w.Close()).To(Succeed())
		ls := lines(w.Path())
		Expect(ls).To(HaveLen(5))
		Expect(ls[4]["parentUuid"]).To(Equal(ls[3]["uuid"]), "the chain runs through held lines")
		msgs, _, err := transcript.Load(w.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(5))
	})

	It("appends one line per message in Claude Code's shape, each chained to the one before, and reads them back", func() {
		id := runtime.NewUUID()
		w, err := store.Create(transcript.Meta{SessionID: id, Cwd: cwd, Version: "v1"})
		Expect(err).NotTo(HaveOccurred())
		Expect(w.Path()).To(Equal(filepath.Join(store.Root, "-work-project", id+".jsonl")))
		Expect(w.Path()).NotTo(BeAnExistingFile(), "nothing is written before the first message")
		w.Add(user("hi"))
		Expect(lines(w.Path())).To(HaveLen(1))
		w.Add(toolCall("running", "t1"))
		w.Add(results("t1"))
		w.TurnEnd()
		w.Amend([]provider.Block{provider.Text("a notice")})
		Expect(w.Close()).To(Succeed())

		ls := lines(w.Path())
		Expect(ls).To(HaveLen(4))
		for _, k := range []string{"type", "uuid", "parentUuid", "sessionId", "cwd", "timestamp", "version", "message"} {
			Expect(ls[0]).To(HaveKey(k))
		}
		Expect(ls[0]["parentUuid"]).To(BeNil())
		Expect(ls[1]["parentUuid"]).To(Equal(ls[0]["uuid"]))
		Expect(ls[1]["type"]).To(Equal("assistant"))
		Expect(ls[2]["sessionId"]).To(Equal(id))
		Expect(ls[3]["type"]).To(Equal("amend"))

		msgs, rep, err := transcript.Load(w.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Answered).To(BeEmpty())
		want := results("t1")
		want.Content = append(want.Content, provider.Text("a notice"))
		Expect(msgs).To(Equal([]provider.Message{user("hi"), toolCall("running", "t1"), want}))
	})

	It("refuses an ID in use and one that is not a UUID", func() {
		id := runtime.NewUUID()
		w, err := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		Expect(err).NotTo(HaveOccurred())
		w.Add(user("hi"))
		Expect(w.Close()).To(Succeed())
		_, err = store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		Expect(errors.Is(err, transcript.ErrExists)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("already in use"))
		_, err = store.Create(transcript.Meta{SessionID: "../../etc/x", Cwd: cwd})
		Expect(err).To(MatchError(ContainSubstring("must be a UUID")))
	})

	It("answers a tool_use whose result was never written, and writes the answer on resume", func() {
		id := runtime.NewUUID()
		w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		w.Add(user("go"))
		w.Add(toolCall("first", "t1"))
		w.Add(results("t1"))
		w.Add(toolCall("second", "t2")) // killed while t2 ran
		Expect(w.Close()).To(Succeed())

		w2, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(w2.ID()).To(Equal(id))
		Expect(msgs).To(HaveLen(5))
		last := msgs[4]
		Expect(last.Role).To(Equal(provider.User))
		Expect(last.Content).To(HaveLen(1))
		Expect(last.Content[0].ToolUseID).To(Equal("t2"))
		Expect(last.Content[0].IsError).To(BeTrue())
		Expect(last.Content[0].Content[0].Text).To(Equal(transcript.Interrupted))
		w2.Add(user("and now?"))
		Expect(w2.Close()).To(Succeed())

		ls := lines(w2.Path())
		Expect(ls).To(HaveLen(6), "the synthetic result, then the new prompt")
		Expect(ls[5]["parentUuid"]).To(Equal(ls[4]["uuid"]))
		Expect(ls[4]["parentUuid"]).To(Equal(ls[3]["uuid"]))
		again, rep, err := transcript.Load(w2.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Answered).To(BeEmpty(), "the file itself is paired now")
		Expect(again).To(HaveLen(6))
	})

	It("drops a last line cut by a kill, and the next line starts clean", func() {
		id := runtime.NewUUID()
		w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		w.Add(user("go"))
		w.Add(provider.Message{Role: provider.Assistant, Content: []provider.Block{provider.Text("done")}})
		Expect(w.Close()).To(Succeed())
		f, err := os.OpenFile(w.Path(), os.O_APPEND|os.O_WRONLY, 0)
		Expect(err).NotTo(HaveOccurred())
		_, _ = f.WriteString(`{"type":"user","uuid":"x","message":{"role":"us`)
		Expect(f.Close()).To(Succeed())

		msgs, rep, err := transcript.Load(w.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(2))
		Expect(rep.Truncated).To(BeNumerically(">", 0))

		w2, _, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		w2.Add(user("next"))
		Expect(w2.Close()).To(Succeed())
		Expect(lines(w2.Path())).To(HaveLen(3))
	})

	It("drops a tool_result that answers no tool_use", func() {
		id := runtime.NewUUID()
		w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		w.Add(user("go"))
		w.Add(results("ghost"))
		Expect(w.Close()).To(Succeed())
		msgs, _, err := transcript.Load(w.Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(Equal([]provider.Message{user("go")}))
	})

	It("finds the latest session of a directory, and says clearly when there is none or the ID is another directory's", func() {
		_, err := store.Latest(cwd)
		Expect(errors.Is(err, transcript.ErrNotFound)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("no conversation found to continue"))

		older, newer := runtime.NewUUID(), runtime.NewUUID()
		for _, id := range []string{older, newer} {
			w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
			w.Add(user("prompt of " + id))
			Expect(w.Close()).To(Succeed())
		}
		past := time.Now().Add(-time.Hour)
		Expect(os.Chtimes(store.Path(cwd, older), past, past)).To(Succeed())
		Expect(store.Latest(cwd)).To(Equal(newer))
		list, err := store.List(cwd)
		Expect(err).NotTo(HaveOccurred())
		Expect(list).To(HaveLen(2))
		Expect(list[0].Prompt).To(Equal("prompt of " + newer))
		Expect(list[0].Cwd).To(Equal(cwd))

		_, _, err = store.Resume(cwd, runtime.NewUUID())
		Expect(errors.Is(err, transcript.ErrNotFound)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("no conversation found with session ID"))
		Expect(err.Error()).To(ContainSubstring(newer), "it lists the directory's sessions")
		Expect(err.Error()).To(ContainSubstring("agentcore -c"))

		_, _, err = store.Resume("/elsewhere", newer)
		Expect(errors.Is(err, transcript.ErrNotFound)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("belongs to another directory, " + cwd))
		Expect(err.Error()).To(ContainSubstring("cd " + cwd + " && agentcore --resume " + newer))

		_, _, err = store.Resume(cwd, "../x")
		Expect(err).To(MatchError(ContainSubstring("is not a session ID")))
	})

	It("forks a session into a new ID, leaving the old transcript as it was", func() {
		id := runtime.NewUUID()
		w, _ := store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		w.Add(user("go"))
		Expect(w.Close()).To(Succeed())
		_, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		fork, err := store.Fork(transcript.Meta{SessionID: runtime.NewUUID(), Cwd: cwd}, msgs)
		Expect(err).NotTo(HaveOccurred())
		fork.Add(user("more"))
		Expect(fork.Close()).To(Succeed())
		Expect(lines(fork.Path())).To(HaveLen(2))
		Expect(lines(store.Path(cwd, id))).To(HaveLen(1))
	})
})
