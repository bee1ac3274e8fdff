package transcript_test

import (
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/transcript"
)

var _ = Describe("a turn a PreToolUse hook deferred", func() {
	var store transcript.Store
	var cwd, id string
	var w *transcript.Writer
	BeforeEach(func() {
		store = transcript.Store{Root: filepath.Join(GinkgoT().TempDir(), "projects")}
		cwd, id = "/work/project", runtime.NewUUID()
		var err error
		w, err = store.Create(transcript.Meta{SessionID: id, Cwd: cwd})
		Expect(err).NotTo(HaveOccurred())
		w.Add(user("go"))
	})

	It("stays open on resume: the deferred call unanswered, its sibling's result kept, nothing written to the file", func() {
		calls := twoCalls()
		w.Add(calls)
		w.ToolResult(calls.Content[1], ran("t2", "slept"))
		w.Deferred(calls.Content[0])
		Expect(w.Close()).To(Succeed())

		r, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(2))
		Expect(msgs[1].Role).To(Equal(provider.Assistant), "the turn ends the conversation, without its results message")
		d := r.Pending()
		Expect(d).NotTo(BeNil())
		Expect(d.Uses).To(HaveLen(2))
		Expect(d.Pending()).To(HaveLen(1))
		Expect(d.Pending()[0].ID).To(Equal("t1"))
		Expect(d.Results).To(HaveKeyWithValue("t2", ran("t2", "slept")))
		Expect(r.Close()).To(Succeed())

		// Resume added nothing: a second load sees the same open turn.
		_, rep, err := transcript.Load(store.Path(cwd, id))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Added).To(BeEmpty())
		Expect(rep.Answered).To(BeEmpty())
		Expect(rep.Deferred.Pending()).To(HaveLen(1))
	})

	It("is closed once its results message is written, and a call with no result and no deferred line is Interrupted as before", func() {
		calls := twoCalls()
		w.Add(calls)
		w.Deferred(calls.Content[0])
		// The resumed run answered both.
		w.Add(provider.Message{Role: provider.User, Content: []provider.Block{ran("t1", "x"), ran("t2", "slept"), provider.Text("Continue from where you left off.")}})
		Expect(w.Close()).To(Succeed())
		msgs, rep, err := transcript.Load(store.Path(cwd, id))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Deferred).To(BeNil())
		Expect(answers(msgs)).To(Equal(map[string]int{"t1": 1, "t2": 1}))

		other := runtime.NewUUID()
		w2, err := store.Create(transcript.Meta{SessionID: other, Cwd: cwd})
		Expect(err).NotTo(HaveOccurred())
		w2.Add(user("go"))
		w2.Add(twoCalls())
		Expect(w2.Close()).To(Succeed())
		msgs, rep, err = transcript.Load(store.Path(cwd, other))
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Deferred).To(BeNil())
		Expect(rep.Answered).To(ConsistOf("t1", "t2"))
		Expect(answers(msgs)).To(Equal(map[string]int{"t1": 1, "t2": 1}))
	})

	It("stays open in a fork (--fork-session), the original left as it was", func() {
		calls := twoCalls()
		w.Add(calls)
		w.ToolResult(calls.Content[1], ran("t2", "slept"))
		w.Deferred(calls.Content[0])
		Expect(w.Close()).To(Succeed())
		r, msgs, err := store.Resume(cwd, id)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Close()).To(Succeed())

		forkID := runtime.NewUUID()
		f, err := store.ForkDeferred(transcript.Meta{SessionID: forkID, Cwd: cwd}, msgs, r.Pending())
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Close()).To(Succeed())
		forked, rep, err := transcript.Load(store.Path(cwd, forkID))
		Expect(err).NotTo(HaveOccurred())
		Expect(forked).To(Equal(msgs))
		Expect(rep.Deferred).NotTo(BeNil())
		Expect(rep.Deferred.Pending()[0].ID).To(Equal("t1"))
		Expect(rep.Deferred.Results).To(HaveKey("t2"))
	})
})
