package runtime_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

// info is a session's SessionInfo as a program without a session could
// provide it.
type info struct{ id string }

func (i info) ID() string       { return i.id }
func (i info) Home() string     { return "/home/u" }
func (i info) Dir() string      { return "/work" }
func (i info) IsSubagent() bool { return false }

var _ = Describe("Need", func() {
	It("returns the capability registered on the context, and its clones", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		runtime.WithService[runtime.SessionInfo](tc, info{id: "s1"})
		got, err := runtime.Need[runtime.SessionInfo](tc.Clone(), "the spec")
		Expect(err).NotTo(HaveOccurred())
		Expect(got.ID()).To(Equal("s1"))
	})

	It("says who needed what when no session provides it, wrapping the one ErrNoSession", func() {
		tc := runtime.NewToolContext(GinkgoT().TempDir())
		runtime.WithService[runtime.SessionInfo](tc, info{id: "s1"}) // not the one asked for
		_, err := runtime.Need[runtime.Conversation](tc, "Skill")
		Expect(err).To(MatchError(runtime.ErrNoSession))
		Expect(err.Error()).To(HavePrefix("Skill needs a session: the tool context has no session providing runtime.Conversation;"))

		_, err = runtime.Need[runtime.SessionInfo](nil, "Agent")
		Expect(err).To(MatchError(ContainSubstring("Agent needs a session")))
	})
})
