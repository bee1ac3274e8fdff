package main

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/agent"
)

var _ = Describe("the retry policy from the environment", func() {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	DescribeTable("reads the variables, unset ones keeping Claude Code's defaults",
		func(getenv func(string) string, want agent.RetryPolicy) {
			got, err := retryPolicy(getenv)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("none", env(), agent.RetryPolicy{}),
		Entry("agentcore's count", env("AGENTCORE_MAX_RETRIES", "3", "CLAUDE_CODE_MAX_RETRIES", "7"), agent.RetryPolicy{MaxRetries: 3}),
		Entry("Claude Code's count", env("CLAUDE_CODE_MAX_RETRIES", "7"), agent.RetryPolicy{MaxRetries: 7}),
		Entry("0 turns retries off", env("AGENTCORE_MAX_RETRIES", "0"), agent.RetryPolicy{MaxRetries: -1}),
		Entry("delays", env("AGENTCORE_RETRY_BASE_DELAY_MS", "10", "AGENTCORE_RETRY_MAX_DELAY_MS", "200", "AGENTCORE_RETRY_MAX_WAIT_MS", "60000"),
			agent.RetryPolicy{BaseDelay: 10 * time.Millisecond, MaxDelay: 200 * time.Millisecond, MaxTotal: time.Minute}),
		Entry("no cap on the total", env("AGENTCORE_RETRY_MAX_WAIT_MS", "0"), agent.RetryPolicy{MaxTotal: -1}),
	)
	DescribeTable("names the variable of a bad value",
		func(getenv func(string) string, want string) {
			_, err := retryPolicy(getenv)
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a word", env("AGENTCORE_MAX_RETRIES", "many"), `AGENTCORE_MAX_RETRIES="many": want a whole number of retries ≥ 0`),
		Entry("negative", env("CLAUDE_CODE_MAX_RETRIES", "-1"), `CLAUDE_CODE_MAX_RETRIES="-1"`),
		Entry("a zero base", env("AGENTCORE_RETRY_BASE_DELAY_MS", "0"), `AGENTCORE_RETRY_BASE_DELAY_MS="0": want a whole number of milliseconds ≥ 1`),
		Entry("seconds", env("AGENTCORE_RETRY_MAX_WAIT_MS", "5s"), `AGENTCORE_RETRY_MAX_WAIT_MS="5s"`),
	)
})
