package provider_test

import (
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
)

var _ = Describe("timeouts and retry-after", func() {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

	It("reads Claude Code's variables, in milliseconds", func() {
		t, err := provider.ResolveTimeouts(env(map[string]string{"CLAUDE_STREAM_IDLE_TIMEOUT_MS": "90000", "API_TIMEOUT_MS": "1500"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(Equal(provider.Timeouts{Idle: 90 * time.Second, Request: 1500 * time.Millisecond}))
	})

	It("leaves the defaults when they are unset", func() {
		t, err := provider.ResolveTimeouts(env(nil))
		Expect(err).NotTo(HaveOccurred())
		Expect(t).To(Equal(provider.Timeouts{}))
	})

	It("refuses a value that is not a positive number, saying what it wants", func() {
		_, err := provider.ResolveTimeouts(env(map[string]string{"API_TIMEOUT_MS": "10s"}))
		Expect(err).To(MatchError(`API_TIMEOUT_MS="10s": want a positive number of milliseconds, e.g. API_TIMEOUT_MS=300000`))
	})

	DescribeTable("the wait a response asks for",
		func(h map[string]string, want time.Duration) {
			header := http.Header{}
			for k, v := range h {
				header.Set(k, v)
			}
			Expect(provider.RetryAfter(header)).To(Equal(want))
		},
		Entry("none", map[string]string{}, time.Duration(0)),
		Entry("seconds", map[string]string{"retry-after": "7"}, 7*time.Second),
		Entry("milliseconds win", map[string]string{"retry-after-ms": "250", "retry-after": "7"}, 250*time.Millisecond),
		Entry("an HTTP date in the past", map[string]string{"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, time.Duration(0)),
		Entry("garbage", map[string]string{"retry-after": "soon"}, time.Duration(0)),
	)

	It("quotes at most n runes of a line, marking the cut", func() {
		Expect(provider.Quote([]byte("garbage\n"), 80)).To(Equal(`"garbage"`))
		Expect(provider.Quote([]byte("ééééé"), 3)).To(Equal(`"ééé"…`))
		Expect(provider.Quote(nil, 3)).To(Equal(""))
	})
})
