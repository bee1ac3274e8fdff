package transcript_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentcore/agentcore/runtime/transcript"
)

var _ = DescribeTable("ValidID takes a UUID and nothing else (a session id names a file)",
	func(id string, want bool) {
		Expect(transcript.ValidID(id)).To(Equal(want))
	},
	Entry("lower case", "0b9e4c7a-1f2d-4e3b-9a8c-7d6e5f4a3b2c", true),
	Entry("upper case", "0B9E4C7A-1F2D-4E3B-9A8C-7D6E5F4A3B2C", true),
	Entry("empty", "", false),
	Entry("no dashes", "0b9e4c7a1f2d4e3b9a8c7d6e5f4a3b2c", false),
	Entry("a dash out of place", "0b9e4c7a1-f2d-4e3b-9a8c-7d6e5f4a3b2c", false),
	Entry("a letter past f", "0b9e4c7a-1f2d-4e3b-9a8c-7d6e5f4a3b2g", false),
	Entry("a path", "../../../../etc/passwd-0000-0000-000000", false),
	Entry("one digit too many", "0b9e4c7a-1f2d-4e3b-9a8c-7d6e5f4a3b2c0", false),
	Entry("a trailing newline", "0b9e4c7a-1f2d-4e3b-9a8c-7d6e5f4a3b2\n", false),
)
