package provider_test

import (
	"context"
	"errors"
	"iter"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
	"github.com/agentcore/agentcore/runtime/provider"
)

// scripted answers every request with its text deltas, and records it.
type scripted struct {
	deltas []string
	err    error
	got    []provider.Request
}

func (s *scripted) Name() string  { return "scripted" }
func (s *scripted) Streams() bool { return true }
func (s *scripted) Stream(_ context.Context, req provider.Request) iter.Seq2[provider.Event, error] {
	s.got = append(s.got, req)
	return func(yield func(provider.Event, error) bool) {
		if s.err != nil {
			yield(provider.Event{}, s.err)
			return
		}
		for _, d := range s.deltas {
			if !yield(provider.Event{Type: provider.EventText, Text: d}, nil) {
				return
			}
		}
	}
}

var _ runtime.Summarizer = provider.Summarizer{}

var _ = Describe("Summarizer", func() {
	It("sends the content and the prompt in one tool-less request and joins the answer", func() {
		m := &scripted{deltas: []string{"Run ", "make."}}
		got, err := provider.Summarizer{Model: m}.Summarize(context.Background(), "How to build?", "# Build\nRun make.")
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal("Run make."))
		Expect(m.got).To(HaveLen(1))
		Expect(m.got[0].Tools).To(BeEmpty())
		Expect(m.got[0].MaxTokens).To(Equal(2048))
		text := m.got[0].Messages[0].Content[0].Text
		Expect(text).To(ContainSubstring("# Build\nRun make."))
		Expect(text).To(HaveSuffix("How to build?"))
	})

	It("reports the model's failure, and an empty answer", func() {
		_, err := provider.Summarizer{Model: &scripted{err: errors.New("overloaded")}}.Summarize(context.Background(), "q", "c")
		Expect(err).To(MatchError("overloaded"))
		_, err = provider.Summarizer{Model: &scripted{}}.Summarize(context.Background(), "q", "c")
		Expect(err).To(MatchError(ContainSubstring("no answer")))
	})
})
