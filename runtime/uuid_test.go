package runtime_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime"
)

var _ = Describe("NewUUID", func() {
	It("returns version 4 UUIDs of the RFC 4122 variant, none twice in 10,000", func() {
		const form = `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`
		seen := map[string]bool{}
		for range 10_000 {
			id := runtime.NewUUID()
			Expect(id).To(MatchRegexp(form))
			Expect(seen).NotTo(HaveKey(id))
			seen[id] = true
		}
	})
})
