package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/agent"
	"github.com/agentcore/agentcore/runtime/hooks"
	"github.com/agentcore/agentcore/runtime/provider"
	"github.com/agentcore/agentcore/runtime/provider/replay"
	"github.com/agentcore/agentcore/runtime/session"
	"github.com/agentcore/agentcore/runtime/transcript"
)

// seeing is a model that keeps the messages of every request it gets.
type seeing struct {
	provider.Provider
	mu   sync.Mutex
	seen [][]provider.Message
}

func (p *seeing) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	p.mu.Lock()
	p.seen = append(p.seen, append([]provider.Message(nil), req.Messages...))
	p.mu.Unlock()
	return p.Provider.Stream(ctx, req)
}

func (p *seeing) requests() [][]provider.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

// watching calls at as each request is made, before the model answers.
type watching struct {
	provider.Provider
	at func()
}

func (p *watching) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	p.at()
	return p.Provider.Stream(ctx, req)
}

func scripted(text string) *seeing {
	sc, err := replay.Parse([]byte(text))
	Expect(err).NotTo(HaveOccurred())
	return &seeing{Provider: replay.New(sc, replay.Options{})}
}

var _ = Describe("a session kept in the transcript store", func() {
	var dir string
	var store *transcript.Store
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		store = &transcript.Store{Root: filepath.Join(GinkgoT().TempDir(), "projects")}
	})

	run := func(s *session.Session, prompt string) *agent.Outcome {
		var out *agent.Outcome
		for ev := range s.Run(context.Background(), prompt) {
			if ev.Kind == agent.EventDone {
				out = ev.Outcome
			}
		}
		return out
	}

	It("writes every message as it goes, and Continue starts from them with the same ID", func() {
		model := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"echoing"},{"type":"tool_use","id":"t1","name":"Echo","input":{"text":"one"}}]}
{"blocks":[{"type":"text","text":"echoed"}]}`)
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Tools: []runtime.Tool{echo()},
			Provider: model, Transcripts: store})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Transcript().Path()).To(Equal(store.Path(dir, s.ID())))
		Expect(run(s, "echo one").Stop).To(Equal(agent.StopEndTurn))
		first := s.Messages()
		Expect(first).To(HaveLen(4))
		Expect(s.Close()).To(Succeed())

		stored, _, err := transcript.Load(store.Path(dir, s.ID()))
		Expect(err).NotTo(HaveOccurred())
		Expect(stored).To(Equal(first))

		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"I remember"}]}`)
		again, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Tools: []runtime.Tool{echo()},
			Provider: next, Transcripts: store, Continue: true})
		Expect(err).NotTo(HaveOccurred())
		defer again.Close()
		Expect(again.ID()).To(Equal(s.ID()))
		Expect(again.Messages()).To(Equal(first))
		Expect(run(again, "what did you echo?").Stop).To(Equal(agent.StopEndTurn))
		reqs := next.requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0][:4]).To(Equal(first), "the resumed request carries the old conversation")
		Expect(reqs[0]).To(HaveLen(5))
		Expect(again.Close()).To(Succeed())
		stored, _, _ = transcript.Load(store.Path(dir, s.ID()))
		Expect(stored).To(HaveLen(6))
	})

	It("writes nothing of a new session before its first model request, and the prompt and the turn's checkpoint once it is out", func() {
		history := filepath.Join(GinkgoT().TempDir(), "file-history")
		var atRequest []bool
		var s *session.Session
		model := &watching{Provider: scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hi"}]}`), at: func() {
			_, errT := os.Stat(s.Transcript().Path())
			_, errC := os.Stat(filepath.Join(history, s.ID()))
			atRequest = []bool{errors.Is(errT, os.ErrNotExist), errors.Is(errC, os.ErrNotExist)}
		}}
		var err error
		s, err = session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store, FileHistory: history})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		var textSeen bool
		for ev := range s.Run(context.Background(), "hello") {
			if ev.Kind == agent.EventText && !textSeen {
				textSeen = true
				// The answer streams: the prompt's line is on disk.
				msgs, _, err := transcript.Load(s.Transcript().Path())
				Expect(err).NotTo(HaveOccurred())
				Expect(msgs).To(HaveLen(1))
			}
		}
		Expect(textSeen).To(BeTrue())
		Expect(atRequest).To(Equal([]bool{true, true}), "no transcript file, no checkpoint directory, when the request is sent")
		turns, err := s.FileCheckpoints()
		Expect(err).NotTo(HaveOccurred())
		Expect(turns).To(HaveLen(1))
		Expect(filepath.Join(history, s.ID(), "turns", "000001.json")).To(BeARegularFile())
	})

	It("writes the prompt's line and the turn's checkpoint while an answer is slow to begin, so a kill then loses nothing", func() {
		history := filepath.Join(GinkgoT().TempDir(), "file-history")
		var s *session.Session
		var onDisk, checkpointed bool
		model := &watching{Provider: scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hi"}]}`), at: func() {
			// The first token is late: wait for the writes while the
			// request is out and nothing of its answer has come.
			deadline := time.Now().Add(5 * time.Second)
			for time.Now().Before(deadline) && !(onDisk && checkpointed) {
				msgs, _, err := transcript.Load(s.Transcript().Path())
				onDisk = err == nil && len(msgs) == 1
				_, err = os.Stat(filepath.Join(history, s.ID(), "turns", "000001.json"))
				checkpointed = err == nil
				time.Sleep(5 * time.Millisecond)
			}
		}}
		var err error
		s, err = session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store, FileHistory: history})
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(s.Close)
		run(s, "hello")
		Expect(onDisk).To(BeTrue(), "the prompt's line is written before the answer begins")
		Expect(checkpointed).To(BeTrue(), "the turn's checkpoint is written before the answer begins")
		msgs, _, err := transcript.Load(s.Transcript().Path())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(2))
	})

	It("forks into a new ID, and fails clearly on a session that is not there", func() {
		model := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hi"}]}`)
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store})
		Expect(err).NotTo(HaveOccurred())
		run(s, "hello")
		Expect(s.Close()).To(Succeed())

		fork, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store,
			Resume: s.ID(), ForkSession: true})
		Expect(err).NotTo(HaveOccurred())
		Expect(fork.ID()).NotTo(Equal(s.ID()))
		Expect(fork.Messages()).To(HaveLen(2))
		Expect(fork.Close()).To(Succeed())

		_, err = session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Transcripts: store, Resume: session.NewID()})
		Expect(errors.Is(err, transcript.ErrNotFound)).To(BeTrue())
		_, err = session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Continue: true})
		Expect(err).To(MatchError(ContainSubstring("needs Options.Transcripts")))
		_, err = session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Transcripts: store, ID: s.ID()})
		Expect(errors.Is(err, transcript.ErrExists)).To(BeTrue())
	})

	It("switches a running session to a stored one (ResumeStored), as Resume would, and refuses what it cannot resume", func() {
		model := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hi"}]}`)
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store})
		Expect(err).NotTo(HaveOccurred())
		run(s, "hello")
		first := s.Messages()
		Expect(s.Close()).To(Succeed())

		next := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"again"}]}`)
		// A UserPromptSubmit hook records the session it is told of.
		seen := filepath.Join(GinkgoT().TempDir(), "hook.json")
		prompted := hooks.Config{hooks.UserPromptSubmit: {{Hooks: []hooks.Hook{{Type: "command", Command: "cat > " + seen}}}}}
		other, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: next, Transcripts: store, Hooks: prompted})
		Expect(err).NotTo(HaveOccurred())
		defer other.Close()
		_, err = other.ResumeStored(session.NewID())
		Expect(errors.Is(err, transcript.ErrNotFound)).To(BeTrue())
		_, err = other.ResumeStored(other.ID())
		Expect(err).To(MatchError(ContainSubstring("is the one running")))
		msgs, err := other.ResumeStored(s.ID())
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(Equal(first))
		Expect(other.ID()).To(Equal(s.ID()))
		Expect(other.Messages()).To(Equal(first))
		run(other, "and now?")
		var input map[string]any
		raw, err := os.ReadFile(seen)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(raw, &input)).To(Succeed())
		Expect(input).To(HaveKeyWithValue("session_id", s.ID()), "the hooks are told of the resumed session")
		Expect(input).To(HaveKeyWithValue("transcript_path", store.Path(dir, s.ID())))
		reqs := next.requests()
		Expect(reqs).To(HaveLen(1))
		Expect(reqs[0][:2]).To(Equal(first), "the next request carries the resumed conversation")
		Expect(other.Close()).To(Succeed())
		stored, _, _ := transcript.Load(store.Path(dir, s.ID()))
		Expect(stored).To(HaveLen(4), "the resumed transcript goes on")

		bare, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: next})
		Expect(err).NotTo(HaveOccurred())
		defer bare.Close()
		_, err = bare.ResumeStored(s.ID())
		Expect(err).To(MatchError(ContainSubstring("needs Options.Transcripts")))
	})

	It("keeps no transcript for a sub-agent", func() {
		model := scripted(`{"prompt":"x"}
{"blocks":[{"type":"text","text":"hi"}]}`)
		s, err := session.Open(context.Background(), session.Options{Dir: dir, Home: dir, Provider: model, Transcripts: store})
		Expect(err).NotTo(HaveOccurred())
		defer s.Close()
		sub, err := s.Subagent(nil, agent.SubagentOptions{})
		Expect(err).NotTo(HaveOccurred())
		defer sub.Close()
		Expect(sub.Transcript()).To(BeNil())
	})
})
