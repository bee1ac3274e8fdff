package provider_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/provider"
)

var _ = Describe("the price table", func() {
	DescribeTable("prices a run by the model's name",
		func(model string, want float64) {
			u := provider.Usage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheCreationInputTokens: 10_000, CacheReadInputTokens: 200_000}
			Expect(provider.Cost(model, u)).To(BeNumerically("~", want, 1e-9))
		},
		// in + out/10 + cache write/100 + cache read/5, in dollars per million
		Entry("Sonnet 4.5", "claude-sonnet-4-5-20250929", 3+1.5+0.0375+0.06),
		Entry("with the provider prefix", "anthropic:claude-sonnet-4-5", 3+1.5+0.0375+0.06),
		Entry("on Bedrock", "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0", 3+1.5+0.0375+0.06),
		Entry("Opus 4.1, the longer prefix winning over none", "claude-opus-4-1-20250805", 15+7.5+0.1875+0.3),
		Entry("Opus 4.8 with a context-window suffix", "claude-opus-4-8[1m]", 5+2.5+0.0625+0.1),
		Entry("Haiku 4.5", "claude-haiku-4-5", 1+0.5+0.0125+0.02),
		Entry("a model the table does not know", "replay", 0.0),
	)
})
